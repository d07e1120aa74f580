/**
 * A real browser for the dashboard tests: Debian's chromium (installed by scripts/setup; nothing is
 * downloaded) driven by playwright-core, headless, with a fresh profile folder deleted on close.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';

/** Where browser tests save screenshots. */
export const TEST_OUTPUT = join(PROJECT_ROOT, 'test-output', 'dashboard');

/** The flags every test browser gets. */
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** A launched browser; `close` also deletes its profile. */
export interface TestBrowser {
  readonly context: BrowserContext;
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/** Launch chromium (/usr/bin/chromium) with a fresh --user-data-dir. */
export async function launchBrowser(): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'crucible-chromium-'));
  mkdirSync(TEST_OUTPUT, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_FLAGS, viewport: { width: 1280, height: 900 },
  });
  return {
    context,
    async newPage(): Promise<Page> {
      const page = await context.newPage();
      page.on('pageerror', (error) => process.stderr.write(`browser page error: ${error.message}\n`));
      return page;
    },
    async close(): Promise<void> {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Navigation timing of the page's last load, ms from navigation start. */
export async function navigationTiming(page: Page): Promise<{ responseEnd: number; domContentLoaded: number; load: number }> {
  return page.evaluate(() => {
    const n = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    return { responseEnd: n.responseEnd, domContentLoaded: n.domContentLoadedEventEnd, load: n.loadEventEnd };
  });
}

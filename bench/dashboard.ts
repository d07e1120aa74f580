/**
 * bench:dashboard — page load times of the dashboard in chromium (playwright-core, /usr/bin/chromium), against
 * a store: the runs list and the page of its largest run (or `--run ID`), each loaded `--reps` times (the first
 * load of each is cold: scripts not yet cached). Prints per page the median, min and max of the time to the
 * response's end, DOMContentLoaded, the load event, and (run page) the charts drawn, all in ms from navigation
 * start. With no `--store`, the store is filled first by `crucible eval` on the 16,400 CodeGen-16B HumanEval
 * completions (minutes).
 * Usage: npm run bench:dashboard [-- --store FILE|URL --run ID --reps 10]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDashboard } from '../src/dashboard/server.js';
import { PROJECT_ROOT } from '../src/sandbox/paths.js';
import { openResultStore } from '../src/store/open.js';
import { launchBrowser, navigationTiming } from '../test/support/browser.js';
import { CODET_PROBLEMS, CODET_SOLUTIONS } from '../test/support/data.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const reps = Number(arg('--reps') ?? 10);
let spec = arg('--store');
let scratch: string | undefined;
if (spec === undefined) {
  scratch = mkdtempSync(join(tmpdir(), 'crucible-bench-dashboard-'));
  spec = join(scratch, 'crucible.db');
  console.log('filling a store: crucible eval on the 16,400 CodeGen-16B HumanEval completions');
  execFileSync(join(PROJECT_ROOT, 'bin', 'crucible'), ['eval', '--problems', CODET_PROBLEMS, '--samples', CODET_SOLUTIONS, '--format', 'codet',
    '--out', join(scratch, 'codegen16b'), '--store', spec, '--no-progress', '--json'], { stdio: ['ignore', 'ignore', 'inherit'] });
}
const store = await openResultStore(spec);
const runs = await store.listRuns();
const runId = Number(arg('--run') ?? [...runs].sort((a, b) => b.doneSamples - a.doneSamples)[0]?.id);
const run = await store.getRun(runId);
if (run === undefined) throw new Error(`no run ${runId} in ${store.location}`);
const dashboard = await startDashboard({ store });
const browser = await launchBrowser();

function stats(values: readonly number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `median ${median.toFixed(0)}, min ${sorted[0]!.toFixed(0)}, max ${sorted[sorted.length - 1]!.toFixed(0)}`;
}

try {
  for (const [name, path, charts] of [['runs list', '', false], [`run ${run.id} (${run.doneSamples} samples)`, `runs/${run.id}`, true]] as const) {
    const page = await browser.newPage();
    const rows: Record<string, number[]> = { response: [], domContentLoaded: [], load: [], charts: [] };
    for (let i = 0; i < reps; i++) {
      await page.goto(dashboard.url + path);
      if (charts) await page.waitForSelector('body[data-charts-ready]', { timeout: 60_000 });
      const t = await navigationTiming(page);
      rows['response']!.push(t.responseEnd);
      rows['domContentLoaded']!.push(t.domContentLoaded);
      rows['load']!.push(t.load);
      if (charts) rows['charts']!.push(await page.evaluate(() => (window as unknown as { crucibleTimings: { chartsReadyMs: number } }).crucibleTimings.chartsReadyMs));
    }
    await page.close();
    console.log(`${name} (${runs.length} runs in the store), ${reps} loads, ms from navigation start:`);
    for (const [k, v] of Object.entries(rows)) if (v.length > 0) console.log(`  ${k.padEnd(17)} ${stats(v)}`);
  }
} finally {
  await browser.close();
  await dashboard.close();
  await store.close();
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
}

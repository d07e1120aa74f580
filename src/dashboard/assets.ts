/**
 * Static files of the dashboard, read once into memory: vega, vega-lite and vega-embed from node_modules (their
 * browser builds; no CDN: the pages work offline), the browser script compiled from `browser/dashboard.ts`, and
 * the style sheet.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One static file. */
export interface Asset {
  readonly body: Buffer;
  readonly type: string;
}

const here = dirname(fileURLToPath(import.meta.url));

/** `node_modules/<pkg>/<file>` of the nearest node_modules above this module. @throws Error when absent. */
function packageFile(pkg: string, file: string): string {
  for (let dir = here; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', pkg, file);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error(`dashboard: ${pkg}/${file} not found in any node_modules above ${here}: run npm ci`);
  }
}

/** Source folder of the style sheet (kept in src/, beside this module's source). */
function sourceFile(name: string): string {
  const fromDist = join(here, '..', '..', '..', 'src', 'dashboard', name);
  return existsSync(fromDist) ? fromDist : join(here, name);
}

let cache: Map<string, Asset> | null = null;

/** The assets by file name. @throws Error when a file is missing (not built, or node_modules incomplete). */
export function assets(): ReadonlyMap<string, Asset> {
  if (cache !== null) return cache;
  const js = 'text/javascript; charset=utf-8';
  cache = new Map<string, Asset>([
    ['vega.min.js', { body: readFileSync(packageFile('vega', 'build/vega.min.js')), type: js }],
    ['vega-lite.min.js', { body: readFileSync(packageFile('vega-lite', 'build/vega-lite.min.js')), type: js }],
    ['vega-embed.min.js', { body: readFileSync(packageFile('vega-embed', 'build/vega-embed.min.js')), type: js }],
    ['dashboard.js', { body: readFileSync(join(here, 'browser', 'dashboard.js')), type: js }],
    ['dashboard.css', { body: readFileSync(sourceFile('dashboard.css')), type: 'text/css; charset=utf-8' }],
  ]);
  return cache;
}

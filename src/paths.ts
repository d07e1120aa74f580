/**
 * Where Crucible's own files are, in one place: the project root (found from this module's location, so it
 * works from `dist/` too), the language files, the built-in benchmark, and the per-user cache.
 *
 * The root and the sandbox's own paths (native launchers, harness directory) are resolved in
 * `src/sandbox/paths.ts`, which the sandbox needs without importing anything above it; they are re-exported
 * here so nothing else reaches into the sandbox for a path.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { HARNESS_DIR, PROJECT_ROOT } from './sandbox/paths.js';

export { HARNESS_DIR, PROJECT_ROOT };

/** Directory of the language files (`languages/<id>.yaml`). */
export const LANGUAGES_DIR = join(PROJECT_ROOT, 'languages');

/** The built-in default benchmark `crucible eval` judges when no --problems/--samples are given. */
export const DEFAULT_BENCHMARK = {
  problems: join(PROJECT_ROOT, 'benchmarks', 'default', 'problems.json'),
  samples: join(PROJECT_ROOT, 'benchmarks', 'default', 'samples.jsonl'),
} as const;

/** Environment variable that overrides the cache directory. */
export const CACHE_DIR_ENV = 'CRUCIBLE_CACHE_DIR';

/**
 * The per-user cache directory (ground truth of call problems, see `src/engine/ground-truth.ts`):
 * `$CRUCIBLE_CACHE_DIR`, else `$XDG_CACHE_HOME/crucible` (XDG Base Directory spec), else `~/.cache/crucible`.
 * An empty variable counts as unset, as the XDG spec says. The directory is not created here.
 */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const own = env[CACHE_DIR_ENV];
  if (own !== undefined && own !== '') return resolve(own);
  const xdg = env.XDG_CACHE_HOME;
  if (xdg !== undefined && xdg !== '' && xdg.startsWith('/')) return join(xdg, 'crucible');
  return join(homedir(), '.cache', 'crucible');
}

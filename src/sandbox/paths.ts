/** Where the project's own files are, resolved from this module's location (works from `dist/` too). */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'languages'))) return dir;
    dir = resolve(dir, '..');
  }
  throw new Error('crucible: cannot find the project root (package.json + languages/) above ' + import.meta.url);
}

/** Absolute path of the repository root. */
export const PROJECT_ROOT = findRoot();
/** Directory of the native sandbox programs built by `scripts/build-native.mjs`. */
export const NATIVE_DIR = join(PROJECT_ROOT, 'build', 'native');
/** The privileged launcher (runs outside the box). */
export const CRUCIBLE_BOX = join(NATIVE_DIR, 'crucible-box');
/** The privileged supervisor of a slot's long-lived box (runs outside the box). */
export const CRUCIBLE_SLOT = join(NATIVE_DIR, 'crucible-slot');
/** Directory of trusted in-box harness scripts, mounted read-only at `/crucible/harness`. */
export const HARNESS_DIR = join(PROJECT_ROOT, 'harness');

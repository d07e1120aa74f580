/**
 * Which files a candidate patch may not touch (`invalid_patch`, decided before anything runs): whatever judges
 * the patch or decides what runs. The rules, each with the exploit it closes:
 * - the instance's test files (`testFiles`) and every file `testPatch` touches: editing, skipping (`.skip`,
 *   `.only`) or emptying the tests that judge the patch (they are also reset from `testPatch` before the run);
 * - snapshots (`__snapshots__/`, `*.snap`): rewriting the expected values;
 * - test configuration (jest, vitest, vite with vitest, mocha, ava, tap, c8/nyc, karma configs; babel configs, which
 *   transform the tests as they load; `.npmrc`/`.yarnrc`, which change what `npx` runs; `.gitattributes`, which
 *   changes how the test patch applies): running other tests, or the tests differently;
 * - lockfiles (`package-lock.json`, `npm-shrinkwrap.json`, `yarn.lock`, `pnpm-lock.yaml`, `bun.lock(b)`): the
 *   installed dependencies are the prepared environment's, whatever the patch says;
 * - `node_modules/` and `.git/` anywhere: the prepared dependencies and the base commit's history;
 * - symbolic links and submodules (modes `120000`, `160000`): a link is a way to make one path another;
 * - `package.json`'s `scripts` and test-runner keys (`jest`, `mocha`, `ava`, `vitest`, `babel`, `c8`, `nyc`):
 *   checked in the box once the patch is applied (the whole file is needed), see `driver.ts`;
 * - the instance's own `protectedFiles` globs.
 * A patch may still add new test files of its own (they do not run: the test command names the instance's).
 */
import type { LogParser } from '../../formats/types.js';
import type { ParsedDiff } from './diff.js';

/** Lockfiles of the npm ecosystem's package managers. */
export const LOCKFILES: readonly string[] = ['package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lockb', 'bun.lock'];

/** Keys of package.json a patch may not change (checked in the box after the patch is applied). */
export const PROTECTED_PACKAGE_KEYS: readonly string[] = ['scripts', 'jest', 'mocha', 'ava', 'vitest', 'babel', 'c8', 'nyc', 'tap'];

/** Base names of test configuration every runner shares, and those of one runner (as regular expressions). */
const CONFIG_NAMES: readonly RegExp[] = [
  /^jest\.config\.[cm]?[jt]s(on)?$/, /^jest\.setup\.[cm]?[jt]s$/, /^\.mocharc(\.[a-z]+)?$/, /^babel\.config\.[cm]?[jt]s(on)?$/,
  /^\.babelrc(\.[cm]?js(on)?)?$/, /^ava\.config\.[cm]?js$/, /^\.taprc(\.[a-z]+)?$/, /^\.c8rc(\.[a-z]+)?$/, /^\.nycrc(\.[a-z]+)?$/,
  /^karma\.conf\.[cm]?[jt]s$/, /^vitest\.(config|workspace)\.[cm]?[jt]s$/, /^\.npmrc$/, /^\.yarnrc(\.yml)?$/, /^\.gitattributes$/,
];
const VITE_CONFIG = /^vite\.config\.[cm]?[jt]s$/;

/**
 * A glob (`*` any run within a path component, `**` any run of components, `?` one character) as a regular
 * expression over repository-relative paths; a glob without `/` matches a base name anywhere.
 */
export function globPattern(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      out += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(glob.includes('/') ? `^${out}$` : `(?:^|/)${out}$`);
}

/** What the policy needs of an instance. */
export interface ProtectedSet {
  /** The instance's test files and the files its test patch touches. */
  readonly testFiles: ReadonlySet<string>;
  readonly logParser: LogParser;
  readonly globs: readonly string[];
}

/** Why `path` is protected, or null when a patch may touch it. */
export function protectedReason(path: string, set: ProtectedSet): string | null {
  const parts = path.split('/');
  const base = parts[parts.length - 1]!;
  if (parts.includes('.git')) return `${path} is in .git/ (the base commit's repository)`;
  if (parts.includes('node_modules')) return `${path} is in node_modules/ (the prepared dependencies)`;
  if (set.testFiles.has(path)) return `${path} is one of the instance's test files`;
  if (parts.includes('__snapshots__') || base.endsWith('.snap')) return `${path} is a test snapshot`;
  if (LOCKFILES.includes(base)) return `${path} is a lockfile`;
  if (CONFIG_NAMES.some((re) => re.test(base)) || (set.logParser === 'vitest-json' && VITE_CONFIG.test(base))) {
    return `${path} is test configuration`;
  }
  for (const glob of set.globs) if (globPattern(glob).test(path)) return `${path} matches the instance's protected files (${glob})`;
  return null;
}

/** The policy's answer: allowed (and whether package.json's protected keys must be checked once applied), or why not. */
export type PolicyVerdict =
  | { readonly ok: true; readonly touchesPackageJson: readonly string[] }
  | { readonly ok: false; readonly reason: string };

/** Check a parsed candidate patch against the protected files (see the module comment). */
export function checkPatch(diff: ParsedDiff, set: ProtectedSet): PolicyVerdict {
  const packageJsons: string[] = [];
  for (const f of diff.files) {
    for (const mode of [f.oldMode, f.newMode]) {
      if (mode === '120000') return { ok: false, reason: `${f.newPath ?? f.oldPath} is a symbolic link: a patch may not make or change links` };
      if (mode === '160000') return { ok: false, reason: `${f.newPath ?? f.oldPath} is a submodule: a patch may not make or change submodules` };
    }
    for (const path of [f.oldPath, f.newPath]) {
      if (path === null) continue;
      const reason = protectedReason(path, set);
      if (reason !== null) return { ok: false, reason };
      if ((path === 'package.json' || path.endsWith('/package.json')) && !packageJsons.includes(path)) packageJsons.push(path);
    }
  }
  return { ok: true, touchesPackageJson: packageJsons };
}

/**
 * A repository's tree layer: the base commit's files and a fresh one-commit git repository of them (for `git apply
 * --3way`, resets and an agent's `git diff`), made on the host from the source with git's plumbing. The source's
 * history is never copied: the layer's `.git` holds one commit, by "crucible" at the epoch, of exactly the base
 * tree, so `git log --all` in a box shows nothing of the repository's past or future (no gold commit).
 *
 * Sources (`RepositorySource`): a git directory (bare, or a work tree's `.git`), a git bundle (unbundled once into
 * a bare repository under `bundleDir`), or a directory holding the tree (copied without its `.git` and
 * `node_modules`).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import type { RepositorySource } from '../../formats/types.js';
import { EnvironmentError } from '../../judge/environment.js';
import { WARM_DIR } from '../../kinds/repository/environment-spec.js';
import { git } from './git.js';

/** The git directory of a `git` source: `<path>/.git` when the path is a work tree, else the path (bare). */
function gitDirOf(path: string): string {
  return existsSync(join(path, '.git')) ? join(path, '.git') : path;
}

/** A bare repository holding a bundle's refs, made once under `bundleDir`. @throws EnvironmentError */
async function unbundled(bundle: string, bundleDir: string, signal?: AbortSignal): Promise<string> {
  let stat;
  try {
    stat = statSync(bundle);
  } catch (error) {
    throw new EnvironmentError(`git bundle ${bundle}: ${(error as Error).message}`);
  }
  const key = createHash('sha256').update(`${bundle}\0${stat.size}\0${stat.mtimeMs}`).digest('hex').slice(0, 24);
  const dir = join(bundleDir, `${key}.git`);
  if (existsSync(join(dir, 'crucible-complete'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  await git(['init', '-q', '--bare', dir], signal === undefined ? {} : { signal });
  await git(['--git-dir', dir, 'fetch', '-q', bundle, '+refs/*:refs/*'], signal === undefined ? {} : { signal });
  writeFileSync(join(dir, 'crucible-complete'), '');
  return dir;
}

/** Copy a directory source's tree (no `.git`, no `node_modules`) to `dest`. @throws EnvironmentError */
function copyDirectory(source: string, dest: string, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    // tar keeps modes and links as they are, never follows a link out of the tree, and skips what we exclude.
    const script = 'set -o pipefail; tar -C "$1" --exclude=./.git --exclude=./node_modules -cf - . | tar -C "$2" --no-same-owner -xf -';
    execFile('/bin/bash', ['-c', script, 'copy', source, dest], { env: { PATH: '/usr/bin:/bin' }, ...(signal === undefined ? {} : { signal }) },
      (error, _stdout, stderr) => (error === null ? resolve()
        : reject(new EnvironmentError(`copying ${source}: ${String(stderr).trim().slice(0, 500) || error.message}`))));
  });
}

/**
 * Check out `commit` of `source` into `dest` (an empty directory) and make its one-commit repository.
 * @throws EnvironmentError when the source cannot be read or lacks the commit; the signal's reason when aborted.
 */
export async function checkoutTree(source: RepositorySource, commit: string, dest: string, bundleDir: string,
  signal?: AbortSignal): Promise<void> {
  const opts = signal === undefined ? {} : { signal };
  if (source.kind === 'dir') {
    await copyDirectory(source.path, dest, signal);
  } else {
    const gitDir = source.kind === 'bundle' ? await unbundled(source.path, bundleDir, signal) : gitDirOf(source.path);
    try {
      await git(['--git-dir', gitDir, 'cat-file', '-e', `${commit}^{commit}`], opts);
    } catch {
      throw new EnvironmentError(`${source.kind} source ${source.path} has no commit ${commit}`);
    }
    const index = `${dest}.index`;
    try {
      const env = { GIT_INDEX_FILE: index };
      await git(['--git-dir', gitDir, '--work-tree', dest, 'read-tree', commit], { ...opts, env });
      await git(['--git-dir', gitDir, '--work-tree', dest, 'checkout-index', '-a', '-f', '-q'], { ...opts, env });
    } finally {
      rmSync(index, { force: true });
    }
  }
  await git(['init', '-q', dest], opts);
  writeFileSync(join(dest, '.git', 'info', 'exclude'), `node_modules/\n/${WARM_DIR}/\n`);
  await git(['-C', dest, 'add', '-A', '-f'], opts);
  await git(['-C', dest, 'commit', '-q', '--no-verify', '--allow-empty', '-m', 'base'], opts);
}

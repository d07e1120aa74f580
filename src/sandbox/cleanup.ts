/**
 * Removal of host directories the sandbox made (work directories, kept artifact directories, a dead instance's
 * leftovers). Programs never write to the host any more (their writable space is a tmpfs that dies with the
 * run, see src/sandbox/native/workspace.h), so these trees hold only what Crucible wrote and a kept run's
 * sanitised copy-out; removal still must never throw into a caller's `finally`, whatever it finds.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';

/**
 * Remove `path` and everything under it. Never throws: returns null when the path is gone (or never existed),
 * else the reason it is still there. Falls back to GNU `rm -rf --one-file-system` (no depth limit: it walks with
 * directory descriptors, and as root ignores modes) when Node's recursive removal fails (e.g. ENAMETOOLONG on a
 * very deep tree).
 */
export function removeTree(path: string): string | null {
  let first: string;
  try {
    rmSync(path, { recursive: true, force: true, maxRetries: 2 });
    return null;
  } catch (error) {
    first = (error as Error).message;
  }
  try {
    execFileSync('rm', ['-rf', '--one-file-system', '--', path], { stdio: 'ignore', timeout: 60_000 });
  } catch {
    // reported below if the tree is still there
  }
  return existsSync(path) ? `cannot remove ${path}: ${first}` : null;
}

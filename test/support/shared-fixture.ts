/**
 * Expensive test fixtures built once per test run and shared by every file that needs them (issue #24 item 7).
 *
 * The runner (test/run.ts) names a scratch directory of the run in `CRUCIBLE_TEST_SHARED_DIR` and deletes it when
 * the run ends; `sharedFixture(name, build)` builds `name` there once, whichever file asks first, and every other
 * file (the same run, even one running beside it) waits for it and reuses it. A file run on its own, without the
 * variable, builds the fixture in a directory of its own, deleted when its process exits. Nothing here is committed.
 *
 * Building is guarded by a lock directory holding the builder's pid (mkdir is atomic): a file waiting for a fixture
 * takes the lock over when its builder died (killed by the runner's time-out) and builds again; a fixture counts as
 * built only once `build` resolved and the `built` marker was written.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The variable test/run.ts sets to the run's shared directory. */
export const SHARED_DIR_ENV = 'CRUCIBLE_TEST_SHARED_DIR';

const POLL_MS = 500;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Take the lock (true) or find it held by a live builder (false); a dead builder's lock is removed and retried. */
function tryLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), String(process.pid));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  let holder = NaN;
  try { holder = Number(readFileSync(join(lock, 'pid'), 'utf8')); } catch { /* being written: treat as alive */ }
  if (Number.isInteger(holder) && !alive(holder)) rmSync(lock, { recursive: true, force: true });
  return false;
}

/**
 * The directory of fixture `name`, built by `build(dir)` (given an empty directory) once per test run.
 * Resolves when the fixture is built (by this process or another); rejects with `build`'s error when this process
 * built it and failed (the next file to ask builds it again).
 */
export async function sharedFixture(name: string, build: (dir: string) => Promise<void>): Promise<string> {
  let root = process.env[SHARED_DIR_ENV];
  if (root === undefined) {
    root = mkdtempSync(join(tmpdir(), 'crucible-test-fixture-'));
    const own = root;
    process.env[SHARED_DIR_ENV] = own;   // later fixtures of this process (and the CLI it starts) share it
    process.on('exit', () => rmSync(own, { recursive: true, force: true }));
  }
  const dir = join(root, name);
  const built = join(dir, '.built');
  const lock = join(root, `${name}.lock`);
  for (;;) {
    if (existsSync(built)) return dir;
    if (tryLock(lock)) {
      try {
        if (existsSync(built)) return dir;
        rmSync(dir, { recursive: true, force: true });
        mkdirSync(dir, { recursive: true });
        await build(dir);
        writeFileSync(built, new Date().toISOString() + '\n');
        return dir;
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * Zombies when Crucible is pid 1 (issue #23): in a container started without an init, `crucible serve` or `crucible
 * worker` is pid 1 of its pid namespace, every orphan (bubblewrap's and the boxes' leftovers) reparents to it, and
 * Node reaps only the children it spawned itself. So a long-running command that finds itself pid 1 runs itself
 * again under `crucible-reaper` (src/sandbox/native/crucible-reaper.c: a child subreaper that reaps everything below
 * it) and only forwards signals and the exit status. `docker run --init` (tini) does the same from outside; with
 * it Crucible is not pid 1 and this does nothing.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { NATIVE_DIR } from '../sandbox/paths.js';

/** Set in the environment of the command run under the reaper, so it does not start another one. */
const REAPED_ENV = 'CRUCIBLE_REAPED';
const FORWARDED = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2'] as const;

/**
 * When this process is pid 1 (and not already under the reaper), run the same command line under
 * `crucible-reaper`, forward the usual signals to it and resolve to its exit code (128 + N for a signal N); else
 * resolve to null at once, and the caller goes on. A missing reaper binary (not built) is said on stderr and the
 * command runs as pid 1 regardless.
 */
export async function runUnderReaperIfPid1(): Promise<number | null> {
  if (process.pid !== 1 || process.env[REAPED_ENV] === '1') return null;
  const reaper = join(NATIVE_DIR, 'crucible-reaper');
  if (!existsSync(reaper)) {
    process.stderr.write(`crucible: running as pid 1 without ${reaper} (run npm run build): orphaned processes will not be reaped; use docker run --init\n`);
    return null;
  }
  const child = spawn(reaper, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit', env: { ...process.env, [REAPED_ENV]: '1' },
  });
  // As pid 1 this process gets no signal it has no handler for: each one is handed on.
  for (const signal of FORWARDED) process.on(signal, () => child.kill(signal));
  return new Promise((resolve) => {
    child.once('error', (error) => {
      process.stderr.write(`crucible: cannot start ${reaper}: ${error.message}\n`);
      resolve(2);
    });
    child.once('exit', (code, signal) => resolve(code ?? 128 + (signal === null ? 0 : constants.signals[signal])));
  });
}

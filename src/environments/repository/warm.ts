/**
 * A repository's warm layer: the instance's test command run once, at the base commit with the instance's test
 * patch applied, in a box over the tree and dependency layers, with `TMPDIR` inside the repository
 * (`WARM_TMPDIR`); what it leaves there (a test runner's transform cache: jest keeps every file it compiled under
 * `$TMPDIR/jest_<uid>`) is kept as a third layer, so each judgement starts as warm as a developer's second run.
 * Nothing else the run wrote is kept; its result does not matter (the base usually fails the FAIL_TO_PASS tests).
 * The code that runs is the dataset's own base commit, never a candidate's; the box has no network.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { EnvironmentError } from '../../judge/environment.js';
import { WARM_DIR, WARM_TMPDIR } from '../../kinds/repository/environment-spec.js';
import type { Sandbox } from '../../sandbox/index.js';
import type { Limits } from '../../sandbox/types.js';

/** Limits of a warm-up run: 10 min of CPU, 20 of wall time, 4 GiB, 512 processes, 2 GiB of writable space. */
export const WARM_LIMITS: Limits = {
  cpuMs: 10 * 60_000, wallMs: 20 * 60_000, memoryKiB: 4 * 1024 * 1024, processes: 512, fileSizeKiB: 1024 * 1024,
  openFiles: 4096, outputBytes: 1 << 20, diskKiB: 2 * 1024 * 1024,
};

/** What a warm-up needs. */
export interface WarmRequest {
  readonly sandbox: Sandbox;
  /** Layers below (host paths, top first): dependencies, tree. */
  readonly layers: readonly string[];
  readonly testPatch: string;
  readonly testCommand: string;
  readonly upperDir: string;
  readonly workDir: string;
  /** Memory limit of the run (the instance's own, when it sets one), KiB; default `WARM_LIMITS.memoryKiB`. */
  readonly memoryKiB?: number;
  readonly signal?: AbortSignal;
}

function warmScript(testPatch: string, testCommand: string): string {
  const patch = Buffer.from(testPatch, 'utf8').toString('base64');
  return [
    'cd /testbed || exit 90',
    `echo ${patch} | base64 -d > /tmp/test.patch`,
    'git -c core.hooksPath=/dev/null apply /tmp/test.patch || exit 91',
    `export TMPDIR=${WARM_TMPDIR}; mkdir -p "$TMPDIR"`,
    `/bin/bash -c '${testCommand.replace(/'/g, `'\\''`)}' > /tmp/warm.log 2>&1`,
    'exit 0',
  ].join('\n');
}

function ownTree(path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('/bin/chown', ['-R', '-h', `${process.getuid?.() ?? 0}:${process.getgid?.() ?? 0}`, path], (error, _out, stderr) =>
      (error === null ? resolve() : reject(new EnvironmentError(`taking over the warm layer: ${String(stderr).trim() || error.message}`))));
  });
}

/**
 * Run the warm-up (see the module comment); on success `upperDir` holds the layer (only its `WARM_DIR`).
 * @throws EnvironmentError when the box could not run it or the test patch does not apply; the signal's reason.
 */
export async function warmUp(r: WarmRequest): Promise<void> {
  const { result } = await r.sandbox.run({
    argv: ['/bin/bash', '-c', warmScript(r.testPatch, r.testCommand)],
    env: { HOME: '/tmp', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    limits: r.memoryKiB === undefined ? WARM_LIMITS : { ...WARM_LIMITS, memoryKiB: r.memoryKiB },
    loopback: true,
    workspace: { layers: r.layers, boxPath: '/testbed', writable: 'overlay', keepWrites: { upperDir: r.upperDir, workDir: r.workDir } },
    ...(r.signal === undefined ? {} : { signal: r.signal }),
  });
  if (result.cancelled) r.signal?.throwIfAborted();
  if (result.status !== 'ok') {
    throw new EnvironmentError(`the warm-up run failed (${result.status}${result.reason === undefined ? '' : `: ${result.reason}`}; `
      + `exit 91 is a test patch that does not apply): ${result.stderr.slice(-500)}`);
  }
  for (const name of readdirSync(r.upperDir)) {
    if (name !== WARM_DIR) rmSync(join(r.upperDir, name), { recursive: true, force: true });
  }
  if (!existsSync(join(r.upperDir, WARM_DIR))) throw new EnvironmentError('the warm-up run left no temporary files');
  await ownTree(r.upperDir);
}

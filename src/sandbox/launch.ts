/**
 * Launch one execution in a slot: spawn the launcher (crucible-box) with the containment sequence, feed
 * stdin, drain stdout and stderr concurrently with byte caps, read the launcher's report, and turn it into an
 * `ExecutionResult`. Outputs are drained while the program runs, so a program printing 100 MB is stopped
 * for `output_limit_exceeded` as soon as it passes the cap, never stalled into a time-out on a full pipe.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { bwrapArguments, BOX_WORK } from './bwrap-args.js';
import { classify, type LauncherReport, parseLauncherReport } from './classify.js';
import { CRUCIBLE_BOX, NATIVE_DIR } from './paths.js';
import type { Slot } from './slots.js';
import type { ExecutionResult, Limits, Mount } from './types.js';

/** Options of one launch. `unsafeNoSandbox` runs without bubblewrap (explicit opt-in only). */
export interface LaunchOptions {
  readonly slot: Slot;
  readonly workDir: string;
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly mounts: readonly Mount[];
  readonly limits: Limits;
  readonly bwrapPath: string;
  readonly unsafeNoSandbox: boolean;
  /** Long-lived boxes (zygotes) get no CPU bound from the launcher: the harness bounds each job. */
  readonly enforceCpu: boolean;
  /** The program is pid 1 of the box (no box-init, no status descriptor). */
  readonly asPid1: boolean;
}

function launcherArguments(o: LaunchOptions): string[] {
  const args: string[] = [];
  const { slot, limits } = o;
  if (!o.unsafeNoSandbox || process.getuid?.() === 0) args.push('--uid', String(slot.uid), '--gid', String(slot.gid));
  if (slot.cgroups) {
    args.push('--cgroup', slot.cgroups.memory, '--cgroup', slot.cgroups.pids, '--cgroup', slot.cgroups.cpuacct);
    args.push('--cpuacct', slot.cgroups.cpuacct, '--memory', slot.cgroups.memory, '--pids', slot.cgroups.pids);
    args.push('--memory-limit', String(limits.memoryKiB * 1024), '--pids-max', String(limits.processes));
  } else {
    args.push('--rlimit-as', String(limits.memoryKiB * 1024));
  }
  if (!o.unsafeNoSandbox) {
    if (slot.netns) args.push('--netns', slot.netns);
    if (slot.ipcns) args.push('--ipcns', slot.ipcns);
  }
  if (o.enforceCpu) {
    args.push('--cpu-ms', String(limits.cpuMs));
    // Per-process backstop; the tree-wide bound is the cgroup's.
    args.push('--rlimit-cpu', String(Math.ceil(limits.cpuMs / 1000) + 1));
  }
  args.push('--wall-ms', String(limits.wallMs));
  args.push('--rlimit-nproc', String(limits.processes));
  args.push('--rlimit-fsize', String(limits.fileSizeKiB * 1024));
  args.push('--rlimit-nofile', String(limits.openFiles));
  if (o.asPid1) args.push('--no-status', '1');
  args.push('--');
  if (o.unsafeNoSandbox) {
    const rewrite = (arg: string): string => {
      if (arg === BOX_WORK || arg.startsWith(BOX_WORK + '/')) return o.workDir + arg.slice(BOX_WORK.length);
      for (const m of o.mounts) {
        if (arg === m.boxPath || arg.startsWith(m.boxPath + '/')) return m.hostPath + arg.slice(m.boxPath.length);
      }
      return arg;
    };
    args.push(`${NATIVE_DIR}/box-init`, ...o.argv.map(rewrite));
  } else {
    args.push(o.bwrapPath, ...bwrapArguments({ workDir: o.workDir, argv: o.argv, env: o.env, mounts: o.mounts,
      unshareNet: o.slot.netns === null, unshareIpc: o.slot.ipcns === null, asPid1: o.asPid1 }));
  }
  return args;
}

/**
 * A bounded collector of one output stream: keeps the first `capBytes` bytes, calls `onOverflow` once when a
 * chunk goes past them (the caller stops the run), and drops the rest.
 */
export class OutputDrain {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  truncated = false;

  constructor(private readonly capBytes: number, private readonly onOverflow: () => void) {}

  push(chunk: Buffer): void {
    const room = this.capBytes - this.kept;
    if (chunk.length > room) {
      if (room > 0) this.chunks.push(chunk.subarray(0, room));
      this.kept = this.capBytes;
      if (!this.truncated) {
        this.truncated = true;
        this.onOverflow();
      }
      return;
    }
    this.chunks.push(chunk);
    this.kept += chunk.length;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

/** A running execution; `result` settles once every process of it is gone. */
export interface Launched {
  readonly child: ChildProcess;
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** Kill the whole tree now (the launcher reports `limit: "killed"`). */
  kill(reason: string): void;
  readonly result: Promise<ExecutionResult>;
}

/**
 * Start one execution. With `capture` the launcher's stdout/stderr are drained into the result (capped);
 * without it the caller reads the streams itself (long-lived harness boxes) and the result carries no output.
 */
export function launch(o: LaunchOptions, stdinData: string | Uint8Array | undefined, capture: boolean): Launched {
  const child = spawn(CRUCIBLE_BOX, launcherArguments(o), {
    cwd: o.unsafeNoSandbox ? o.workDir : '/',
    env: o.unsafeNoSandbox ? { ...o.env } : {},
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
  });
  let killReason: string | null = null;
  const kill = (reason: string): void => {
    if (killReason === null) killReason = reason;
    child.kill('SIGTERM');
  };
  const outputCap = o.limits.outputBytes;
  let outputExceeded = false;
  const overflow = (): void => {
    outputExceeded = true;
    kill('output limit');
  };
  const stdout = new OutputDrain(outputCap, overflow);
  const stderr = new OutputDrain(outputCap, overflow);
  const reportChunks: Buffer[] = [];
  const stdoutStream = child.stdout as Readable;
  const stderrStream = child.stderr as Readable;
  const reportStream = child.stdio[3] as Readable;
  reportStream.on('data', (chunk: Buffer) => reportChunks.push(chunk));
  if (capture) {
    stdoutStream.on('data', (chunk: Buffer) => stdout.push(chunk));
    stderrStream.on('data', (chunk: Buffer) => stderr.push(chunk));
  }
  const stdin = child.stdin as Writable;
  stdin.on('error', () => {
    // The program may exit without reading its input (EPIPE): not an error of ours.
  });
  if (stdinData !== undefined) stdin.end(stdinData);
  else if (capture) stdin.end();

  const streamsClosed = Promise.all([stdoutStream, stderrStream, reportStream].map((s) =>
    new Promise<void>((resolve) => {
      if (s.readableEnded || s.destroyed) resolve();
      else s.once('close', () => resolve());
    })));
  const result = new Promise<ExecutionResult>((resolve) => {
    let spawnError: Error | null = null;
    child.once('error', (error) => {
      spawnError = error;
    });
    child.once('close', (code, signal) => {
      void streamsClosed.then(() => {
        const raw = Buffer.concat(reportChunks).toString('utf8');
        let report: LauncherReport | null = null;
        let parseProblem: string | null = null;
        try {
          report = parseLauncherReport(raw);
        } catch (error) {
          parseProblem = (error as Error).message;
        }
        const launcherFailure = spawnError
          ? `cannot start the sandbox launcher: ${spawnError.message}`
          : report === null
            ? `sandbox launcher exited (${code ?? signal}) without a valid report: ${parseProblem ?? raw.slice(0, 200)}`
            : null;
        resolve(classify({
          report,
          launcherFailure,
          limits: o.limits,
          outputExceeded,
          killReason,
          stdout: stdout.text(),
          stderr: stderr.text(),
          stdoutTruncated: stdout.truncated,
          stderrTruncated: stderr.truncated,
          memoryEnforcement: o.slot.cgroups ? 'cgroup' : 'rlimit_as',
          initExpected: !o.asPid1,
        }));
      });
    });
  });
  return { child, stdin, stdout: stdoutStream, stderr: stderrStream, kill, result };
}

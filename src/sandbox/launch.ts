/**
 * Launch one execution in a slot: spawn the launcher (crucible-box) with the containment sequence, feed
 * stdin, drain stdout and stderr concurrently with byte caps, read the launcher's report, and turn it into an
 * `ExecutionResult`. Outputs are drained while the program runs, so a program printing 100 MB is stopped
 * for `output_limit_exceeded` as soon as it passes the cap, never stalled into a time-out on a full pipe.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { bwrapArguments, BOX_WORK, SECCOMP_FD } from './bwrap-args.js';
import { classify, type LauncherReport, parseLauncherReport } from './classify.js';
import { MemorySampler } from './memory-sampler.js';
import { CRUCIBLE_BOX, NATIVE_DIR } from './paths.js';
import type { Slot } from './slots.js';
import { CANCELLED_REASON, DEFAULT_DISK_KIB, type ExecutionResult, type Limits, type Mount, type WorkspaceMount } from './types.js';

/** Options of one launch. `unsafeNoSandbox` runs without bubblewrap (explicit opt-in only). */
export interface LaunchOptions {
  readonly slot: Slot;
  /** Host work directory: the request's files, and a kept run's copy-out; null when there is neither. */
  readonly workDir: string | null;
  /** Copy what the program left under /box back to `workDir` at the end. */
  readonly keep: boolean;
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
  /** Descriptors crucible-box opens as root and hands into the box at `target` (see `Subgroups`). */
  readonly passed: readonly PassedDescriptor[];
  /** More cgroups crucible-box empties at the end (sub-cgroups of the box). */
  readonly drain: readonly string[];
  /** Kill the launcher and report `internal_error` if it has not finished this long after start (ms). */
  readonly watchdogMs: number | null;
  /**
   * A prepared workspace: `dir` is an empty host directory crucible-box lays it out on (src/sandbox/native/layers.h),
   * `sizeKiB` the run's writable layer. Needs a slot uid (root host).
   */
  readonly workspace?: { readonly dir: string; readonly mount: WorkspaceMount; readonly sizeKiB: number } | null;
  /** Give the run an outbox (`SandboxRequest.outbox`); needs `workDir` (its `.outbox/` gets the copy). */
  readonly outbox?: boolean;
  /** A network namespace of the box's own with its loopback up (`SandboxRequest.loopback`). */
  readonly loopback?: boolean;
  /** Sample the slot's memory group every this many ms (`SandboxRequest.memorySampleMs`; only with cgroups). */
  readonly memorySampleMs?: number;
}

/** crucible-box's arguments for a workspace (src/sandbox/native/layers.h). */
function workspaceArguments(workspace: NonNullable<LaunchOptions['workspace']>): string[] {
  const { mount } = workspace;
  const args = ['--workspace-dir', workspace.dir, '--workspace-size', String(workspace.sizeKiB * 1024)];
  for (const layer of mount.layers) args.push('--workspace-lower', layer);
  if (mount.writable === 'read_only') args.push('--workspace-ro', '1');
  if (mount.keepWrites) args.push('--workspace-upper', mount.keepWrites.upperDir, '--workspace-work', mount.keepWrites.workDir);
  return args;
}

/** A file crucible-box opens as root for the box: write-only (a cgroup.procs) or a directory (read-only). */
export interface PassedDescriptor {
  readonly target: number;
  readonly path: string;
  readonly directory: boolean;
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
  if (!o.unsafeNoSandbox && slot.netns) args.push('--netns', slot.netns);
  if (!o.unsafeNoSandbox && o.asPid1) args.push('--seccomp-fd', String(SECCOMP_FD));
  for (const p of o.passed) args.push(p.directory ? '--pass-dfd' : '--pass-wfd', `${p.target}=${p.path}`);
  for (const dir of o.drain) args.push('--drain-cgroup', dir);
  if (o.workspace) args.push(...workspaceArguments(o.workspace));
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
      if (o.workDir !== null && (arg === BOX_WORK || arg.startsWith(BOX_WORK + '/'))) return o.workDir + arg.slice(BOX_WORK.length);
      for (const m of o.mounts) {
        if (arg === m.boxPath || arg.startsWith(m.boxPath + '/')) return m.hostPath + arg.slice(m.boxPath.length);
      }
      return arg;
    };
    args.push(`${NATIVE_DIR}/box-init`, '--', ...o.argv.map(rewrite));
  } else {
    args.push(o.bwrapPath, ...bwrapArguments({ workDir: o.workDir, keep: o.keep,
      diskBytes: (o.limits.diskKiB ?? DEFAULT_DISK_KIB) * 1024, argv: o.argv, env: o.env, mounts: o.mounts,
      unshareNet: o.slot.netns === null || o.loopback === true, asPid1: o.asPid1, outbox: o.outbox === true,
      workspace: o.workspace ? { merged: `${o.workspace.dir}/merged`, boxPath: o.workspace.mount.boxPath,
        readOnly: o.workspace.mount.writable === 'read_only' } : null }));
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
 * The launcher's report, or why there is none: the watchdog fired (`overdue`), the launcher could not start
 * (`spawnError`), or it ended (`exit`: code or signal) without a valid report in `raw`.
 */
function readReport(raw: string, overdue: string | null, spawnError: Error | null, exit: number | string | null):
  { readonly report: LauncherReport | null; readonly launcherFailure: string | null } {
  let report: LauncherReport | null = null;
  let parseProblem: string | null = null;
  try {
    report = parseLauncherReport(raw);
  } catch (error) {
    parseProblem = (error as Error).message;
  }
  const launcherFailure = overdue !== null ? overdue
    : spawnError !== null
      ? `cannot start the sandbox launcher: ${spawnError.message}`
      : report === null
        ? `sandbox launcher exited (${exit}) without a valid report: ${parseProblem ?? raw.slice(0, 200)}`
        : null;
  return { report, launcherFailure };
}

/**
 * What `launch` does with the box's streams: `all` feeds `stdin` and drains stdout and stderr into the result
 * (capped); `none` leaves every stream to the caller (long-lived harness boxes; the result carries no output);
 * `stream` leaves stdin open and stdout to the caller, counting stdout's bytes against the output limit (past
 * it, the run ends `output_limit_exceeded`), and drains stderr into the result (a box of an interactive run).
 * `true` and `false` are `all` and `none`.
 */
export type Capture = 'all' | 'none' | 'stream';

/**
 * Drain a box's output streams as `capture` says: stdout into `drains.stdout` (`all`) or only counted against the
 * output limit (`stream`: the caller reads it), stderr into `drains.stderr` (both); `overflow` past a cap.
 */
function drainOutputs(stdout: Readable, stderr: Readable, capture: Capture, drains: { readonly stdout: OutputDrain; readonly stderr: OutputDrain },
  capBytes: number, overflow: () => void): void {
  if (capture === 'all') stdout.on('data', (chunk: Buffer) => drains.stdout.push(chunk));
  if (capture === 'stream') {
    let streamed = 0;
    stdout.on('data', (chunk: Buffer) => {
      streamed += chunk.length;
      if (streamed > capBytes) overflow();
    });
  }
  if (capture !== 'none') stderr.on('data', (chunk: Buffer) => drains.stderr.push(chunk));
}

/** Start one execution, its streams handled as `captured` says. */
export function launch(o: LaunchOptions, stdinData: string | Uint8Array | undefined, captured: Capture | boolean): Launched {
  const capture: Capture = captured === true ? 'all' : captured === false ? 'none' : captured;
  const child = spawn(CRUCIBLE_BOX, launcherArguments(o), {
    cwd: o.unsafeNoSandbox && o.workDir !== null ? o.workDir : '/',
    env: o.unsafeNoSandbox ? { ...o.env } : {},
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
  });
  const sampler = o.memorySampleMs !== undefined && o.slot.cgroups && !o.unsafeNoSandbox ? new MemorySampler(o.slot.cgroups.memory, o.memorySampleMs) : null;
  let killReason: string | null = null;
  const kill = (reason: string): void => {
    if (killReason === null) killReason = reason;
    child.kill('SIGTERM');
  };
  const outputCap = o.limits.outputBytes;
  let outputExceeded = false;
  const overflow = (): void => {
    if (outputExceeded) return;
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
  drainOutputs(stdoutStream, stderrStream, capture, { stdout, stderr }, outputCap, overflow);
  const stdin = child.stdin as Writable;
  stdin.on('error', () => {
    // The program may exit without reading its input (EPIPE): not an error of ours.
  });
  if (stdinData !== undefined) stdin.end(stdinData);
  else if (capture === 'all') stdin.end();

  const streamsClosed = Promise.all([stdoutStream, stderrStream, reportStream].map((s) =>
    new Promise<void>((resolve) => {
      if (s.readableEnded || s.destroyed) resolve();
      else s.once('close', () => resolve());
    })));
  let overdue: string | null = null;
  const watchdog = o.watchdogMs === null ? null : setTimeout(() => {
    overdue = `the sandbox launcher did not finish within ${o.watchdogMs} ms and was killed`;
    child.kill('SIGKILL');
  }, o.watchdogMs);
  const result = new Promise<ExecutionResult>((resolve) => {
    let spawnError: Error | null = null;
    child.once('error', (error) => {
      spawnError = error;
    });
    child.once('close', (code, signal) => {
      if (watchdog !== null) clearTimeout(watchdog);
      const memoryIntegral = sampler?.stop();
      void streamsClosed.then(() => {
        const { report, launcherFailure } = readReport(Buffer.concat(reportChunks).toString('utf8'), overdue, spawnError,
          code ?? signal);
        const classified = classify({
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
          // The slot cgroups also hold bubblewrap and box-init here; box-init's own figure covers the run's tree.
          cgroupCpuIsTree: false,
          cancelled: killReason === CANCELLED_REASON,
        });
        resolve(memoryIntegral === undefined ? classified : { ...classified, memoryIntegral });
      });
    });
  });
  return { child, stdin, stdout: stdoutStream, stderr: stderrStream, kill, result };
}

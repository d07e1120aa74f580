/**
 * A slot's long-lived box: one bubblewrap sandbox per slot, kept between runs, in which box-server gives
 * every run its own pid, mount and IPC namespaces, private /tmp, /dev/shm and /proc, its own work directory
 * at /box and nothing of any other run (see src/sandbox/native/box-server.c). Limits stay outside the box, in
 * crucible-slot (src/sandbox/native/crucible-slot.c). This saves what a fresh bubblewrap per run costs
 * (namespace and mount set-up, two more execs: docs/PERFORMANCE.md) while keeping the verdicts and the
 * report format of the one-shot path, so `classify` decides both.
 *
 * Wire format (u8 type, u32 little-endian length, payload): to crucible-slot 'R' run requests (u32 seq,
 * u32 token bytes, NUL-separated key/value tokens, stdin bytes) and 'C' cancels (u32 seq); from it 'O'/'E'
 * output chunks and one 'R' report (u32 seq, the launcher report JSON) per run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { slotBoxArguments } from './bwrap-args.js';
import { classify, type LauncherReport, parseLauncherReport } from './classify.js';
import { OutputDrain } from './launch.js';
import { CRUCIBLE_SLOT } from './paths.js';
import type { Slot } from './slots.js';
import { CANCELLED_REASON, DEFAULT_DISK_KIB, type ExecutionResult, type Limits } from './types.js';

/** Slack past a run's wall bound after which Node gives up on the supervisor (it enforces the bound itself). */
const WATCHDOG_SLACK_MS = 30_000;

/**
 * One run in a slot box. Paths of `workDir` and mount sources are relative to the box's runs root; `workDir` is
 * null when the run has no files and is not kept; `keep` copies /box back into it at the end.
 */
export interface SlotBoxRun {
  readonly workDir: string | null;
  readonly keep: boolean;
  readonly signal?: AbortSignal;
  readonly mounts: readonly { readonly source: string; readonly boxPath: string }[];
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly limits: Limits;
  readonly stdin: string | Uint8Array | undefined;
}

interface Pending {
  readonly seq: number;
  readonly limits: Limits;
  readonly stdout: OutputDrain;
  readonly stderr: OutputDrain;
  outputExceeded: boolean;
  killReason: string | null;
  readonly resolve: (result: ExecutionResult) => void;
}

function encodeFrame(type: string, payload: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeUInt32LE(payload.length, 1);
  return Buffer.concat([header, payload]);
}

function encodeRun(seq: number, run: SlotBoxRun): Buffer {
  const { limits } = run;
  const tokens: string[] = [
    'disk', String((limits.diskKiB ?? DEFAULT_DISK_KIB) * 1024),
    ...(run.workDir !== null ? ['work', run.workDir] : []),
    ...(run.keep ? ['keep', '1'] : []),
    'cpu-ms', String(limits.cpuMs),
    'wall-ms', String(limits.wallMs),
    'memory-limit', String(limits.memoryKiB * 1024),
    'pids-max', String(limits.processes),
    // Per-process backstop; the tree-wide CPU bound is crucible-slot's (cgroup cpuacct).
    'rlimit-cpu', String(Math.ceil(limits.cpuMs / 1000) + 1),
    'rlimit-nproc', String(limits.processes),
    'rlimit-fsize', String(limits.fileSizeKiB * 1024),
    'rlimit-nofile', String(limits.openFiles),
  ];
  for (const mount of run.mounts) tokens.push('mount-src', mount.source, 'mount-dst', mount.boxPath);
  for (const arg of run.argv) tokens.push('arg', arg);
  for (const [key, value] of Object.entries(run.env)) tokens.push('env', `${key}=${value}`);
  for (const token of tokens) {
    if (token.includes('\0')) throw new Error(`a NUL byte cannot be passed to a program: ${JSON.stringify(token)}`);
  }
  const tokenBytes = Buffer.from(tokens.map((t) => t + '\0').join(''), 'utf8');
  const stdin = run.stdin === undefined ? Buffer.alloc(0) : Buffer.from(run.stdin);
  const head = Buffer.alloc(8);
  head.writeUInt32LE(seq, 0);
  head.writeUInt32LE(tokenBytes.length, 4);
  return encodeFrame('R', Buffer.concat([head, tokenBytes, stdin]));
}

/**
 * The long-lived box of one slot. Runs one execution at a time (the slot pool guarantees it). The box starts
 * on the first run and again after it ends for any reason (a box that fails reports `internal_error` for the
 * run in progress, never a verdict of the program).
 */
export class SlotBox {
  private child: ChildProcess | null = null;
  private buffered: Buffer = Buffer.alloc(0);
  private pending: Pending | null = null;
  private seq = 0;
  private stderrTail = '';

  /**
   * @param slot the slot whose uid, run cgroups and network namespace the box uses (cgroups and netns required)
   * @param runsRoot host directory bound at /crucible/runs (the slot pool's root)
   * @param bwrapPath bubblewrap binary
   * @param cpu core the box and its runs are placed on, or null to let the scheduler place them
   */
  constructor(private readonly slot: Slot, private readonly runsRoot: string, private readonly bwrapPath: string,
    private readonly cpu: number | null = null) {}

  private start(): ChildProcess {
    const { slot } = this;
    const cgroups = slot.cgroups!;
    const args = ['--uid', String(slot.uid), '--gid', String(slot.gid),
      '--cgroup', cgroups.memory, '--cgroup', cgroups.pids, '--cgroup', cgroups.cpuacct,
      '--cpuacct', cgroups.cpuacct, '--memory', cgroups.memory, '--pids', cgroups.pids,
      ...(slot.netns ? ['--netns', slot.netns] : []),
      ...(this.cpu !== null ? ['--cpu', String(this.cpu)] : []),
      '--', this.bwrapPath, ...slotBoxArguments(this.runsRoot)];
    const child = spawn(CRUCIBLE_SLOT, args, { cwd: '/', env: {}, stdio: ['pipe', 'pipe', 'pipe'] });
    this.buffered = Buffer.alloc(0);
    this.stderrTail = '';
    (child.stdout as Readable).on('data', (chunk: Buffer) => {
      if (this.child === child) this.onData(chunk);
    });
    (child.stderr as Readable).on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-2000);
    });
    (child.stdin as Writable).on('error', () => {
      // The supervisor ended; 'close' reports it.
    });
    child.once('error', (error) => this.onEnd(child, `cannot start the slot supervisor: ${error.message}`));
    child.once('close', (code, signal) => this.onEnd(child, `the slot supervisor exited (${code ?? signal}): ${this.stderrTail.trim()}`));
    this.child = child;
    return child;
  }

  /** The supervisor `child` ended; only the current one's end concerns the run in progress. */
  private onEnd(child: ChildProcess, why: string): void {
    if (this.child !== child) return;
    this.child = null;
    const pending = this.pending;
    this.pending = null;
    if (pending) pending.resolve(this.verdict(pending, null, why));
  }

  private onData(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    while (this.buffered.length >= 5) {
      const length = this.buffered.readUInt32LE(1);
      if (this.buffered.length < 5 + length) return;
      const type = String.fromCharCode(this.buffered[0]!);
      const payload = this.buffered.subarray(5, 5 + length);
      this.buffered = this.buffered.subarray(5 + length);
      this.onFrame(type, payload);
    }
  }

  private onFrame(type: string, payload: Buffer): void {
    const pending = this.pending;
    if (!pending) return;
    if (type === 'O') pending.stdout.push(payload);
    else if (type === 'E') pending.stderr.push(payload);
    else if (type === 'R' && payload.length >= 4 && payload.readUInt32LE(0) === pending.seq) {
      this.pending = null;
      let report: LauncherReport | null = null;
      let problem: string | null = null;
      try {
        report = parseLauncherReport(payload.subarray(4).toString('utf8'));
      } catch (error) {
        problem = `slot supervisor sent an invalid report: ${(error as Error).message}`;
      }
      // A report with an error means the box or its supervisor failed: the next run gets a new box.
      if (report === null || 'error' in report) this.close();
      pending.resolve(this.verdict(pending, report, problem));
    }
  }

  private verdict(pending: Pending, report: LauncherReport | null, failure: string | null): ExecutionResult {
    return classify({
      report,
      launcherFailure: failure,
      limits: pending.limits,
      outputExceeded: pending.outputExceeded,
      killReason: pending.killReason,
      stdout: pending.stdout.text(),
      stderr: pending.stderr.text(),
      stdoutTruncated: pending.stdout.truncated,
      stderrTruncated: pending.stderr.truncated,
      memoryEnforcement: 'cgroup',
      initExpected: true,
      cgroupCpuIsTree: true,
      cancelled: pending.killReason === CANCELLED_REASON,
    });
  }

  /**
   * Run one execution and return its verdict. Never rejects for anything the program does. Aborting
   * `run.signal` kills the run at once (`internal_error`, `cancelled: true`). If the supervisor gives no report
   * within the wall bound plus WATCHDOG_SLACK_MS, the box is ended and the run is `internal_error`.
   * @throws Error when a run is already in progress (a bug of the caller) or the request holds a NUL byte.
   */
  run(run: SlotBoxRun): Promise<ExecutionResult> {
    if (this.pending) throw new Error('slot box: a run is already in progress');
    const seq = (this.seq = (this.seq + 1) >>> 0);
    const frame = encodeRun(seq, run);
    const child = this.child ?? this.start();
    const watchdog = setTimeout(() => {
      if (this.pending?.seq !== seq || this.child !== child) return;
      this.onEnd(child, `the slot supervisor gave no report within ${run.limits.wallMs + WATCHDOG_SLACK_MS} ms`);
      child.kill('SIGKILL');
    }, run.limits.wallMs + WATCHDOG_SLACK_MS);
    const abort = (): void => cancelRun(CANCELLED_REASON);
    let cancelRun: (reason: string) => void = () => {};
    run.signal?.addEventListener('abort', abort, { once: true });
    return new Promise<ExecutionResult>((resolveRun) => {
      const resolve = (result: ExecutionResult): void => {
        clearTimeout(watchdog);
        run.signal?.removeEventListener('abort', abort);
        resolveRun(result);
      };
      const cancel = (reason: string): void => {
        if (this.pending !== pending || pending.killReason !== null) return;
        pending.killReason = reason;
        const body = Buffer.alloc(4);
        body.writeUInt32LE(seq, 0);
        child.stdin?.write(encodeFrame('C', body));
      };
      cancelRun = cancel;
      const overflow = (): void => {
        pending.outputExceeded = true;
        cancel('output limit');
      };
      const pending: Pending = {
        seq, limits: run.limits, outputExceeded: false, killReason: null, resolve,
        stdout: new OutputDrain(run.limits.outputBytes, overflow),
        stderr: new OutputDrain(run.limits.outputBytes, overflow),
      };
      this.pending = pending;
      child.stdin?.write(frame);
      if (run.signal?.aborted) cancel(CANCELLED_REASON);
    });
  }

  /**
   * Pids of the box itself while it is up: its bubblewrap and box-server (the supervisor's child and
   * grandchild). Between runs these are the only processes of the slot's uid; audits use this to tell the box
   * from a survivor of a run. Empty when the box is down.
   */
  processIds(): number[] {
    const children = (pid: number): number[] => {
      try {
        return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
      } catch {
        return [];
      }
    };
    const supervisor = this.child?.pid;
    if (supervisor === undefined) return [];
    const bwrap = children(supervisor);
    return [...bwrap, ...bwrap.flatMap(children)];
  }

  /** End the box (its supervisor kills it and exits). Idempotent. */
  close(): void {
    const child = this.child;
    this.child = null;
    if (child) {
      child.stdin?.end();
      child.kill('SIGKILL');
    }
  }
}

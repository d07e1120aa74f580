/**
 * A session's box: a leased bubblewrap box whose processes and files persist between steps, with per-step
 * limits enforced from outside it. Theory of operation:
 *
 * ```
 * node ──spawn──> crucible-box (root, outside: box memory/pids, tree kill, box lifetime)
 *        └─ stdin/stdout JSON lines ──> bwrap (user, pid, uts, IPC, mount ns; slot netns; seccomp on pid 1)
 *                                        └─> session-agent (pid 1, trusted, C: no capability, non-dumpable)
 *                                             └─> REPL (python | bash | sqlite; joins the "session" sub-cgroup
 *                                                 before exec; runs model code; everything it forks stays there)
 * ```
 *
 * - One slot per session (`SessionSlots`): its own host uid, cgroups and network namespace, so sessions cannot
 *   signal, see or reach each other; their pid, mount and IPC namespaces are their own boxes'. Slots come from
 *   slot pools made for sessions alone (never the judge's), in blocks, up to the manager's session limit.
 * - Per step, from outside: the sub-group's memory limit and pids.max are set, its CPU counter is read before
 *   and after (and while the step runs, only when the remaining budget could have been spent: remaining / cores),
 *   a wall timer runs; past a bound Node SIGKILLs every task of the sub-group (root, through cgroup.procs) until
 *   it is empty. The agent notices its REPL is gone, kills whatever else the box holds (it is pid 1: kill -1 and
 *   reap until nothing is left) and starts a fresh REPL: the step reports `restarted` and what was lost.
 *   Output is capped per stream by the agent (it drains both pipes while the step runs) and comes back raw,
 *   after a JSON header that gives its length (no escaping: a step's output costs Node its own size).
 *   Processes a step leaves running are killed by the agent when it ends; then the whole sub-group is frozen
 *   from outside (`freezeGroup`: SIGSTOP to every process, repeated until a read of the group finds every
 *   process signalled and every thread stopped, so a child forked at the last moment is caught too) until the
 *   next step continues it: nothing of a session runs between steps.
 * - Every step ends within its limits: past its wall (or CPU) bound, or when its caller cancels, the sub-group is
 *   killed, and if the agent has still not answered `AGENT_GRACE_MS` later the whole box is killed and the step
 *   answers on its own (`boxReplaced`; the environment starts a fresh box). A REPL that ended between steps is
 *   replaced by the agent before the next step runs (`replacedBefore`).
 * - `close()` kills the launcher (the box's pid namespace dies with its pid 1), waits until crucible-box reports
 *   every process gone and the cgroups empty, removes the sub-group's directories and frees the slot. The
 *   session's files lived only in the box's tmpfs and go with its mount namespace.
 * - A session may work on a prepared workspace (a repository: `WorkspaceMount`), mounted copy-on-write at its box
 *   path by crucible-box (src/sandbox/native/layers.h) on a tmpfs of the session's disk quota: what the session
 *   writes lives in that tmpfs and dies with the box, so a reset (a new box) is pristine and the prepared layers are
 *   never written. Such a box runs as uid 1000 inside and has a loopback of its own.
 */
import { availableParallelism } from 'node:os';
import { readdirSync, readFileSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Capabilities } from './capabilities.js';
import { launch, type Launched } from './launch.js';
import { NATIVE_DIR } from './paths.js';
import { SlotPool, type Slot } from './slots.js';
import { Subgroup, SUBGROUPS_ENV } from './subgroups.js';
import { removeTree } from './cleanup.js';
import { CANCELLED_REASON, type ExecutionResult, type ExecutionStatus, type WorkspaceMount } from './types.js';
import { makeWorkspaceDir, validateWorkspace } from './workspace.js';

/**
 * The limits a session box enforces per step, from outside it (the meanings of `SessionLimits` in
 * `src/sessions/types.ts`, which satisfies this shape): `cpuMs` and `wallMs` of one step, `memoryKiB` and
 * `processes` of the session's processes, `outputBytes` of stdout and of stderr each, `diskKiB` of the box's tmpfs.
 */
export interface SessionBoxLimits {
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly memoryKiB: number;
  readonly processes: number;
  readonly outputBytes: number;
  readonly diskKiB: number;
}

/** The environments served by a box (the `program` environment needs none). */
export type BoxKind = 'python' | 'bash' | 'sqlite';

/** The agent inside the box (built from src/sandbox/native/session-agent.c, bound read-only). */
const AGENT = '/crucible/bin/session-agent';
/**
 * Memory of the box beyond the session's own (the agent, bubblewrap), KiB. A box pins at most the session's
 * memory limit plus this: its files live in tmpfs, whose pages are charged to the memory cgroup of the process
 * that wrote them (the session sub-group), so /box, /tmp and /dev/shm count against the same limit.
 */
export const SESSION_BOX_OVERHEAD_KIB = 16 * 1024;
/** A box lives at most this long, whatever its TTL (the launcher's wall bound), ms. */
const BOX_LIFETIME_MS = 24 * 3600 * 1000;
/** How long the agent may take to say it is ready, ms. */
const READY_TIMEOUT_MS = 30_000;
/**
 * How long the agent has to answer once a step's sub-group was killed (wall, CPU, cancel), ms; after that the box
 * is killed and the step answers without it. Generous: the agent's own sweep of a fork bomb takes a few seconds
 * on a loaded host.
 */
export const AGENT_GRACE_MS = 20_000;
/** The largest delay a Node timer takes, ms (2^31 - 1; `MAX_TIMER_MS` of src/limits.ts, which this layer cannot import). */
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;
/** Most rounds of `freezeGroup` (each reads the group once), so a task stuck in the kernel cannot hold a step. */
const FREEZE_ROUNDS = 2000;

/**
 * How long a frozen sub-group's CPU counter is watched to prove it still (`holdStill`), ms: longer than a
 * scheduler tick (4 ms at HZ=250), since cgroup v1's cpuacct charges a task that keeps running only at ticks.
 */
const STILL_CHECK_MS = 10;

/** What the agent reports for one step (see src/sandbox/native/session-agent.c). */
interface AgentResult {
  readonly op: 'result';
  readonly ended: 'done' | 'died' | 'output';
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly restarted: boolean;
  /** How the previous step's REPL had ended when this step began (it was replaced before this step), or null. */
  readonly replacedBefore: { readonly exitCode: number | null; readonly signal: string | null } | null;
  /** The REPL's end-of-step line, as written (untrusted: model code runs in the REPL's process). */
  readonly report: string | null;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  readonly stdoutBytes: number;
  readonly stderrBytes: number;
  readonly killedProcesses?: number;
}

/** One message of the agent: its JSON line, and for a step's result the raw stdout and stderr that followed it. */
interface AgentMessage {
  readonly line: string;
  readonly stdout: Buffer;
  readonly stderr: Buffer;
}

/** Most bytes of one header line of the agent (a result's header with a 1 MiB report fits). */
const MAX_HEADER_BYTES = 8 << 20;

/**
 * Splits the agent's stdout into messages: a JSON line, then (for a result) `stdoutBytes` + `stderrBytes` raw
 * bytes. Calls `deliver` per message; `broken(reason)` once if the stream breaks the framing.
 */
class AgentFrames {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private header: { line: string; stdoutBytes: number; stderrBytes: number } | null = null;
  private failed = false;

  constructor(private readonly deliver: (message: AgentMessage) => void, private readonly broken: (reason: string) => void) {}

  push(chunk: Buffer): void {
    if (this.failed) return;
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    // Earlier chunks of a header being read hold no newline (they would have been parsed): only this one may end it.
    if (this.header === null && this.chunks.length > 1 && chunk.indexOf(0x0a) < 0) {
      if (this.buffered > MAX_HEADER_BYTES) this.fail(`a line of more than ${MAX_HEADER_BYTES} bytes`);
      return;
    }
    for (;;) {
      if (this.header === null) {
        const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
        this.chunks = [all];
        const nl = all.indexOf(0x0a);
        if (nl < 0) {
          if (this.buffered > MAX_HEADER_BYTES) this.fail(`a line of more than ${MAX_HEADER_BYTES} bytes`);
          return;
        }
        const line = all.subarray(0, nl).toString('utf8');
        this.take(nl + 1);
        const sizes = /"stdoutBytes": (\d+), "stderrBytes": (\d+)/.exec(line);
        this.header = { line, stdoutBytes: sizes ? Number(sizes[1]) : 0, stderrBytes: sizes ? Number(sizes[2]) : 0 };
      }
      const need = this.header.stdoutBytes + this.header.stderrBytes;
      if (this.buffered < need) return;
      const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
      const stdout = Buffer.from(all.subarray(0, this.header.stdoutBytes));
      const stderr = Buffer.from(all.subarray(this.header.stdoutBytes, need));
      this.chunks = [all];
      this.take(need);
      const line = this.header.line;
      this.header = null;
      this.deliver({ line, stdout, stderr });
      if (this.buffered === 0) return;
    }
  }

  private take(n: number): void {
    const all = this.chunks[0]!;
    const rest = all.subarray(n);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.buffered -= n;
  }

  private fail(reason: string): void {
    this.failed = true;
    this.chunks = [];
    this.buffered = 0;
    this.broken(reason);
  }
}

/**
 * One step's outcome in a box: the execution status (from outside: CPU, wall, memory; from the agent: output,
 * the REPL's end), the REPL's report, and what the step used. `restarted`: the REPL was replaced.
 */
export interface BoxStepResult {
  readonly status: ExecutionStatus;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly memoryKiB: number;
  readonly restarted: boolean;
  /** The REPL had ended after the previous step (how: exit code or signal) and was replaced before this one. */
  readonly replacedBefore: { readonly exitCode: number | null; readonly signal: string | null } | null;
  /** The agent did not answer after the step was killed: the box was killed (the environment starts a new one). */
  readonly boxReplaced: boolean;
  /** Processes the step left running, killed when it ended (background jobs do not outlive a step). */
  readonly killedProcesses: number;
  readonly reason?: string;
  /** Environment data the REPL reported (sqlite: the last result set). */
  readonly extra: unknown;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Slots for session boxes: pools of `blockSize` slots made on demand, at most `maxSlots` in all. */
export class SessionSlots {
  private readonly pools: SlotPool[] = [];
  private readonly free: Slot[] = [];
  private readonly owner = new Map<Slot, SlotPool>();
  private made = 0;
  private closed = false;

  constructor(private readonly caps: Capabilities, readonly maxSlots: number, private readonly blockSize = 32) {}

  /** Slots in use. */
  get busy(): number {
    return this.made - this.free.length;
  }

  /** A free slot, or null when `maxSlots` are in use. @throws Error when closed or a pool cannot be made. */
  take(): Slot | null {
    if (this.closed) throw new Error('session slots are closed');
    const slot = this.free.pop();
    if (slot) return slot;
    if (this.made >= this.maxSlots) return null;
    const pool = SlotPool.create(this.caps, Math.min(this.blockSize, this.maxSlots - this.made));
    this.pools.push(pool);
    this.made += pool.slots.length;
    for (const s of pool.slots) this.owner.set(s, pool);
    this.free.push(...[...pool.slots].reverse());
    return this.free.pop() ?? null;
  }

  give(slot: Slot): void {
    if (!this.closed) this.free.push(slot);
  }

  /** Release every pool (their cgroups, namespaces, work roots, instance locks). Boxes must be closed first. */
  close(): void {
    this.closed = true;
    for (const pool of this.pools) pool.close();
    this.pools.length = 0;
  }
}

/** A session's box (see the module comment). Steps must not overlap: the manager runs one at a time. */
export class SessionBox {
  private readonly replies: ((message: AgentMessage | null) => void)[] = [];
  private ended = false;
  private closing: Promise<void> | null = null;

  private constructor(readonly kind: BoxKind, private readonly launched: Launched, private readonly group: Subgroup | null,
    private readonly slot: Slot, private readonly release: (slot: Slot) => void, readonly boxResult: Promise<ExecutionResult>) {
    const frames = new AgentFrames((message) => this.replies.shift()?.(message), () => {
      // A broken framing is the agent's failure: the box goes, and every waiter hears it.
      this.launched.kill('the session agent broke its framing');
    });
    launched.stdout.on('data', (chunk: Buffer) => frames.push(chunk));
    void boxResult.then(() => {
      this.ended = true;
      for (const waiter of this.replies.splice(0)) waiter(null);
    });
  }

  /**
   * Start a box of `kind` in `slot` and wait for its agent to be ready. `release` gets the slot back once the
   * box is gone. @throws Error when the box cannot start (the slot is released).
   */
  static async start(kind: BoxKind, slot: Slot, caps: Capabilities, limits: SessionBoxLimits, release: (slot: Slot) => void,
    workspace?: WorkspaceMount): Promise<SessionBox> {
    let group: Subgroup | null = null;
    let launched: Launched;
    let workspaceDir: string | null = null;
    try {
      if (workspace !== undefined) {
        // A prepared workspace (a repository) at its box path, copy-on-write on a tmpfs of the session's disk quota.
        validateWorkspace(workspace, true);
        if (!caps.isRoot) throw new Error('a session with a prepared workspace needs a root host (slot uids)');
        workspaceDir = makeWorkspaceDir(slot, `session-ws-${process.pid}-${Date.now()}`);
      }
      const passed = [];
      const env: Record<string, string> = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/box', LANG: 'C.UTF-8' };
      if (slot.cgroups !== null) {
        group = Subgroup.make(slot.cgroups, 'session');
        group.setLimits({ memoryKiB: limits.memoryKiB, processes: limits.processes });
        const d = group.descriptors(0);
        passed.push(...d.passed);
        env[SUBGROUPS_ENV] = JSON.stringify({ session: d.told });
      }
      launched = launch({
        slot, workDir: null, keep: false, argv: [AGENT, kind], env,
        mounts: [{ hostPath: join(NATIVE_DIR, 'session-agent'), boxPath: AGENT }],
        limits: {
          cpuMs: BOX_LIFETIME_MS, wallMs: BOX_LIFETIME_MS, memoryKiB: limits.memoryKiB + SESSION_BOX_OVERHEAD_KIB,
          processes: limits.processes + 8, fileSizeKiB: limits.diskKiB, openFiles: 256, outputBytes: 1 << 20, diskKiB: limits.diskKiB,
        },
        bwrapPath: caps.bwrapPath ?? '/usr/bin/bwrap', unsafeNoSandbox: false, enforceCpu: false, asPid1: true,
        passed, drain: group?.cgroupDirs ?? [], watchdogMs: null,
        workspace: workspace === undefined || workspaceDir === null ? null : { dir: workspaceDir, mount: workspace, sizeKiB: limits.diskKiB },
        loopback: workspace !== undefined,
      }, undefined, false);
    } catch (error) {
      if (workspaceDir !== null) removeTree(workspaceDir);
      release(slot);
      throw error;
    }
    const stderr: Buffer[] = [];
    launched.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 64) stderr.push(chunk);
    });
    const wsDir = workspaceDir;
    const result = launched.result.finally(() => {
      // The workspace's mounts lived in the box's mount namespace; the empty directory is all that is left.
      if (wsDir !== null) removeTree(wsDir);
      if (group !== null) for (const dir of group.cgroupDirs) {
        try {
          rmdirSync(dir);
        } catch {
          // already gone, or the next box of this slot made it again
        }
      }
      release(slot);
    });
    const box = new SessionBox(kind, launched, group, slot, release, result);
    const ready = (await box.nextMessage(READY_TIMEOUT_MS))?.line ?? '';
    if (!ready.includes('"ready"')) {
      await box.close();
      throw new Error(`the session box did not start: ${ready || Buffer.concat(stderr).toString('utf8').slice(0, 500) || 'no answer'}`);
    }
    return box;
  }

  /** Whether the box is still up. */
  get alive(): boolean {
    return !this.ended;
  }

  /** Host uid of the box's processes (for audits and tests). */
  get uid(): number {
    return this.slot.uid;
  }

  /** The box's cgroup directories (the slot's and the session sub-group's), for audits and tests. */
  get cgroupDirs(): readonly string[] {
    const slotDirs = this.slot.cgroups === null ? [] : Object.values(this.slot.cgroups);
    return [...slotDirs, ...(this.group?.cgroupDirs ?? [])];
  }

  /** CPU time (ns) every process of the session sub-group has used so far, or null without cgroups (for audits and tests). */
  sessionCpuNs(): number | null {
    return this.group === null ? null : this.group.cpuNs();
  }

  /** The agent's next message, or null when the box ended (or after `timeoutMs`, when given). */
  private nextMessage(timeoutMs: number | null): Promise<AgentMessage | null> {
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | null = null;
      const waiter = (message: AgentMessage | null): void => {
        if (timer !== null) clearTimeout(timer);
        resolve(message);
      };
      this.replies.push(waiter);
      if (timeoutMs !== null) {
        timer = setTimeout(() => {
          const at = this.replies.indexOf(waiter);
          if (at >= 0) this.replies.splice(at, 1);
          resolve(null);
        }, timeoutMs);
      }
    });
  }

  /** Pids of the session sub-group's processes, or null when the group cannot be read. */
  private groupPids(): number[] | null {
    if (this.group === null) return null;
    try {
      return readFileSync(join(this.group.dirs.pids, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
    } catch {
      return null;
    }
  }

  /** SIGCONT to every process of the sub-group (before a step: what `freezeGroup` stopped runs again). */
  private thawGroup(): void {
    for (const pid of this.groupPids() ?? []) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // gone already
      }
    }
  }

  /**
   * Stop every process of the session sub-group, so that nothing of a session runs between its steps (not even
   * a REPL that faked the end of its step, nor a child it forked a moment before the step ended) and an idle
   * session costs no CPU. A process is signalled once it is seen; rounds repeat until one read of the group lists
   * only processes signalled before it, each with every thread stopped. Sound because a process with SIGSTOP
   * pending cannot complete a fork (the kernel restarts it), so every child made before its parent was signalled
   * is in the next read. Gives up after `FREEZE_ROUNDS` (a task stuck in the kernel): returns false.
   */
  private async freezeGroup(): Promise<boolean> {
    if (this.group === null) return false;
    const signalled = new Set<number>();
    for (let round = 0; round < FREEZE_ROUNDS; round++) {
      const pids = this.groupPids();
      if (pids === null) return false;
      let settled = true;
      for (const pid of pids) {
        if (signalled.has(pid) && stopped(pid)) continue;
        settled = false;
        signalled.add(pid);
        try {
          process.kill(pid, 'SIGSTOP');
        } catch {
          // gone already
        }
      }
      if (settled) return true;
      await (round < 20 ? new Promise((resolve) => setImmediate(resolve)) : sleep(1));
    }
    return false;
  }

  /**
   * Freeze the sub-group (`freezeGroup`) and prove it still: its CPU counter must not move over `STILL_CHECK_MS`
   * once every process reads as stopped. A group that cannot be frozen, or keeps running, after three tries is
   * killed instead (the agent then replaces the REPL before the next step and reports it), so nothing of a
   * session runs between its steps however loaded the host is.
   */
  private async holdStill(): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (!(await this.freezeGroup())) break;
      const before = this.sessionCpuNs();
      await sleep(STILL_CHECK_MS);
      if (before !== null && this.sessionCpuNs() === before) return;
    }
    await this.killGroup(() => false);
  }

  /**
   * SIGKILL every task of the session sub-group until it holds none (fork bombs included), or until `done()` says
   * the step's answer came: the agent answers only once it has swept the group, and then starts a fresh REPL in it,
   * which a kill still going would take down during the next step (a runtime_error the program never caused).
   */
  private async killGroup(done: () => boolean): Promise<void> {
    for (let round = 0; round < 500; round++) {
      if (done()) return;
      const pids = this.groupPids();
      if (pids === null || pids.length === 0) return;
      for (const pid of pids) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone already
        }
      }
      await sleep(round < 10 ? 1 : 10);
    }
  }

  private peakKiB(): number {
    if (this.group === null) return 0;
    try {
      return Math.floor(Number(readFileSync(join(this.group.dirs.memory, 'memory.max_usage_in_bytes'), 'utf8')) / 1024);
    } catch {
      return 0;
    }
  }

  /**
   * Run one step (`code` for the REPL) under `limits` (CPU, wall, memory, processes, output; see the module
   * comment). Never throws, and always ends: within the wall bound, plus `AGENT_GRACE_MS` when the agent does not
   * answer after the kill (then the box is killed: `boxReplaced`). A box that is gone, or an agent that breaks its
   * protocol, is `internal_error`.
   */
  async step(code: string, limits: SessionBoxLimits, signal?: AbortSignal): Promise<BoxStepResult> {
    const startedMs = performance.now();
    const failed = (reason: string): BoxStepResult => ({
      status: 'internal_error', exitCode: null, signal: null, stdout: '', stderr: '', stdoutTruncated: false, stderrTruncated: false,
      cpuMs: 0, wallMs: Math.round(performance.now() - startedMs), memoryKiB: 0, restarted: false, replacedBefore: null, boxReplaced: false,
      killedProcesses: 0, reason, extra: null,
    });
    if (this.ended) return failed('the session box has ended');
    // Ranges are checked where limits enter (LIMIT_RANGES, src/limits.ts); a value no Node timer takes (above 2^31 - 1
    // ms, or not an integer) must never get this far, and is refused rather than firing at once.
    for (const [name, ms] of [['wallMs', limits.wallMs], ['cpuMs', limits.cpuMs]] as const) {
      if (!Number.isInteger(ms) || ms < 1 || ms > MAX_TIMER_DELAY_MS) return failed(`the step's ${name} (${ms}) is not a timer delay`);
    }
    let cpuBefore = 0;
    let oomBefore = 0;
    try {
      if (this.group !== null) {
        this.group.setLimits({ memoryKiB: limits.memoryKiB, processes: limits.processes });
        const usage = this.group.usage();
        cpuBefore = usage.cpuNs;
        oomBefore = usage.oomKills;
      }
    } catch (error) {
      return failed(`cannot set the session's limits: ${(error as Error).message}`);
    }
    this.thawGroup();
    let killed: 'cpu' | 'wall' | 'cancel' | null = null;
    let graceTimer: NodeJS.Timeout | null = null;
    let abandoned = false;
    let answered = false;
    let killing = Promise.resolve();
    const kill = (why: 'cpu' | 'wall' | 'cancel'): void => {
      if (killed !== null) return;
      killed = why;
      killing = this.killGroup(() => answered);
      // The agent answers once the group is empty; if it does not, the box goes and the step answers alone.
      graceTimer = setTimeout(() => {
        abandoned = true;
        this.launched.kill('the session agent did not answer after the step was killed');
      }, AGENT_GRACE_MS);
    };
    const wallTimer = setTimeout(() => kill('wall'), limits.wallMs);
    // A caller that gave up (the client hung up) does not leave its step running to its limits.
    const cancel = (): void => kill('cancel');
    if (signal?.aborted === true) kill('cancel');
    signal?.addEventListener('abort', cancel, { once: true });
    const stopCpuWatch = this.watchCpu(limits.cpuMs, cpuBefore, () => kill('cpu'));
    const reply = this.nextMessage(null);
    const text = Buffer.from(code, 'utf8');
    this.launched.stdin.write(`step ${limits.outputBytes} ${text.length}\n`);
    this.launched.stdin.write(text);
    const message = await reply;
    answered = true;
    clearTimeout(wallTimer);
    stopCpuWatch();
    if (graceTimer !== null) clearTimeout(graceTimer);
    signal?.removeEventListener('abort', cancel);
    // No kill of this step may reach into the next one (nor the fresh REPL the agent starts after answering).
    await killing;
    if (message !== null) await this.holdStill();
    const wallMs = Math.round(performance.now() - startedMs);
    if (message === null) {
      if (abandoned) return this.abandonedStep(killed!, limits, wallMs);
      return failed('the session box ended during the step');
    }
    let agent: AgentResult;
    try {
      agent = JSON.parse(message.line) as AgentResult;
      if (agent.op !== 'result') throw new Error(`unexpected answer ${message.line.slice(0, 200)}`);
    } catch (error) {
      return failed(`the session agent broke its protocol: ${(error as Error).message}`);
    }
    return this.stepResult(agent, message, limits, { killed, wallMs, cpuBefore, oomBefore });
  }

  /**
   * Poll the session group's CPU time (ns, from `cpuBefore`) and call `over` once a step has used more than `cpuMs`
   * (ms). A poll comes when the rest of the budget could be used up on every core at once, at least 2 ms apart, so a
   * step overruns its CPU limit by at most one poll interval. Returns the function that stops the polling.
   */
  private watchCpu(cpuMs: number, cpuBefore: number, over: () => void): () => void {
    const cores = availableParallelism();
    let timer: NodeJS.Timeout | null = null;
    const poll = (): void => {
      timer = null;
      if (this.group === null) return;
      let usedMs: number;
      try {
        usedMs = (this.group.cpuNs() - cpuBefore) / 1e6;
      } catch {
        return;
      }
      if (usedMs > cpuMs) {
        over();
        return;
      }
      timer = setTimeout(poll, Math.max(2, (cpuMs - usedMs) / cores));
    };
    timer = setTimeout(poll, Math.max(2, cpuMs / cores));
    return () => {
      if (timer !== null) clearTimeout(timer);
    };
  }

  /** The answer of a step whose agent stayed silent after its kill: the box was killed with everything in it. */
  private abandonedStep(killed: 'cpu' | 'wall' | 'cancel', limits: SessionBoxLimits, wallMs: number): BoxStepResult {
    const why = killed === 'cancel' ? CANCELLED_REASON
      : killed === 'cpu' ? `the step used more than ${limits.cpuMs} ms of CPU time` : `the step ran longer than ${limits.wallMs} ms of wall time`;
    return {
      status: killed === 'cancel' ? 'internal_error' : 'time_limit_exceeded', exitCode: null, signal: null, stdout: '', stderr: '',
      stdoutTruncated: false, stderrTruncated: false, cpuMs: 0, wallMs, memoryKiB: 0, restarted: true, replacedBefore: null, boxReplaced: true,
      killedProcesses: 0, extra: null,
      reason: `${why}; the session agent did not answer within ${AGENT_GRACE_MS} ms of the kill, so the whole box was killed`,
    };
  }

  /** A step's result from the agent's answer and the sub-group's counters. */
  private stepResult(agent: AgentResult, message: AgentMessage, limits: SessionBoxLimits,
    run: { readonly killed: 'cpu' | 'wall' | 'cancel' | null; readonly wallMs: number; readonly cpuBefore: number; readonly oomBefore: number }): BoxStepResult {
    const { killed, wallMs } = run;
    let cpuMs = 0;
    let oomKills = 0;
    try {
      if (this.group !== null) {
        const usage = this.group.usage();
        cpuMs = Math.round((usage.cpuNs - run.cpuBefore) / 1e6);
        oomKills = usage.oomKills - run.oomBefore;
      }
    } catch {
      // the figures stay 0; the status below still holds
    }
    const memoryKiB = this.peakKiB();
    // The REPL's own report of a finished step; a malformed one (model code can write it) is the program's doing.
    let exitCode: number | null = agent.exitCode;
    let extra: unknown = null;
    if (agent.ended === 'done') {
      exitCode = null;
      try {
        const report = JSON.parse(agent.report ?? '') as { exitCode?: unknown; extra?: unknown };
        exitCode = Number.isInteger(report.exitCode) ? report.exitCode as number : null;
        extra = report.extra ?? null;
      } catch {
        // stays null: a runtime_error below
      }
    }
    let status: ExecutionStatus;
    let reason: string | undefined;
    if (killed === 'cancel') {
      status = 'internal_error';
      reason = CANCELLED_REASON;
    } else if (agent.ended === 'output') {
      status = 'output_limit_exceeded';
      reason = `the step wrote more than ${limits.outputBytes} bytes to ${agent.stdoutTruncated ? 'stdout' : 'stderr'}`;
    } else if (killed === 'cpu' || cpuMs > limits.cpuMs) {
      status = 'time_limit_exceeded';
      reason = `the step used more than ${limits.cpuMs} ms of CPU time`;
    } else if (killed === 'wall') {
      status = 'time_limit_exceeded';
      reason = `the step ran longer than ${limits.wallMs} ms of wall time`;
    } else if (oomKills > 0) {
      status = 'memory_limit_exceeded';
      reason = `the session's processes went past ${limits.memoryKiB} KiB of memory`;
    } else if (agent.ended === 'died') {
      status = 'runtime_error';
      reason = `the ${this.kind === 'bash' ? 'shell' : 'REPL'} ended (${agent.signal ?? `exit ${agent.exitCode}`})`;
    } else {
      status = exitCode === 0 ? 'ok' : 'runtime_error';
    }
    return {
      status, exitCode: agent.ended === 'output' || killed !== null ? null : exitCode, signal: agent.signal,
      stdout: message.stdout.toString('utf8'), stderr: message.stderr.toString('utf8'),
      stdoutTruncated: agent.stdoutTruncated, stderrTruncated: agent.stderrTruncated,
      cpuMs, wallMs, memoryKiB, restarted: agent.restarted, replacedBefore: agent.replacedBefore ?? null, boxReplaced: false,
      killedProcesses: agent.killedProcesses ?? 0, extra,
      ...(reason === undefined ? {} : { reason }),
    };
  }

  /**
   * End the box: every process killed, cgroups emptied (crucible-box reports only then), the sub-group's
   * directories removed, the slot freed. Idempotent; never throws.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (!this.ended) {
        this.launched.stdin.end();
        this.launched.kill('session closed');
      }
      await this.boxResult;
    })();
    return this.closing;
  }
}

/** Whether every thread of process `pid` is stopped (or gone): its tasks' states in /proc are T, t, Z, X or x. */
function stopped(pid: number): boolean {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return true;
  }
  for (const tid of tasks) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue;
    }
    const state = stat[stat.lastIndexOf(')') + 2];
    if (state !== 'T' && state !== 't' && state !== 'Z' && state !== 'X' && state !== 'x') return false;
  }
  return true;
}

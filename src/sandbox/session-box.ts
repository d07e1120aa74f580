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
 *   Output is capped per stream by the agent (it drains both pipes while the step runs). Processes a step
 *   leaves running are killed by the agent when it ends; the REPL itself is stopped (SIGSTOP to every task of
 *   the sub-group, from outside) until the next step continues it: nothing of a session runs between steps.
 * - `close()` kills the launcher (the box's pid namespace dies with its pid 1), waits until crucible-box reports
 *   every process gone and the cgroups empty, removes the sub-group's directories and frees the slot. The
 *   session's files lived only in the box's tmpfs and go with its mount namespace.
 * - A session may work on a prepared workspace (a repository: `WorkspaceMount`), mounted copy-on-write at its box
 *   path by crucible-box (src/sandbox/native/layers.h) on a tmpfs of the session's disk quota: what the session
 *   writes lives in that tmpfs and dies with the box, so a reset (a new box) is pristine and the prepared layers are
 *   never written. Such a box runs as uid 1000 inside and has a loopback of its own.
 */
import { availableParallelism } from 'node:os';
import { readFileSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
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
/** Memory of the box beyond the session's own (the agent, bubblewrap), KiB. */
const AGENT_MEMORY_KIB = 16 * 1024;
/** A box lives at most this long, whatever its TTL (the launcher's wall bound), ms. */
const BOX_LIFETIME_MS = 24 * 3600 * 1000;
/** How long the agent may take to say it is ready, ms. */
const READY_TIMEOUT_MS = 30_000;

/** What the agent reports for one step (see src/sandbox/native/session-agent.c). */
interface AgentResult {
  readonly op: 'result';
  readonly ended: 'done' | 'died' | 'output';
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly restarted: boolean;
  /** The REPL's end-of-step line, as written (untrusted: model code runs in the REPL's process). */
  readonly report: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  readonly killedProcesses?: number;
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
  private readonly replies: ((line: string) => void)[] = [];
  private ended = false;
  private closing: Promise<void> | null = null;

  private constructor(readonly kind: BoxKind, private readonly launched: Launched, private readonly group: Subgroup | null,
    private readonly slot: Slot, private readonly release: (slot: Slot) => void, readonly boxResult: Promise<ExecutionResult>) {
    const lines = createInterface({ input: launched.stdout });
    lines.on('line', (line) => this.replies.shift()?.(line));
    void boxResult.then(() => {
      this.ended = true;
      for (const waiter of this.replies.splice(0)) waiter('');
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
          cpuMs: BOX_LIFETIME_MS, wallMs: BOX_LIFETIME_MS, memoryKiB: limits.memoryKiB + AGENT_MEMORY_KIB,
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
    const ready = await box.nextLine(READY_TIMEOUT_MS);
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

  private nextLine(timeoutMs: number | null): Promise<string> {
    if (this.ended) return Promise.resolve('');
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | null = null;
      const waiter = (line: string): void => {
        if (timer !== null) clearTimeout(timer);
        resolve(line);
      };
      this.replies.push(waiter);
      if (timeoutMs !== null) {
        timer = setTimeout(() => {
          const at = this.replies.indexOf(waiter);
          if (at >= 0) this.replies.splice(at, 1);
          resolve('');
        }, timeoutMs);
      }
    });
  }

  /**
   * Send `signal` to every task of the session sub-group: SIGSTOP when a step ends and SIGCONT before the next,
   * so nothing of a session runs between its steps (not even a REPL that faked the end of its step), and an
   * idle session costs no CPU. Returns false when the group cannot be read.
   */
  private signalGroup(signal: 'SIGSTOP' | 'SIGCONT'): boolean {
    if (this.group === null) return false;
    let pids: string[];
    try {
      pids = readFileSync(join(this.group.dirs.pids, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean);
    } catch {
      return false;
    }
    for (const pid of pids) {
      try {
        process.kill(Number(pid), signal);
      } catch {
        // gone already
      }
    }
    return true;
  }

  /** SIGKILL every task of the session sub-group until it holds none (fork bombs included). */
  private async killGroup(): Promise<void> {
    if (this.group === null) return;
    const procs = join(this.group.dirs.pids, 'cgroup.procs');
    for (let round = 0; round < 500; round++) {
      let pids: string[];
      try {
        pids = readFileSync(procs, 'utf8').split('\n').filter(Boolean);
      } catch {
        return;
      }
      if (pids.length === 0) return;
      for (const pid of pids) {
        try {
          process.kill(Number(pid), 'SIGKILL');
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
   * comment). Never throws: a box that is gone, or an agent that breaks its protocol, is `internal_error`.
   */
  async step(code: string, limits: SessionBoxLimits, signal?: AbortSignal): Promise<BoxStepResult> {
    const startedMs = performance.now();
    const failed = (reason: string): BoxStepResult => ({
      status: 'internal_error', exitCode: null, signal: null, stdout: '', stderr: '', stdoutTruncated: false, stderrTruncated: false,
      cpuMs: 0, wallMs: Math.round(performance.now() - startedMs), memoryKiB: 0, restarted: false, killedProcesses: 0, reason, extra: null,
    });
    if (this.ended) return failed('the session box has ended');
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
    this.signalGroup('SIGCONT');
    let killed: 'cpu' | 'wall' | 'cancel' | null = null;
    const kill = (why: 'cpu' | 'wall' | 'cancel'): void => {
      if (killed !== null) return;
      killed = why;
      void this.killGroup();
    };
    const wallTimer = setTimeout(() => kill('wall'), limits.wallMs);
    // A caller that gave up (the client hung up) does not leave its step running to its limits.
    const cancel = (): void => kill('cancel');
    signal?.addEventListener('abort', cancel, { once: true });
    const cores = availableParallelism();
    let cpuTimer: NodeJS.Timeout | null = null;
    const watchCpu = (): void => {
      if (this.group === null) return;
      let usedMs: number;
      try {
        usedMs = (this.group.cpuNs() - cpuBefore) / 1e6;
      } catch {
        return;
      }
      if (usedMs > limits.cpuMs) {
        kill('cpu');
        return;
      }
      cpuTimer = setTimeout(watchCpu, Math.max(2, (limits.cpuMs - usedMs) / cores));
    };
    cpuTimer = setTimeout(watchCpu, Math.max(2, limits.cpuMs / cores));
    const reply = this.nextLine(null);
    const text = Buffer.from(code, 'utf8');
    this.launched.stdin.write(`step ${limits.outputBytes} ${text.length}\n`);
    this.launched.stdin.write(text);
    const line = await reply;
    clearTimeout(wallTimer);
    if (cpuTimer !== null) clearTimeout(cpuTimer);
    this.signalGroup('SIGSTOP');
    signal?.removeEventListener('abort', cancel);
    const wallMs = Math.round(performance.now() - startedMs);
    if (line === '') return failed('the session box ended during the step');
    let agent: AgentResult;
    try {
      agent = JSON.parse(line) as AgentResult;
      if (agent.op !== 'result') throw new Error(`unexpected answer ${line.slice(0, 200)}`);
    } catch (error) {
      return failed(`the session agent broke its protocol: ${(error as Error).message}`);
    }
    let cpuMs = 0;
    let oomKills = 0;
    try {
      if (this.group !== null) {
        const usage = this.group.usage();
        cpuMs = Math.round((usage.cpuNs - cpuBefore) / 1e6);
        oomKills = usage.oomKills - oomBefore;
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
      stdout: agent.stdout, stderr: agent.stderr, stdoutTruncated: agent.stdoutTruncated, stderrTruncated: agent.stderrTruncated,
      cpuMs, wallMs, memoryKiB, restarted: agent.restarted, killedProcesses: agent.killedProcesses ?? 0, extra,
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

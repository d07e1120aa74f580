/**
 * The sandbox: run ONE command in isolation and report what happened. Knows nothing of tests or languages.
 *
 * Layers, outside in: `Sandbox` (owns the slot pool: concurrency, per-slot uid/cgroups/namespaces), then one
 * of two paths with the same verdicts and report format:
 * - one-shot runs on a root host with cgroups: `SlotBox` (frames to and from a slot's long-lived box) →
 *   `crucible-slot` (root, outside: limits, tree kill, report) → bubblewrap (once per slot) → `box-server`
 *   (a new pid, mount and IPC namespace per run) → the run's init (exact exit status) → program;
 * - long-lived boxes (harness zygotes), other mounts, and hosts without root: `launch` (spawns the native
 *   launcher, drains outputs, classifies) → `crucible-box` (root, outside: limits, tree kill, report) →
 *   bubblewrap (namespaces, mounts, per run) → `box-init` (pid 1: exact exit status) → program.
 * On both paths the run's init makes the run's only writable space (one tmpfs of `limits.diskKiB` at /box, /tmp
 * and /dev/shm) and the program runs without capabilities under the seccomp filter (native/seccomp.h); a box
 * whose pid 1 is a trusted harness gets the filter from bubblewrap and sub-cgroups for its untrusted parts
 * (subgroups.ts). Slot pools are named by random instance ids and kept alive by flock (instance.ts), so several
 * Crucible processes, in any pid namespaces, share a host. Every run can be cancelled (`request.signal`);
 * `selfTest` proves a real boxed program runs confined.
 */
import { chmodSync, chownSync, mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { detectCapabilities, type Capabilities } from './capabilities.js';
import { removeTree } from './cleanup.js';
import { launch, type Capture, type Launched, type PassedDescriptor } from './launch.js';
import { MemorySampler } from './memory-sampler.js';
import { SLOT_BOX_MOUNT_POINTS } from './bwrap-args.js';
import { SlotBox } from './slot-box.js';
import { SlotPool, type Slot } from './slots.js';
import { Subgroup, SUBGROUPS_ENV, type SubgroupDescriptors } from './subgroups.js';
import { makeOutboxDir, makeWorkspaceDir, readOutbox, validateWorkspace } from './workspace.js';
import {
  CANCELLED_REASON, DEFAULT_DISK_KIB, internalRun, MAX_DISK_KIB, MIN_DISK_KIB, type ExecutionResult, type Limits, type SandboxRequest,
} from './types.js';

export * from './types.js';
export { detectCapabilities, type Capabilities } from './capabilities.js';
export { BOX_HARNESS, BOX_WORK } from './bwrap-args.js';
export type { SubgroupUsage } from './subgroups.js';

/** Options of a sandbox. `slots` defaults to the number of cores. */
export interface SandboxOptions {
  /** One-shot execution slots (default: the number of cores, at most 16). */
  readonly slots?: number;
  /**
   * Slots for long-lived boxes, i.e. warm Python harnesses (default: `slots` + 1). One more harness than
   * cores is meant to keep the cores busy while a harness waits on its own process hand-offs (fork, exit,
   * pipes); on the 16,400-sample HumanEval benchmark 3 harnesses on 2 cores measured within noise of 2 but never
   * slower (docs/PERFORMANCE.md).
   * Limits are CPU time, so sharing a core does not change a verdict.
   */
  readonly boxSlots?: number;
  /** Run without bubblewrap when isolation is unavailable. Never the default; the CLI flag is explicit. */
  readonly unsafeNoSandbox?: boolean;
  /**
   * Serve one-shot runs from a long-lived box per slot (default: true where the host allows it: root,
   * writable cgroups, slot network namespaces). False forces a fresh bubblewrap per run.
   */
  readonly slotBoxes?: boolean;
}

/** Raised when the host cannot isolate programs and the caller did not opt out explicitly. */
/**
 * True for a file name a request may place in the work directory: relative, components separated by single `/`,
 * none empty or starting with `.` (so no `.` or `..`; the box's copy-in skips hidden names), no NUL, at most 16
 * levels (the box copies 16 levels deep); e.g. `main.py`, `pkg/util.py`. Directories are made as needed.
 */
export function isBoxRelativePath(name: string): boolean {
  if (name.length === 0 || name.includes('\0')) return false;
  const parts = name.split('/');
  return parts.length <= 16 && parts.every((part) => part !== '' && !part.startsWith('.'));
}

export class IsolationUnavailableError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`refusing to run untrusted code without isolation (pass --unsafe-no-sandbox to override):\n  - ${problems.join('\n  - ')}`);
    this.name = 'IsolationUnavailableError';
  }
}

/** Control of one sub-cgroup of an open box from outside it (see `SandboxRequest.subgroups`). */
export interface SubgroupControl {
  /** Set the group's memory (KiB) and process limits and reset its memory peak; call between jobs. @throws Error */
  setLimits(limits: { readonly memoryKiB: number; readonly processes: number }): void;
  /** CPU time (ns) of every task ever in the group. @throws Error */
  cpuNs(): number;
  /** The group's kernel counters: CPU ns ever used, OOM kills by its limit. @throws Error */
  usage(): { readonly cpuNs: number; readonly oomKills: number };
}

/** A long-lived box (e.g. a harness zygote) with its standard streams; holds one slot until it ends. */
export interface OpenBox {
  readonly launched: Launched;
  /** Settles when every process of the box is gone; the slot is released then. */
  readonly result: Promise<ExecutionResult>;
  /** The box's sub-cgroups by name (empty when the request asked for none or the host has no cgroups). */
  readonly subgroups: ReadonlyMap<string, SubgroupControl>;
}

/** What `Sandbox.selfTest` found: a real boxed program ran confined, or the reason it did not. */
export type SelfTestResult =
  | { readonly ok: true; readonly wallMs: number; readonly path: 'slot box' | 'bubblewrap per run' | 'unsafe' }
  | { readonly ok: false; readonly wallMs: number; readonly reason: string };

const PATH = '/usr/local/bin:/usr/bin:/bin';
/** Limits of the self-test's probe program. */
const SELF_TEST_LIMITS: Limits = {
  cpuMs: 2000, wallMs: 10_000, memoryKiB: 64 * 1024, processes: 8, fileSizeKiB: 1024, openFiles: 32,
  outputBytes: 64 * 1024, diskKiB: MIN_DISK_KIB,
};
const MAX_SUBGROUPS = 8;

/** The holder of boxes opened without one (`Sandbox.open`'s default). */
const NO_HOLDER: object = Object.freeze({});
/** A run without sub-cgroups (see `Sandbox.subgroupsFor`). */
const NO_SUBGROUPS = { groups: new Map<string, Subgroup>(), passed: [], env: {} } as const;

/**
 * One box of `Sandbox.runConnected` while it runs: its standard input (open until the caller ends it) and output
 * (the caller reads it), its result once every process of it is gone, and `kill` (the result then says
 * `run cancelled: <reason>`).
 */
export interface ConnectedBox {
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly result: Promise<ExecutionResult>;
  kill(reason: string): void;
}

/** The complete environment of a program in a box: a fixed base, then the request's variables. */
function boxEnvironment(request: SandboxRequest, extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return { PATH, HOME: '/tmp', LANG: 'C.UTF-8', ...request.env, ...extra };
}

/** Check what a caller may get wrong. @throws RangeError naming the field. */
function validate(request: SandboxRequest): void {
  const disk = request.limits.diskKiB;
  if (disk !== undefined && (!Number.isInteger(disk) || disk < MIN_DISK_KIB || disk > MAX_DISK_KIB)) {
    throw new RangeError(`limits.diskKiB must be an integer from ${MIN_DISK_KIB} to ${MAX_DISK_KIB}, got ${disk}`);
  }
  const subgroups = Object.keys(request.subgroups ?? {});
  if (subgroups.length > 0 && request.asPid1 !== true) throw new RangeError('subgroups need a box whose pid 1 is the program (asPid1)');
  if (subgroups.length > MAX_SUBGROUPS) throw new RangeError(`at most ${MAX_SUBGROUPS} subgroups`);
  if (request.asPid1 && Object.keys(request.files ?? {}).length > 0) throw new RangeError('files need box-init: not with asPid1');
  if (request.asPid1 && request.keepWorkDir) throw new RangeError('keepWorkDir needs box-init: not with asPid1');
  for (const name of Object.keys(request.files ?? {})) {
    if (!isBoxRelativePath(name)) throw new RangeError(`file name not allowed in a box: ${name}`);
  }
  if (request.workspace !== undefined) validateWorkspace(request.workspace, request.asPid1 === true);
  if (request.outbox && request.asPid1) throw new RangeError('an outbox needs box-init: not with asPid1');
}

/** A pool of isolated execution slots. Create once per process; `close()` releases everything. */
export class Sandbox {
  private runCounter = 0;
  private readonly subgroups = new Map<Slot, Map<string, Subgroup>>();

  /**
   * `pool` serves one-shot runs; `boxPool` serves long-lived boxes (harness zygotes), so warm harnesses never
   * starve one-shot runs of slots (and vice versa) when both kinds of work share a sandbox.
   */
  private constructor(readonly capabilities: Capabilities, private readonly pool: SlotPool,
    private readonly boxPool: SlotPool, readonly unsafeNoSandbox: boolean,
    private readonly slotBoxes: ReadonlyMap<Slot, SlotBox> | null) {}

  /**
   * Detect capabilities and set up the slots.
   * @throws IsolationUnavailableError when bubblewrap/user namespaces/the launcher are missing and
   *   `unsafeNoSandbox` is not set.
   */
  static create(options: SandboxOptions = {}): Sandbox {
    const caps = detectCapabilities();
    const unsafe = options.unsafeNoSandbox === true;
    if (!caps.isolation && !unsafe) throw new IsolationUnavailableError(caps.problems);
    if (!caps.nativeBuilt) throw new IsolationUnavailableError(caps.problems);
    const count = Math.min(16, Math.max(1, options.slots ?? availableParallelism()));
    const pool = SlotPool.create(caps, count);
    let boxPool: SlotPool;
    try {
      boxPool = SlotPool.create(caps, Math.min(17, Math.max(1, options.boxSlots ?? count + 1)));
    } catch (error) {
      pool.close();
      throw error;
    }
    const slotBoxesPossible = caps.isolation && pool.slots.every((slot) => slot.cgroups !== null && slot.netns !== null);
    const slotBoxes = options.slotBoxes !== false && slotBoxesPossible
      ? new Map(pool.slots.map((slot) => [slot, new SlotBox(slot, pool.root, caps.bwrapPath ?? '/usr/bin/bwrap',
        Sandbox.placement(slot.index, count))]))
      : null;
    return new Sandbox(caps, pool, boxPool, unsafe && !caps.isolation, slotBoxes);
  }
  /**
   * Core a slot box is placed on: slot i on core i when there are no more slots than cores (each run then
   * starts on the core whose caches hold its box; `npm run bench:sandbox`, 3 alternating runs each:
   * `python3 -c pass` adds 0.46-1.20 ms placed vs 2.90-4.04 ms floating, and 660-820 vs 629-648 C runs/s with
   * both slots busy; docs/PERFORMANCE.md); null (the scheduler places) when slots outnumber cores. Placement
   * is not a limit: verdicts are on CPU time, and a program may widen its own affinity.
   */
  private static placement(index: number, slots: number): number | null {
    const cores = availableParallelism();
    return slots <= cores ? index % cores : null;
  }

  /** Number of slots (maximum concurrent executions). */
  get slotCount(): number {
    return this.pool.slots.length;
  }

  /**
   * Register `holder` (a judge's warm harness pool) as keeping long-lived boxes that may sit idle: when `open` by
   * another holder (or by nobody) finds every box slot taken, it asks the others in turn to give one idle box back
   * (`reclaim` closes one and returns true, or returns false when none is idle), and a holder asks
   * `boxSlotWantedByOthers` before it keeps a box idle. So several judges sharing one sandbox never wait forever on
   * each other's idle harnesses. Returns the function that unregisters the holder.
   */
  onBoxSlotWanted(holder: object, reclaim: () => boolean): () => void {
    this.boxReclaimers.set(holder, reclaim);
    return () => { this.boxReclaimers.delete(holder); };
  }

  private readonly boxReclaimers = new Map<object, () => boolean>();
  /** Callers of `open` waiting for a box slot now, by holder (`open`'s `holder`; a shared key for none). */
  private readonly boxWaiters = new Map<object, number>();

  /** True when a caller other than `holder` waits for a box slot now: `holder` should give a box back, not idle it. */
  boxSlotWantedByOthers(holder: object): boolean {
    for (const [waiter, count] of this.boxWaiters) if (waiter !== holder && count > 0) return true;
    return false;
  }

  /** Ask holders other than `requester` for one idle box; its slot comes back to `boxPool` when the box has ended. */
  private reclaimIdleBox(requester: object): void {
    for (const [holder, reclaim] of this.boxReclaimers) if (holder !== requester && reclaim()) return;
  }

  /** Wait for a box slot on behalf of `holder`, first asking other holders for an idle box when none is free. */
  private async acquireBoxSlot(holder: object, signal: AbortSignal | undefined): Promise<Slot | null> {
    if (this.boxPool.busy === this.boxPool.slots.length) this.reclaimIdleBox(holder);
    this.boxWaiters.set(holder, (this.boxWaiters.get(holder) ?? 0) + 1);
    try {
      return await this.boxPool.acquire(signal);
    } finally {
      const left = (this.boxWaiters.get(holder) ?? 1) - 1;
      if (left === 0) this.boxWaiters.delete(holder);
      else this.boxWaiters.set(holder, left);
    }
  }

  /** Number of slots for long-lived boxes (maximum concurrent warm harnesses). */
  get boxSlotCount(): number {
    return this.boxPool.slots.length;
  }

  /** True when one-shot runs are served by long-lived slot boxes (see `SandboxOptions.slotBoxes`). */
  get usesSlotBoxes(): boolean {
    return this.slotBoxes !== null;
  }

  /**
   * Pids of the long-lived slot boxes themselves (bubblewrap and box-server of each box that is up): the only
   * processes of a slot's uid that may exist between runs. For audits and tests.
   */
  get slotBoxProcessIds(): readonly number[] {
    return [...this.slotBoxes?.values() ?? []].flatMap((box) => box.processIds());
  }

  /** Host uids of the slots (every process of a run runs as one of them); for audits and tests. */
  get slotUids(): readonly number[] {
    return [...this.pool.slots, ...this.boxPool.slots].map((slot) => slot.uid);
  }

  /** Slots running something now. */
  get busySlots(): number {
    return this.pool.busy;
  }

  /** Instance ids of this sandbox's two slot pools (they name its work roots, cgroups and namespace files). */
  get instanceIds(): readonly string[] {
    return [this.pool.instanceId, this.boxPool.instanceId];
  }

  /**
   * The run's host work directory, made only when the run needs one: files to copy in, a kept copy-out, or the
   * unsafe mode (the program's working directory). Null otherwise.
   */
  private prepare(slot: Slot, request: SandboxRequest): string | null {
    const files = Object.entries(request.files ?? {});
    if (files.length === 0 && !request.keepWorkDir && !request.outbox && !this.unsafeNoSandbox) return null;
    const workDir = SlotPool.makeWorkDir(slot, `run${++this.runCounter}`);
    if (request.outbox) makeOutboxDir(workDir, slot, chownSync);
    // Parent directories first (shallowest first). The work directory is fresh and nothing of the program has run
    // yet, so no component can be a symlink.
    const dirs = new Set<string>();
    for (const [name] of files) {
      for (let dir = dirname(name); dir !== '.'; dir = dirname(dir)) dirs.add(dir);
    }
    for (const dir of [...dirs].sort((a, b) => a.split('/').length - b.split('/').length)) {
      mkdirSync(join(workDir, dir), { mode: 0o755 });
      chownSync(join(workDir, dir), slot.uid, slot.gid);
    }
    for (const [name, contents] of files) {
      const path = join(workDir, name);
      writeFileSync(path, contents, { flag: 'wx' });
      chownSync(path, slot.uid, slot.gid);
    }
    return workDir;
  }

  /** The sub-groups a request asks for, made under the slot's cgroups with their initial limits. */
  private subgroupsFor(slot: Slot, request: SandboxRequest): {
    readonly groups: ReadonlyMap<string, Subgroup>; readonly passed: readonly PassedDescriptor[];
    readonly env: Readonly<Record<string, string>>;
  } {
    const wanted = Object.entries(request.subgroups ?? {});
    if (wanted.length === 0 || slot.cgroups === null || this.unsafeNoSandbox) return { groups: new Map(), passed: [], env: {} };
    let made = this.subgroups.get(slot);
    if (!made) this.subgroups.set(slot, made = new Map());
    const groups = new Map<string, Subgroup>();
    const passed: PassedDescriptor[] = [];
    const told: Record<string, SubgroupDescriptors> = {};
    wanted.forEach(([name, limits], index) => {
      let group = made!.get(name);
      if (!group) made!.set(name, group = Subgroup.make(slot.cgroups!, name));
      group.setLimits(limits);
      const descriptors = group.descriptors(index);
      passed.push(...descriptors.passed);
      told[name] = descriptors.told;
      groups.set(name, group);
    });
    return { groups, passed, env: { [SUBGROUPS_ENV]: JSON.stringify(told) } };
  }

  private start(slot: Slot, workDir: string | null, request: SandboxRequest, capture: Capture, enforceCpu: boolean,
    subgroups: ReturnType<Sandbox['subgroupsFor']>, workspaceDir: string | null = null): Launched {
    return launch({
      workspace: request.workspace && workspaceDir !== null
        ? { dir: workspaceDir, mount: request.workspace, sizeKiB: request.limits.diskKiB ?? DEFAULT_DISK_KIB } : null,
      outbox: request.outbox === true,
      loopback: request.loopback === true,
      ...(request.memorySampleMs === undefined ? {} : { memorySampleMs: request.memorySampleMs }),
      slot,
      workDir,
      keep: request.keepWorkDir === true,
      argv: request.argv,
      env: boxEnvironment(request, subgroups.env),
      mounts: request.mounts ?? [],
      limits: request.limits,
      bwrapPath: this.capabilities.bwrapPath ?? '/usr/bin/bwrap',
      unsafeNoSandbox: this.unsafeNoSandbox,
      enforceCpu,
      asPid1: request.asPid1 === true,
      passed: subgroups.passed,
      drain: [...subgroups.groups.values()].flatMap((group) => group.cgroupDirs),
      // crucible-box enforces the wall bound itself; this only catches a launcher that hangs.
      watchdogMs: enforceCpu ? request.limits.wallMs + 30_000 : null,
    }, request.stdin, capture);
  }

  /**
   * Run one command in a fresh box and return its verdict. With `keepWorkDir` the work directory survives
   * (made world-readable, for use as a read-only artifact mount) and its path is returned; release it with
   * `discard`. Aborting `request.signal` cancels the run (`cancelled: true`). Never throws for anything the
   * program does, nor for a failure of the host (that is `internal_error`); the slot is always released.
   * @throws RangeError for an invalid request; Error when the sandbox is closed.
   */
  async run(request: SandboxRequest): Promise<{ readonly result: ExecutionResult; readonly workDir?: string }> {
    validate(request);
    const slot = await this.pool.acquire(request.signal);
    if (slot === null) {
      if (request.signal?.aborted) return { result: internalRun(CANCELLED_REASON, { cancelled: true }) };
      throw new Error('sandbox is closed');
    }
    try {
      return await this.runInSlot(slot, request);
    } finally {
      this.pool.release(slot);
    }
  }

  /** The body of `run` once a slot is held: never throws, always removes what it made unless kept. */
  private async runInSlot(slot: Slot, request: SandboxRequest): Promise<{ readonly result: ExecutionResult; readonly workDir?: string }> {
    let workDir: string | null = null;
    let workspaceDir: string | null = null;
    let result: ExecutionResult;
    try {
      if (request.workspace !== undefined && (this.unsafeNoSandbox || !this.capabilities.isRoot)) {
        return { result: internalRun('a prepared workspace needs the sandbox on a root host (slot uids): this host has neither') };
      }
      workDir = this.prepare(slot, request);
      if (request.workspace !== undefined) workspaceDir = makeWorkspaceDir(slot, `ws${++this.runCounter}`);
      const subgroups = this.subgroupsFor(slot, request);
      const pending = this.inSlotBox(slot, workDir, request);
      if (pending !== null) {
        result = await pending;
      } else {
        const launched = this.start(slot, workDir, request, 'all', true, subgroups, workspaceDir);
        const abort = (): void => launched.kill(CANCELLED_REASON);
        request.signal?.addEventListener('abort', abort, { once: true });
        if (request.signal?.aborted) abort();
        try {
          result = await launched.result;
        } finally {
          request.signal?.removeEventListener('abort', abort);
        }
      }
      if (request.outbox && workDir !== null && result.status !== 'internal_error') {
        result = { ...result, outbox: readOutbox(workDir, 0) };
      }
    } catch (error) {
      result = internalRun(`sandbox: ${(error as Error).message}`);
    }
    return Sandbox.finished(request, workDir, workspaceDir, result);
  }

  /**
   * A run's answer once it ended: its work directory kept (world-readable) when asked, else removed; its workspace
   * directory (`workspace` runs) always removed. Never throws.
   */
  private static finished(request: SandboxRequest, workDir: string | null, workspaceDir: string | null, result: ExecutionResult):
    { readonly result: ExecutionResult; readonly workDir?: string } {
    // The workspace's directory held only mounts of the run's own mount namespace, gone with its last process.
    const wsProblem = workspaceDir === null ? null : removeTree(workspaceDir);
    if (request.keepWorkDir && workDir !== null && result.status !== 'internal_error' && wsProblem === null) {
      try {
        chmodSync(workDir, 0o755);
        return { result, workDir };
      } catch (error) {
        result = internalRun(`sandbox: ${(error as Error).message}`);
      }
    }
    const problem = workDir === null ? null : removeTree(workDir);
    if (wsProblem !== null) return { result: internalRun(`clean-up of the run's workspace directory failed: ${wsProblem}`, { wallMs: result.wallMs }) };
    if (problem !== null) return { result: internalRun(`clean-up of the run's work directory failed: ${problem}`, { wallMs: result.wallMs }) };
    return { result };
  }

  /**
   * Run several commands at once, each in a fresh box of its own slot (its own uid, cgroups and namespaces: no
   * box can see, signal or read another's processes or files), with their standard streams open to the caller:
   * `connect` gets, right after every box started, each one's stdin (open until the caller ends it) and stdout (to
   * read; its bytes count against the box's output limit), and may kill a box; stderr is drained into the result.
   * The boxes of one call get their slots together (`SlotPool.acquireMany`), so concurrent calls never deadlock
   * each other. The boxes run on the per-run bubblewrap path (slot boxes take stdin whole). Resolves when every box
   * ended, with each one's result (and kept work directory, as `run`); aborting `signal` kills every box
   * (`cancelled`). Never throws for what a program does; a box that could not start is `internal_error`, and the
   * others are killed then. Requests take no `stdin`, `asPid1` or `subgroups`.
   * @throws RangeError for an invalid request or more boxes than this sandbox has slots; Error when it is closed.
   */
  async runConnected(requests: readonly SandboxRequest[], connect: (boxes: readonly ConnectedBox[]) => void,
    signal?: AbortSignal): Promise<readonly { readonly result: ExecutionResult; readonly workDir?: string }[]> {
    for (const request of requests) {
      validate(request);
      if (request.stdin !== undefined || request.asPid1 || request.subgroups !== undefined || request.signal !== undefined) {
        throw new RangeError('a connected box takes no stdin, asPid1, subgroups or signal of its own');
      }
    }
    const slots = await this.pool.acquireMany(requests.length, signal);
    if (slots === null) {
      if (signal?.aborted) return requests.map(() => ({ result: internalRun(CANCELLED_REASON, { cancelled: true }) }));
      throw new Error('sandbox is closed');
    }
    try {
      return await this.runConnectedIn(slots, requests, connect, signal);
    } finally {
      for (const slot of slots) this.pool.release(slot);
    }
  }

  /** The body of `runConnected` once its slots are held: never throws, always removes what it made unless kept. */
  private async runConnectedIn(slots: readonly Slot[], requests: readonly SandboxRequest[],
    connect: (boxes: readonly ConnectedBox[]) => void, signal?: AbortSignal): Promise<{ readonly result: ExecutionResult; readonly workDir?: string }[]> {
    const workDirs: (string | null)[] = [];
    const launched: Launched[] = [];
    const killAll = (reason: string): void => launched.forEach((l) => l.kill(reason));
    const abort = (): void => killAll(CANCELLED_REASON);
    let failure: string | null = null;
    try {
      requests.forEach((request, i) => {
        workDirs.push(this.prepare(slots[i]!, request));
        launched.push(this.start(slots[i]!, workDirs[i]!, request, 'stream', true, NO_SUBGROUPS));
      });
      signal?.addEventListener('abort', abort, { once: true });
      if (signal?.aborted) abort();
      connect(launched.map((l) => ({ stdin: l.stdin, stdout: l.stdout, result: l.result, kill: (reason: string) => l.kill(reason) })));
    } catch (error) {
      failure = `sandbox: ${(error as Error).message}`;
      killAll(failure);
    }
    const results = await Promise.all(launched.map((l) => l.result));
    signal?.removeEventListener('abort', abort);
    return requests.map((request, i) => Sandbox.finished(request, workDirs[i] ?? null, null,
      failure !== null || results[i] === undefined ? internalRun(failure ?? 'the box did not start') : results[i]!));
  }

  /**
   * Serve a one-shot run from the slot's long-lived box when it can: every mount is a work directory of this
   * sandbox, read-only, at one of the box's mount points. Null when the run needs the per-run bubblewrap path.
   */
  private inSlotBox(slot: Slot, workDir: string | null, request: SandboxRequest): Promise<ExecutionResult> | null {
    const box = this.slotBoxes?.get(slot);
    if (!box || request.asPid1 || request.workspace !== undefined || request.outbox || request.loopback) return null;
    const root = this.pool.root + '/';
    const mounts: { source: string; boxPath: string }[] = [];
    for (const mount of request.mounts ?? []) {
      if (mount.writable || !mount.hostPath.startsWith(root) || !SLOT_BOX_MOUNT_POINTS.includes(mount.boxPath)) return null;
      mounts.push({ source: mount.hostPath.slice(root.length), boxPath: mount.boxPath });
    }
    // The slot box's runs use the slot's memory group too: sampled from here, around the job (`memory-sampler.ts`).
    const sampler = request.memorySampleMs !== undefined && slot.cgroups ? new MemorySampler(slot.cgroups.memory, request.memorySampleMs) : null;
    const running = box.run({
      workDir: workDir === null ? null : workDir.slice(root.length),
      keep: request.keepWorkDir === true,
      signal: request.signal,
      mounts,
      argv: request.argv,
      env: boxEnvironment(request),
      limits: request.limits,
      stdin: request.stdin,
    });
    if (sampler === null) return running;
    return running.then((result) => ({ ...result, memoryIntegral: sampler.stop() }), (error: unknown) => {
      sampler.stop();
      throw error;
    });
  }

  /**
   * Remove a work directory kept by `run({keepWorkDir: true})`. Never throws: returns null, or the reason the
   * directory is still there (the sandbox's `close` tries again).
   */
  discard(workDir: string): string | null {
    return removeTree(workDir);
  }

  /**
   * Open a long-lived box: the caller talks to the program over stdin/stdout. The launcher bounds wall time,
   * memory and processes for the box's whole life; CPU per job is the harness's business, with the box's
   * sub-groups (`request.subgroups`, controlled through `OpenBox.subgroups`) for exact accounting of untrusted
   * parts of its tree. Aborting `request.signal` kills the box. `holder` names who keeps the box (see
   * `onBoxSlotWanted`); none by default.
   * @throws RangeError for an invalid request; Error when the sandbox is closed or the box cannot be started.
   */
  async open(request: SandboxRequest, holder: object = NO_HOLDER): Promise<OpenBox> {
    validate(request);
    const slot = await this.acquireBoxSlot(holder, request.signal);
    if (slot === null) throw new Error(request.signal?.aborted ? CANCELLED_REASON : 'sandbox is closed');
    let workDir: string | null = null;
    try {
      workDir = this.prepare(slot, request);
      const subgroups = this.subgroupsFor(slot, request);
      const launched = this.start(slot, workDir, request, 'none', false, subgroups);
      const abort = (): void => launched.kill(CANCELLED_REASON);
      request.signal?.addEventListener('abort', abort, { once: true });
      const dir = workDir;
      const result = launched.result.finally(() => {
        request.signal?.removeEventListener('abort', abort);
        if (dir !== null) removeTree(dir);
        this.boxPool.release(slot);
      });
      return { launched, result, subgroups: subgroups.groups };
    } catch (error) {
      if (workDir !== null) removeTree(workDir);
      this.boxPool.release(slot);
      throw error;
    }
  }

  /**
   * Run a real tiny program in a box, as every run is (a slot box where one-shot runs use them), and check it
   * ran confined: exit 0, seccomp filter on, no_new_privs, no effective capability. Cheap (one run, ~ms) and
   * never throws: for health checks, which must not say "ok" while the sandbox cannot run anything.
   */
  async selfTest(signal?: AbortSignal): Promise<SelfTestResult> {
    const started = Date.now();
    const failed = (reason: string): SelfTestResult => ({ ok: false, wallMs: Date.now() - started, reason });
    try {
      const { result } = await this.run({ argv: ['/usr/bin/cat', '/proc/self/status'], limits: SELF_TEST_LIMITS, signal });
      if (result.status !== 'ok') return failed(`the probe program ended ${result.status}: ${result.reason ?? ''}`.trim());
      const field = (name: string): string | undefined => new RegExp(`^${name}:\\s*(\\S+)`, 'm').exec(result.stdout)?.[1];
      if (field('Seccomp') !== '2') return failed(`the probe program ran without the seccomp filter (Seccomp: ${field('Seccomp')})`);
      if (field('NoNewPrivs') !== '1') return failed('the probe program ran without no_new_privs');
      if (!this.unsafeNoSandbox && field('CapEff') !== '0000000000000000') return failed(`the probe program held capabilities (CapEff: ${field('CapEff')})`);
      const path = this.unsafeNoSandbox ? 'unsafe' : this.slotBoxes !== null ? 'slot box' : 'bubblewrap per run';
      return { ok: true, wallMs: Date.now() - started, path };
    } catch (error) {
      return failed(`the sandbox could not run the probe: ${(error as Error).message}`);
    }
  }

  /** Release slots, namespaces, cgroups (with their sub-groups) and work directories, and the instance locks. */
  close(): void {
    for (const box of this.slotBoxes?.values() ?? []) box.close();
    this.pool.close();
    this.boxPool.close();
  }
}

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
 */
import { chmodSync, chownSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { detectCapabilities, type Capabilities } from './capabilities.js';
import { launch, type Launched } from './launch.js';
import { SLOT_BOX_MOUNT_POINTS } from './bwrap-args.js';
import { SlotBox } from './slot-box.js';
import { SlotPool, type Slot } from './slots.js';
import type { ExecutionResult, SandboxRequest } from './types.js';

export * from './types.js';
export { detectCapabilities, type Capabilities } from './capabilities.js';
export { BOX_HARNESS, BOX_WORK } from './bwrap-args.js';

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
export class IsolationUnavailableError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`refusing to run untrusted code without isolation (pass --unsafe-no-sandbox to override):\n  - ${problems.join('\n  - ')}`);
    this.name = 'IsolationUnavailableError';
  }
}

/** A long-lived box (e.g. a harness zygote) with its standard streams; holds one slot until it ends. */
export interface OpenBox {
  readonly launched: Launched;
  /** Settles when every process of the box is gone; the slot is released then. */
  readonly result: Promise<ExecutionResult>;
}

const PATH = '/usr/local/bin:/usr/bin:/bin';

let runCounter = 0;

/** The complete environment of a program in a box: a fixed base, then the request's variables. */
function boxEnvironment(request: SandboxRequest): Record<string, string> {
  return { PATH, HOME: '/tmp', LANG: 'C.UTF-8', ...request.env };
}

/** A pool of isolated execution slots. Create once per process; `close()` releases everything. */
export class Sandbox {
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
    const boxPool = SlotPool.create(caps, Math.min(17, Math.max(1, options.boxSlots ?? count + 1)));
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

  private prepare(slot: Slot, request: SandboxRequest): string {
    const workDir = SlotPool.makeWorkDir(slot, `run${++runCounter}`);
    for (const [name, contents] of Object.entries(request.files ?? {})) {
      if (name.includes('/') || name.startsWith('.')) throw new Error(`file name not allowed in a box: ${name}`);
      const path = join(workDir, name);
      writeFileSync(path, contents);
      chownSync(path, slot.uid, slot.gid);
    }
    return workDir;
  }

  private start(slot: Slot, workDir: string, request: SandboxRequest, capture: boolean, enforceCpu: boolean): Launched {
    return launch({
      slot,
      workDir,
      argv: request.argv,
      env: boxEnvironment(request),
      mounts: request.mounts ?? [],
      limits: request.limits,
      bwrapPath: this.capabilities.bwrapPath ?? '/usr/bin/bwrap',
      unsafeNoSandbox: this.unsafeNoSandbox,
      enforceCpu,
      asPid1: request.asPid1 === true,
    }, request.stdin, capture);
  }

  /**
   * Run one command in a fresh box and return its verdict. With `keepWorkDir` the work directory survives
   * (made world-readable, for use as a read-only artifact mount) and its path is returned; release it with
   * `discard`. Never throws for anything the program does; throws only for invalid requests.
   */
  async run(request: SandboxRequest): Promise<{ readonly result: ExecutionResult; readonly workDir?: string }> {
    const slot = await this.pool.acquire();
    let workDir: string | null = null;
    try {
      workDir = this.prepare(slot, request);
      const result = await (this.inSlotBox(slot, workDir, request) ?? this.start(slot, workDir, request, true, true).result);
      if (request.keepWorkDir) {
        chmodSync(workDir, 0o755);
        const kept = workDir;
        workDir = null;
        return { result, workDir: kept };
      }
      return { result };
    } finally {
      if (workDir !== null) rmSync(workDir, { recursive: true, force: true });
      this.pool.release(slot);
    }
  }

  /**
   * Serve a one-shot run from the slot's long-lived box when it can: every mount is a work directory of this
   * sandbox, read-only, at one of the box's mount points. Null when the run needs the per-run bubblewrap path.
   */
  private inSlotBox(slot: Slot, workDir: string, request: SandboxRequest): Promise<ExecutionResult> | null {
    const box = this.slotBoxes?.get(slot);
    if (!box || request.asPid1) return null;
    const root = this.pool.root + '/';
    const mounts: { source: string; boxPath: string }[] = [];
    for (const mount of request.mounts ?? []) {
      if (mount.writable || !mount.hostPath.startsWith(root) || !SLOT_BOX_MOUNT_POINTS.includes(mount.boxPath)) return null;
      mounts.push({ source: mount.hostPath.slice(root.length), boxPath: mount.boxPath });
    }
    return box.run({
      workDir: workDir.slice(root.length),
      mounts,
      argv: request.argv,
      env: boxEnvironment(request),
      limits: request.limits,
      stdin: request.stdin,
    });
  }

  /** Remove a work directory kept by `run({keepWorkDir: true})`. */
  discard(workDir: string): void {
    rmSync(workDir, { recursive: true, force: true });
  }

  /**
   * Open a long-lived box: the caller talks to the program over stdin/stdout. The launcher bounds wall time,
   * memory and processes for the box's whole life; CPU per job is the harness's business.
   */
  async open(request: SandboxRequest): Promise<OpenBox> {
    const slot = await this.boxPool.acquire();
    let workDir: string | null = null;
    try {
      workDir = this.prepare(slot, request);
      const launched = this.start(slot, workDir, request, false, false);
      const dir = workDir;
      const result = launched.result.finally(() => {
        rmSync(dir, { recursive: true, force: true });
        this.boxPool.release(slot);
      });
      return { launched, result };
    } catch (error) {
      if (workDir !== null) rmSync(workDir, { recursive: true, force: true });
      this.boxPool.release(slot);
      throw error;
    }
  }

  /** Release slots, namespaces, cgroups and work directories. */
  close(): void {
    for (const box of this.slotBoxes?.values() ?? []) box.close();
    this.pool.close();
    this.boxPool.close();
  }
}

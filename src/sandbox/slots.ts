/**
 * Sandbox slots: the per-concurrency resources one execution holds while it runs.
 *
 * A slot owns an unprivileged host uid/gid (so RLIMIT_NPROC and file ownership are per slot and a program
 * that escaped its namespaces would still be nobody), one cgroup per controller (memory, pids, cpuacct), and a
 * network namespace created once and re-entered by every run of the slot. Creating a network namespace costs
 * milliseconds per run (see docs/PERFORMANCE.md); a pre-made one is as isolated: it holds only a loopback
 * device that is down, and because it belongs to the host's root user namespace, nothing inside a box can
 * bring it up or add devices. Between runs no process of the slot survives (the supervisors check the cgroups
 * are empty). IPC namespaces are made per run (or per long-lived box), so SysV and POSIX IPC die with it.
 *
 * Every name a pool makes carries its instance id, and the pool holds the instance's lock for its life
 * (src/sandbox/instance.ts): several Crucible processes, in any pid namespaces, share a host without touching
 * each other's slots, and a dead one's leftovers are swept by the next to start.
 *
 * Resources are acquired in `SlotPool.create` and released in `SlotPool.close`, in reverse order.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Capabilities } from './capabilities.js';
import { removeTree } from './cleanup.js';
import { InstanceLock, NS_DIR, removeCgroup, removeNamespaceFile, STATE_DIR, sweepStaleInstances, UID_BLOCK_SIZE } from './instance.js';

/** One slot's cgroup directories (one per controller). */
export interface SlotCgroups {
  readonly memory: string;
  readonly pids: string;
  readonly cpuacct: string;
}

/** One slot's resources. `cgroups` is null when cgroups are not writable (RLIMIT_AS fallback). */
export interface Slot {
  readonly index: number;
  readonly uid: number;
  readonly gid: number;
  readonly cgroups: SlotCgroups | null;
  readonly netns: string | null;
  /** Host directory under which this slot's per-run work directories are made. */
  readonly workRoot: string;
}

/**
 * Persistent namespace files need a mount with private propagation: made once per host (per mount namespace),
 * under a lock so that two instances starting together do not stack two mounts.
 */
function ensureNamespaceDir(): void {
  mkdirSync(NS_DIR, { recursive: true });
  execFileSync('flock', [join(STATE_DIR, '.ns.lock'), 'sh', '-c',
    'mountpoint -q "$1" || { mount -t tmpfs -o size=1m,mode=0755 crucible-ns "$1" && mount --make-private "$1"; }', 'sh', NS_DIR]);
}

/** The cgroup v1 controller mounts of a host, for sweeping. */
function cgroupRoots(caps: Capabilities): string[] {
  return Object.values(caps.cgroupDirs).filter((dir): dir is string => typeof dir === 'string');
}

/** A caller waiting for `count` slots at once (`grant` null: the pool closed). */
interface Waiter {
  readonly count: number;
  readonly grant: (slots: Slot[] | null) => void;
}

/** The fixed set of slots of one Crucible pool (one instance). */
export class SlotPool {
  private readonly free: Slot[] = [];
  private readonly waiters: Waiter[] = [];
  private closed = false;

  /** `root` is the host directory holding every slot's work directories. */
  private constructor(readonly slots: readonly Slot[], readonly root: string, private readonly lock: InstanceLock) {
    this.free.push(...slots);
  }

  /** This pool's instance id (names its work root, cgroups and namespace files). */
  get instanceId(): string {
    return this.lock.id;
  }

  /**
   * Create `count` slots. With root and writable cgroup v1: cgroups, uids and namespaces; otherwise
   * plain work directories only (the caller decides whether that is acceptable). Sweeps dead instances first.
   * @throws Error when a namespace or cgroup cannot be created although the capabilities said it could.
   */
  static create(caps: Capabilities, count: number): SlotPool {
    if (count > UID_BLOCK_SIZE) throw new Error(`at most ${UID_BLOCK_SIZE} slots per pool`);
    const lock = InstanceLock.acquire((id) => join(tmpdir(), `crucible-${id}`), caps.isRoot);
    const root = join(tmpdir(), `crucible-${lock.id}`);
    const slots: Slot[] = [];
    try {
      if (caps.isRoot) {
        ensureNamespaceDir();
        sweepStaleInstances(cgroupRoots(caps));
      }
      mkdirSync(root, { recursive: true, mode: 0o711 });
      for (let index = 0; index < count; index++) {
        const tag = `${lock.id}-${index}`;
        let cgroups: SlotCgroups | null = null;
        if (caps.cgroupWritable && caps.cgroupDirs.memory && caps.cgroupDirs.pids && caps.cgroupDirs.cpuacct) {
          const make = (dir: string): string => {
            const path = join(dir, 'crucible', tag);
            mkdirSync(path, { recursive: true });
            return path;
          };
          cgroups = { memory: make(caps.cgroupDirs.memory), pids: make(caps.cgroupDirs.pids), cpuacct: make(caps.cgroupDirs.cpuacct) };
        }
        let netns: string | null = null;
        if (caps.isRoot) {
          netns = join(NS_DIR, `${tag}-net`);
          closeSync(openSync(netns, 'w'));
          execFileSync('unshare', [`--net=${netns}`, 'true']);
        }
        const workRoot = join(root, `slot${index}`);
        mkdirSync(workRoot, { recursive: true, mode: 0o711 });
        const uid = caps.isRoot ? lock.uidBase + index : (process.getuid?.() ?? 0);
        const gid = caps.isRoot ? lock.uidBase + index : (process.getgid?.() ?? 0);
        slots.push({ index, uid, gid, cgroups, netns, workRoot });
      }
    } catch (error) {
      new SlotPool(slots, root, lock).close();
      throw error;
    }
    return new SlotPool(slots, root, lock);
  }

  /**
   * Wait for a free slot; resolves null when `signal` aborts first (the caller gave up; nothing is held).
   * @throws Error after `close()`.
   */
  async acquire(signal?: AbortSignal): Promise<Slot | null> {
    return (await this.acquireMany(1, signal))?.[0] ?? null;
  }

  /**
   * Wait for `count` free slots at once (the boxes of one interactive run: each its own uid and cgroups), granted
   * together or not at all, so two callers each holding part of what they need can never wait on each other.
   * Waiters are served in order: one waiting for two slots is not overtaken by later single-slot callers.
   * Resolves null when `signal` aborts first (nothing is held).
   * @throws Error after `close()`; RangeError when the pool has fewer than `count` slots.
   */
  acquireMany(count: number, signal?: AbortSignal): Promise<Slot[] | null> {
    if (this.closed) return Promise.reject(new Error('sandbox is closed'));
    if (!Number.isInteger(count) || count < 1 || count > this.slots.length) {
      return Promise.reject(new RangeError(`${count} slots asked at once; this sandbox has ${this.slots.length}`));
    }
    if (signal?.aborted) return Promise.resolve(null);
    if (this.waiters.length === 0 && this.free.length >= count) return Promise.resolve(this.free.splice(-count));
    return new Promise((resolve) => {
      const waiter: Waiter = {
        count,
        grant: (given) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(given);
        },
      };
      const onAbort = (): void => {
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
        resolve(null);
        // A waiter for several slots that leaves may unblock the ones behind it.
        this.serve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  /** Return a slot; the longest waiters get their slots as soon as enough are free. */
  release(slot: Slot): void {
    this.free.push(slot);
    this.serve();
  }

  /** Grant waiters in order while the first one's count is free. */
  private serve(): void {
    while (this.waiters.length > 0 && this.free.length >= this.waiters[0]!.count) {
      const waiter = this.waiters.shift()!;
      waiter.grant(this.free.splice(-waiter.count));
    }
  }

  /** Number of slots currently running something. */
  get busy(): number {
    return this.slots.length - this.free.length;
  }

  /** Release every resource (namespaces, cgroups with their sub-groups, work directories, the lock). Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) waiter.grant(null);
    for (const slot of this.slots) {
      if (slot.netns !== null) removeNamespaceFile(slot.netns);
      if (slot.cgroups) for (const dir of Object.values(slot.cgroups)) removeCgroup(dir);
    }
    removeTree(this.root);
    this.lock.release();
  }

  /** Make a fresh private work directory for one run, owned by the slot's uid. */
  static makeWorkDir(slot: Slot, name: string): string {
    const dir = join(slot.workRoot, name);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chownSync(dir, slot.uid, slot.gid);
    return dir;
  }
}

/**
 * Sandbox slots: the per-concurrency resources one execution holds while it runs.
 *
 * A slot owns an unprivileged host uid/gid (so RLIMIT_NPROC and file ownership are per slot and a program
 * that escaped its namespaces would still be nobody), one cgroup per controller (memory, pids, cpuacct), and a
 * network and an IPC namespace created once and re-entered by every run of the slot. Creating a network
 * namespace costs milliseconds per run (see docs/PERFORMANCE.md); a pre-made one is as isolated: it holds only
 * a loopback device that is down, and because it belongs to the host's root user namespace, nothing inside a
 * box can bring it up or add devices. Between runs no process of the slot survives (the launcher checks the
 * cgroups are empty), so no socket or SysV IPC object is left: the launcher removes IPC objects too.
 *
 * Resources are acquired in `SlotPool.create` and released in `SlotPool.close`, in reverse order.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, rmSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Capabilities } from './capabilities.js';

/** One slot's resources. `cgroups` is empty when cgroups are not writable (RLIMIT_AS fallback). */
export interface Slot {
  readonly index: number;
  readonly uid: number;
  readonly gid: number;
  readonly cgroups: { readonly memory: string; readonly pids: string; readonly cpuacct: string } | null;
  readonly netns: string | null;
  readonly ipcns: string | null;
  /** Host directory under which this slot's per-run work directories are made. */
  readonly workRoot: string;
}

const NS_DIR = '/run/crucible/ns';
let poolInstances = 0;

function ensureNamespaceDir(): void {
  mkdirSync(NS_DIR, { recursive: true });
  try {
    execFileSync('mountpoint', ['-q', NS_DIR]);
  } catch {
    // Persistent namespace files need a mount with private propagation.
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,mode=0755', 'crucible-ns', NS_DIR]);
    execFileSync('mount', ['--make-private', NS_DIR]);
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Remove namespaces and cgroups left by Crucible processes that died without closing their pool. */
function sweepStale(caps: Capabilities): void {
  if (existsSync(NS_DIR)) {
    for (const name of readdirSync(NS_DIR)) {
      const pid = Number(name.split('-')[0]);
      if (Number.isInteger(pid) && !pidAlive(pid)) {
        try {
          execFileSync('umount', [join(NS_DIR, name)], { stdio: 'ignore' });
        } catch {
          // already unmounted
        }
        rmSync(join(NS_DIR, name), { force: true });
      }
    }
  }
  for (const dir of Object.values(caps.cgroupDirs)) {
    const base = join(dir, 'crucible');
    if (!existsSync(base)) continue;
    for (const name of readdirSync(base)) {
      const pid = Number(name.split('-')[0]);
      if (Number.isInteger(pid) && !pidAlive(pid)) {
        try {
          rmdirSync(join(base, name));
        } catch {
          // still has tasks; leave it
        }
      }
    }
  }
}

/** The fixed set of slots of one Crucible process. */
export class SlotPool {
  private readonly free: Slot[] = [];
  private readonly waiters: ((slot: Slot) => void)[] = [];
  private closed = false;

  /** `root` is the host directory holding every slot's work directories. */
  private constructor(readonly slots: readonly Slot[], readonly root: string) {
    this.free.push(...slots);
  }

  /**
   * Create `count` slots. With root and writable cgroup v1: cgroups, uids and namespaces; otherwise
   * plain work directories only (the caller decides whether that is acceptable).
   * @throws Error when a namespace or cgroup cannot be created although the capabilities said it could.
   */
  static create(caps: Capabilities, count: number): SlotPool {
    const instance = ++poolInstances;
    const root = join(tmpdir(), `crucible-${process.pid}-${instance}`);
    mkdirSync(root, { recursive: true, mode: 0o711 });
    if (caps.isRoot) {
      ensureNamespaceDir();
      sweepStale(caps);
    }
    // Spread uids by pid so two Crucible processes on one host do not share RLIMIT_NPROC accounting.
    const uidBase = 200_000 + (process.pid % 50_000) * 128;
    const slots: Slot[] = [];
    for (let index = 0; index < count; index++) {
      const tag = `${process.pid}-${instance}-${index}`;
      let cgroups: Slot['cgroups'] = null;
      if (caps.cgroupWritable && caps.cgroupDirs.memory && caps.cgroupDirs.pids && caps.cgroupDirs.cpuacct) {
        const make = (dir: string): string => {
          const path = join(dir, 'crucible', tag);
          mkdirSync(path, { recursive: true });
          return path;
        };
        cgroups = { memory: make(caps.cgroupDirs.memory), pids: make(caps.cgroupDirs.pids), cpuacct: make(caps.cgroupDirs.cpuacct) };
      }
      let netns: string | null = null;
      let ipcns: string | null = null;
      if (caps.isRoot) {
        netns = join(NS_DIR, `${tag}-net`);
        ipcns = join(NS_DIR, `${tag}-ipc`);
        closeSync(openSync(netns, 'w'));
        closeSync(openSync(ipcns, 'w'));
        execFileSync('unshare', [`--net=${netns}`, `--ipc=${ipcns}`, 'true']);
      }
      const workRoot = join(root, `slot${index}`);
      mkdirSync(workRoot, { recursive: true, mode: 0o711 });
      const offset = (instance * 16 + index) % 128;
      const uid = caps.isRoot ? uidBase + offset : (process.getuid?.() ?? 0);
      const gid = caps.isRoot ? uidBase + offset : (process.getgid?.() ?? 0);
      slots.push({ index, uid, gid, cgroups, netns, ipcns, workRoot });
    }
    return new SlotPool(slots, root);
  }

  /** Wait for a free slot. @throws Error after `close()`. */
  acquire(): Promise<Slot> {
    if (this.closed) return Promise.reject(new Error('sandbox is closed'));
    const slot = this.free.pop();
    if (slot) return Promise.resolve(slot);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Return a slot; hands it straight to the longest waiter, if any. */
  release(slot: Slot): void {
    const waiter = this.waiters.shift();
    if (waiter) waiter(slot);
    else this.free.push(slot);
  }

  /** Number of slots currently running something. */
  get busy(): number {
    return this.slots.length - this.free.length;
  }

  /** Release every resource (namespaces, cgroups, work directories). Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const slot of this.slots) {
      for (const ns of [slot.netns, slot.ipcns]) {
        if (ns === null) continue;
        try {
          execFileSync('umount', [ns], { stdio: 'ignore' });
        } catch {
          // not mounted
        }
        rmSync(ns, { force: true });
      }
      if (slot.cgroups) {
        for (const dir of Object.values(slot.cgroups)) {
          try {
            rmdirSync(dir);
          } catch {
            // a task is still inside: left for the next start's sweep
          }
        }
      }
    }
    rmSync(this.root, { recursive: true, force: true });
  }

  /** Make a fresh private work directory for one run, owned by the slot's uid. */
  static makeWorkDir(slot: Slot, name: string): string {
    const dir = join(slot.workRoot, name);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chownSync(dir, slot.uid, slot.gid);
    return dir;
  }
}

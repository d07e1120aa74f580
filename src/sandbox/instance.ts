/**
 * Identity and liveness of one slot pool ("instance") on a host shared with other Crucible processes, which may
 * live in other pid namespaces (containers, `unshare --pid`) where pids say nothing.
 *
 * - Identity: a random id (`i` + 12 hex digits) names everything the instance makes: its work root
 *   (`$TMPDIR/crucible-<id>`), its cgroups (`crucible/<id>-<slot>`) and its namespace files
 *   (`/run/crucible/ns/<id>-<slot>-net`).
 * - Liveness: an exclusive `flock` on `/run/crucible/instances/<id>.lock`, held for the instance's life by a
 *   descriptor of the Node process (the lock belongs to the open file description, so it is released exactly
 *   when that process ends, however it ends). The file says where the work root is. It appears under its final
 *   name only once locked (locked under a temporary name, then renamed), so no sweeper can take a starting
 *   instance for a dead one.
 * - Uids: each instance holds a block of 128 host uids, chosen by taking the lock of
 *   `/run/crucible/uid-blocks/<n>.lock` (512 blocks: uids 200000-265535), so two live instances never share a
 *   uid (RLIMIT_NPROC is per uid; a process of one must never be able to signal another's).
 * - Sweep: at start, every instance whose lock can be taken is dead: its cgroups (tasks killed first), namespace
 *   files and work root are removed, then its lock file. Leftovers named by an id without a lock file are
 *   removed too. What another live instance owns is never touched; names of other formats are left alone.
 *
 * Node has no flock(2): `flock -xn 3` from util-linux locks the descriptor it inherits, which is Node's.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync,
  writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeTree } from './cleanup.js';

/** Host directory of Crucible's shared state (locks, namespace files). */
export const STATE_DIR = '/run/crucible';
/** Namespace files (a tmpfs with private propagation, made by slots.ts). */
export const NS_DIR = join(STATE_DIR, 'ns');
const INSTANCES_DIR = join(STATE_DIR, 'instances');
const UID_BLOCKS_DIR = join(STATE_DIR, 'uid-blocks');
const UID_FIRST = 200_000;
/** Uids per instance (slots of one pool use uidBase + index). */
export const UID_BLOCK_SIZE = 128;
const UID_BLOCKS = 512;
const ID_PATTERN = /^i[0-9a-f]{12}$/;

/** Take an exclusive lock on the open file description of `fd` without blocking; true when taken. */
function lockDescriptor(fd: number): boolean {
  const result = spawnSync('flock', ['-xn', '3'], { stdio: ['ignore', 'ignore', 'ignore', fd], timeout: 10_000 });
  if (result.error) throw new Error(`cannot run flock (util-linux) to lock an instance file: ${result.error.message}`);
  return result.status === 0;
}

function statMtimeMs(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Date.now();
  }
}

/** The id that names an instance's leftovers (`<id>-...`), or null for names of other formats. */
function ownerId(name: string): string | null {
  const id = name.split('-')[0] ?? '';
  return ID_PATTERN.test(id) ? id : null;
}

function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Kill every task of a cgroup directory and its sub-groups, then remove them (children first). Best effort. */
export function removeCgroup(dir: string): void {
  let children: string[] = [];
  try {
    children = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => join(dir, e.name));
  } catch {
    return;
  }
  for (const child of children) removeCgroup(child);
  for (let round = 0; round < 50; round++) {
    let tasks: string[] = [];
    try {
      tasks = readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean);
    } catch {
      return;
    }
    for (const pid of tasks) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // gone already
      }
    }
    try {
      rmdirSync(dir);
      return;
    } catch {
      sleepMs(20);
    }
  }
}

/** Unmount (if mounted here) and remove a namespace file. */
export function removeNamespaceFile(path: string): void {
  try {
    execFileSync('umount', [path], { stdio: 'ignore' });
  } catch {
    // not mounted in this mount namespace
  }
  rmSync(path, { force: true });
}

/** Remove everything named by `id` (the instance is known dead). */
function removeLeftovers(id: string, workRoot: string | null, cgroupRoots: readonly string[]): void {
  for (const root of cgroupRoots) {
    const base = join(root, 'crucible');
    if (!existsSync(base)) continue;
    for (const name of readdirSync(base)) if (ownerId(name) === id) removeCgroup(join(base, name));
  }
  if (existsSync(NS_DIR)) {
    for (const name of readdirSync(NS_DIR)) if (ownerId(name) === id) removeNamespaceFile(join(NS_DIR, name));
  }
  if (workRoot !== null && workRoot.startsWith('/') && workRoot.endsWith(`/crucible-${id}`)) removeTree(workRoot);
}

/**
 * Remove the leftovers of every dead instance on this host (see the module comment). `cgroupRoots` are the
 * cgroup v1 controller mounts Crucible makes groups in. Never touches what a live instance owns.
 */
export function sweepStaleInstances(cgroupRoots: readonly string[]): void {
  const locked = new Set<string>();
  if (existsSync(INSTANCES_DIR)) {
    for (const name of readdirSync(INSTANCES_DIR)) {
      const path = join(INSTANCES_DIR, name);
      const match = /^\.?(i[0-9a-f]{12})\.(lock|tmp)$/.exec(name);
      if (!match) continue;
      const id = match[1]!;
      // A temporary name belongs to an instance between creating and locking its file: leave young ones alone.
      if (match[2] === 'tmp' && Date.now() - statMtimeMs(path) < 60_000) {
        locked.add(id);
        continue;
      }
      let fd: number;
      try {
        fd = openSync(path, 'r');
      } catch {
        continue; // removed meanwhile
      }
      try {
        if (!lockDescriptor(fd)) {
          locked.add(id); // alive
          continue;
        }
        let workRoot: string | null = null;
        try {
          workRoot = (JSON.parse(readFileSync(fd, 'utf8')) as { workRoot?: string }).workRoot ?? null;
        } catch {
          // a lock file written only partly: its instance never started
        }
        removeLeftovers(id, workRoot, cgroupRoots);
        // Another instance sweeping at the same time may have removed it first (both open it, the first
        // sweeper unlinks it, the second gets the lock after): already gone is done.
        rmSync(path, { force: true });
      } finally {
        closeSync(fd);
      }
    }
  }
  // Leftovers whose instance has no lock file at all (it is made before anything else, so they are dead).
  const orphans = new Set<string>();
  for (const root of cgroupRoots) {
    const base = join(root, 'crucible');
    if (existsSync(base)) for (const name of readdirSync(base)) orphans.add(ownerId(name) ?? '');
  }
  if (existsSync(NS_DIR)) for (const name of readdirSync(NS_DIR)) orphans.add(ownerId(name) ?? '');
  for (const name of readdirSync(tmpdir())) {
    const match = /^crucible-(i[0-9a-f]{12})$/.exec(name);
    if (match) orphans.add(match[1]!);
  }
  for (const id of orphans) {
    if (id === '' || locked.has(id) || existsSync(join(INSTANCES_DIR, `${id}.lock`)) || existsSync(join(INSTANCES_DIR, `.${id}.tmp`))) continue;
    removeLeftovers(id, join(tmpdir(), `crucible-${id}`), cgroupRoots);
  }
}

/** The lock that keeps one instance alive, its id and its uid block. Create with `acquire`, end with `release`. */
export class InstanceLock {
  private constructor(readonly id: string, readonly uidBase: number, private readonly lockPath: string | null,
    private readonly fds: readonly number[]) {}

  /**
   * Make a new identity. As root: lock `<id>.lock` (recording `workRoot`) and a free uid block. Without root
   * (no uids, cgroups or namespaces to protect) only the random id is made.
   * @throws Error when util-linux `flock` is missing or no uid block is free.
   */
  static acquire(workRootFor: (id: string) => string, isRoot: boolean): InstanceLock {
    const id = `i${randomBytes(6).toString('hex')}`;
    if (!isRoot) return new InstanceLock(id, process.getuid?.() ?? 0, null, []);
    mkdirSync(INSTANCES_DIR, { recursive: true, mode: 0o755 });
    mkdirSync(UID_BLOCKS_DIR, { recursive: true, mode: 0o755 });
    const temporary = join(INSTANCES_DIR, `.${id}.tmp`);
    const lockPath = join(INSTANCES_DIR, `${id}.lock`);
    const fd = openSync(temporary, 'wx', 0o644);
    const fds = [fd];
    try {
      writeSync(fd, JSON.stringify({ workRoot: workRootFor(id), pid: process.pid, startedAt: new Date().toISOString() }));
      if (!lockDescriptor(fd)) throw new Error(`cannot lock ${temporary}`);
      renameSync(temporary, lockPath);
      const start = randomBytes(2).readUInt16LE(0) % UID_BLOCKS;
      for (let i = 0; i < UID_BLOCKS; i++) {
        const block = (start + i) % UID_BLOCKS;
        const blockFd = openSync(join(UID_BLOCKS_DIR, `${block}.lock`), 'a+', 0o644);
        if (lockDescriptor(blockFd)) {
          fds.push(blockFd);
          return new InstanceLock(id, UID_FIRST + block * UID_BLOCK_SIZE, lockPath, fds);
        }
        closeSync(blockFd);
      }
      throw new Error(`no free uid block: ${UID_BLOCKS} Crucible instances hold one each`);
    } catch (error) {
      for (const open of fds) closeSync(open);
      rmSync(temporary, { force: true });
      rmSync(lockPath, { force: true });
      throw error;
    }
  }

  /** Remove the lock file and release the locks (after everything the instance made is gone). Idempotent. */
  release(): void {
    if (this.lockPath !== null) rmSync(this.lockPath, { force: true });
    for (const fd of this.fds) {
      try {
        closeSync(fd);
      } catch {
        // closed already
      }
    }
    (this.fds as number[]).length = 0;
  }
}

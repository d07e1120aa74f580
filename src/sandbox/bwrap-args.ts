/**
 * The containment sequence, as bubblewrap arguments. Each line is one isolation step; together:
 * new user, pid, uts, IPC and mount namespaces (the network namespace is the slot's, entered by the
 * launcher), a read-only system, a fresh /proc and a read-only minimal /dev, and a writable space of the run's
 * disk quota at /box, /tmp and /dev/shm (one tmpfs, made by the run's init: src/sandbox/native/workspace.h),
 * nothing else of the host (no project tree, no home directories, no other runs).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { OUTBOX_BOX_PATH, type Mount } from './types.js';
import { HARNESS_DIR, NATIVE_DIR } from './paths.js';

/** Host paths under /etc that toolchains read (alternatives symlinks, loader cache, JDK and PHP config). */
const ETC_READ_ONLY = ['/etc/alternatives', '/etc/ld.so.cache', '/etc/java-17-openjdk', '/etc/php', '/etc/ssl/certs'];

/** Path of box-server inside a slot's long-lived box. */
const BOX_SERVER = '/crucible/bin/box-server';
/** Path of box-init inside every box. */
export const BOX_INIT = '/crucible/bin/box-init';
/** Mount point of the trusted harness scripts inside every box. */
export const BOX_HARNESS = '/crucible/harness';
/** Working directory of the program inside the box. */
export const BOX_WORK = '/box';
/** Where a per-run box's init finds the host work directory (the request's files; a kept run's copy-out). */
const BOX_HOST_WORK = '/crucible/work';
/** Empty mount point of a run's tmpfs while its init lays it out (workspace.h STAGE). */
const BOX_STAGE = '/crucible/rw';
/**
 * The uid and gid of a box with a prepared workspace, inside it (bubblewrap `--uid`/`--gid`; outside it is still
 * the slot's): the same in every slot, so tools that name their caches after the uid (jest's
 * `/tmp/jest_<uid in base 36>`) find the ones prepared with the environment.
 */
export const WORKSPACE_BOX_UID = 1000;
/** Descriptor on which crucible-box hands bubblewrap the seccomp program (`--seccomp-fd`, `--seccomp`). */
export const SECCOMP_FD = 5;

const etcMounts = ETC_READ_ONLY.filter((path) => existsSync(path));

/**
 * The box's /etc/hosts: Crucible's own (`harness/etc/hosts`, `localhost` as 127.0.0.1 only, as Debian's first line),
 * never the host's (its names are the host's business). Without it `localhost` does not resolve in a box (no
 * files, no DNS), and tests that serve on the loopback of a box that has one (repository tasks: axios's fetch
 * and http tests call `http://localhost:4444`) fail with network errors they never have on a developer's machine.
 */
const HOSTS_FILE = join(HARNESS_DIR, 'etc', 'hosts');

/** Mount points inside a slot's long-lived box where a run may mount a kept work directory (read-only). */
export const SLOT_BOX_MOUNT_POINTS: readonly string[] = ['/artifact'];
/** Where a slot's long-lived box sees the sandbox's work directories (covered in every run's own view). */
export const BOX_RUNS = '/crucible/runs';

/** What every box sees of the host: hostname, read-only /usr (and its symlinks), /etc's toolchain files and Crucible's hosts file, /proc, /dev. */
function systemView(): string[] {
  const args = [
    '--hostname', 'box',
    '--ro-bind', '/usr', '/usr',
    '--symlink', 'usr/bin', '/bin', '--symlink', 'usr/sbin', '/sbin',
    '--symlink', 'usr/lib', '/lib', '--symlink', 'usr/lib64', '/lib64',
  ];
  for (const path of etcMounts) args.push('--ro-bind', path, path);
  args.push('--ro-bind', HOSTS_FILE, '/etc/hosts');
  args.push('--proc', '/proc', '--dev', '/dev', '--dir', '/tmp');
  return args;
}

/**
 * bwrap argv (without `bwrap`) of a slot's long-lived box (see src/sandbox/native/box-server.c): the same
 * system view as a one-shot box, new user, pid, uts, IPC and mount namespaces (network: the slot's, entered by
 * crucible-slot), `runsRoot` at /crucible/runs for box-server to bind from, mount points for /box and
 * `SLOT_BOX_MOUNT_POINTS`, and box-server as pid 1 with CAP_SYS_ADMIN and CAP_SETPCAP in the box's user
 * namespace (to make each run's namespaces and mounts, and to drop the program's capabilities for good).
 */
export function slotBoxArguments(runsRoot: string): string[] {
  const args = [
    '--unshare-user', '--unshare-pid', '--unshare-uts', '--unshare-ipc', '--unshare-cgroup-try',
    '--die-with-parent', '--new-session', '--as-pid-1',
    '--cap-add', 'CAP_SYS_ADMIN', '--cap-add', 'CAP_SETPCAP',
    ...systemView(),
    '--dir', BOX_WORK, '--dir', BOX_STAGE,
  ];
  for (const point of SLOT_BOX_MOUNT_POINTS) args.push('--dir', point);
  args.push(
    '--bind', runsRoot, BOX_RUNS,
    '--ro-bind', join(NATIVE_DIR, 'box-server'), BOX_SERVER,
    '--ro-bind', HARNESS_DIR, BOX_HARNESS,
    '--remount-ro', '/', '--chdir', '/', '--clearenv',
    BOX_SERVER,
  );
  return args;
}

/**
 * bwrap argv (without the `bwrap` itself) for running `argv` in a fresh box.
 * - `workDir`: the host work directory (the request's files), bound at /crucible/work for box-init to copy into
 *   the run's tmpfs (and, with `keep`, to copy /box back into), then covered; null when there are no files.
 * - `diskBytes`: the run's writable space (/box, /tmp and /dev/shm together); box-init makes it.
 * - `asPid1`: run `argv` itself as pid 1 (a trusted harness): no box-init, so /box, /tmp and /dev/shm are three
 *   tmpfs of `diskBytes` each made by bubblewrap, /dev is remounted read-only, and bubblewrap installs the
 *   seccomp program crucible-box hands it on `SECCOMP_FD` (it then covers every process of the box).
 * `env` is the complete environment; `mounts` are extra binds (read-only unless `writable`).
 * `unshareNet` asks bwrap for a network namespace of its own (used when no slot namespace exists).
 * `workspace`: the merged tree crucible-box laid out (its `merged` host path, src/sandbox/native/layers.h), bound
 * at `boxPath` (read-only when `readOnly`). `outbox`: box-init gives the run an outbox at `OUTBOX_BOX_PATH`.
 */
export function bwrapArguments(options: {
  readonly workDir: string | null;
  readonly keep: boolean;
  readonly diskBytes: number;
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly mounts: readonly Mount[];
  readonly unshareNet: boolean;
  readonly asPid1: boolean;
  readonly workspace?: { readonly merged: string; readonly boxPath: string; readonly readOnly: boolean } | null;
  readonly outbox?: boolean;
}): string[] {
  const args: string[] = [
    '--unshare-user', '--unshare-pid', '--unshare-uts', '--unshare-ipc', '--unshare-cgroup-try',
    ...(options.unshareNet ? ['--unshare-net'] : []),
    ...(options.workspace ? ['--uid', String(WORKSPACE_BOX_UID), '--gid', String(WORKSPACE_BOX_UID)] : []),
    '--die-with-parent', '--new-session', '--as-pid-1',
    ...systemView(),
  ];
  const size = String(options.diskBytes);
  if (options.asPid1) {
    if (options.workDir !== null) throw new Error('a box whose pid 1 is the program takes no files');
    args.push('--size', size, '--tmpfs', BOX_WORK, '--size', size, '--tmpfs', '/tmp',
      '--size', size, '--tmpfs', '/dev/shm', '--remount-ro', '/dev');
  } else {
    // box-init lays out the run's tmpfs and drops the program's capabilities for good before it execs it.
    args.push('--cap-add', 'CAP_SYS_ADMIN', '--cap-add', 'CAP_SETPCAP', '--dir', BOX_WORK, '--dir', BOX_STAGE);
    if (options.workDir !== null) args.push('--bind', options.workDir, BOX_HOST_WORK);
    args.push('--ro-bind', join(NATIVE_DIR, 'box-init'), BOX_INIT);
  }
  args.push('--ro-bind', HARNESS_DIR, BOX_HARNESS);
  if (options.workspace) {
    args.push(options.workspace.readOnly ? '--ro-bind' : '--bind', options.workspace.merged, options.workspace.boxPath);
  }
  if (options.outbox) {
    if (options.asPid1 || options.workDir === null) throw new Error('an outbox needs box-init and a work directory');
    args.push('--dir', OUTBOX_BOX_PATH);
  }
  for (const mount of options.mounts) {
    args.push(mount.writable ? '--bind' : '--ro-bind', mount.hostPath, mount.boxPath);
  }
  // The box's root is bubblewrap's private tmpfs: make it read-only, so the run's own space is all it can write.
  args.push('--remount-ro', '/', '--chdir', options.asPid1 ? BOX_WORK : '/', '--clearenv');
  for (const [key, value] of Object.entries(options.env)) args.push('--setenv', key, value);
  if (options.asPid1) {
    args.push('--seccomp', String(SECCOMP_FD), ...options.argv);
  } else {
    args.push('--setenv', 'CRUCIBLE_STATUS_FD', '4', BOX_INIT, '--workspace', size);
    if (options.workDir !== null) args.push('--work', BOX_HOST_WORK, ...(options.keep ? ['--keep'] : []), ...(options.outbox ? ['--outbox'] : []));
    args.push('--', ...options.argv);
  }
  return args;
}

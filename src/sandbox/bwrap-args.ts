/**
 * The containment sequence, as bubblewrap arguments. Each line is one isolation step; together:
 * new user, pid, uts and mount namespaces (network and IPC namespaces are the slot's, entered by the
 * launcher), a read-only system, one private writable work directory at /box, a private /tmp, a fresh /proc
 * and a minimal /dev, nothing else of the host (no project tree, no home directories, no other runs).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Mount } from './types.js';
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

const etcMounts = ETC_READ_ONLY.filter((path) => existsSync(path));

/** Mount points inside a slot's long-lived box where a run may mount a kept work directory (read-only). */
export const SLOT_BOX_MOUNT_POINTS: readonly string[] = ['/artifact'];
/** Where a slot's long-lived box sees the sandbox's work directories (covered in every run's own view). */
export const BOX_RUNS = '/crucible/runs';

/** What every box sees of the host: hostname, read-only /usr (and its symlinks), /etc's toolchain files, /proc, /dev, /tmp. */
function systemView(): string[] {
  const args = [
    '--hostname', 'box',
    '--ro-bind', '/usr', '/usr',
    '--symlink', 'usr/bin', '/bin', '--symlink', 'usr/sbin', '/sbin',
    '--symlink', 'usr/lib', '/lib', '--symlink', 'usr/lib64', '/lib64',
  ];
  for (const path of etcMounts) args.push('--ro-bind', path, path);
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
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
    '--dir', BOX_WORK,
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
 * bwrap argv (without the `bwrap` itself) for running `argv` in a box whose work dir is `workDir`.
 * `env` is the complete environment; `mounts` are extra binds (read-only unless `writable`).
 * `withNetwork`/`withIpc` ask bwrap to make those namespaces itself (used when no slot namespace exists).
 */
export function bwrapArguments(options: {
  readonly workDir: string;
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly mounts: readonly Mount[];
  readonly unshareNet: boolean;
  readonly unshareIpc: boolean;
  /** Run argv as pid 1 itself (no box-init). */
  readonly asPid1?: boolean;
}): string[] {
  const args: string[] = [
    '--unshare-user', '--unshare-pid', '--unshare-uts', '--unshare-cgroup-try',
    ...(options.unshareNet ? ['--unshare-net'] : []),
    ...(options.unshareIpc ? ['--unshare-ipc'] : []),
    '--die-with-parent', '--new-session', '--as-pid-1',
    ...systemView(),
    '--bind', options.workDir, BOX_WORK,
    '--ro-bind', join(NATIVE_DIR, 'box-init'), BOX_INIT,
    '--ro-bind', HARNESS_DIR, BOX_HARNESS,
  ];
  for (const mount of options.mounts) {
    args.push(mount.writable ? '--bind' : '--ro-bind', mount.hostPath, mount.boxPath);
  }
  // The box's root is bubblewrap's private tmpfs: make it read-only, so /box and /tmp are the only writable places.
  args.push('--remount-ro', '/', '--chdir', BOX_WORK, '--clearenv');
  for (const [key, value] of Object.entries(options.env)) args.push('--setenv', key, value);
  if (options.asPid1) args.push(...options.argv);
  else args.push('--setenv', 'CRUCIBLE_STATUS_FD', '4', BOX_INIT, ...options.argv);
  return args;
}

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

/** Path of box-init inside every box. */
export const BOX_INIT = '/crucible/bin/box-init';
/** Mount point of the trusted harness scripts inside every box. */
export const BOX_HARNESS = '/crucible/harness';
/** Working directory of the program inside the box. */
export const BOX_WORK = '/box';

const etcMounts = ETC_READ_ONLY.filter((path) => existsSync(path));

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
    '--hostname', 'box',
    '--ro-bind', '/usr', '/usr',
    '--symlink', 'usr/bin', '/bin', '--symlink', 'usr/sbin', '/sbin',
    '--symlink', 'usr/lib', '/lib', '--symlink', 'usr/lib64', '/lib64',
  ];
  for (const path of etcMounts) args.push('--ro-bind', path, path);
  args.push(
    '--proc', '/proc',
    '--dev', '/dev',
    '--tmpfs', '/tmp',
    '--bind', options.workDir, BOX_WORK,
    '--ro-bind', join(NATIVE_DIR, 'box-init'), BOX_INIT,
    '--ro-bind', HARNESS_DIR, BOX_HARNESS,
  );
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

/**
 * Capability detection: can this host isolate untrusted programs, and with which mechanisms?
 * Used by `crucible doctor` and by the sandbox at start-up (it refuses to run untrusted code without
 * isolation unless the caller explicitly asked for `unsafe-no-sandbox`).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { CRUCIBLE_BOX, NATIVE_DIR } from './paths.js';

/** cgroup layout found on the host. */
export type CgroupVersion = 'v1' | 'v2' | 'none';

/** What the host offers; every field is a fact checked on this machine, `problems` explains what is missing. */
export interface Capabilities {
  readonly bwrapPath: string | null;
  readonly bwrapVersion: string | null;
  readonly userNamespaces: boolean;
  readonly isRoot: boolean;
  readonly cgroupVersion: CgroupVersion;
  /** cgroup v1 controller mount points we can create groups in (memory, pids, cpuacct), or v2 root. */
  readonly cgroupWritable: boolean;
  readonly cgroupDirs: { readonly memory?: string; readonly pids?: string; readonly cpuacct?: string };
  readonly nativeBuilt: boolean;
  /** True when untrusted code can be run isolated (bwrap + user namespaces + native launcher). */
  readonly isolation: boolean;
  readonly problems: readonly string[];
}

function which(name: string): string | null {
  for (const dir of (process.env['PATH'] ?? '/usr/bin:/bin').split(':')) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

function v1Mount(controller: string): string | undefined {
  const dir = `/sys/fs/cgroup/${controller}`;
  return existsSync(join(dir, 'cgroup.procs')) ? dir : undefined;
}

function canCreateGroup(dir: string): boolean {
  // A random name: pids repeat across pid namespaces, and two instances may probe at once.
  const probe = join(dir, `crucible-probe-${randomBytes(6).toString('hex')}`);
  try {
    mkdirSync(probe);
    rmdirSync(probe);
    return true;
  } catch {
    return false;
  }
}

/** Probe the host. Cheap (a few ms plus one bwrap start); call once per process. */
export function detectCapabilities(): Capabilities {
  const problems: string[] = [];
  const bwrapPath = which('bwrap');
  let bwrapVersion: string | null = null;
  let userNamespaces = false;
  if (bwrapPath === null) {
    problems.push('bubblewrap (bwrap) is not installed: apt-get install bubblewrap');
  } else {
    try {
      bwrapVersion = execFileSync(bwrapPath, ['--version'], { encoding: 'utf8' }).trim();
      execFileSync(bwrapPath, ['--unshare-all', '--ro-bind', '/usr', '/usr', '--symlink', 'usr/lib64', '/lib64',
        '--symlink', 'usr/lib', '/lib', '/usr/bin/true'], { stdio: 'ignore', timeout: 10_000 });
      userNamespaces = true;
    } catch (error) {
      problems.push(`bubblewrap cannot create namespaces here: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  let cgroupVersion: CgroupVersion = 'none';
  const cgroupDirs: { memory?: string; pids?: string; cpuacct?: string } = {};
  let cgroupWritable = false;
  if (existsSync('/sys/fs/cgroup/cgroup.controllers')) {
    cgroupVersion = 'v2';
    problems.push('cgroup v2 found: Crucible drives cgroup v1 only so far; falling back to RLIMIT_AS for memory');
  } else if (v1Mount('memory') !== undefined) {
    cgroupVersion = 'v1';
    const memory = v1Mount('memory');
    const pids = v1Mount('pids');
    const cpuacct = v1Mount('cpuacct') ?? v1Mount('cpu,cpuacct');
    if (memory) cgroupDirs.memory = memory;
    if (pids) cgroupDirs.pids = pids;
    if (cpuacct) cgroupDirs.cpuacct = cpuacct;
    cgroupWritable = isRoot && memory !== undefined && pids !== undefined && cpuacct !== undefined &&
      canCreateGroup(memory) && canCreateGroup(pids) && canCreateGroup(cpuacct);
    if (!cgroupWritable) problems.push('cgroup v1 is not writable (need root): memory limit falls back to RLIMIT_AS');
  } else {
    problems.push('no cgroup memory controller: memory limit falls back to RLIMIT_AS');
  }
  const nativeBuilt = existsSync(CRUCIBLE_BOX) && ['box-init', 'crucible-slot', 'box-server'].every((name) => existsSync(join(NATIVE_DIR, name)));
  if (!nativeBuilt) problems.push(`native sandbox programs are not built in ${NATIVE_DIR}: run npm run build`);
  if (!isRoot) problems.push('not running as root: per-slot uids, cgroups and namespaces need root');
  return {
    bwrapPath,
    bwrapVersion,
    userNamespaces,
    isRoot,
    cgroupVersion,
    cgroupWritable,
    cgroupDirs,
    nativeBuilt,
    isolation: bwrapPath !== null && userNamespaces && nativeBuilt && isRoot,
    problems,
  };
}

/** Read one small kernel file, or null. */
export function readKernelFile(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
}

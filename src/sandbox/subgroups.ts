/**
 * Sub-cgroups of a long-lived box: cgroups nested in the box slot's own (memory, pids, cpuacct), one per name,
 * in which a trusted harness inside the box puts untrusted parts of its tree (a judged candidate and all it
 * forks; a generated test). The box's limits still bound the whole box; a sub-group's limits bound exactly
 * that part of it, whatever it forks, double-forks or orphans (cgroup membership is inherited and cannot be
 * left without write access to another group's cgroup.procs, which nothing in a box has).
 *
 * Control stays outside the box: Crucible (root) makes the groups, opens their files and hands the box only
 * what it needs (crucible-box `--pass-wfd` / `--pass-dfd`: cgroup.procs write-only, to join; the directories
 * read-only, to read usage), sets limits through `Subgroup.setLimits` and reads usage through `Subgroup.usage`.
 * Kernel figures: cpuacct.usage (ns, every task ever in the group), memory.oom_control `oom_kill` (kills by the
 * group's limit); memory.max_usage_in_bytes (the peak, reset by `setLimits`) is the harness's to read.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PassedDescriptor } from './launch.js';
import type { SlotCgroups } from './slots.js';
import type { SubgroupLimits } from './types.js';

/** First descriptor number handed to a box for sub-groups (5 is the seccomp program, 3 and 4 the reports). */
const FIRST_SUBGROUP_FD = 6;
/** Descriptors per sub-group: cgroup.procs of the three controllers, then their three directories. */
const FDS_PER_SUBGROUP = 6;
/** Name of the box's environment variable describing the descriptors. */
export const SUBGROUPS_ENV = 'CRUCIBLE_SUBGROUPS';

/** What the box is told about one sub-group (see `SandboxRequest.subgroups`). */
export interface SubgroupDescriptors {
  readonly procs: readonly number[];
  readonly memory: number;
  readonly pids: number;
  readonly cpuacct: number;
}

/** Kernel counters of a sub-group; both only grow: CPU time (ns) of every task ever in it, OOM kills by its limit. */
export interface SubgroupUsage {
  readonly cpuNs: number;
  readonly oomKills: number;
}

function readNumber(dir: string, file: string): number {
  return Number(readFileSync(join(dir, file), 'utf8').trim());
}

/** One sub-group of a box slot, controlled from outside the box. */
export class Subgroup {
  private limits: SubgroupLimits | null = null;

  private constructor(readonly name: string, readonly dirs: SlotCgroups) {}

  /**
   * Make (or reuse) the sub-group `name` under a slot's cgroups.
   * @throws Error when `name` is not a plain name or a directory cannot be made.
   */
  static make(parent: SlotCgroups, name: string): Subgroup {
    if (!/^[a-z][a-z0-9_]{0,31}$/.test(name)) throw new Error(`invalid sub-group name: ${JSON.stringify(name)}`);
    const make = (dir: string): string => {
      const path = join(dir, name);
      mkdirSync(path, { recursive: true });
      return path;
    };
    return new Subgroup(name, { memory: make(parent.memory), pids: make(parent.pids), cpuacct: make(parent.cpuacct) });
  }

  /**
   * Set the memory limit of the group's tree (KiB) and its process limit, writing only what changed, and reset
   * the memory peak. Call between jobs, when the group holds no task.
   * @throws Error when the kernel refuses a value (e.g. a limit below what the group still holds).
   */
  setLimits(limits: SubgroupLimits): void {
    if (!Number.isInteger(limits.memoryKiB) || limits.memoryKiB < 1024 || !Number.isInteger(limits.processes) || limits.processes < 1) {
      throw new Error(`invalid sub-group limits: ${JSON.stringify(limits)}`);
    }
    if (this.limits?.memoryKiB !== limits.memoryKiB) {
      writeFileSync(join(this.dirs.memory, 'memory.limit_in_bytes'), String(limits.memoryKiB * 1024));
    }
    if (this.limits?.processes !== limits.processes) {
      writeFileSync(join(this.dirs.pids, 'pids.max'), String(limits.processes));
    }
    writeFileSync(join(this.dirs.memory, 'memory.max_usage_in_bytes'), '0');
    this.limits = limits;
  }

  /** CPU time (ns) of every task ever in the group (one small read). */
  cpuNs(): number {
    return readNumber(this.dirs.cpuacct, 'cpuacct.usage');
  }

  /** The group's kernel counters now (two small reads). */
  usage(): SubgroupUsage {
    const oom = /^oom_kill (\d+)$/m.exec(readFileSync(join(this.dirs.memory, 'memory.oom_control'), 'utf8'));
    return { cpuNs: readNumber(this.dirs.cpuacct, 'cpuacct.usage'), oomKills: oom ? Number(oom[1]) : 0 };
  }

  /** The directories crucible-box must empty when the box ends. */
  get cgroupDirs(): readonly string[] {
    return [this.dirs.memory, this.dirs.pids, this.dirs.cpuacct];
  }

  /** The descriptors to hand the box for this group, the `index`-th of the request's groups. */
  descriptors(index: number): { readonly passed: readonly PassedDescriptor[]; readonly told: SubgroupDescriptors } {
    const base = FIRST_SUBGROUP_FD + index * FDS_PER_SUBGROUP;
    const { memory, pids, cpuacct } = this.dirs;
    const passed: PassedDescriptor[] = [
      { target: base, path: join(memory, 'cgroup.procs'), directory: false },
      { target: base + 1, path: join(pids, 'cgroup.procs'), directory: false },
      { target: base + 2, path: join(cpuacct, 'cgroup.procs'), directory: false },
      { target: base + 3, path: memory, directory: true },
      { target: base + 4, path: pids, directory: true },
      { target: base + 5, path: cpuacct, directory: true },
    ];
    return { passed, told: { procs: [base, base + 1, base + 2], memory: base + 3, pids: base + 4, cpuacct: base + 5 } };
  }
}

/**
 * Shared data types of the sandbox layer: what one isolated execution is asked to do and what happened.
 * Plain, serialisable, readonly data with units in the field names (ms, KiB, bytes).
 */

/** Outcome class of one execution. `internal_error` is reserved for failures of Crucible or the host. */
export type ExecutionStatus =
  | 'ok'
  | 'runtime_error'
  | 'time_limit_exceeded'
  | 'memory_limit_exceeded'
  | 'output_limit_exceeded'
  | 'compile_error'
  | 'internal_error';

/** All execution statuses, in a stable order (for counts and reports). */
export const EXECUTION_STATUSES: readonly ExecutionStatus[] = [
  'ok',
  'runtime_error',
  'time_limit_exceeded',
  'memory_limit_exceeded',
  'output_limit_exceeded',
  'compile_error',
  'internal_error',
];

/**
 * Resource limits of one execution, all enforced from outside the program.
 * - `cpuMs`: CPU time (user + system) of the whole process tree, milliseconds.
 * - `wallMs`: wall-clock bound, milliseconds; must be larger than `cpuMs` (it only catches sleepers).
 * - `memoryKiB`: memory of the whole tree (cgroup) or address space per process (RLIMIT_AS fallback), KiB.
 * - `processes`: processes + threads the box may hold at once.
 * - `fileSizeKiB`: largest file the program may write, KiB (RLIMIT_FSIZE).
 * - `openFiles`: open file descriptors per process (RLIMIT_NOFILE).
 * - `outputBytes`: bytes kept of stdout and of stderr each; more is `output_limit_exceeded`.
 * - `diskKiB`: the run's writable space, KiB: /box, /tmp and /dev/shm together (one tmpfs per run; its pages are
 *   memory, so they count towards `memoryKiB` too). Writing past it fails with ENOSPC. Default
 *   `DEFAULT_DISK_KIB`; at least `MIN_DISK_KIB`, at most `MAX_DISK_KIB`. For a box whose pid 1 is the program
 *   (`asPid1`), each of the three places gets this much.
 */
export interface Limits {
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly memoryKiB: number;
  readonly processes: number;
  readonly fileSizeKiB: number;
  readonly openFiles: number;
  readonly outputBytes: number;
  readonly diskKiB?: number;
}

/** Writable space of a run when its limits do not say (64 MiB). */
export const DEFAULT_DISK_KIB = 64 * 1024;
/** Smallest writable space a run may ask for (1 MiB). */
export const MIN_DISK_KIB = 1024;
/** Largest writable space a run may ask for (16 GiB; it is memory). */
export const MAX_DISK_KIB = 16 * 1024 * 1024;

/** How the memory limit was enforced: a cgroup v1/v2 memory controller for the tree, or RLIMIT_AS per process. */
export type MemoryEnforcement = 'cgroup' | 'rlimit_as';

/**
 * What happened in one execution. Field names are the public JSON contract of `crucible run --json`.
 * `cpuMs` and `wallMs` are milliseconds, `memoryKiB` the peak memory in KiB (cgroup peak when a cgroup
 * was used, else the largest resident set of one process). `signal` is the name of the signal that ended
 * the program (e.g. "SIGKILL") or null. `reason` is a human-readable explanation for every status but `ok`.
 */
export interface ExecutionResult {
  readonly status: ExecutionStatus;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly memoryKiB: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  readonly memoryEnforcement: MemoryEnforcement;
  readonly reason?: string;
  /**
   * Present (true) only when the caller cancelled the run (`SandboxRequest.signal`): the status is then
   * `internal_error` with the reason "cancelled by the caller", and the verdict says nothing about the program.
   */
  readonly cancelled?: true;
  /** What the program left in its outbox (`SandboxRequest.outbox`), read after every process of the run was dead. */
  readonly outbox?: OutboxFiles;
  /** The box's memory over time, when `SandboxRequest.memorySampleMs` asked and the slot has cgroups (`memory-sampler.ts`). */
  readonly memoryIntegral?: MemoryIntegral;
}

/**
 * The integral of a box's memory over a run (trapezoid rule over samples of the slot cgroup's
 * `memory.usage_in_bytes`, KiB x ms), how many samples it rests on, and the asked period (ms). Node's timers fire at
 * best every ~1 ms and later under load, so a run of a few ms gets few samples (at least one pair: the first is
 * taken at start, the last when the launcher exits); the times used are the samples' own clock readings.
 */
export interface MemoryIntegral {
  readonly kiBMs: number;
  readonly samples: number;
  readonly periodMs: number;
}

/**
 * Files a run left in its outbox (/crucible/out): path relative to the outbox -> contents (UTF-8), as the run's
 * init copied them out once the run was over (regular files and directories only, printable ASCII names, at most
 * 16 levels; see src/sandbox/native/workspace.h). The program wrote them, so they are untrusted data to parse.
 * `skipped` counts entries not returned: not a regular file or directory, odd names, or past `OUTBOX_MAX_BYTES`.
 */
export interface OutboxFiles {
  readonly files: Readonly<Record<string, string>>;
  readonly skipped: number;
}

/** Where a run with an outbox finds it (a directory of the run's writable space, copied out at the end). */
export const OUTBOX_BOX_PATH = '/crucible/out';
/** Bytes of outbox files a run's result carries at most (16 MiB); the rest are skipped. */
export const OUTBOX_MAX_BYTES = 16 << 20;

/**
 * A prepared workspace mounted into a box (src/sandbox/native/layers.h): host directories Crucible made (a
 * checked-out repository, the dependencies installed for it), merged top first into one tree at `boxPath`.
 * - `layers`: absolute host paths (1 to 8, top first) of trees owned by the user Crucible runs as (root); the box
 *   sees their files as its own uid's. They are never writable by the box, and only root needs to reach them.
 * - `writable`: `overlay` gives the run a writable layer of its own (a tmpfs of the run's `diskKiB`, copy-on-write
 *   over the layers) that dies with the run, so nothing a run writes reaches the layers or another run;
 *   `read_only` mounts the merge read-only.
 * - `keepWrites`: instead of the tmpfs, the writable layer is this host directory (empty; `workDir`, also empty,
 *   is overlayfs's work directory on the same filesystem), kept after the run: how a layer is built (a
 *   dependency install over a checked-out tree). Files in it are owned by the slot's uid until the caller takes
 *   them over. Only with `overlay`; not bounded by `diskKiB`.
 * Inside the box the run's uid and gid are `WORKSPACE_BOX_UID` (1000) whatever the slot (src/sandbox/bwrap-args.ts).
 * Needs a root host (slot uids); served by a bubblewrap per run (never a slot box).
 */
export interface WorkspaceMount {
  readonly layers: readonly string[];
  readonly boxPath: string;
  readonly writable: 'overlay' | 'read_only';
  readonly keepWrites?: { readonly upperDir: string; readonly workDir: string };
}

/**
 * The result of a run Crucible could not carry out (the sandbox, the host, a lost worker): `internal_error` with
 * `reason`, never a verdict on the program. `extra` overrides fields (a wall time measured, `cancelled`). The one
 * constructor of such results.
 */
export function internalRun(reason: string, extra: Partial<ExecutionResult> = {}): ExecutionResult {
  return {
    status: 'internal_error', exitCode: null, signal: null, cpuMs: 0, wallMs: 0, memoryKiB: 0, stdout: '', stderr: '',
    stdoutTruncated: false, stderrTruncated: false, memoryEnforcement: 'cgroup', reason, ...extra,
  };
}

/** Reason of every cancelled run (`ExecutionResult.cancelled`). */
export const CANCELLED_REASON = 'cancelled by the caller';

/** A read-only file or directory of the host made visible inside the box at `boxPath`. */
export interface Mount {
  readonly hostPath: string;
  readonly boxPath: string;
  readonly writable?: boolean;
}

/**
 * Limits of a sub-cgroup of a long-lived box (see `SandboxRequest.subgroups`): memory of the group's whole tree
 * (KiB) and processes + threads it may hold at once.
 */
export interface SubgroupLimits {
  readonly memoryKiB: number;
  readonly processes: number;
}

/**
 * One command to run in one fresh box.
 * - `argv`: command and arguments as seen inside the box (absolute paths of real binaries).
 * - `files`: files written into the fresh work directory (`/box`) before the run, name -> contents.
 * - `mounts`: extra host paths to bind (read-only unless `writable`), e.g. a compiled artifact.
 * - `env`: the complete environment of the program (nothing of the host's leaks in).
 * - `stdin`: bytes fed to standard input (closed after), or none (empty stdin).
 * - `signal`: aborting it cancels the run: its processes are killed at once, its slot is freed, and the result
 *   is `internal_error` with `cancelled: true` (a run still waiting for a slot never starts).
 * - `subgroups`: only for a box whose pid 1 is a trusted harness (`asPid1`): cgroups nested in the box's own
 *   (memory, pids, cpuacct), one per name, with these initial limits, for the harness to put untrusted parts of
 *   its tree in (a judged candidate, a generated test). Crucible opens them as root outside the box and passes
 *   descriptors; the box's environment variable `CRUCIBLE_SUBGROUPS` maps each name to
 *   `{"procs": [fd, fd, fd] (cgroup.procs of memory, pids, cpuacct, write-only: write a pid to move that task,
 *   "0" to move the writer), "memory", "pids", "cpuacct" (directory
 *   descriptors, read-only: usage, peak, OOM kills)}`. Their limits are changed from outside through
 *   `OpenBox.subgroups`.
 */
export interface SandboxRequest {
  readonly argv: readonly string[];
  readonly limits: Limits;
  readonly files?: Readonly<Record<string, string | Uint8Array>>;
  readonly mounts?: readonly Mount[];
  readonly env?: Readonly<Record<string, string>>;
  readonly stdin?: string | Uint8Array;
  /**
   * Run the program as pid 1 of the box instead of under box-init (default false). For trusted harnesses that
   * must be pid 1 themselves; exit status then comes from bubblewrap (signals folded into 128+N).
   */
  readonly asPid1?: boolean;
  /**
   * Keep the work directory after the run and return its host path (used by compilation): what the program left
   * under /box is copied there once every process of the run is dead (directories and regular files, at most 16
   * levels, names of printable ASCII; see src/sandbox/native/workspace.h).
   */
  readonly keepWorkDir?: boolean;
  readonly signal?: AbortSignal;
  readonly subgroups?: Readonly<Record<string, SubgroupLimits>>;
  /** A prepared workspace the box sees at `workspace.boxPath` (see `WorkspaceMount`). */
  readonly workspace?: WorkspaceMount;
  /**
   * Give the run an outbox, a directory at `OUTBOX_BOX_PATH` on the run's writable space, whose files come back in
   * `ExecutionResult.outbox` once every process of the run is dead (never with `asPid1`).
   */
  readonly outbox?: boolean;
  /**
   * Give the box a network namespace of its own whose loopback is up (bubblewrap's `--unshare-net`): servers a test
   * suite starts on 127.0.0.1 work, and no route leads anywhere else. Never the slot's namespace (whose loopback is
   * down), so two runs never meet on it. Served by a bubblewrap per run.
   */
  readonly loopback?: boolean;
  /**
   * Sample the box's memory from outside it every this many ms (`memory-sampler.ts`: the slot's cgroup v1
   * `memory.usage_in_bytes`, read by Crucible's Node process), for `ExecutionResult.memoryIntegral`. Only with cgroups.
   */
  readonly memorySampleMs?: number;
}

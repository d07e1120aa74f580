/**
 * From what the launcher observed to a verdict. One pure function decides every status, so "the program
 * misbehaved" and "Crucible or the host failed" can never be confused: `internal_error` only comes from
 * the launcher, bubblewrap or box-init failing, never from anything the program did.
 */
import { constants } from 'node:os';
import { z } from 'zod';
import { CANCELLED_REASON, DEFAULT_DISK_KIB, internalRun, type ExecutionResult, type Limits, type MemoryEnforcement } from './types.js';

/** The run's writable space at the end (src/sandbox/native/run-init.h); absent from older or failed inits. */
const diskFields = {
  diskUsedBytes: z.number().optional(),
  diskFull: z.boolean().optional(),
  keptSkipped: z.number().optional(),
};

const initSchema = z.union([
  z.object({ exitCode: z.number().int(), cpuUs: z.number(), maxRssKiB: z.number(), ...diskFields }),
  z.object({ signal: z.number().int(), cpuUs: z.number(), maxRssKiB: z.number(), ...diskFields }),
  z.object({ error: z.string() }),
]);

const reportSchema = z.union([
  z.object({
    wallUs: z.number(),
    cpuNs: z.number(),
    memoryPeakBytes: z.number(),
    oomKills: z.number(),
    memoryFailcnt: z.number(),
    limit: z.enum(['cpu', 'wall', 'killed']).nullable(),
    treeClean: z.boolean(),
    launcherExit: z.number().nullable(),
    setupError: z.string().nullable(),
    init: initSchema.nullable(),
  }),
  z.object({ error: z.string() }),
]);

/** The launcher's report (`crucible-box` writes it on fd 3); see `src/sandbox/native/crucible-box.c`. */
export type LauncherReport = z.infer<typeof reportSchema>;

/** Parse the launcher's one-line JSON report. @throws Error when it is missing or malformed. */
export function parseLauncherReport(text: string): LauncherReport {
  const line = text.trim().split('\n')[0] ?? '';
  if (line === '') throw new Error('empty report');
  return reportSchema.parse(JSON.parse(line));
}

const SIGNAL_NAMES = new Map<number, string>(Object.entries(constants.signals).map(([name, n]) => [n, name]));

/** Name of a signal number ("SIGKILL"), or "SIG<n>" for unknown numbers. */
export function signalName(signal: number): string {
  return SIGNAL_NAMES.get(signal) ?? `SIG${signal}`;
}

const OUT_OF_MEMORY = /MemoryError|std::bad_alloc|OutOfMemoryError|out of memory|Cannot allocate memory|memory allocation of \d+ bytes failed|fatal error: runtime: out of memory/;

/** Everything `classify` needs; all inputs are facts gathered by `launch`. */
export interface ClassifyInput {
  readonly report: LauncherReport | null;
  readonly launcherFailure: string | null;
  readonly limits: Limits;
  readonly outputExceeded: boolean;
  readonly killReason: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  readonly memoryEnforcement: MemoryEnforcement;
  /** False when the program ran as pid 1 without box-init: the status is bubblewrap's exit code. */
  readonly initExpected: boolean;
  /**
   * True when the report's cgroup CPU time covers exactly the program's tree (slot boxes: only the program joins
   * the run cgroups). Then the verdict's CPU time is the larger of it and the init's figure.
   */
  readonly cgroupCpuIsTree: boolean;
  /** True when the caller cancelled the run (`killReason` then says so). */
  readonly cancelled?: boolean;
}

/** Decide the verdict of one execution. Pure. */
export function classify(input: ClassifyInput): ExecutionResult {
  const base = {
    stdout: input.stdout,
    stderr: input.stderr,
    stdoutTruncated: input.stdoutTruncated,
    stderrTruncated: input.stderrTruncated,
    memoryEnforcement: input.memoryEnforcement,
  };
  const internal = (reason: string, wallMs = 0): ExecutionResult => internalRun(reason, { ...base, wallMs });
  const report = input.report;
  // Cancelled before the launcher could report (it may not even have set up its signal handling): the caller's
  // decision, not a failure of the launcher.
  if (input.cancelled && (input.launcherFailure !== null || report === null)) return { ...internal(CANCELLED_REASON), cancelled: true };
  if (input.launcherFailure !== null || report === null) return internal(input.launcherFailure ?? 'no report');
  if ('error' in report) return internal(`sandbox launcher: ${report.error}`);
  const wallMs = Math.round(report.wallUs / 1000);
  if (report.setupError !== null) return internal(`sandbox setup failed: ${report.setupError}`, wallMs);
  if (!report.treeClean) return internal('a process of the run could not be killed', wallMs);
  const init = report.init;
  if (init !== null && 'error' in init) return internal(`box-init: ${init.error}`, wallMs);
  const cgroupCpuMs = Math.max(0, Math.round(report.cpuNs / 1e6));
  const cpuMs = init === null ? cgroupCpuMs
    : input.cgroupCpuIsTree ? Math.max(cgroupCpuMs, Math.round(init.cpuUs / 1000)) : Math.round(init.cpuUs / 1000);
  const memoryKiB = report.memoryPeakBytes > 0
    ? Math.round(report.memoryPeakBytes / 1024)
    : init !== null ? init.maxRssKiB : 0;
  const exitCode = init !== null && 'exitCode' in init ? init.exitCode : null;
  const signalNumber = init !== null && 'signal' in init ? init.signal : null;
  const signal = signalNumber !== null ? signalName(signalNumber) : report.limit !== null ? 'SIGKILL' : null;
  const verdict = { ...base, exitCode, signal, cpuMs, wallMs, memoryKiB };

  if (input.outputExceeded) {
    return { ...verdict, status: 'output_limit_exceeded', reason: `output exceeded ${input.limits.outputBytes} bytes` };
  }
  if (report.limit === 'killed') {
    if (input.cancelled) return { ...internal(CANCELLED_REASON, wallMs), cancelled: true };
    return internal(`run cancelled: ${input.killReason ?? 'killed'}`, wallMs);
  }
  if (report.limit === 'cpu' || signalNumber === constants.signals.SIGXCPU || cpuMs > input.limits.cpuMs) {
    return { ...verdict, cpuMs: Math.max(cpuMs, input.limits.cpuMs), status: 'time_limit_exceeded',
      reason: `CPU time limit of ${input.limits.cpuMs} ms exceeded` };
  }
  if (report.limit === 'wall') {
    return { ...verdict, status: 'time_limit_exceeded', reason: `wall time limit of ${input.limits.wallMs} ms exceeded` };
  }
  if (report.oomKills > 0) {
    return { ...verdict, status: 'memory_limit_exceeded', memoryKiB: Math.max(memoryKiB, input.limits.memoryKiB),
      reason: `memory limit of ${input.limits.memoryKiB} KiB exceeded (cgroup OOM kill)` };
  }
  if (init === null && !input.initExpected && report.launcherExit !== null) {
    const code = report.launcherExit;
    return code === 0 ? { ...verdict, exitCode: 0, status: 'ok' }
      : { ...verdict, exitCode: code, status: 'runtime_error', reason: `exit code ${code} (bubblewrap folds signal N into 128+N)` };
  }
  if (init === null) {
    const detail = input.stderr.trim().split('\n').slice(-2).join(' | ');
    return internal(`the box ended without a status (launcher exit ${report.launcherExit}): ${detail}`, wallMs);
  }
  const failed = exitCode !== 0;
  if (failed && OUT_OF_MEMORY.test(input.stderr)) {
    return { ...verdict, status: 'memory_limit_exceeded', reason: 'the program ran out of memory' };
  }
  const how = signalNumber !== null ? `killed by ${signal}` : `exit code ${exitCode}`;
  if (failed && init.diskFull === true) {
    const diskKiB = input.limits.diskKiB ?? DEFAULT_DISK_KIB;
    return { ...verdict, status: 'runtime_error',
      reason: `${how}; the run's writable space of ${diskKiB} KiB (/box, /tmp, /dev/shm) was full: writes failed with ENOSPC` };
  }
  if (failed) return { ...verdict, status: 'runtime_error', reason: how };
  return { ...verdict, status: 'ok' };
}

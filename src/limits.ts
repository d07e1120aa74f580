/**
 * Limits, in one place: every default, every allowed range, and how a caller's limits become the limits of a
 * sandboxed run. Inside Crucible limits are milliseconds (`…Ms`, CPU time unless the name says wall) and KiB
 * (`…KiB`); seconds and MB/MiB appear only where a command line or a compatibility API speaks them, converted
 * there with `secondsToMs` / `mibToKiB`. The launcher turns `Limits` into its flags (`src/sandbox/`).
 * A leaf module (it imports only types of ours, and zod), so every layer may use it.
 *
 * | limit | unit | judge default | plain-run default | compile | range a caller may ask |
 * |---|---|---|---|---|---|
 * | CPU time | ms | 1,000 per program (unit_test) or per test/input (io, call) | 2,000 | 30,000 | 10–60,000 |
 * | wall time | ms | 3 × CPU + 2,000 (`wallMsFor`) | same | 60,000 | derived |
 * | memory | KiB | 1 GiB | 512 MiB | 2 GiB | 16 MiB–16 GiB (`crucible serve`: up to 4 GiB by default) |
 * | output kept per stream | bytes | 1 MiB (io: ≥ 2 × expected + 1 KiB) | 8 MiB | 256 KiB | — |
 * | processes + threads | count | 64 | 64 | 256 | — |
 * | file size | KiB | 64 MiB | 64 MiB | 256 MiB | — |
 * | open files | count | 256 | 256 | 512 | — |
 *
 * Other defaults: a CodeT generated test gets 100 ms of CPU (`GENERATED_TEST_CPU_MS`); a canonical solution
 * computing ground truth gets 20 × the judge's CPU limit (`REFERENCE_CPU_FACTOR`); a call problem's per-input
 * limit is max(limit, 4 × the reference's slowest input) (`EVALPLUS_TIME_FACTOR`); a unit_test problem with a
 * canonical solution gets min(limit, 4 × the solution's CPU time + 200 ms) per program (`CALIBRATED_TIME_DEFAULTS`,
 * `calibratedCpuMs`; `crucible eval --time-limit-rule fixed` turns it off); the compatibility APIs'
 * own defaults are in `COMPAT_DEFAULTS`.
 */
import { z } from 'zod';
import type { Language } from './languages/schema.js';
import type { Limits } from './sandbox/types.js';

/** The limits a judging request sets: CPU time per program or per test (ms), memory (KiB), output per stream (bytes). */
export interface JudgeLimits {
  readonly cpuMs: number;
  readonly memoryKiB: number;
  readonly outputBytes: number;
}

/**
 * Judging defaults (`crucible eval`, `serve`, `rerank`): 1 s of CPU time per program (unit tests) or per
 * test/input, 1 GiB, 1 MiB of output per stream.
 * Why 1 s and not the openai/human-eval harness's 3 s: its 3 s are wall-clock seconds in a pool of 4 workers on
 * the machine's cores, so a program there gets well under 3 s of CPU; and on the 16,400 CodeGen-16B HumanEval
 * samples the slowest passing program takes 15 ms of CPU here (docs/PERFORMANCE.md), so 1 s changes no verdict
 * while every never-ending program costs a third. `--time-limit 3` restores 3 s.
 */
export const JUDGE_DEFAULTS: JudgeLimits = {
  cpuMs: 1000,
  memoryKiB: 1024 * 1024,
  outputBytes: 1 << 20,
};

/** Inclusive range of a limit a caller may set (CLI flags, HTTP bodies, server configuration). */
export interface LimitRange {
  readonly min: number;
  readonly max: number;
}

/**
 * The one table of what a caller may ask for, from every surface (CLI flags, HTTP bodies of every route and
 * compatibility family, MCP tools, sessions, server configuration, the queue's wire, contest package
 * configurations). Servers may narrow a maximum (`crucible serve --max-time-limit`, `maxMemoryLimitKiB`), never
 * widen it. Every time range ends far below `MAX_TIMER_MS`, so no value a caller sends reaches a Node timer it
 * would overflow.
 * - `cpuMs` 10 ms–60 s: below 10 ms an interpreter cannot start; above a minute a judgement is not a test. Also a
 *   run's wall bound when a compatibility API speaks wall time (Piston and SandboxFusion `run_timeout`).
 * - `compileCpuMs` 10 ms–60 s: one compilation.
 * - `wallMs` 10 ms–5 min: a run's wall-clock bound when a caller sets it (a session's `run` action: its step's).
 * - `memoryKiB` 16 MiB–16 GiB: below 16 MiB no runtime starts; above 16 GiB is more than a judging machine should
 *   give one program (`crucible serve` narrows it to 4 GiB by default).
 * - `outputBytes` 1 KiB–64 MiB: output kept per stream of one run.
 * - `sessionCpuMs`, `sessionWallMs` (100 ms–5 min), `sessionMemoryKiB` (32 MiB–4 GiB), `processes` (4–1024),
 *   `sessionOutputBytes` (1 KiB–1 MiB: a step's output per stream, returned whole to the caller, so kept small),
 *   `diskKiB` (1 MiB–1 GiB), `steps` (1–100,000), `submits` (1–1000), `feedbackChars` (200–100,000),
 *   `ttlSeconds` (1 s–1 day): the limits of a session (`src/sessions/types.ts`).
 */
export const LIMIT_RANGES = {
  cpuMs: { min: 10, max: 60_000 },
  compileCpuMs: { min: 10, max: 60_000 },
  wallMs: { min: 10, max: 300_000 },
  memoryKiB: { min: 16 * 1024, max: 16 * 1024 * 1024 },
  outputBytes: { min: 1024, max: 64 << 20 },
  sessionCpuMs: { min: 10, max: 60_000 },
  sessionWallMs: { min: 100, max: 300_000 },
  sessionMemoryKiB: { min: 32 * 1024, max: 4 * 1024 * 1024 },
  processes: { min: 4, max: 1024 },
  sessionOutputBytes: { min: 1024, max: 1 << 20 },
  diskKiB: { min: 1024, max: 1024 * 1024 },
  steps: { min: 1, max: 100_000 },
  submits: { min: 1, max: 1000 },
  feedbackChars: { min: 200, max: 100_000 },
  ttlSeconds: { min: 1, max: 86_400 },
} as const satisfies Readonly<Record<string, LimitRange>>;

/**
 * The largest delay a Node timer takes (2^31 - 1 ms, about 24.8 days); a larger one fires at once with a warning.
 * Every time limit a caller can set is far below it (`LIMIT_RANGES`); a session box refuses a step whose limits
 * are not timer delays (`src/sandbox/session-box.ts`).
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The largest memory limit `crucible serve` lets a request ask for unless configured otherwise, KiB (4 GiB). */
export const SERVER_MAX_MEMORY_KIB = 4 * 1024 * 1024;

/** CPU time of one CodeT generated test, ms (CodeT runs each test program with a 0.1 s time-out). */
export const GENERATED_TEST_CPU_MS = 100;

/** A canonical solution computing expected outputs gets this many times the judge's CPU limit (EvalPlus computes
 *  ground truth without a limit; a finite one keeps a broken reference from hanging a run). */
export const REFERENCE_CPU_FACTOR = 20;

/** EvalPlus scales the per-input limit from the reference's time: max(limit, 4 × reference time)
 *  (evalplus/evaluate.py, `gt_time_limit_factor = 4.0`). */
export const EVALPLUS_TIME_FACTOR = 4;

/**
 * A calibrated time limit: a problem whose reference solution was measured gets
 * `min(limit, ceil(factor × referenceCpuMs + floorMs))` ms of CPU per program instead of the request's fixed
 * `limit`, which stays the most any program gets. The rule follows EvalPlus (evalplus/evaluate.py,
 * `check_correctness`: a test's limit is max(min_time_limit, gt_time_limit_factor × the ground truth's time),
 * evalplus/config.py `DEFAULT_GT_TIME_LIMIT_FACTOR = 4.0`, `DEFAULT_MIN_TIME_LIMIT = 4.0` wall seconds), with CPU
 * time instead of wall time (load does not move it, docs/SECURITY.md "Time") and the floor added rather than
 * taken as a maximum, so a reference that takes 30 ms still leaves a slower program its floor on top of 4 × 30 ms.
 * `factor` is dimensionless (≥ 1), `floorMs` in ms of CPU (≥ `LIMIT_RANGES.cpuMs.min`).
 */
export interface CalibratedTimeLimit {
  readonly factor: number;
  readonly floorMs: number;
}

/**
 * The default calibration (judging problems that have a reference solution: HumanEval's `canonical_solution`):
 * EvalPlus' factor 4, and a floor of 200 ms of CPU: the slowest passing program among the 16,400 CodeGen-16B
 * HumanEval samples takes 15 ms idle and took up to 88 ms (and a failing one 102 ms) with the machine loaded to
 * 40 on 2 cores, so 200 ms keeps twice that margin (docs/PERFORMANCE.md, "Calibrated time limits": no verdict of
 * the 16,400 changes). A never-ending program then costs ~0.2 s of CPU instead of the full 1 s.
 */
export const CALIBRATED_TIME_DEFAULTS: CalibratedTimeLimit = { factor: 4, floorMs: 200 };

/**
 * The CPU limit of one program of a problem whose reference solution took `referenceCpuMs` ms of CPU, under
 * `rule` (null: the fixed `capMs`), never above `capMs` (the request's limit) nor below the smallest limit a caller
 * may set (`LIMIT_RANGES.cpuMs.min`, unless `capMs` is itself lower). Pure.
 * @throws RangeError when `referenceCpuMs` is negative or not finite, or `rule` is out of range (factor < 1 or
 *   floorMs < `LIMIT_RANGES.cpuMs.min`).
 */
export function calibratedCpuMs(referenceCpuMs: number, capMs: number, rule: CalibratedTimeLimit | null): number {
  if (rule === null) return capMs;
  if (!Number.isFinite(referenceCpuMs) || referenceCpuMs < 0) throw new RangeError(`referenceCpuMs ${referenceCpuMs} is not a CPU time in ms`);
  const problem = calibrationProblem(rule);
  if (problem !== null) throw new RangeError(problem);
  return Math.min(capMs, Math.ceil(rule.factor * referenceCpuMs + rule.floorMs));
}

/** Why `rule` is out of range (text naming the field), or null when it is usable. */
export function calibrationProblem(rule: CalibratedTimeLimit): string | null {
  if (!Number.isFinite(rule.factor) || rule.factor < 1 || rule.factor > 1000) return `calibration factor ${rule.factor} is not a number in 1–1000`;
  if (!Number.isFinite(rule.floorMs) || rule.floorMs < LIMIT_RANGES.cpuMs.min || rule.floorMs > LIMIT_RANGES.cpuMs.max) {
    return `calibration floorMs ${rule.floorMs} is not in ${LIMIT_RANGES.cpuMs.min}–${LIMIT_RANGES.cpuMs.max} ms`;
  }
  return null;
}

/** Defaults the compatibility APIs define for themselves (their units at their edge are converted to ms). */
export const COMPAT_DEFAULTS = {
  /** Piston: CPU limit of a run when neither `run_cpu_time` nor `run_timeout` is given, ms. */
  pistonRunCpuMs: 3000,
  /** Piston: CPU limit of a compilation when neither `compile_cpu_time` nor `compile_timeout` is given, ms. */
  pistonCompileCpuMs: 10_000,
  /** Largest compile CPU limit a compatibility request may ask for, ms (the compile step's own default is 30 s). */
  maxCompileCpuMs: LIMIT_RANGES.compileCpuMs.max,
} as const;

/**
 * Wall bound for a CPU bound, ms: generous, because it only exists to stop sleepers. Verdicts depend on CPU
 * time, which does not grow when the host is loaded; wall time does (see docs/SECURITY.md, "Time").
 */
export function wallMsFor(cpuMs: number): number {
  return cpuMs * 3 + 2000;
}

/**
 * Limits of one plain run when the caller sets nothing: 2 s CPU, 512 MiB, 64 processes, 8 MiB of output each,
 * 64 MiB of writable space (/box, /tmp and /dev/shm together).
 */
export const DEFAULT_RUN_LIMITS: Limits = {
  cpuMs: 2000,
  wallMs: wallMsFor(2000),
  memoryKiB: 512 * 1024,
  processes: 64,
  fileSizeKiB: 64 * 1024,
  openFiles: 256,
  outputBytes: 8 * 1024 * 1024,
  diskKiB: 64 * 1024,
};

/** Limits of a compile step (its own, independent of the run's); 256 MiB of writable space for toolchain caches. */
export const DEFAULT_COMPILE_LIMITS: Limits = {
  cpuMs: 30_000,
  wallMs: 60_000,
  memoryKiB: 2 * 1024 * 1024,
  processes: 256,
  fileSizeKiB: 256 * 1024,
  openFiles: 512,
  outputBytes: 256 * 1024,
  diskKiB: 256 * 1024,
};

/**
 * Limits of one run from the knobs a caller sets (ms, KiB, bytes), the rest from `DEFAULT_RUN_LIMITS`; the
 * wall bound follows the CPU bound (`wallMsFor`) unless `wallMs` is given (it is never below `cpuMs`).
 */
export function runLimits(options: { readonly cpuMs?: number; readonly wallMs?: number; readonly memoryKiB?: number;
  readonly outputBytes?: number } = {}): Limits {
  const cpuMs = options.cpuMs ?? DEFAULT_RUN_LIMITS.cpuMs;
  return {
    ...DEFAULT_RUN_LIMITS,
    cpuMs,
    wallMs: options.wallMs === undefined ? wallMsFor(cpuMs) : Math.max(options.wallMs, cpuMs),
    memoryKiB: options.memoryKiB ?? DEFAULT_RUN_LIMITS.memoryKiB,
    outputBytes: options.outputBytes ?? DEFAULT_RUN_LIMITS.outputBytes,
  };
}

/** Compile limits: the defaults, or with the caller's CPU bound (ms) and a wall bound that follows it. */
export function compileLimits(cpuMs?: number): Limits {
  return cpuMs === undefined ? DEFAULT_COMPILE_LIMITS : { ...DEFAULT_COMPILE_LIMITS, cpuMs, wallMs: wallMsFor(cpuMs) };
}

/** Apply a language's run multipliers (CPU, wall, memory) and process floor to limits. */
export function forLanguage(limits: Limits, language: Language): Limits {
  return scaleLimits(limits, language.limits);
}

/** Apply multipliers of CPU and wall time and of memory, and a floor on processes+threads, to limits. */
export function scaleLimits(limits: Limits, m: Language['limits']): Limits {
  return {
    ...limits,
    cpuMs: Math.round(limits.cpuMs * m.cpu),
    wallMs: Math.round(limits.wallMs * m.cpu),
    memoryKiB: Math.round(limits.memoryKiB * m.memory),
    processes: Math.max(limits.processes, m.processes ?? 0),
  };
}

/** Seconds (a CLI flag, a compatibility field) to ms. */
export function secondsToMs(seconds: number): number {
  return Math.round(seconds * 1000);
}

/** MiB (a CLI flag; SandboxFusion's "MB" is MiB) to KiB. */
export function mibToKiB(mib: number): number {
  return Math.round(mib * 1024);
}

/** The unit of a limit's range: ms and KiB inside Crucible; bytes, counts and seconds where a limit is one. */
export type LimitUnit = 'ms' | 'KiB' | 'bytes' | 'count' | 's';
/** How a range is shown to people. */
export type LimitDisplay = 'seconds' | 'ms' | 'MiB' | 'KiB' | 'bytes' | 'count';

/** A range in a unit people read: `10 ms–60 s` style for ms, `16 MiB–16 GiB` for KiB. */
export function describeRange(range: LimitRange, unit: LimitUnit, as: LimitDisplay = unit === 'ms' ? 'seconds' : unit === 'KiB' ? 'MiB'
  : unit === 's' ? 'seconds' : unit): string {
  const show = (v: number): string => {
    switch (as) {
      case 'seconds': return `${unit === 's' ? v : v / 1000} s`;
      case 'MiB': return `${v / 1024} MiB`;
      case 'count': return String(v);
      default: return `${v} ${as}`;
    }
  };
  return `${show(range.min)} to ${show(range.max)}`;
}

/** Error message when `value` (in the range's unit) is outside `range`, else null. `shown` is the value as given. */
export function outOfRange(value: number, range: LimitRange, unit: LimitUnit, as?: LimitDisplay,
  shown: string = String(value)): string | null {
  if (Number.isFinite(value) && value >= range.min && value <= range.max) return null;
  return `${shown} is outside the allowed range ${describeRange(range, unit, as)}`;
}

/**
 * zod schema of an integer limit within `range` (in the range's unit), whose error message names the range,
 * e.g. `1 is outside the allowed range 16384 KiB to 16777216 KiB`. For configuration surfaces and HTTP bodies.
 */
export function limitSchema(range: LimitRange, unit: LimitUnit, as: LimitDisplay = unit === 's' ? 'seconds' : unit) {
  return z.number().int().superRefine((value, ctx) => {
    const problem = outOfRange(value, range, unit, as);
    if (problem !== null) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
  });
}

/**
 * The fields of `value` that are set (undefined ones dropped), so that spreading it over defaults keeps the
 * defaults a caller left unset (`{ ...JUDGE_DEFAULTS, ...definedOnly(limits) }`).
 */
export function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

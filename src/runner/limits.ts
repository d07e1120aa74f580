/**
 * Default limits and their derivation. One place decides how a caller's time limit becomes the CPU bound
 * and the (larger) wall bound, and how per-language multipliers apply.
 */
import type { Language } from '../languages/schema.js';
import type { Limits } from '../sandbox/types.js';

/**
 * Wall bound for a CPU bound: generous, because it only exists to stop sleepers. Verdicts depend on CPU
 * time, which does not grow when the host is loaded; wall time does (see docs/SECURITY.md, "Time").
 */
export function wallMsFor(cpuMs: number): number {
  return cpuMs * 3 + 2000;
}

/** Limits of one run when the caller sets nothing: 2 s CPU, 512 MiB, 64 processes, 8 MiB of output each. */
export const DEFAULT_RUN_LIMITS: Limits = {
  cpuMs: 2000,
  wallMs: wallMsFor(2000),
  memoryKiB: 512 * 1024,
  processes: 64,
  fileSizeKiB: 64 * 1024,
  openFiles: 256,
  outputBytes: 8 * 1024 * 1024,
};

/** Limits of a compile step (its own, independent of the run's). */
export const DEFAULT_COMPILE_LIMITS: Limits = {
  cpuMs: 30_000,
  wallMs: 60_000,
  memoryKiB: 2 * 1024 * 1024,
  processes: 256,
  fileSizeKiB: 256 * 1024,
  openFiles: 512,
  outputBytes: 256 * 1024,
};

/** Build run limits from the user-facing knobs (seconds, MiB), falling back to the defaults. */
export function runLimits(options: { readonly timeLimitSeconds?: number; readonly memoryLimitMiB?: number;
  readonly outputBytes?: number } = {}): Limits {
  const cpuMs = options.timeLimitSeconds !== undefined ? Math.round(options.timeLimitSeconds * 1000) : DEFAULT_RUN_LIMITS.cpuMs;
  return {
    ...DEFAULT_RUN_LIMITS,
    cpuMs,
    wallMs: wallMsFor(cpuMs),
    memoryKiB: options.memoryLimitMiB !== undefined ? Math.round(options.memoryLimitMiB * 1024) : DEFAULT_RUN_LIMITS.memoryKiB,
    outputBytes: options.outputBytes ?? DEFAULT_RUN_LIMITS.outputBytes,
  };
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

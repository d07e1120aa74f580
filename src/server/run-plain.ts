/**
 * Plain code runs (no tests) for the compatibility families that execute rather than judge: SandboxFusion
 * `/run_code` and Piston `/execute`. `Judge.runPlain`: compile with the caller's compile limits, run once on
 * stdin, report both steps. Goes through the same admission queue as judging.
 */
import type { PlainRunOutcome } from '../judge/judge.js';
import type { Language } from '../languages/schema.js';
import type { ExecutionResult } from '../sandbox/types.js';
import { ShutdownError } from './admission.js';
import type { ServerContext } from './context.js';
import { ServiceError } from './errors.js';

export interface PlainRun {
  readonly language: Language;
  readonly source: string;
  readonly stdin: string;
  /** CPU limit of the run, ms. */
  readonly runCpuMs: number;
  /** Wall limit of the run, ms (default derived from the CPU limit). */
  readonly runWallMs?: number;
  readonly compileCpuMs: number;
  readonly memoryKiB: number;
}

/** `compile` is null for interpreted languages; `run` is null when compilation failed. */
export type PlainOutcome = PlainRunOutcome;

function failed(reason: string): ExecutionResult {
  return { status: 'internal_error', exitCode: null, signal: null, cpuMs: 0, wallMs: 0, memoryKiB: 0, stdout: '', stderr: '',
    stdoutTruncated: false, stderrTruncated: false, memoryEnforcement: 'cgroup', reason };
}

/** Resolve a language name or throw `unknown_language` naming `field`. */
export function languageOf(ctx: ServerContext, name: string, field: string): Language {
  if (!ctx.languages.has(name)) throw new ServiceError('unknown_language', `${field}: unknown language "${name}"`, field);
  return ctx.languages.get(name);
}

/** Reserve one item or throw `overloaded`; then run. Never rejects for what the program does. */
export async function runPlain(ctx: ServerContext, job: PlainRun): Promise<PlainOutcome> {
  ctx.service.reserveItems(1);
  const startedMs = performance.now();
  let outcome: PlainOutcome;
  try {
    outcome = await ctx.service.admission.run(() => ctx.judge.runPlain({
      program: { language: job.language.id, source: job.source },
      stdin: job.stdin,
      limits: { cpuMs: job.runCpuMs, memoryKiB: job.memoryKiB, compileCpuMs: job.compileCpuMs,
        ...(job.runWallMs === undefined ? {} : { wallMs: job.runWallMs }) },
    }));
  } catch (error) {
    const why = error instanceof ShutdownError ? `not run: ${error.message}` : `crucible failed: ${(error as Error).message}`;
    outcome = { compile: null, run: failed(why) };
  }
  const status = outcome.run?.status ?? outcome.compile?.status ?? 'internal_error';
  ctx.metrics.verdicts.inc({ status: status === 'ok' ? 'ok' : status });
  ctx.metrics.verdictSeconds.observe({}, (performance.now() - startedMs) / 1000);
  return outcome;
}

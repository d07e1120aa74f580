/**
 * Plain code runs (no tests) for the compatibility families that execute rather than judge: SandboxFusion
 * `/run_code` and Piston `/execute`. `Judge.runPlain`: compile with the caller's compile limits, run once on
 * stdin, report both steps. Goes through the same admission queue as judging.
 */
import { createHash } from 'node:crypto';
import type { PlainRunOutcome } from '../judge/judge.js';
import type { Language } from '../languages/schema.js';
import { internalRun } from '../sandbox/types.js';
import type { ServerContext } from './context.js';
import { filesHash } from '../engine/executor.js';
import { SharedWork } from '../engine/shared-work.js';
import { ServiceError } from './errors.js';
import { callOptions } from './service.js';
import type { RequestScope } from './scope.js';

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
  /** Extra files of the submission (relative path -> bytes), validated by the route (see `PlainRunRequest.files`). */
  readonly files?: Readonly<Record<string, Uint8Array>>;
}

/** `compile` is null for interpreted languages; `run` is null when compilation failed. */
export type PlainOutcome = PlainRunOutcome;

/** Resolve a language name or throw `unknown_language` naming `field`. */
export function languageOf(ctx: ServerContext, name: string, field: string): Language {
  if (!ctx.languages.has(name)) throw new ServiceError('unknown_language', `${field}: unknown language "${name}"`, field);
  return ctx.languages.get(name);
}

/** Plain runs remembered for identical requests (outcomes, oldest first out). */
export const PLAIN_RUN_MEMO_CAPACITY = 4096;

/** A deduplicating memo of plain runs, one per server (see `runPlain`). */
export function plainRunMemo(): SharedWork<PlainOutcome> {
  return new SharedWork<PlainOutcome>(PLAIN_RUN_MEMO_CAPACITY, (o) => !isInternalError(o));
}

function isInternalError(o: PlainOutcome): boolean {
  return o.compile?.status === 'internal_error' || o.run?.status === 'internal_error';
}

/** What makes two plain runs identical: language, source, stdin, every limit and the extra files. */
function plainRunKey(job: PlainRun): string {
  const files = job.files === undefined || Object.keys(job.files).length === 0 ? null : filesHash(job.files);
  return createHash('sha256')
    .update(JSON.stringify([job.language.id, job.source, job.stdin, job.runCpuMs, job.runWallMs ?? null, job.compileCpuMs, job.memoryKiB, files]))
    .digest('hex');
}

/**
 * Run one program once, deduplicated: identical requests (same language, source, stdin and limits) share one
 * execution while it runs and are answered from a bounded memo after it (verl sends the same program for
 * every rollout that produced it; Crucible's own failures are never remembered). Through `JudgeService.admitted`:
 * a request that is neither joined nor remembered takes one item of admission (or throws `overloaded`, which the
 * route answers in its family's way); Crucible's failures are an `internal_error` run.
 * @throws ClientGoneError when `scope.signal` aborts (the execution is cancelled when every caller waiting on it
 *   has gone).
 */
export async function runPlain(ctx: ServerContext, job: PlainRun, scope: RequestScope): Promise<PlainOutcome> {
  return ctx.service.admitted(scope, (signal) => ctx.judge.runPlain({
    program: { language: job.language.id, source: job.source },
    stdin: job.stdin,
    ...(job.files === undefined ? {} : { files: job.files }),
    limits: { cpuMs: job.runCpuMs, memoryKiB: job.memoryKiB, compileCpuMs: job.compileCpuMs,
      ...(job.runWallMs === undefined ? {} : { wallMs: job.runWallMs }) },
  }, { ...callOptions(scope), ...signal === undefined ? {} : { signal } }), {
    share: { memo: ctx.plainRuns, key: plainRunKey(job) },
    status: (o) => isInternalError(o) ? 'internal_error' : o.run?.status ?? o.compile?.status ?? 'internal_error',
    failed: (reason) => ({ compile: null, run: internalRun(reason) }),
  });
}

/**
 * The judging service behind every route: turns one validated submission into a pipeline request, runs it
 * through admission control, and reports the verdict (and its reward). Every compatibility family and the
 * native API call this; none of them judges anything itself.
 *
 * Submission -> program:
 * - `code` is judged exactly as given; `response` is raw model text and goes through `extractCode` (think
 *   sections removed, fenced block preferred in the submission's language, `pick` first/last). Nothing found
 *   is the verdict `no_code`, decided without a sandbox.
 * - Python `unit_test`/`call` problems (HumanEval, EvalPlus): the program is `prompt + code`, unless the code
 *   defines the entry point at top level itself (`def <entry_point>(`), in which case it is a full solution.
 * - Inline tests become an `IoProblem` whose id is `inline:<sha256 of tests, comparator and limits>`, so the
 *   pipeline's memo (keyed by problem id and program) never confuses two different test sets.
 * Failures of Crucible (sandbox, harness, shutdown) come back as status `internal_error` with a reason and
 * no reward, never as a verdict about the program.
 */
import { createHash } from 'node:crypto';
import { extractCode, type ExtractResult } from '../extract/index.js';
import type { Comparator, IoProblem, IoTestCase, Problem } from '../formats/types.js';
import type { LanguageRegistry } from '../languages/registry.js';
import { LIMIT_RANGES, outOfRange, type LimitRange } from '../limits.js';
import type { JudgeRequest, JudgeVerdict, Pipeline } from '../runner/pipeline.js';
import { computeReward, RewardError, type RewardSpec } from '../reward/index.js';
import type { SampleStatus } from '../verdict/index.js';
import { AdmissionQueue, ShutdownError } from './admission.js';
import { ServiceError } from './errors.js';

/** A submission after schema validation (native fields; compat routes build the same thing). */
export interface Submission {
  /** Raw model text: code is extracted from it. Exactly one of `response` and `code`. */
  readonly response?: string;
  /** The program itself, judged as given. */
  readonly code?: string;
  readonly language?: string;
  /** Id of a problem loaded with `--problems`. Exactly one of `problem` and `tests`. */
  readonly problem?: string;
  readonly tests?: readonly IoTestCase[];
  readonly comparator?: Comparator;
  /** CPU time per test, ms (inline tests only). */
  readonly timeLimitMs?: number;
  /** Memory limit, KiB (inline tests only). */
  readonly memoryLimitKiB?: number;
  readonly pick?: 'first' | 'last';
  readonly stripThink?: boolean;
  readonly failFast?: boolean;
}

/** How the program was obtained from the submission; `fenced`/`unfenced`/`no_code` mirror `extractCode`. */
export type Extraction =
  | { readonly kind: 'code' }
  | { readonly kind: 'fenced'; readonly tag: string; readonly blockIndex: number; readonly blockCount: number;
      readonly terminated: boolean; readonly thinkSectionsRemoved: number }
  | { readonly kind: 'unfenced'; readonly thinkSectionsRemoved: number }
  | { readonly kind: 'no_code'; readonly reason: 'empty' | 'prose'; readonly thinkSectionsRemoved: number };

/** A submission ready to judge, or already decided (`no_code`). */
export type Prepared =
  | { readonly kind: 'judge'; readonly request: JudgeRequest; readonly extraction: Extraction; readonly testCount: number;
      readonly problemId: string }
  | { readonly kind: 'decided'; readonly verdict: JudgeVerdict; readonly extraction: Extraction; readonly testCount: number;
      readonly problemId: string };

export interface Judged {
  readonly verdict: JudgeVerdict;
  readonly extraction: Extraction;
}

/** Observer of finished verdicts (metrics). */
export type VerdictObserver = (status: SampleStatus, seconds: number) => void;

export interface ServiceLimits {
  readonly maxTimeLimitMs: number;
  readonly maxMemoryLimitKiB: number;
}

function extractionOf(result: ExtractResult): Extraction {
  switch (result.kind) {
    case 'fenced':
      return { kind: 'fenced', tag: result.tag, blockIndex: result.blockIndex, blockCount: result.blockCount,
        terminated: result.terminated, thinkSectionsRemoved: result.thinkSectionsRemoved };
    case 'unfenced':
      return { kind: 'unfenced', thinkSectionsRemoved: result.thinkSectionsRemoved };
    case 'no_code':
      return { kind: 'no_code', reason: result.reason, thinkSectionsRemoved: result.thinkSectionsRemoved };
  }
}

/** Number of tests a problem has, as the verdict counts them. */
export function testCountOf(problem: Problem): number {
  switch (problem.kind) {
    case 'io': return problem.tests.length;
    case 'unit_test': return 1;
    case 'call': return problem.baseInputs.length + problem.plusInputs.length;
  }
}

function definesAtTopLevel(code: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^(?:async\\s+)?def\\s+${escaped}\\s*\\(`, 'm').test(code);
}

/** Tests passed, per test index (missing tests count as failed). */
export function testsPassedOf(verdict: JudgeVerdict): boolean[] {
  const passed = new Array<boolean>(verdict.testCount).fill(false);
  for (const t of verdict.tests) if (t.index < passed.length) passed[t.index] = t.status === 'passed';
  return passed;
}

/** The reward of a verdict, or null when there is none to give (`internal_error`). */
export function rewardOf(spec: RewardSpec, verdict: JudgeVerdict): number | null {
  if (verdict.status === 'internal_error') return null;
  try {
    return computeReward(spec, { status: verdict.status, testsPassed: testsPassedOf(verdict), testCount: verdict.testCount });
  } catch (error) {
    if (error instanceof RewardError) return null;
    throw error;
  }
}

function internalError(reason: string, testCount: number): JudgeVerdict {
  return { status: 'internal_error', passed: false, tests: [], cpuMs: 0, wallMs: 0, testCount, reason };
}

export class JudgeService {
  private readonly inlineIds = new Map<string, string>();
  private readonly observers: VerdictObserver[] = [];

  constructor(readonly pipeline: Pipeline, readonly languages: LanguageRegistry,
    readonly problems: ReadonlyMap<string, Problem>, readonly admission: AdmissionQueue,
    readonly limits: ServiceLimits) {}

  onVerdict(observer: VerdictObserver): void {
    this.observers.push(observer);
  }

  /** Executions started so far (sandboxed runs, compilations, Python harness jobs). */
  get executions(): number {
    const e = this.pipeline.executor.stats;
    return e.runs + e.compilations + this.pipeline.python.stats.jobs;
  }

  private inlineProblem(sub: Submission, tests: readonly IoTestCase[], field: string): IoProblem {
    const comparator: Comparator = sub.comparator ?? { kind: 'tokens' };
    this.checkLimit(sub.timeLimitMs, { min: LIMIT_RANGES.cpuMs.min, max: this.limits.maxTimeLimitMs }, 'ms', `${field}timeLimitMs`);
    this.checkLimit(sub.memoryLimitKiB, { min: LIMIT_RANGES.memoryKiB.min, max: this.limits.maxMemoryLimitKiB }, 'KiB', `${field}memoryLimitKiB`);
    const hash = createHash('sha256')
      .update(JSON.stringify([tests.map((t) => [t.input, t.output]), comparator, sub.timeLimitMs ?? null, sub.memoryLimitKiB ?? null]))
      .digest('hex');
    let id = this.inlineIds.get(hash);
    if (id === undefined) {
      id = `inline:${hash.slice(0, 24)}`;
      if (this.inlineIds.size > 100_000) this.inlineIds.clear();
      this.inlineIds.set(hash, id);
    }
    return {
      kind: 'io', taskId: id, tests, comparator,
      ...(sub.timeLimitMs === undefined ? {} : { timeLimitMs: sub.timeLimitMs }),
      ...(sub.memoryLimitKiB === undefined ? {} : { memoryLimitKiB: sub.memoryLimitKiB }),
    };
  }

  /** Throw `invalid_body` naming `field` and the allowed range when `value` is outside `range`. */
  private checkLimit(value: number | undefined, range: LimitRange, unit: 'ms' | 'KiB', field: string): void {
    if (value === undefined) return;
    const problem = outOfRange(value, range, unit, unit);
    if (problem !== null) throw new ServiceError('invalid_body', `${field}: ${problem}`, field);
  }

  /**
   * Resolve the problem, extract the program and build the pipeline request. Synchronous and cheap; throws
   * `ServiceError` (400) for what the client got wrong. `field` prefixes error field names (e.g. `items[3].`).
   */
  prepare(sub: Submission, field = ''): Prepared {
    let problem: Problem;
    if (sub.problem !== undefined) {
      const found = this.problems.get(sub.problem);
      if (!found) throw new ServiceError('unknown_problem', `${field}problem: no problem "${sub.problem}" is loaded`, `${field}problem`);
      problem = found;
    } else if (sub.tests !== undefined) {
      problem = this.inlineProblem(sub, sub.tests, field);
    } else {
      throw new ServiceError('invalid_body', `${field}problem: give "problem" or "tests"`, `${field}problem`);
    }
    const testCount = testCountOf(problem);
    const language = problem.kind === 'io' ? (sub.language ?? problem.language ?? 'python') : 'python';
    if (!this.languages.has(language)) {
      throw new ServiceError('unknown_language', `${field}language: unknown language "${language}"`, `${field}language`);
    }
    if (problem.kind !== 'io' && sub.language !== undefined
      && (!this.languages.has(sub.language) || this.languages.get(sub.language).id !== 'python')) {
      throw new ServiceError('invalid_body', `${field}language: problem ${problem.taskId} is judged in Python`, `${field}language`);
    }
    let code: string;
    let extraction: Extraction;
    if (sub.code !== undefined) {
      code = sub.code;
      extraction = { kind: 'code' };
    } else if (sub.response !== undefined) {
      const result = extractCode(sub.response, { language, pick: sub.pick ?? 'last', stripThink: sub.stripThink ?? true });
      extraction = extractionOf(result);
      if (result.kind === 'no_code') {
        const reason = result.reason === 'empty' ? 'the response is empty (after removing thinking)' : 'no code found in the response';
        return { kind: 'decided', extraction, testCount, problemId: problem.taskId,
          verdict: { status: 'no_code', passed: false, tests: [], cpuMs: 0, wallMs: 0, testCount, reason } };
      }
      code = result.code;
    } else {
      throw new ServiceError('invalid_body', `${field}response: give "response" or "code"`, `${field}response`);
    }
    const source = problem.kind === 'io' || definesAtTopLevel(code, problem.entryPoint) ? code : problem.prompt + code;
    return {
      kind: 'judge', extraction, testCount, problemId: problem.taskId,
      request: { problem, source, ...(problem.kind === 'io' ? { language } : {}), failFast: sub.failFast === true },
    };
  }

  /** Judge a prepared submission whose admission was reserved (`admission.tryReserve`). Never rejects. */
  async judgeReserved(prepared: Prepared): Promise<Judged> {
    if (prepared.kind === 'decided') {
      this.observe(prepared.verdict.status, 0);
      return { verdict: prepared.verdict, extraction: prepared.extraction };
    }
    const startedMs = performance.now();
    let verdict: JudgeVerdict;
    try {
      verdict = await this.admission.run(() => this.pipeline.judge(prepared.request));
    } catch (error) {
      const why = error instanceof ShutdownError
        ? `not judged: ${error.message}`
        : `crucible failed: ${error instanceof Error ? error.message : String(error)}`;
      verdict = internalError(why, prepared.testCount);
    }
    this.observe(verdict.status, (performance.now() - startedMs) / 1000);
    return { verdict, extraction: prepared.extraction };
  }

  /** Reserve room for the prepared items that need the sandbox, or throw `overloaded`. */
  reserve(prepared: readonly Prepared[]): void {
    this.reserveItems(prepared.reduce((k, p) => k + (p.kind === 'judge' ? 1 : 0), 0));
  }

  /**
   * Reserve room for `n` items, all or nothing: `payload_too_large` when `n` can never fit, `overloaded` (with
   * `retryAfterSeconds`) when it does not fit now.
   */
  reserveItems(n: number): void {
    if (n > this.admission.limit) {
      throw new ServiceError('payload_too_large',
        `the request has ${n} items to judge; this server holds at most ${this.admission.limit} at once: split it`);
    }
    if (!this.admission.tryReserve(n)) {
      throw new ServiceError('overloaded', `the judging queue is full (${this.admission.outstanding} items held, limit ${this.admission.limit})`,
        undefined, this.admission.retryAfterSeconds());
    }
  }

  private observe(status: SampleStatus, seconds: number): void {
    for (const o of this.observers) o(status, seconds);
  }
}

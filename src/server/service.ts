/**
 * The judging service behind every route: turns one validated submission into a judge request (through
 * `prepareSubmission`, the submission path `crucible eval` uses too), runs it through admission control, and
 * reports the verdict. Every compatibility family and the native API call this; none of them judges anything.
 *
 * Submission -> program: see `src/judge/submission.ts` (`code` judged as given, `response` extracted; Python
 * problems get their prompt unless the code defines the entry point). Nothing found is `no_code`, decided
 * without a sandbox. Problems loaded with `--problems` are named by task id and sent as `{datasetHash, taskId}`;
 * inline tests become an `IoProblem` whose id is `inline:<sha256 of tests, comparator and limits>`, sent inline.
 * Failures of Crucible (sandbox, harness, shutdown) come back as status `internal_error` with a reason and
 * no reward, never as a verdict about the program.
 */
import { messageOf } from '../errors.js';
import { createHash } from 'node:crypto';
import type { Comparator, IoProblem, IoTestCase, Problem } from '../formats/types.js';
import type { LoadedProblem, ProblemIndex } from './problem-index.js';
import { JudgeRequestError, type CallOptions, type Judge, type JudgeRequest, type ProblemSpec } from '../judge/judge.js';
import { SubmissionError } from '../kinds/index.js';
import { prepareSubmission, type Extraction, type SubmissionContext } from '../judge/submission.js';
import { LIMIT_RANGES, outOfRange, type LimitRange } from '../limits.js';
import { verdictWithoutTests, type SampleStatus, type Verdict } from '../verdict/index.js';
import { AdmissionQueue, ShutdownError } from './admission.js';
import { ServiceError } from './errors.js';
import { ClientGoneError, type RequestScope } from './scope.js';
import type { SharedWork } from '../engine/shared-work.js';
import type { ExecutionStatus } from '../sandbox/types.js';

export type { Extraction } from '../judge/submission.js';

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
  /** `verilog` problems: the formal check beside the verdict (`VerilogProblem.formal`). */
  readonly formal?: boolean;
  /** `verilog` problems: the synthesis statistics too (`VerilogProblem.synthesis`; a reward spec's `synthesis` term). */
  readonly synthesis?: boolean;
}

/** A submission ready to judge, or already decided (`no_code`). */
export type Prepared =
  | { readonly kind: 'judge'; readonly request: JudgeRequest; readonly extraction: Extraction; readonly testCount: number;
      readonly problemId: string }
  | { readonly kind: 'decided'; readonly verdict: Verdict; readonly extraction: Extraction; readonly testCount: number;
      readonly problemId: string };

/** A judged submission: its verdict and how its program was obtained. */
export interface Judged {
  readonly verdict: Verdict;
  readonly extraction: Extraction;
}

/**
 * Observer of finished verdicts (metrics): status, seconds from admission to verdict, and the route of the
 * request (`unknown` when the caller gave no scope).
 */
export type VerdictObserver = (status: SampleStatus | ExecutionStatus, seconds: number, route: string) => void;

/**
 * How `JudgeService.admitted` runs one item (see there): `status` of its outcome for the metrics (none: not
 * observed); `reserved` when the caller reserved its place already (a batch, all or nothing: `reserve`); `share`
 * when identical items share one execution (the place is taken only by the one that starts it); `failed` its
 * outcome when Crucible failed on it (shutdown before it started, an error of the work), else that error is thrown.
 */
export interface AdmittedOptions<T> {
  readonly status?: (outcome: T) => SampleStatus | ExecutionStatus;
  readonly reserved?: boolean;
  readonly share?: { readonly memo: SharedWork<T>; readonly key: string };
  readonly failed?: (reason: string) => T;
}

/** Largest limits a request may ask for (ms, KiB). */
export interface ServiceLimits {
  readonly maxTimeLimitMs: number;
  readonly maxMemoryLimitKiB: number;
}

/**
 * Admission across a fleet (a server judging on a queue): null to admit `items` more, or why not and when to
 * retry (seconds), e.g. when the queue's backlog exceeds the fleet's capacity times a factor.
 */
export type FleetAdmission = (items: number) => { readonly reason: string; readonly retryAfterSeconds: number } | null;

/** The judge call options of a request's scope: its signal, tenant and priority (a server's default is interactive). */
export function callOptions(scope: RequestScope | undefined): CallOptions {
  if (scope === undefined) return { priority: 'interactive' };
  return { signal: scope.signal, priority: scope.priority ?? 'interactive', ...(scope.tenant === undefined ? {} : { tenant: scope.tenant }) };
}

/** A problem loaded with `--problems` and how the judge's catalog names it (`problem-index.ts`). */
export type { LoadedProblem } from './problem-index.js';

export class JudgeService {
  private readonly inlineIds = new Map<string, string>();
  private readonly observers: VerdictObserver[] = [];
  /** Items whose client disconnected before their answer (left the queue or had their runs killed). */
  cancelledItems = 0;

  constructor(readonly judge: Judge, readonly submission: SubmissionContext,
    readonly problems: ReadonlyMap<string, LoadedProblem> & Pick<ProblemIndex, 'listed'>, readonly admission: AdmissionQueue,
    readonly limits: ServiceLimits, private readonly fleetAdmission?: FleetAdmission) {}

  onVerdict(observer: VerdictObserver): void {
    this.observers.push(observer);
  }

  /** Executions started so far (sandboxed runs, compilations, Python harness jobs). */
  get executions(): number {
    return this.judge.stats().executions;
  }

  /** Throw `invalid_body` naming `field` and the allowed range when `value` is outside `range`. */
  private checkLimit(value: number | undefined, range: LimitRange, unit: 'ms' | 'KiB', field: string): void {
    if (value === undefined) return;
    const problem = outOfRange(value, range, unit, unit);
    if (problem !== null) throw new ServiceError('invalid_body', `${field}: ${problem}`, field);
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

  /** The problem a submission names and how to send it to the judge. @throws ServiceError (400). */
  private problemOf(sub: Submission, field: string): { problem: Problem; spec: ProblemSpec } {
    if (sub.problem !== undefined) {
      const found = this.problems.get(sub.problem);
      if (!found) throw new ServiceError('unknown_problem', `${field}problem: no problem "${sub.problem}" is loaded`, `${field}problem`);
      if (sub.formal !== true && sub.synthesis !== true) return { problem: found.problem, spec: found.ref };
      if (found.problem.kind !== 'verilog') {
        throw new ServiceError('invalid_body', `${field}formal: the formal check and synthesis statistics are for verilog problems; "${sub.problem}" is ${found.problem.kind}`, `${field}formal`);
      }
      // The loaded problem with the check asked for, sent whole: the judge knows it apart from the plain one.
      const problem = { ...found.problem, ...(sub.formal === true ? { formal: true } : {}), ...(sub.synthesis === true ? { synthesis: true } : {}) };
      return { problem, spec: { inline: problem } };
    }
    if (sub.formal === true || sub.synthesis === true) {
      throw new ServiceError('invalid_body', `${field}formal: the formal check is for loaded verilog problems, not inline tests`, `${field}formal`);
    }
    if (sub.tests !== undefined) {
      const problem = this.inlineProblem(sub, sub.tests, field);
      return { problem, spec: { inline: problem } };
    }
    throw new ServiceError('invalid_body', `${field}problem: give "problem" or "tests"`, `${field}problem`);
  }

  /**
   * Resolve the problem, extract the program and build the judge request. Synchronous and cheap; throws
   * `ServiceError` (400) for what the client got wrong. `field` prefixes error field names (e.g. `items[3].`).
   */
  prepare(sub: Submission, field = ''): Prepared {
    const { problem, spec } = this.problemOf(sub, field);
    try {
      const prepared = prepareSubmission(problem, sub, this.submission);
      const common = { extraction: prepared.extraction, testCount: prepared.testCount, problemId: problem.taskId };
      if (prepared.kind === 'decided') return { kind: 'decided', verdict: prepared.verdict, ...common };
      return { kind: 'judge', request: { problem: spec, program: prepared.program, failFast: sub.failFast === true }, ...common };
    } catch (error) {
      if (error instanceof SubmissionError) {
        const target = error.code === 'no_program' ? 'response' : 'language';
        throw new ServiceError(error.code === 'unknown_language' ? 'unknown_language' : 'invalid_body',
          `${field}${target}: ${error.message}`, `${field}${target}`);
      }
      if (error instanceof JudgeRequestError) throw new ServiceError('invalid_body', `${field}problem: ${error.message}`, `${field}problem`);
      throw error;
    }
  }

  /**
   * Run one item of work the way every route does (admission, cancellation, metrics in one place):
   * - its place: reserved here (`overloaded` or `payload_too_large` when there is none; see `reserveItems`) unless
   *   `options.reserved`, or not at all when it joins an identical item's execution (`options.share`);
   * - its turn: it waits in the admission queue, then `work` runs with the signal that cancels it;
   * - the client gone (`scope.signal` aborts) before or during the work: the item leaves the queue or its work is
   *   cancelled (work shared with other callers goes on for them), it counts as cancelled, not as a verdict, and
   *   the call rejects with `ClientGoneError`: the one disconnect answer, which every route answers 499 with no body;
   * - Crucible's failure (shutdown before it started, an error of `work` that is not a `ServiceError`):
   *   `options.failed(reason)`, or the error rethrown without `failed`;
   * - its outcome observed for the metrics (`options.status`, seconds from admission, the scope's route).
   * @throws ServiceError (no place; or thrown by `work`: the request's fault); ClientGoneError.
   */
  async admitted<T>(scope: { readonly route: string; readonly signal?: AbortSignal } | undefined, work: (signal?: AbortSignal) => Promise<T>,
    options: AdmittedOptions<T> = {}): Promise<T> {
    const signal = scope?.signal;
    const joined = options.share?.memo.has(options.share.key) === true;
    if (options.reserved !== true && !joined) this.reserveItems(1);
    const startedMs = performance.now();
    let started = false;
    const execute = (s?: AbortSignal): Promise<T> => {
      started = true;
      return this.admission.run(() => work(s), s);
    };
    let outcome: T;
    try {
      outcome = options.share === undefined ? await execute(signal) : await options.share.memo.run(options.share.key, execute, signal);
    } catch (error) {
      // A reservation whose work never began (the client was gone already, or it joined one that failed) goes back.
      if (!started && !joined && options.share !== undefined) this.admission.release(1);
      if (signal?.aborted) {
        this.cancelledItems++;
        throw new ClientGoneError();
      }
      if (error instanceof ServiceError || options.failed === undefined) throw error;
      outcome = options.failed(error instanceof ShutdownError ? `not run: ${error.message}` : `crucible failed: ${messageOf(error)}`);
    }
    if (options.status !== undefined) this.observe(options.status(outcome), (performance.now() - startedMs) / 1000, scope?.route ?? 'unknown');
    return outcome;
  }

  /**
   * Judge a prepared submission whose admission was reserved (`reserve`), through `admitted`: Crucible's failures
   * are `internal_error` verdicts; a `no_code` submission is decided without a turn.
   * @throws ClientGoneError when `scope.signal` aborts (the client went away).
   */
  async judgeReserved(prepared: Prepared, scope?: RequestScope): Promise<Judged> {
    if (prepared.kind === 'decided') {
      this.observe(prepared.verdict.status, 0, scope?.route ?? 'unknown');
      return { verdict: prepared.verdict, extraction: prepared.extraction };
    }
    const verdict = await this.admitted(scope, (signal) => this.judge.judge(prepared.request, { ...callOptions(scope), ...signal === undefined ? {} : { signal } }),
      { reserved: true, status: (v) => v.status, failed: (reason) => verdictWithoutTests('internal_error', prepared.testCount, reason) });
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
    const fleet = n === 0 ? null : this.fleetAdmission?.(n) ?? null;
    if (fleet !== null) {
      this.admission.stats.rejectedItems += n;
      this.admission.stats.rejectedRequests++;
      throw new ServiceError('overloaded', fleet.reason, undefined, fleet.retryAfterSeconds);
    }
    if (!this.admission.tryReserve(n)) {
      // A refusal leaves the queue as it was, so `refusal` words the same test `tryReserve` just failed.
      throw new ServiceError('overloaded', this.admission.refusal(n) ?? 'the judging queue is full', undefined, this.admission.retryAfterSeconds(n));
    }
  }

  /** Report a finished item to the observers (metrics); `admitted` reports every item it runs here. */
  observe(status: SampleStatus | ExecutionStatus, seconds: number, route: string): void {
    for (const o of this.observers) o(status, seconds, route);
  }
}

/**
 * `LocalJudge`: the `Judge` (`src/judge/judge.ts`) that runs on this machine's sandbox. Made by `createJudge`
 * (`factory.ts`); every front end uses it through the interface.
 *
 * One judgement: resolve the problem (catalog or inline) and its mode, resolve the language, merge the limits;
 * then, once for all identical requests (`SharedWork`: same problem, program, fail-fast and limits, joined in
 * flight or answered from memory), compute the mode's reference if it has one (memory, then the ground-truth
 * cache on disk, then the sandbox), let the mode plan, execute the plan (`PlanExecutor`) and let the mode turn
 * the outcome into the verdict. The memo keeps and shares the plain verdict (`plainVerdict`). A caller that asks
 * for detail (`CallOptions.detail`) always gets the mode's `detail` with the verdict: detailed verdicts have a
 * small memo of their own (the last `DETAIL_MEMO_CAPACITY`, shared by identical detail requests in flight and
 * after), whose judgement is the plain memo's when it starts it, and otherwise (the plain memo already held the
 * program's verdict, judged without detail) one more judgement with detail for a verdict that fails — a program
 * that passed, or Crucible's failure, has no detail to add.
 *
 * Failure policy: anything that goes wrong inside Crucible becomes an `internal_error` verdict with the reason,
 * never a rejection and never a verdict on the program; such a judgement (and a plain run or harness job that
 * ended `internal_error`) is retried up to `INTERNAL_ERROR_RETRIES` times (transient failures: a harness that
 * died, a sweep that lost a race) before it is returned, and it is never memoised. A reference that cannot be made
 * because the canonical solution itself fails (e.g. on the memory limit) is `reference_failed` for every submission
 * of that problem, with the limit to raise, remembered for the process; one Crucible failed to compute is
 * `internal_error`, tried again.
 */
import type { EnvironmentProvider } from '../judge/environment.js';
import type { SqlEngine } from '../judge/sql-engine.js';
import { messageOf } from '../errors.js';
import { createHash } from 'node:crypto';
import type { ProblemBase } from '../formats/types.js';
import type { HarnessJob, HarnessResponse } from '../judge/harness/protocol.js';
import {
  isInline, JudgeRequestError, type AnalysisOption, type CallOptions, type Judge, type JudgeCapacity, type JudgeRequest, type JudgeStats,
  type PackageRequest, type PackageResult, type PlainRunOutcome, type PlainRunRequest, type ProblemCatalog, type ProblemRef, type ProblemSpec, type Program,
  type SelfTestCheck, type SelfTestReport,
} from '../judge/judge.js';
import { GroundTruthError, referenceFailureReason, type AnyMode, type ModeContext, type ModeRegistry } from '../kinds/index.js';
import type { LanguageRegistry } from '../languages/registry.js';
import type { Language } from '../languages/schema.js';
import { CALIBRATED_TIME_DEFAULTS, compileLimits, LIMIT_RANGES, outOfRange, runLimits, type CalibratedTimeLimit, type JudgeLimits } from '../limits.js';
import type { Sandbox } from '../sandbox/index.js';
import { internalRun } from '../sandbox/types.js';
import {
  failedTestDetail, plainVerdict, verdictWithoutTests, type DetailedVerdict, type FailedTestDetail, type Verdict,
} from '../verdict/index.js';
import { analyseSample } from './analyse.js';
import { Executor, programHash } from './executor.js';
import type { GroundTruthCache } from './ground-truth.js';
import { PlanExecutor } from './plan-executor.js';
import { harnessInterpreter, PythonHarnessPool } from './harness-pool.js';

export { harnessInterpreter };
import { SharedWork } from './shared-work.js';

/** Verdicts remembered for deduplication (a fail-fast verdict is a few hundred bytes). */
const MEMO_CAPACITY = 200_000;

/**
 * The memo's weight budget: verdicts plus the test results they hold (`memoWeight`). A verdict with every test kept
 * can hold ~1,000 results (HumanEval+ without fail-fast), so a count alone does not bound memory: 200,000 of
 * those reached Node's 4 GB heap. At roughly 100-200 bytes a result, 1,000,000 is ~100-200 MB.
 */
export const MEMO_WEIGHT = 1_000_000;

/** A verdict's weight in the memo: 1 for itself, 1 per test result it holds. */
export function memoWeight(verdict: Verdict): number {
  return 1 + verdict.tests.length;
}

/**
 * Detailed verdicts remembered for callers that ask for detail (a program session resubmitting the same code):
 * few, since a detail holds up to `MAX_DETAILED_FAILURES` failing tests' texts (`src/verdict/detail.ts`).
 */
const DETAIL_MEMO_CAPACITY = 256;

/** Extra attempts of a judgement that ended in `internal_error` before that verdict is returned. */
export const INTERNAL_ERROR_RETRIES = 2;

/** What a local judge is made of (see `createJudge` for the defaults). */
export interface LocalJudgeOptions {
  readonly languages: LanguageRegistry;
  readonly modes: ModeRegistry;
  /** Limits of requests that set none. */
  readonly limits: JudgeLimits;
  /** Ground truth on disk, or null to keep it in memory only. */
  readonly groundTruth: GroundTruthCache | null;
  /** Close the sandbox with the judge. */
  readonly ownsSandbox: boolean;
  /** Providers of the prepared environments plans may name (`PlanWorkspace`), by name; default none. */
  readonly environments?: ReadonlyMap<string, EnvironmentProvider>;
  /** SQL servers `sql_engine` plans may name (`src/judge/sql-engine.ts`), by name; default none. */
  readonly sqlEngines?: ReadonlyMap<string, SqlEngine>;
  /**
   * Calibrated time limits for problems whose reference solution is measured (`ModeContext.calibration`);
   * default `CALIBRATED_TIME_DEFAULTS`, null for the fixed limit everywhere.
   */
  readonly calibration?: CalibratedTimeLimit | null;
}

/** A problem spec resolved against the catalog and the modes (`datasetHash` null for an inline problem). */
interface ResolvedProblem {
  readonly problem: ProblemBase;
  readonly mode: AnyMode;
  readonly datasetHash: string | null;
}

/** A request resolved against the catalog, the modes and the languages. */
interface Resolved extends ResolvedProblem {
  readonly program: Program;
  /**
   * The program's language, resolved once here and handed down to the plan executor; undefined for a mode's
   * remote language (`JudgingMode.remoteLanguages`: checked elsewhere, no local toolchain).
   */
  readonly language: Language | undefined;
  readonly limits: JudgeLimits;
  readonly failFast: boolean;
  readonly stopAfterTimeouts: number | null;
}

/** Problems by dataset hash, then task id. */
export class MemoryCatalog implements ProblemCatalog {
  private readonly datasets = new Map<string, ReadonlyMap<string, ProblemBase>>();

  /** @throws Error when a task id appears twice in one dataset. */
  add(datasetHash: string, problems: readonly ProblemBase[]): void {
    if (this.datasets.has(datasetHash)) return;
    const byId = new Map<string, ProblemBase>();
    for (const p of problems) {
      if (byId.has(p.taskId)) throw new Error(`dataset ${datasetHash.slice(0, 12)}: task id "${p.taskId}" appears twice`);
      byId.set(p.taskId, p);
    }
    this.datasets.set(datasetHash, byId);
  }

  get(ref: ProblemRef): ProblemBase | undefined {
    return this.datasets.get(ref.datasetHash)?.get(ref.taskId);
  }

  has(datasetHash: string): boolean {
    return this.datasets.has(datasetHash);
  }
}

export class LocalJudge implements Judge {
  readonly catalog = new MemoryCatalog();
  private readonly executor: Executor;
  private readonly harness: PythonHarnessPool;
  private readonly plans: PlanExecutor;
  private readonly memo = new SharedWork<Verdict>(MEMO_CAPACITY, (v) => v.status !== 'internal_error',
    { weigh: memoWeight, maxWeight: MEMO_WEIGHT });
  private readonly detailMemo = new SharedWork<DetailedVerdict>(DETAIL_MEMO_CAPACITY, (v) => v.status !== 'internal_error',
    { weigh: memoWeight, maxWeight: MEMO_WEIGHT / 10 });
  private readonly references = new Map<string, Promise<unknown>>();
  /** Content hashes of inline problems (memo keys) and reference fingerprints, by problem object. */
  private readonly inlineHashes = new WeakMap<object, string>();
  private readonly referencePrints = new WeakMap<object, string>();
  private readonly counters = { retries: 0, groundTruthRuns: 0, groundTruthCacheHits: 0 };

  constructor(readonly sandbox: Sandbox, private readonly options: LocalJudgeOptions) {
    this.executor = new Executor(sandbox, options.languages);
    this.harness = new PythonHarnessPool(sandbox, harnessInterpreter(options.languages.get('python')));
    this.plans = new PlanExecutor(this.executor, this.harness, options.languages, options.environments, options.sqlEngines);
  }

  get capacity(): JudgeCapacity {
    const slots = this.sandbox.slotCount;
    const harnessSlots = this.sandbox.boxSlotCount;
    return { slots, harnessSlots, concurrency: Math.max(slots, harnessSlots) * 2 };
  }

  judge(request: JudgeRequest, options: CallOptions = {}): Promise<DetailedVerdict> {
    let resolved: Resolved;
    try {
      resolved = this.resolve(request);
    } catch (error) {
      return Promise.reject(error);
    }
    const key = this.memoKey(resolved);
    const verdict = options.detail !== true
      ? this.memo.run(key, (signal) => this.judged(resolved, signal, false), options.signal)
      : this.detailMemo.run(key, (signal) => this.judgedWithDetail(resolved, key, signal), options.signal);
    return request.analysis === undefined ? verdict : verdict.then((v) => this.withAnalysis(v, resolved, request.analysis!, options));
  }

  /**
   * `verdict` with the static analysis of the judged program (`JudgeRequest.analysis`), its analysers run through
   * this judge's `runPlain`; Crucible's failure (`internal_error`) is returned as it is. Not memoised with the
   * verdict: the memo's verdicts stay the same whether or not a caller asked for analysis.
   */
  private async withAnalysis(verdict: DetailedVerdict, r: Resolved, option: AnalysisOption, options: CallOptions): Promise<DetailedVerdict> {
    if (verdict.status === 'internal_error') return verdict;
    const report = await analyseSample(this, this.options.languages, r.program.language, r.program.source, option === true ? undefined : option,
      options.signal === undefined ? {} : { signal: options.signal });
    return { ...verdict, analysis: report };
  }

  /** One judgement (retried on Crucible's failures), with the mode's detail when `detail`. */
  private judged(r: Resolved, signal: AbortSignal, detail: boolean): Promise<DetailedVerdict> {
    return this.retried(() => this.judgeOnce(r, signal, detail), (v) => v.status === 'internal_error');
  }

  /**
   * The detailed verdict of `r` (key `key`): through the plain memo, so that a plain caller of the same program
   * shares the judgement; judged again with detail when the plain memo answered without it (see the module comment).
   */
  private async judgedWithDetail(r: Resolved, key: string, signal: AbortSignal): Promise<DetailedVerdict> {
    // The call that starts the plain memo's judgement (synchronously, inside `run`) keeps the detailed verdict.
    let own: Promise<DetailedVerdict> | undefined;
    const shared = await this.memo.run(key, (s) => {
      own = this.judged(r, s, true);
      return own.then(plainVerdict);
    }, signal);
    if (own !== undefined) return own;
    if (shared.passed || shared.status === 'internal_error' || r.mode.detail === undefined) return shared;
    return this.judged(r, signal, true);
  }

  async describeTests(spec: ProblemSpec, options: CallOptions = {}): Promise<readonly FailedTestDetail[]> {
    const target = this.resolveProblem(spec);
    const { problem, mode } = target;
    const indexes = Array.from({ length: mode.testCount(problem) }, (_, i) => i);
    if (mode.describeTest === undefined) return indexes.map((i) => failedTestDetail(i, {}));
    options.signal?.throwIfAborted();
    // A reference that cannot be made leaves out what it would have given (the expected values), nothing else.
    const reference = mode.reference === undefined ? undefined : await this.reference(target).catch(() => undefined);
    options.signal?.throwIfAborted();
    return indexes.map((i) => mode.describeTest!(problem, i, reference));
  }

  runPlain(request: PlainRunRequest, options: CallOptions = {}): Promise<PlainRunOutcome> {
    const language = this.plans.language(request.program);
    return this.retried(() => this.runPlainOnce(language, request, options),
      (o) => o.compile?.status === 'internal_error' || o.run?.status === 'internal_error');
  }

  private async runPlainOnce(language: Language, request: PlainRunRequest, options: CallOptions): Promise<PlainRunOutcome> {
    const { signal } = options;
    const { limits } = request;
    try {
      signal?.throwIfAborted();
      const files = request.files ?? {};
      const compiled = await this.executor.compile(language, request.program.source, compileLimits(limits.compileCpuMs), { files });
      if (!compiled.ok) return { compile: compiled.result, run: null };
      signal?.throwIfAborted();
      const run = await this.executor.runCompiled(language, request.program.source, compiled, request.stdin, runLimits({
        cpuMs: limits.cpuMs, memoryKiB: limits.memoryKiB,
        ...(limits.wallMs === undefined ? {} : { wallMs: limits.wallMs }),
        ...(limits.outputBytes === undefined ? {} : { outputBytes: limits.outputBytes }),
      }), files, signal);
      return { compile: compiled.result, run };
    } catch (error) {
      if (signal?.aborted) throw error;
      return { compile: null, run: internalRun(`crucible failed: ${messageOf(error)}`) };
    }
  }

  runHarness(job: HarnessJob, options: CallOptions = {}): Promise<HarnessResponse> {
    return this.retried(() => this.plans.runHarness(job, options.signal), (r) => r.status === 'internal_error');
  }

  runPackage(request: PackageRequest, options: CallOptions = {}): Promise<PackageResult> {
    return this.retried(() => this.plans.runPackage(request, options.signal), (r) => 'error' in r);
  }

  stats(): JudgeStats {
    const e = this.executor.stats;
    const h = this.harness.stats;
    // Contest jobs (ioi problems): each job counts as one run (its checker run, when any, is part of it); their
    // compilations are the executor's. Each box of an interactive run counts as a run.
    const other = this.plans.stats.contestJobs + this.plans.stats.interactiveBoxes;
    return {
      requests: this.memo.stats.calls, deduplicated: this.memo.stats.shared, retries: this.counters.retries,
      executions: e.runs + e.compilations + h.jobs + other, runs: e.runs + other,
      compilations: e.compilations, compileCacheHits: e.compileCacheHits,
      harnessJobs: h.jobs, testerReuses: h.testerReuses,
      groundTruthRuns: this.counters.groundTruthRuns, groundTruthCacheHits: this.counters.groundTruthCacheHits,
    };
  }

  async selfTest(options: CallOptions = {}): Promise<SelfTestReport> {
    const [sandbox, harness] = await Promise.all([this.sandbox.selfTest(options.signal), this.harness.selfTest(options.signal)
      .catch((error: unknown) => ({ ok: false as const, wallMs: 0, reason: `the harness self-test failed: ${messageOf(error)}` }))]);
    const check = (name: SelfTestCheck['name'], r: { ok: boolean; wallMs: number; reason?: string }): SelfTestCheck =>
      ({ name, ok: r.ok, wallMs: r.wallMs, ...(r.ok || r.reason === undefined ? {} : { reason: r.reason }) });
    const checks = [check('sandbox', sandbox), check('harness', harness)];
    return { ok: checks.every((c) => c.ok), checks };
  }

  async close(): Promise<void> {
    this.harness.close();
    await this.executor.close();
    for (const engine of this.options.sqlEngines?.values() ?? []) await engine.close?.();
    if (this.options.ownsSandbox) this.sandbox.close();
  }

  /** @throws JudgeRequestError for an unknown problem or a kind no mode judges. */
  private resolveProblem(spec: ProblemSpec): ResolvedProblem {
    const problem = isInline(spec) ? spec.inline : this.catalog.get(spec);
    if (problem === undefined) {
      const ref = spec as ProblemRef;
      throw new JudgeRequestError(this.catalog.has(ref.datasetHash)
        ? `no problem "${ref.taskId}" in dataset ${ref.datasetHash.slice(0, 12)}`
        : `dataset ${ref.datasetHash.slice(0, 12)} is not in this judge's catalog (catalog.add it first)`);
    }
    return { problem, mode: this.options.modes.of(problem), datasetHash: isInline(spec) ? null : spec.datasetHash };
  }

  /** @throws JudgeRequestError for an unknown problem, kind or language, a language the kind refuses, or bad limits. */
  private resolve(request: JudgeRequest): Resolved {
    const { problem, mode, datasetHash } = this.resolveProblem(request.problem);
    const remote = mode.remoteLanguages?.includes(request.program.language) === true && !this.options.languages.has(request.program.language);
    const language = remote ? undefined : this.plans.language(request.program);
    const id = language?.id ?? request.program.language;
    if (mode.acceptsLanguage !== undefined && !mode.acceptsLanguage(problem, id)) {
      throw new JudgeRequestError(`problem ${problem.taskId} (${problem.kind}) cannot be judged in ${id}`, 'program.language');
    }
    return {
      problem, mode, datasetHash, language, program: { language: id, source: request.program.source },
      limits: this.limits(request.limits), failFast: request.failFast === true,
      stopAfterTimeouts: this.stopAfterTimeouts(request),
    };
  }

  /** @throws JudgeRequestError for a `stopAfterTimeouts` that is not a positive integer. */
  private stopAfterTimeouts(request: JudgeRequest): number | null {
    const k = request.stopAfterTimeouts;
    if (k === undefined || request.failFast === true) return null;
    if (!Number.isInteger(k) || k < 1) throw new JudgeRequestError(`stopAfterTimeouts ${k} is not a positive integer`, 'limits');
    return k;
  }

  private limits(requested: Partial<JudgeLimits> | undefined): JudgeLimits {
    const limits = { ...this.options.limits };
    for (const [name, value] of Object.entries(requested ?? {}) as [keyof JudgeLimits, number | undefined][]) {
      if (value !== undefined) limits[name] = value;
    }
    const problem = outOfRange(limits.cpuMs, LIMIT_RANGES.cpuMs, 'ms', 'ms')
      ?? outOfRange(limits.memoryKiB, LIMIT_RANGES.memoryKiB, 'KiB', 'KiB')
      ?? (Number.isInteger(limits.outputBytes) && limits.outputBytes > 0 ? null : `outputBytes ${limits.outputBytes} is not a positive integer`);
    if (problem !== null) throw new JudgeRequestError(`limits: ${problem}`, 'limits');
    return limits;
  }

  private static remembered(cache: WeakMap<object, string>, problem: ProblemBase, compute: () => string): string {
    let known = cache.get(problem);
    if (known === undefined) {
      known = compute();
      cache.set(problem, known);
    }
    return known;
  }

  private memoKey(r: Resolved): string {
    const problem = r.datasetHash ?? `inline:${LocalJudge.remembered(this.inlineHashes, r.problem,
      () => createHash('sha256').update(JSON.stringify(r.problem)).digest('hex'))}`;
    const { cpuMs, memoryKiB, outputBytes } = r.limits;
    return [problem, r.problem.taskId, programHash(r.program.language, r.program.source), r.failFast, r.stopAfterTimeouts ?? '', cpuMs, memoryKiB, outputBytes].join('\0');
  }

  /** `attempt` again while its result is Crucible's failure, at most `INTERNAL_ERROR_RETRIES` more times. */
  private async retried<T>(attempt: () => Promise<T>, failed: (result: T) => boolean): Promise<T> {
    for (let tries = 0; ; tries++) {
      const result = await attempt();
      if (!failed(result) || tries >= INTERNAL_ERROR_RETRIES) return result;
      this.counters.retries++;
    }
  }

  private async judgeOnce(r: Resolved, signal: AbortSignal, detail: boolean): Promise<DetailedVerdict> {
    try {
      const reference = await this.reference(r);
      signal.throwIfAborted();
      const calibration = this.options.calibration === undefined ? CALIBRATED_TIME_DEFAULTS : this.options.calibration;
      const context: ModeContext<unknown> = { limits: r.limits, failFast: r.failFast, stopAfterTimeouts: r.stopAfterTimeouts, reference, calibration };
      const plan = r.mode.plan(r.problem, r.program, context);
      const outcome = await this.plans.execute(r.mode, r.problem, plan, { signal, ...(r.language === undefined ? {} : { language: r.language }) });
      const verdict: Verdict = r.mode.verdict(r.problem, outcome, context);
      if (!detail || r.mode.detail === undefined) return verdict;
      return { ...verdict, detail: r.mode.detail(r.problem, outcome, verdict, context) };
    } catch (error) {
      if (signal.aborted) throw error;
      if (error instanceof GroundTruthError && !error.transient) {
        return verdictWithoutTests('reference_failed', r.mode.testCount(r.problem), referenceFailureReason(error, this.options.limits));
      }
      const reason = error instanceof GroundTruthError ? error.message : `crucible failed: ${messageOf(error)}`;
      return verdictWithoutTests('internal_error', r.mode.testCount(r.problem), reason);
    }
  }

  /** The mode's reference for the problem, made once per process (undefined for modes without one). */
  private reference(r: ResolvedProblem): Promise<unknown> {
    const spec = r.mode.reference;
    if (spec === undefined || spec.applies?.(r.problem) === false) return Promise.resolve(undefined);
    const fingerprint = LocalJudge.remembered(this.referencePrints, r.problem, () => spec.fingerprint(r.problem));
    const key = [r.mode.kind, r.datasetHash ?? 'inline', r.problem.taskId, fingerprint].join('\0');
    let pending = this.references.get(key);
    if (pending === undefined) {
      pending = this.computeReference(r, fingerprint);
      this.references.set(key, pending);
      // A reference that failed inside Crucible may succeed next time; one the reference itself failed may not.
      pending.catch((error: unknown) => {
        if (!(error instanceof GroundTruthError) || error.transient) this.references.delete(key);
      });
    }
    return pending;
  }

  private async computeReference(r: ResolvedProblem, fingerprint: string): Promise<unknown> {
    const spec = r.mode.reference!;
    const cache = r.datasetHash === null ? null : this.options.groundTruth;
    const key = { kind: r.mode.kind, datasetHash: r.datasetHash ?? '', taskId: r.problem.taskId, version: spec.version, fingerprint };
    const cached = cache?.load(key, spec.schema);
    if (cached !== undefined) {
      this.counters.groundTruthCacheHits++;
      return cached;
    }
    this.counters.groundTruthRuns++;
    const outcome = await this.plans.execute(r.mode, r.problem, spec.plan(r.problem, this.options.limits), { judging: 'default' });
    const value = spec.parse(r.problem, outcome);
    cache?.save(key, value);
    return value;
  }
}

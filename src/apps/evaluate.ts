/**
 * `crucible eval` as a library: judge every sample of a dataset through a `Judge`, stream verdicts into a run
 * directory, resume what is already there, and summarise (pass@k with bootstrap CIs, counts by status,
 * provenance). The CLI only parses flags and draws the progress bar.
 *
 * Samples that cannot be judged as given get their own verdict and the run goes on: no code in a response is
 * `no_code`; a language Crucible has no toolchain for (or a Python problem answered in another language) is
 * `invalid_submission` with the reason. A judgement that fails inside Crucible is `internal_error` (after the
 * judge's own retries), recorded like any verdict; a resumed run judges such samples again.
 *
 * With a `sink` (the result store's `EvalSink`), each judged sample also goes there once it is in the run
 * directory, with its program, extraction and the verdict's detail (the judge is asked for it; a program judged
 * once for several samples gives its detail to the first of them only, the store keeps detail per program).
 *
 * Every problem given must be attempted by some sample (`IncompleteSamplesError` otherwise, before anything is
 * judged; `selection.ts` chooses the problems of a deliberate subset). Problems whose reference solution failed
 * under the limits (`reference_failed`) are left out of pass@k unless `includeReferenceFailures`, and listed in
 * the result. An aborted `signal` stops the evaluation: nothing new starts, samples under way are cancelled and
 * not recorded (a resumed run judges them), and `evaluate` rejects with `EvaluationInterrupted`. When every
 * problem's reference failed there is nothing to score: `NothingToScoreError` (after the records are written).
 */
import { createHash } from 'node:crypto';
import { messageOf } from '../errors.js';
import { DatasetError } from '../formats/errors.js';
import type { Problem, Sample } from '../formats/types.js';
import type { Judge, Program } from '../judge/judge.js';
import { countFindings, type AnalysisReport, type AnalyzerId } from '../verdict/analysis.js';
import { analyseSample } from './analyse.js';
import { SubmissionError, defaultSubmissionContext } from '../kinds/index.js';
import { prepareSubmission, type PreparedSubmission, type SubmissionContext } from '../judge/submission.js';
import { countsFromRecords, referenceFailedTasks } from '../metrics/counts.js';
import { passAtKWithIntervals, type PassAtKSummary } from '../metrics/summary.js';
import type { JudgedSample } from '../store/eval-sink.js';
import type { SampleRecord } from '../store/records.js';
import { RunStore, sampleKey } from '../store/run-store.js';
import { verdictWithoutTests, type DetailedVerdict } from '../verdict/index.js';
import { programHash } from '../engine/executor.js';
import { inPool } from './in-pool.js';
import { IncompleteSamplesError } from './selection.js';

/** Progress callback: done and total samples so far (done includes resumed ones). */
export type ProgressListener = (done: number, total: number) => void;

/** Options of an evaluation. */
export interface EvaluateOptions {
  readonly judge: Judge;
  readonly store: RunStore;
  readonly problems: readonly Problem[];
  /** sha256 of the problems file (`datasetHash`): the problems are registered in the judge's catalog under it. */
  readonly datasetHash: string;
  readonly samples: readonly Sample[];
  /** Path of the samples file, for error messages (default `samples`). */
  readonly samplesFile?: string;
  /** Languages and judging modes submissions are prepared with (default `defaultSubmissionContext()`). */
  readonly submission?: SubmissionContext;
  /** Requests in flight at once (default: the judge's `capacity.concurrency`). */
  readonly concurrency?: number;
  readonly ks: readonly number[];
  readonly bootstrapReps?: number;
  readonly seed?: number;
  readonly onProgress?: ProgressListener;
  /** Run every test even after one fails (default: stop at the first failure; pass@k only needs that). */
  readonly allTests?: boolean;
  /**
   * What each `verdicts.jsonl` record keeps of the model's text: `full` (default) the text (`completion`), `hash` its
   * sha256 (`completionSha256`), `none` neither.
   */
  readonly keepCode?: KeepCode;
  /** Gets each judged sample once it is in the run directory, with its program and failure detail (the result store's `EvalSink`). */
  readonly sink?: { record(record: SampleRecord, judged: JudgedSample): void };
  /**
   * Samples whose content arrives during the run (`crucible eval --endpoint`): `samples` name them (task and
   * index) and each is judged as soon as it arrives here, in arrival order; one that comes `decided` gets that
   * verdict without running (no text from the model: `no_code`; its generation failed: `internal_error`).
   * Arrivals of samples already in the store are skipped; the iteration must bring every other sample.
   */
  readonly arrivals?: AsyncIterable<ArrivedSample>;
  /**
   * Static analysis of every judged program (`crucible eval --analysis`): the analysers to run (`[]`: every one
   * that reads the program's language), through the judge's `runPlain` (`./analyse.ts`); counted in each record.
   */
  readonly analysis?: readonly AnalyzerId[];
  /** Count the samples of problems whose reference failed as failed (default: leave those problems out of pass@k). */
  readonly includeReferenceFailures?: boolean;
  /** Stops the evaluation when aborted (see the module comment). */
  readonly signal?: AbortSignal;
}

/** A sample that arrived during the run (`EvaluateOptions.arrivals`). */
export interface ArrivedSample {
  readonly sample: Sample;
  readonly decided?: { readonly status: 'no_code' | 'internal_error'; readonly reason: string };
}

/** The evaluation was stopped by its signal; `done` of `total` samples are in the run directory. */
export class EvaluationInterrupted extends Error {
  constructor(readonly done: number, readonly total: number) {
    super(`interrupted with ${done} of ${total} samples judged`);
    this.name = 'EvaluationInterrupted';
  }
}

/** Every problem was left out of pass@k because its reference failed: there is no score to give. */
export class NothingToScoreError extends Error {
  constructor(readonly failures: readonly ReferenceFailure[]) {
    super(`no problem left to score: the reference solution of every problem judged failed under the limits (${failures[0]?.taskId}: `
      + `${failures[0]?.reason}); raise the limit, or give --include-reference-failures to count their samples as failed`);
    this.name = 'NothingToScoreError';
  }
}

/** A problem whose reference solution failed under the limits, and why (the reason names the limit to raise). */
export interface ReferenceFailure {
  readonly taskId: string;
  readonly reason: string;
}

/** What an evaluation produced. `passAtK` maps k (as a string) to the fraction passing. */
export interface EvaluationResult {
  readonly records: readonly SampleRecord[];
  readonly resumed: number;
  readonly judged: number;
  readonly wallMs: number;
  readonly countsByStatus: Readonly<Record<string, number>>;
  readonly passAtK: Readonly<Record<string, number>>;
  readonly passAtKSummary: PassAtKSummary;
  readonly plusPassAtK?: Readonly<Record<string, number>>;
  readonly plusPassAtKSummary?: PassAtKSummary;
  /** Requested k that some problem cannot support (n < k), left out of passAtK. */
  readonly unsupportedKs: readonly number[];
  readonly distinctPrograms: number;
  /** Problems pass@k is over (those given, less reference failures unless they are counted). */
  readonly problemsCounted: number;
  /** Problems whose reference failed; left out of pass@k unless `includeReferenceFailures`. */
  readonly referenceFailures: readonly ReferenceFailure[];
}

/**
 * The problem of every sample, in sample order.
 * @throws DatasetError at the sample's line when its task id is not in the problems (naming how many are not).
 */
export function problemsOfSamples(problems: readonly Problem[], samples: readonly Sample[], samplesFile = 'samples'): Problem[] {
  const byId = new Map(problems.map((p) => [p.taskId, p]));
  const unknown = samples.filter((s) => !byId.has(s.taskId));
  if (unknown.length > 0) {
    const first = unknown[0]!;
    const others = unknown.length > 1 ? ` (${unknown.length} samples name tasks that are not there)` : '';
    throw new DatasetError(samplesFile, first.line, 'task_id',
      `sample ${first.index} of task "${first.taskId}": no such task in the problems file${others}`);
  }
  return samples.map((s) => byId.get(s.taskId)!);
}

/**
 * A sample's submission, prepared for its problem: a program to judge, or a verdict decided without running
 * anything (`no_code`; `invalid_submission` for a language that cannot judge it).
 */
export function prepareSample(problem: Problem, sample: Sample, context: SubmissionContext): PreparedSubmission {
  try {
    return prepareSubmission(problem, sample, context);
  } catch (error) {
    if (!(error instanceof SubmissionError)) throw error;
    const testCount = error.testCount ?? 0;
    return { kind: 'decided', extraction: { kind: 'code' }, testCount,
      verdict: verdictWithoutTests('invalid_submission', testCount, `sample ${sample.index} of ${sample.taskId}: ${error.message}`) };
  }
}

/** The hash of what a prepared sample runs (decided samples run nothing: the empty program). */
export function preparedHash(prepared: PreparedSubmission): string {
  return prepared.kind === 'program' ? programHash(prepared.program.language, prepared.program.source) : programHash('', '');
}

/** What `verdicts.jsonl` keeps of each sample's text (`EvaluateOptions.keepCode`). */
export type KeepCode = 'full' | 'hash' | 'none';

/** The `completion` / `completionSha256` fields of a record, as `keepCode` asks. */
function codeFields(sample: Sample, keepCode: KeepCode): Pick<SampleRecord, 'completion' | 'completionSha256'> {
  const text = sample.completion ?? sample.solution ?? sample.response;
  if (text === undefined || keepCode === 'none') return {};
  return keepCode === 'full' ? { completion: text } : { completionSha256: createHash('sha256').update(text).digest('hex') };
}

function recordOf(sample: Sample, hash: string, verdict: DetailedVerdict, keepCode: KeepCode = 'full'): SampleRecord {
  return {
    taskId: sample.taskId,
    sampleIndex: sample.index,
    programHash: hash,
    status: verdict.status,
    passed: verdict.passed,
    ...(verdict.plusStatus !== undefined ? { plusStatus: verdict.plusStatus, plusPassed: verdict.plusPassed === true } : {}),
    tests: verdict.tests,
    cpuMs: verdict.cpuMs,
    wallMs: verdict.wallMs,
    ...(verdict.reason !== undefined ? { reason: verdict.reason } : {}),
    ...(verdict.score !== undefined ? { score: verdict.score } : {}),
    ...(verdict.judgedBy !== undefined ? { judgedBy: verdict.judgedBy } : {}),
    ...(verdict.analysis !== undefined ? { analysis: { ...countFindings(verdict.analysis), lines: verdict.analysis.lines } } : {}),
    ...(verdict.formal !== undefined ? { formal: verdict.formal } : {}),
    ...codeFields(sample, keepCode),
  };
}

/** What the sink gets of a judged sample: the program run (none for a decided sample), extraction, detail. */
function judgedSample(problem: Problem, sample: Sample, prepared: PreparedSubmission, verdict: DetailedVerdict): JudgedSample {
  return {
    problem, sample,
    source: prepared.kind === 'program' ? prepared.program.source : '',
    ...(prepared.kind === 'program' ? { language: prepared.program.language } : {}),
    ...(verdict.detail === undefined ? {} : { verdict: verdict.detail }),
    ...(prepared.extraction.kind === 'code' ? {} : { extraction: prepared.extraction }),
  };
}

/**
 * Judge one prepared sample; Crucible's failures (a rejection) become `internal_error`, never a lost result.
 * Undefined when the evaluation's signal stopped it (nothing to record).
 */
async function judgeSample(options: EvaluateOptions, sample: Sample, prepared: PreparedSubmission): Promise<DetailedVerdict | undefined> {
  if (prepared.kind === 'decided') return prepared.verdict;
  try {
    return await options.judge.judge({ problem: { datasetHash: options.datasetHash, taskId: sample.taskId },
      program: prepared.program, failFast: options.allTests !== true },
    { detail: options.sink !== undefined, ...(options.signal === undefined ? {} : { signal: options.signal }) });
  } catch (error) {
    if (options.signal?.aborted === true) return undefined;
    return verdictWithoutTests('internal_error', prepared.testCount, `crucible failed: ${messageOf(error)}`);
  }
}

/** @throws IncompleteSamplesError when some problem has no sample (as openai/human-eval asserts every problem is attempted). */
function assertEveryProblemAttempted(problems: readonly Problem[], samples: readonly Sample[], samplesFile = 'samples'): void {
  const attempted = new Set(samples.map((s) => s.taskId));
  const missing = problems.filter((p) => !attempted.has(p.taskId));
  if (missing.length > 0) {
    throw new IncompleteSamplesError(`${samplesFile}: no sample for ${missing.length} of the ${problems.length} problems `
      + `(${missing.slice(0, 5).map((p) => p.taskId).join(', ')}${missing.length > 5 ? ', ...' : ''}): every problem given must be attempted`);
  }
}

/**
 * Judge everything not yet in the store (and what it holds as `internal_error`), append as it finishes, and
 * summarise.
 * @throws DatasetError for a sample whose task is not in the problems (before anything is judged).
 */
export async function evaluate(options: EvaluateOptions): Promise<EvaluationResult> {
  const { judge, store } = options;
  const sampleProblems = problemsOfSamples(options.problems, options.samples, options.samplesFile);
  assertEveryProblemAttempted(options.problems, options.samples, options.samplesFile);
  judge.catalog.add(options.datasetHash, options.problems);
  const context = options.submission ?? defaultSubmissionContext();
  const records = new Map<string, SampleRecord>(store.existing);
  const todo = options.samples.map((sample, i) => ({ sample, problem: sampleProblems[i]! }))
    .filter(({ sample }) => !records.has(sampleKey(sample.taskId, sample.index)));
  const total = options.samples.length;
  const resumed = total - todo.length;
  let done = resumed;
  options.onProgress?.(done, total);
  const started = Date.now();
  // Identical programs are analysed once (as they are judged once).
  const analyses = new Map<string, Promise<AnalysisReport>>();
  const analysed = (program: Program, hash: string, only: readonly AnalyzerId[]): Promise<AnalysisReport> => {
    let report = analyses.get(hash);
    if (report === undefined) {
      report = analyseSample(judge, context.languages, program.language, program.source, only.length === 0 ? undefined : only);
      analyses.set(hash, report);
    }
    return report;
  };
  const stopped = (): boolean => options.signal?.aborted === true;
  const judgeOne = async ({ sample, problem, decided }: { sample: Sample; problem: Problem; decided?: ArrivedSample['decided'] }): Promise<void> => {
    if (stopped()) return;
    const prepared = decided === undefined ? prepareSample(problem, sample, context) : decidedSample(problem, decided, context);
    const judged = await judgeSample(options, sample, prepared);
    if (judged === undefined || stopped()) return;
    const verdict = options.analysis === undefined || prepared.kind !== 'program' ? judged
      : { ...judged, analysis: await analysed(prepared.program, preparedHash(prepared), options.analysis) };
    if (stopped()) return;
    const record = recordOf(sample, preparedHash(prepared), verdict, options.keepCode);
    store.append(record);
    options.sink?.record(record, judgedSample(problem, sample, prepared, verdict));
    records.set(sampleKey(sample.taskId, sample.index), record);
    options.onProgress?.(++done, total);
  };
  const concurrency = options.concurrency ?? judge.capacity.concurrency;
  if (options.arrivals === undefined) await inPool(todo, concurrency, judgeOne);
  else await judgeArrivals(options.arrivals, todo, concurrency, judgeOne);
  if (stopped()) throw new EvaluationInterrupted(done, total);
  const all = options.samples.map((sample) => records.get(sampleKey(sample.taskId, sample.index))!);
  return summarise(options, all, { resumed, judged: todo.length, wallMs: Date.now() - started });
}

/** A verdict decided for an arrived sample (no text, or its generation failed). */
function decidedSample(problem: Problem, decided: NonNullable<ArrivedSample['decided']>, context: SubmissionContext): PreparedSubmission {
  const testCount = context.modes.of(problem).testCount(problem);
  return { kind: 'decided', extraction: { kind: 'code' }, testCount, verdict: verdictWithoutTests(decided.status, testCount, decided.reason) };
}

/**
 * Judge the `todo` samples as they arrive, at most `concurrency` at once.
 * @throws Error when the arrivals end before every sample of `todo` came (a bug of the producer), or as they throw.
 */
async function judgeArrivals(arrivals: AsyncIterable<ArrivedSample>, todo: readonly { sample: Sample; problem: Problem }[], concurrency: number,
  judgeOne: (item: { sample: Sample; problem: Problem; decided?: ArrivedSample['decided'] }) => Promise<void>): Promise<void> {
  const waiting = new Map(todo.map((item) => [sampleKey(item.sample.taskId, item.sample.index), item]));
  const iterator = arrivals[Symbol.asyncIterator]();
  const worker = async (): Promise<void> => {
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
      const key = sampleKey(next.value.sample.taskId, next.value.sample.index);
      const item = waiting.get(key);
      if (item === undefined) continue; // resumed from the run directory, or a repeat
      waiting.delete(key);
      await judgeOne({ sample: next.value.sample, problem: item.problem, ...(next.value.decided === undefined ? {} : { decided: next.value.decided }) });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, () => worker()));
  if (waiting.size > 0) throw new Error(`${waiting.size} samples never arrived (first: ${[...waiting.keys()][0]!.replace('\0', ' #')})`);
}

function summarise(options: EvaluateOptions, all: readonly SampleRecord[],
  run: { resumed: number; judged: number; wallMs: number }): EvaluationResult {
  const countsByStatus: Record<string, number> = {};
  for (const r of all) countsByStatus[r.status] = (countsByStatus[r.status] ?? 0) + 1;
  const countOptions = { includeReferenceFailures: options.includeReferenceFailures === true };
  const counts = countsFromRecords(all, 'passed', countOptions);
  const failedIds = new Set(referenceFailedTasks(all));
  const referenceFailures = [...failedIds].map((taskId) => ({ taskId,
    reason: all.find((r) => r.taskId === taskId && r.status === 'reference_failed')?.reason ?? 'the reference solution failed' }));
  if (counts.length === 0 && referenceFailures.length > 0) throw new NothingToScoreError(referenceFailures);
  const minN = Math.min(...counts.map((c) => c.n));
  const ks = options.ks.filter((k) => k <= minN);
  const unsupportedKs = options.ks.filter((k) => k > minN);
  const bootstrap = { reps: options.bootstrapReps ?? 2000, seed: options.seed };
  const passAtKSummary = passAtKWithIntervals(counts, { ...bootstrap });
  const pick = (summary: PassAtKSummary): Record<string, number> =>
    Object.fromEntries(ks.map((k) => [String(k), summary.points.find((p) => p.k === k)!.passAtK]));
  const hasPlus = all.some((r) => r.plusStatus !== undefined);
  const plusPassAtKSummary = hasPlus ? passAtKWithIntervals(countsFromRecords(all, 'plusPassed', countOptions), { ...bootstrap }) : undefined;
  return {
    records: all,
    ...run,
    countsByStatus,
    passAtK: pick(passAtKSummary),
    passAtKSummary,
    ...(plusPassAtKSummary ? { plusPassAtK: pick(plusPassAtKSummary), plusPassAtKSummary } : {}),
    unsupportedKs,
    distinctPrograms: new Set(all.map((r) => `${r.taskId}\0${r.programHash}`)).size,
    problemsCounted: counts.length,
    referenceFailures,
  };
}

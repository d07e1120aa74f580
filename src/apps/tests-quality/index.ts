/**
 * `crucible tests-quality` as a library (issue #28, item 4): judge solutions labelled correct and incorrect, and
 * mutants of each problem's reference solution, against every test of the problem (no fail-fast), and measure
 * the suite (`src/metrics/test-suite.ts`): TPR/TNR, which tests catch which incorrect solutions, redundant tests,
 * a minimal subset with the same detection, and the mutation score (`mutants.ts`). Everything runs through the
 * `Judge` in the sandbox, mutants included: they are candidates like any other.
 *
 * A program that never ends would be timed out input by input (~1,000 EvalPlus inputs × the per-input limit), so
 * programs are judged with `stopAfterTimeouts` (default 1, `TestsQualityOptions.stopAfterTimeouts`): after that many
 * time-outs the rest of its tests are not run. Not-run cells are neither passed nor failed (`src/metrics/test-suite.ts`):
 * the program is still rejected (it failed the test that timed out), catching tests and the minimal subset use only
 * the tests that ran, and the report counts the not-run cells (`notRunCells`, `mutation.notRunCells`).
 *
 * Not counted (reported as `excluded`): solutions Crucible could not judge (`internal_error`), problems whose
 * reference failed (`reference_failed`), and stillborn mutants (`compile_error`, or a Python mutant that does not
 * parse: a SyntaxError/IndentationError reason with no test passed).
 */
import type { Problem, Sample } from '../../formats/types.js';
import type { Judge } from '../../judge/judge.js';
import type { SubmissionContext } from '../../judge/submission.js';
import { defaultSubmissionContext } from '../../kinds/index.js';
import { suiteQuality, type PassVector, type SuiteQuality } from '../../metrics/test-suite.js';
import { messageOf } from '../../errors.js';
import { verdictWithoutTests, type Verdict } from '../../verdict/index.js';
import { prepareSample } from '../evaluate.js';
import { inPool } from '../in-pool.js';
import { referenceCodeOf } from '../contamination.js';
import { mutantLanguageOf, mutantsOf, type Mutant } from './mutants.js';

/** Options of `testsQuality`. */
export interface TestsQualityOptions {
  readonly judge: Judge;
  readonly problems: readonly Problem[];
  /** sha256 of the problems file: the problems are registered in the judge's catalog under it. */
  readonly datasetHash: string;
  readonly correct: readonly Sample[];
  readonly incorrect: readonly Sample[];
  /** Mutants per problem (0: none). Default 20. */
  readonly mutantsPerProblem?: number;
  /** Time-outs after which a program's remaining tests are not run (`JudgeRequest.stopAfterTimeouts`); null: run all. Default 1. */
  readonly stopAfterTimeouts?: number | null;
  readonly submission?: SubmissionContext;
  readonly concurrency?: number;
  readonly onProgress?: (done: number, total: number) => void;
  readonly signal?: AbortSignal;
}

/** The mutation analysis of one problem. */
export interface MutationResult {
  readonly language: string;
  readonly generated: number;
  readonly stillborn: number;
  readonly killed: number;
  /** killed / (generated − stillborn); null when no mutant is viable. */
  readonly score: number | null;
  readonly survivors: readonly Omit<Mutant, 'source'>[];
  /** Per test, the ids of the mutants it kills. */
  readonly killsByTest: readonly (readonly number[])[];
  /** Viable mutant × test cells not run (the mutant was stopped after its time-outs). */
  readonly notRunCells: number;
}

/** The quality of one problem's suite: `SuiteQuality` (indices refer to `correctSamples` / `incorrectSamples`). */
export interface ProblemQuality extends SuiteQuality {
  readonly taskId: string;
  readonly correctSamples: readonly number[];
  readonly incorrectSamples: readonly number[];
  /** EvalPlus problems: the same rates with the base inputs only (tests 0 .. baseTests − 1). */
  readonly base?: { readonly baseTests: number; readonly tpr: number | null; readonly tnr: number | null };
  readonly mutation?: MutationResult;
  /** Why a problem has no mutation analysis (no reference, or no operators for its language). */
  readonly mutationSkipped?: string;
  readonly excluded: { readonly internalErrors: number; readonly referenceFailed: boolean };
}

/** The whole analysis: per problem, and pooled over problems. */
export interface TestsQualityReport {
  readonly problems: readonly ProblemQuality[];
  readonly overall: {
    readonly problems: number;
    readonly correct: number;
    readonly incorrect: number;
    /** Pooled over solutions: accepted correct / correct, rejected incorrect / incorrect. */
    readonly tpr: number | null;
    readonly tnr: number | null;
    /** Mean over problems that have such solutions. */
    readonly meanTpr: number | null;
    readonly meanTnr: number | null;
    readonly baseTnr: number | null;
    readonly tests: number;
    readonly redundantTests: number;
    readonly minimalSubsetTests: number;
    readonly mutants: number;
    readonly stillbornMutants: number;
    readonly killedMutants: number;
    readonly mutationScore: number | null;
    /** The time-out rule the programs were judged with (null: every test run). */
    readonly stopAfterTimeouts: number | null;
    /** Labelled solution × test cells not run, and solutions with any. */
    readonly notRunCells: number;
    readonly stoppedSolutions: number;
    /** Viable mutant × test cells not run. */
    readonly mutantNotRunCells: number;
  };
}

/** The first `n` samples of each problem, in file order (a deterministic subset for a costly analysis). */
export function firstPerProblem(samples: readonly Sample[], n: number): Sample[] {
  const taken = new Map<string, number>();
  return samples.filter((s) => {
    const k = taken.get(s.taskId) ?? 0;
    taken.set(s.taskId, k + 1);
    return k < n;
  });
}

/** A test's cell in `Outcome.cells`. */
const FAILED = 0;
const PASSED = 1;
const NOT_RUN = 2;

/**
 * What is kept of a verdict (one byte per test, not the verdict's test results): its status, per test PASSED,
 * FAILED, or NOT_RUN, and whether it is a stillborn program (`stillborn`, decided here so the verdict's reason, a
 * string that may pin a much larger one it was cut from, is not kept for each of ~20,000 jobs). A test absent from
 * the verdict is NOT_RUN when the judge stopped the program after its time-outs (`Verdict.notRun`), else FAILED (a
 * program that did not load, or stopped by its own failure, fails every test it did not reach).
 */
interface Outcome {
  readonly status: Verdict['status'];
  readonly stillborn: boolean;
  readonly cells: Uint8Array;
}

function outcomeOf(verdict: Verdict, testCount: number): Outcome {
  const cells = new Uint8Array(testCount).fill((verdict.notRun ?? 0) > 0 ? NOT_RUN : FAILED);
  for (const t of verdict.tests) if (t.index < testCount) cells[t.index] = t.status === 'passed' ? PASSED : FAILED;
  return { status: verdict.status, stillborn: stillborn(verdict.status, verdict.reason, cells), cells };
}

function passVector(outcome: Outcome): PassVector {
  return Array.from(outcome.cells, (x) => (x === NOT_RUN ? null : x === PASSED));
}

function notRunCells(outcome: Outcome): number {
  let n = 0;
  for (const x of outcome.cells) if (x === NOT_RUN) n++;
  return n;
}

interface Job { readonly problem: Problem; readonly sample: Sample; readonly role: 'correct' | 'incorrect' | 'mutant'; readonly mutant?: Mutant }

/** The mutants of a problem's reference, as samples, or why there are none. */
function mutantJobs(problem: Problem, max: number): { jobs: Job[]; language?: string; skipped?: string } {
  const code = referenceCodeOf(problem);
  if (code === undefined) return { jobs: [], skipped: 'no reference solution' };
  const io = problem.kind === 'io' ? problem.referenceSolution : undefined;
  const language = io?.language ?? ('language' in problem && typeof problem.language === 'string' ? problem.language : 'python');
  const ml = mutantLanguageOf(language);
  if (ml === undefined) return { jobs: [], language, skipped: `no mutation operators for ${language} (Python and C++ have them)` };
  const jobs = mutantsOf(code, ml, max).map((mutant): Job => ({
    problem, role: 'mutant', mutant,
    sample: io === undefined ? { taskId: problem.taskId, index: mutant.id, completion: mutant.source }
      : { taskId: problem.taskId, index: mutant.id, solution: mutant.source, language: io.language },
  }));
  return { jobs, language };
}

/** A mutant that cannot be judged: it does not compile, or (Python) does not parse, so no test passed. */
function stillborn(status: Verdict['status'], reason: string | undefined, cells: Uint8Array): boolean {
  if (status === 'compile_error') return true;
  return cells.every((x) => x !== PASSED) && /\b(SyntaxError|IndentationError|TabError)\b/.test(reason ?? '');
}

/** `TestsQualityOptions.stopAfterTimeouts` by default. */
export const DEFAULT_STOP_AFTER_TIMEOUTS = 1;

/** The time-out rule the options ask for (null: every test run). */
function stopRule(options: TestsQualityOptions): number | null {
  return options.stopAfterTimeouts === undefined ? DEFAULT_STOP_AFTER_TIMEOUTS : options.stopAfterTimeouts;
}

/** Judge one job with every test run (but the time-out rule); Crucible's failures become `internal_error`. */
async function judgeJob(options: TestsQualityOptions, context: SubmissionContext, job: Job): Promise<Verdict> {
  const prepared = prepareSample(job.problem, job.sample, context);
  if (prepared.kind === 'decided') return prepared.verdict;
  try {
    const stop = stopRule(options);
    return await options.judge.judge({ problem: { datasetHash: options.datasetHash, taskId: job.problem.taskId },
      program: prepared.program, failFast: false, ...(stop === null ? {} : { stopAfterTimeouts: stop }) }, options.signal === undefined ? {} : { signal: options.signal });
  } catch (error) {
    if (options.signal?.aborted === true) throw error;
    return verdictWithoutTests('internal_error', prepared.testCount, `crucible failed: ${messageOf(error)}`);
  }
}

/**
 * Judge and measure. Problems without a labelled solution or mutant are left out.
 * @throws the signal's reason when aborted.
 */
export async function testsQuality(options: TestsQualityOptions): Promise<TestsQualityReport> {
  const context = options.submission ?? defaultSubmissionContext();
  options.judge.catalog.add(options.datasetHash, options.problems);
  const byId = new Map(options.problems.map((p) => [p.taskId, p]));
  const jobs: Job[] = [];
  for (const [role, samples] of [['correct', options.correct], ['incorrect', options.incorrect]] as const) {
    for (const sample of samples) {
      const problem = byId.get(sample.taskId);
      if (problem !== undefined) jobs.push({ problem, sample, role });
    }
  }
  const mutation = new Map<string, ReturnType<typeof mutantJobs>>();
  for (const p of options.problems) {
    if (!jobs.some((j) => j.problem === p)) continue;
    const m = mutantJobs(p, options.mutantsPerProblem ?? 20);
    mutation.set(p.taskId, m);
    jobs.push(...m.jobs);
  }
  const verdicts = new Map<Job, Outcome>();
  let done = 0;
  options.onProgress?.(0, jobs.length);
  await inPool(jobs, options.concurrency ?? options.judge.capacity.concurrency, async (job) => {
    verdicts.set(job, outcomeOf(await judgeJob(options, context, job), context.modes.of(job.problem).testCount(job.problem)));
    options.onProgress?.(++done, jobs.length);
  });
  const problems = options.problems.filter((p) => mutation.has(p.taskId))
    .map((p) => problemQuality(p, context, jobs.filter((j) => j.problem === p), verdicts, mutation.get(p.taskId)!));
  const stoppedSolutions = jobs.filter((j) => j.role !== 'mutant' && mutation.has(j.problem.taskId) && notRunCells(verdicts.get(j)!) > 0).length;
  return { problems, overall: overallOf(problems, stopRule(options), stoppedSolutions) };
}

function problemQuality(problem: Problem, context: SubmissionContext, jobs: readonly Job[], verdicts: ReadonlyMap<Job, Outcome>,
  mutation: ReturnType<typeof mutantJobs>): ProblemQuality {
  const testCount = context.modes.of(problem).testCount(problem);
  const judged = (role: Job['role']) => jobs.filter((j) => j.role === role && verdicts.get(j)!.status !== 'internal_error');
  const referenceFailed = jobs.some((j) => verdicts.get(j)!.status === 'reference_failed');
  const internalErrors = jobs.filter((j) => verdicts.get(j)!.status === 'internal_error').length;
  const correct = referenceFailed ? [] : judged('correct');
  const incorrect = referenceFailed ? [] : judged('incorrect');
  const vectors = (list: readonly Job[]): PassVector[] => list.map((j) => passVector(verdicts.get(j)!));
  const quality = suiteQuality({ testCount, correct: vectors(correct), incorrect: vectors(incorrect) });
  const baseTests = problem.kind === 'call' && problem.plusInputs.length > 0 ? problem.baseInputs.length : undefined;
  const base = baseTests === undefined ? undefined
    : suiteQuality({ testCount: baseTests, correct: vectors(correct).map((v) => v.slice(0, baseTests)), incorrect: vectors(incorrect).map((v) => v.slice(0, baseTests)) });
  return {
    taskId: problem.taskId,
    ...quality,
    correctSamples: correct.map((j) => j.sample.index),
    incorrectSamples: incorrect.map((j) => j.sample.index),
    ...(base === undefined ? {} : { base: { baseTests: baseTests!, tpr: base.tpr, tnr: base.tnr } }),
    ...(mutation.skipped !== undefined ? { mutationSkipped: mutation.skipped }
      : referenceFailed ? { mutationSkipped: 'the reference solution failed under the limits' }
        : { mutation: mutationOf(mutation.language!, judged('mutant'), verdicts, testCount) }),
    excluded: { internalErrors, referenceFailed },
  };
}

function mutationOf(language: string, mutants: readonly Job[], verdicts: ReadonlyMap<Job, Outcome>, testCount: number): MutationResult {
  const viable = mutants.filter((j) => !verdicts.get(j)!.stillborn);
  const killsByTest: number[][] = Array.from({ length: testCount }, () => []);
  const survivors: Omit<Mutant, 'source'>[] = [];
  let killed = 0;
  let notRun = 0;
  for (const j of viable) {
    const outcome = verdicts.get(j)!;
    notRun += notRunCells(outcome);
    const kills: number[] = [];
    outcome.cells.forEach((x, t) => { if (x === FAILED) kills.push(t); });
    for (const t of kills) killsByTest[t]!.push(j.mutant!.id);
    if (kills.length > 0) killed++;
    else {
      const { source: _source, ...rest } = j.mutant!;
      survivors.push(rest);
    }
  }
  return { language, generated: mutants.length, stillborn: mutants.length - viable.length, killed,
    score: viable.length === 0 ? null : killed / viable.length, survivors, killsByTest, notRunCells: notRun };
}

function mean(xs: readonly (number | null | undefined)[]): number | null {
  const v = xs.filter((x): x is number => typeof x === 'number');
  return v.length === 0 ? null : v.reduce((a, x) => a + x, 0) / v.length;
}

function overallOf(problems: readonly ProblemQuality[], stopAfterTimeouts: number | null, stoppedSolutions: number): TestsQualityReport['overall'] {
  const sum = (f: (p: ProblemQuality) => number): number => problems.reduce((a, p) => a + f(p), 0);
  const correct = sum((p) => p.correct);
  const incorrect = sum((p) => p.incorrect);
  const accepted = sum((p) => (p.tpr ?? 0) * p.correct);
  const rejected = sum((p) => (p.tnr ?? 0) * p.incorrect);
  const baseRejected = sum((p) => (p.base?.tnr ?? 0) * p.incorrect);
  const viable = sum((p) => (p.mutation === undefined ? 0 : p.mutation.generated - p.mutation.stillborn));
  const killed = sum((p) => p.mutation?.killed ?? 0);
  return {
    problems: problems.length, correct, incorrect,
    tpr: correct === 0 ? null : Math.round(accepted) / correct,
    tnr: incorrect === 0 ? null : Math.round(rejected) / incorrect,
    meanTpr: mean(problems.map((p) => p.tpr)),
    meanTnr: mean(problems.map((p) => p.tnr)),
    baseTnr: problems.some((p) => p.base !== undefined) && incorrect > 0 ? Math.round(baseRejected) / incorrect : null,
    tests: sum((p) => p.testCount),
    redundantTests: sum((p) => p.redundant.length),
    minimalSubsetTests: sum((p) => p.minimalSubset.length),
    mutants: sum((p) => p.mutation?.generated ?? 0),
    stillbornMutants: sum((p) => p.mutation?.stillborn ?? 0),
    killedMutants: killed,
    mutationScore: viable === 0 ? null : killed / viable,
    stopAfterTimeouts,
    notRunCells: sum((p) => p.notRunCells),
    stoppedSolutions,
    mutantNotRunCells: sum((p) => p.mutation?.notRunCells ?? 0),
  };
}

/**
 * Selection by reranking, the executing part (the statistics are pure functions in `src/metrics/codet.ts`):
 *
 * 1. Every sample is judged on the problem's real tests (through the `Judge`, identical programs once): this
 *    gives each sample's correctness, which only scores the selection and never feeds it.
 * 2. `codet` and `majority`: every distinct solution of a problem (its program, in order of first appearance,
 *    with the number of samples that produced it) runs every distinct generated test of the problem in the
 *    sandbox, each test on its own under its own CPU limit (harness `assertions` mode, see
 *    harness/python/crucible_harness/modes/assertions.py). That gives the pass matrix CodeT needs and, from
 *    what the program answered to each call, the output signatures majority voting (MBR-exec) needs.
 * 3. The method's pass@k is computed next to the baseline: the unbiased pass@k over all samples
 *    (Chen et al. 2021), i.e. what one gets without selection.
 *
 * Choices that move the CodeT number (docs/METRICS.md lists them with their effect): the generated-test
 * post-processing and the 5-per-sample limit follow `readCodetTests` (CodeT's `--test_case_limit 5`); each
 * test gets `testTimeLimitMs` of CPU (default 100 ms, CodeT's 0.1 s per program is wall time); the scoring is
 * |tests| x sqrt(|solutions|) as in CodeT's released code unless `scoring: 'product'`.
 *
 * A failure inside Crucible (after the judge's retries) never throws a run away: the solution or test counts as
 * failed and the failure is listed in `internalErrors`, which the CLI reports (exit code 1).
 */
import type { Problem, Sample } from '../formats/types.js';
import type { CodetTaskTests } from '../formats/codet.js';
import {
  evaluateCodet, firstSamplesPassAtK, majorityPassAtK, type CodetProblem, type CodetScoring,
} from '../metrics/codet.js';
import { passAtK } from '../metrics/pass-at-k.js';
import type { Judge, Program } from '../judge/judge.js';
import { defaultSubmissionContext } from '../kinds/index.js';
import { type SubmissionContext } from '../judge/submission.js';
import { GENERATED_TEST_CPU_MS, JUDGE_DEFAULTS, wallMsFor, type JudgeLimits } from '../limits.js';
import { verdictWithoutTests, type Verdict } from '../verdict/index.js';
import { bootstrapIntervals, resolveBootstrapOptions, type BootstrapOptions, type BootstrapSettings } from '../metrics/bootstrap.js';
import type { SampleRecord } from '../store/records.js';
import { preparedHash, prepareSample, problemsOfSamples } from './evaluate.js';
import { inPool } from './in-pool.js';
import { priorKey, type PriorVerdicts } from './rerank-prior.js';

/** The selection methods of `crucible rerank`. */
export const RERANK_METHODS = ['codet', 'majority', 'first'] as const;
/** One selection method. */
export type RerankMethod = (typeof RERANK_METHODS)[number];

/** Thrown when the inputs cannot be reranked as asked (a problem without a Python entry point, no tests). */
export class RerankInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RerankInputError';
  }
}

/** What to rerank and how. */
export interface RerankOptions {
  readonly judge: Judge;
  readonly problems: readonly Problem[];
  /** sha256 of the problems file: the problems are registered in the judge's catalog under it. */
  readonly datasetHash: string;
  readonly samples: readonly Sample[];
  /** Path of the samples file, for error messages. */
  readonly samplesFile?: string;
  /** Languages and judging modes submissions are prepared with (default `defaultSubmissionContext()`). */
  readonly submission?: SubmissionContext;
  /** Limits of the judgements on the real tests (default the judge's); memory and output also bound generated tests. */
  readonly limits?: Partial<JudgeLimits>;
  /** Generated tests per task id (`readCodetTests`); required by `codet` and `majority`. */
  readonly tests?: ReadonlyMap<string, CodetTaskTests>;
  readonly method: RerankMethod;
  /** k values, each an integer >= 1 (default 1, 2, 10 as CodeT reports). */
  readonly ks?: readonly number[];
  /** CPU time per generated test, ms (default `GENERATED_TEST_CPU_MS`). */
  readonly testTimeLimitMs?: number;
  /** CodeT consensus score (default `'sqrt'`, CodeT's released code). */
  readonly scoring?: CodetScoring;
  /** Jobs in flight at once (default: the judge's `capacity.concurrency`). */
  readonly concurrency?: number;
  /**
   * Real-test verdicts of an earlier run of these samples on these problems (`priorVerdictsOf`): a distinct solution
   * found there is not judged again. Absent: every distinct solution is judged.
   */
  readonly priorVerdicts?: PriorVerdicts;
  /** Progress: phase, done and total units of that phase. */
  readonly onProgress?: (phase: 'judge' | 'generated-tests', done: number, total: number) => void;
}

/** One problem's outcome. pass@k maps are keyed by k as a string, values are fractions. */
export interface RerankProblemResult {
  readonly taskId: string;
  readonly samples: number;
  readonly correctSamples: number;
  readonly distinctSolutions: number;
  readonly generatedTests: number;
  readonly passAtK: Readonly<Record<string, number>>;
  readonly baselinePassAtK: Readonly<Record<string, number>>;
  /** CodeT only: no solution passed any generated test, so plain pass@k stood in. */
  readonly fallback?: boolean;
}

/** What `rerank` produced. pass@k maps are keyed by k as a string, values are fractions (means over problems). */
export interface RerankResult {
  readonly method: RerankMethod;
  readonly ks: readonly number[];
  readonly scoring?: CodetScoring;
  readonly passAtK: Readonly<Record<string, number>>;
  /** Unbiased pass@k over all samples; k larger than some problem's sample count is left out. */
  readonly baselinePassAtK: Readonly<Record<string, number>>;
  readonly problems: readonly RerankProblemResult[];
  readonly counts: {
    readonly problems: number;
    readonly samples: number;
    readonly distinctSolutions: number;
    readonly distinctGeneratedTests: number;
    /** Generated-test executions (distinct solution x distinct test of its problem). */
    readonly generatedTestRuns: number;
    /** How those executions ended, by status. */
    readonly generatedTestStatuses: Readonly<Record<string, number>>;
    /** Distinct solutions whose real-test verdict came from `priorVerdicts` instead of a judgement. */
    readonly reusedVerdicts: number;
  };
  /** Failures inside Crucible, counted as failed (see `RerankData.internalErrors`); empty on a clean run. */
  readonly internalErrors: readonly string[];
  readonly limits: { readonly testCpuMs: number; readonly testWallMs: number; readonly programCpuMs: number };
  readonly wallMs: number;
}

function checkKs(ks: readonly number[]): void {
  for (const k of ks) if (!Number.isInteger(k) || k < 1) throw new RerankInputError(`k must be an integer >= 1, got ${k}`);
}

function keyed(ks: readonly number[], values: readonly number[]): Record<string, number> {
  return Object.fromEntries(ks.map((k, i) => [String(k), values[i]!]));
}

function meanOver(problems: readonly RerankProblemResult[], pick: (p: RerankProblemResult) => Readonly<Record<string, number>>,
  ks: readonly number[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of ks) {
    const values = problems.map((p) => pick(p)[String(k)]);
    if (values.every((v): v is number => v !== undefined)) out[String(k)] = values.reduce((a, b) => a + b, 0) / values.length;
  }
  return out;
}

/** What the sandbox established for reranking: per problem, each distinct solution's correctness, its result on
 *  every distinct generated test and what it answered. Input of `scoreRerank`; one execution serves every method. */
export interface RerankData {
  readonly tasks: readonly {
    readonly taskId: string;
    /** Correctness of every sample in sample-index order. */
    readonly sampleCorrect: readonly boolean[];
    /** Distinct solutions in order of first appearance. `passes`/`signatures` have one entry per generated test
     *  (empty when the tests were not run). */
    readonly solutions: readonly { readonly multiplicity: number; readonly correct: boolean; readonly passes: readonly boolean[];
      readonly signatures: readonly string[] }[];
    /** Distinct generated tests of the problem with their multiplicities (empty when none or not run). */
    readonly tests: readonly { readonly assertion: string; readonly count: number }[];
  }[];
  readonly samples: number;
  readonly generatedTestRuns: number;
  readonly generatedTestStatuses: Readonly<Record<string, number>>;
  /** Distinct solutions whose real-test verdict was taken from `priorVerdicts` (0 without them). */
  readonly reusedVerdicts: number;
  /** Judgements and generated-test runs that failed inside Crucible (counted as failures), as `task: reason`. */
  readonly internalErrors: readonly string[];
  readonly limits: { readonly testCpuMs: number; readonly testWallMs: number; readonly programCpuMs: number };
  readonly wallMs: number;
  /**
   * Every sample's verdict on the problem's real tests as a `verdicts.jsonl` record (its solution's verdict, judged
   * fail-fast; a sample that ran nothing gets the verdict decided for it), tasks in order, samples by index.
   */
  readonly records: readonly SampleRecord[];
}

interface Solution {
  readonly program: Program;
  readonly sampleIndices: number[];
  readonly hash: string;
  verdict?: Verdict;
  correct: boolean;
  passes: boolean[];
  signatures: string[];
}

interface TaskPlan {
  readonly problem: Problem;
  /** Correctness of every sample in sample-index order. */
  readonly sampleCorrect: boolean[];
  /** Distinct programs in order of first appearance. */
  readonly solutions: Solution[];
  readonly tests: CodetTaskTests | undefined;
  /** Every sample in sample-index order: the sample, and its solution or the verdict decided without running. */
  readonly samples: { readonly sample: Sample; readonly solution?: Solution; readonly decided?: Verdict; readonly hash: string }[];
  /** The Python entry point generated tests call and its prompt (the mode's `entryPoint`), when the kind has one. */
  readonly entryPoint?: { readonly prompt: string; readonly entryPoint: string };
}

/** One execution of a rerank: its options, the jobs it keeps in flight, and the failures inside Crucible so far. */
interface Execution {
  readonly options: RerankExecuteOptions;
  readonly concurrency: number;
  /** Judgements and generated-test runs that failed inside Crucible, as `task: reason`. */
  readonly internal: string[];
  /** Distinct solutions whose verdict came from `options.priorVerdicts`. */
  reused: number;
}

/** Options of `executeRerank`. */
export type RerankExecuteOptions = Omit<RerankOptions, 'method' | 'ks' | 'scoring'> & { readonly runGeneratedTests: boolean };

/**
 * Group samples by task (in sample-index order) and, within a task, by distinct program. A sample that cannot
 * be judged as given (no code, a language that cannot judge its problem) is an incorrect sample that runs
 * nothing.
 */
function planTasks(options: RerankExecuteOptions): TaskPlan[] {
  let problems: Problem[];
  try {
    problems = problemsOfSamples(options.problems, options.samples, options.samplesFile);
  } catch (error) {
    throw new RerankInputError((error as Error).message);
  }
  const context = options.submission ?? defaultSubmissionContext();
  const tasks = new Map<string, TaskPlan & { bySolution: Map<string, Solution> }>();
  const order = options.samples.map((sample, i) => ({ sample, problem: problems[i]! }))
    .sort((a, b) => a.sample.index - b.sample.index);
  for (const { sample, problem } of order) {
    let task = tasks.get(problem.taskId);
    if (!task) {
      if (options.runGeneratedTests && context.modes.of(problem).entryPoint?.(problem) === undefined) {
        throw new RerankInputError(`problem ${problem.taskId}: generated tests call a Python entry point; ${problem.kind} problems have none`);
      }
      const entryPoint = context.modes.of(problem).entryPoint?.(problem);
      task = { problem, sampleCorrect: [], solutions: [], tests: options.tests?.get(problem.taskId), bySolution: new Map(), samples: [],
        ...entryPoint === undefined ? {} : { entryPoint } };
      tasks.set(problem.taskId, task);
    }
    const prepared = prepareSample(problem, sample, context);
    task.sampleCorrect.push(false);
    const hash = preparedHash(prepared);
    if (prepared.kind !== 'program') {
      task.samples.push({ sample, decided: prepared.verdict, hash });
      continue;
    }
    let solution = task.bySolution.get(hash);
    if (!solution) {
      solution = { program: prepared.program, sampleIndices: [], hash, correct: false, passes: [], signatures: [] };
      task.bySolution.set(hash, solution);
      task.solutions.push(solution);
    }
    solution.sampleIndices.push(task.sampleCorrect.length - 1);
    task.samples.push({ sample, solution, hash });
  }
  return [...tasks.values()];
}

/** A distinct solution's verdict on the real tests: the earlier run's when it has one, else judged fail-fast. */
async function realTestVerdict(run: Execution, task: TaskPlan, solution: Solution): Promise<Verdict> {
  const prior = run.options.priorVerdicts?.byProgram.get(priorKey(task.problem.taskId, solution.hash));
  if (prior !== undefined) {
    run.reused++;
    return prior;
  }
  try {
    return await run.options.judge.judge({ problem: { datasetHash: run.options.datasetHash, taskId: task.problem.taskId }, program: solution.program,
      failFast: true, ...(run.options.limits === undefined ? {} : { limits: run.options.limits }) });
  } catch (error) {
    return verdictWithoutTests('internal_error', 0, `crucible failed: ${(error as Error).message}`);
  }
}

/** 1. Correctness of every distinct solution on the problem's real tests (fail-fast: pass or not is all it needs). */
async function judgeSolutions(run: Execution, tasks: readonly TaskPlan[]): Promise<void> {
  const items = tasks.flatMap((task) => task.solutions.map((solution) => ({ task, solution })));
  let judged = 0;
  await inPool(items, run.concurrency, async ({ task, solution }) => {
    const verdict = await realTestVerdict(run, task, solution);
    if (verdict.status === 'internal_error') run.internal.push(`${task.problem.taskId}: ${verdict.reason ?? ''}`);
    solution.verdict = verdict;
    solution.correct = verdict.passed;
    for (const i of solution.sampleIndices) task.sampleCorrect[i] = verdict.passed;
    run.options.onProgress?.('judge', ++judged, items.length);
  });
}

/** 2. Every distinct solution on its problem's distinct generated tests (harness `assertions` mode). */
async function runGeneratedTests(run: Execution, tasks: readonly TaskPlan[], limits: RerankData['limits'],
  statuses: Record<string, number>): Promise<number> {
  const items = tasks.filter((task) => (task.tests?.distinct.length ?? 0) > 0)
    .flatMap((task) => task.solutions.map((solution) => ({ task, solution })));
  const memoryKiB = run.options.limits?.memoryKiB ?? JUDGE_DEFAULTS.memoryKiB;
  const outputBytes = run.options.limits?.outputBytes ?? JUDGE_DEFAULTS.outputBytes;
  let done = 0;
  let runs = 0;
  await inPool(items, run.concurrency, async ({ task, solution }) => {
    const problem = task.problem;
    const target = task.entryPoint;
    if (target === undefined) return;
    const assertions = task.tests!.distinct.map((t) => t.assertion);
    const response = await run.options.judge.runHarness({
      mode: 'assertions', program: solution.program.source, prelude: target.prompt, entryPoint: target.entryPoint, assertions,
      cpuMs: limits.testCpuMs, wallMs: limits.testWallMs, memoryKiB, outputBytes,
    });
    const results = response.results ?? [];
    if (response.status === 'internal_error' || results.length !== assertions.length) {
      run.internal.push(`${problem.taskId}: ${response.status} ${response.reason ?? ''} (${results.length} of ${assertions.length} results)`);
      solution.passes = assertions.map(() => false);
      solution.signatures = assertions.map(() => 'status:internal_error');
    } else {
      for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      runs += results.length;
      solution.passes = results.map((r) => r.status === 'passed');
      // An assertion's signature is what the program answered; a limit or crash has none, so its status stands in.
      solution.signatures = results.map((r) => r.signature ?? `status:${r.status}`);
    }
    run.options.onProgress?.('generated-tests', ++done, items.length);
  });
  return runs;
}

/** A sample's `verdicts.jsonl` record from its verdict (one Crucible could not give is `internal_error`). */
function recordOf(taskId: string, sample: Sample, hash: string, verdict: Verdict | undefined): SampleRecord {
  const v = verdict ?? verdictWithoutTests('internal_error', 1, 'not judged');
  return {
    taskId, sampleIndex: sample.index, programHash: hash, status: v.status, passed: v.passed,
    ...(v.plusStatus === undefined ? {} : { plusStatus: v.plusStatus, plusPassed: v.plusPassed === true }),
    tests: v.tests, cpuMs: v.cpuMs, wallMs: v.wallMs, ...(v.reason === undefined ? {} : { reason: v.reason }),
  };
}

/**
 * Percentile-bootstrap intervals over problems of a rerank's means (`bootstrap.ts`): for each k, the interval of the
 * mean over problems of their reranked pass@k, and of their baseline pass@k (problems resampled together, in task
 * order, so the two intervals come from the same draws).
 */
export function rerankIntervals(result: RerankResult, options: BootstrapOptions = {}): {
  readonly passAtKCI: Readonly<Record<string, readonly [number, number]>>;
  readonly baselinePassAtKCI: Readonly<Record<string, readonly [number, number]>>;
  readonly bootstrap: BootstrapSettings;
} {
  const problems = [...result.problems].sort((a, b) => (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0));
  const reranked = result.ks.filter((k) => result.passAtK[String(k)] !== undefined).map(String);
  const baseline = result.ks.filter((k) => result.baselinePassAtK[String(k)] !== undefined).map(String);
  const mean = (sample: readonly RerankProblemResult[], pick: (p: RerankProblemResult) => number) => sample.reduce((s, p) => s + pick(p), 0) / sample.length;
  const estimates = bootstrapIntervals(problems, (sample) => [
    ...reranked.map((k) => mean(sample, (p) => p.passAtK[k]!)), ...baseline.map((k) => mean(sample, (p) => p.baselinePassAtK[k]!)),
  ], options);
  const interval = (i: number): readonly [number, number] => [estimates[i]!.lower, estimates[i]!.upper];
  return {
    passAtKCI: Object.fromEntries(reranked.map((k, i) => [k, interval(i)])),
    baselinePassAtKCI: Object.fromEntries(baseline.map((k, i) => [k, interval(reranked.length + i)])),
    bootstrap: resolveBootstrapOptions(options),
  };
}

/**
 * Judge every sample and, when `runGeneratedTests`, run every distinct solution on its problem's distinct
 * generated tests. Failures inside Crucible (after the judge's retries) do not throw the run away: they count
 * as incorrect solutions / failed tests and are listed in `internalErrors`.
 * @throws RerankInputError for unknown task ids, io problems with generated tests, missing tests.
 */
export async function executeRerank(options: RerankExecuteOptions): Promise<RerankData> {
  const started = Date.now();
  if (options.runGeneratedTests && options.tests === undefined) throw new RerankInputError('running generated tests needs the generated tests (--tests)');
  if (options.samples.length === 0) throw new RerankInputError('no samples to rerank');
  const tasks = planTasks(options);
  options.judge.catalog.add(options.datasetHash, options.problems);
  const run: Execution = { options, concurrency: options.concurrency ?? options.judge.capacity.concurrency, internal: [], reused: 0 };
  await judgeSolutions(run, tasks);
  const testCpuMs = options.testTimeLimitMs ?? GENERATED_TEST_CPU_MS;
  const limits = { testCpuMs, testWallMs: wallMsFor(testCpuMs), programCpuMs: options.limits?.cpuMs ?? JUDGE_DEFAULTS.cpuMs };
  const statuses: Record<string, number> = {};
  const runs = options.runGeneratedTests ? await runGeneratedTests(run, tasks, limits, statuses) : 0;
  return {
    tasks: tasks.map((task) => {
      const ran = options.runGeneratedTests && (task.tests?.distinct.length ?? 0) > 0;
      return {
        taskId: task.problem.taskId,
        sampleCorrect: task.sampleCorrect,
        solutions: task.solutions.map((s) => ({ multiplicity: s.sampleIndices.length, correct: s.correct,
          passes: ran ? s.passes : [], signatures: ran ? s.signatures : [] })),
        tests: ran ? task.tests!.distinct : [],
      };
    }),
    samples: options.samples.length,
    generatedTestRuns: runs,
    generatedTestStatuses: statuses,
    reusedVerdicts: run.reused,
    internalErrors: run.internal,
    limits,
    wallMs: Date.now() - started,
    records: tasks.flatMap((task) => task.samples.map(({ sample, solution, decided, hash }) => recordOf(task.problem.taskId, sample, hash, solution?.verdict ?? decided))),
  };
}

/**
 * Score executed data with one method (pure): the reranked pass@k and the unbiased baseline pass@k, per problem
 * and as means over problems.
 * @throws RerankInputError for a k that is not an integer >= 1.
 */
export function scoreRerank(data: RerankData, method: RerankMethod, ks: readonly number[] = [1, 2, 10],
  scoring: CodetScoring = 'sqrt'): RerankResult {
  checkKs(ks);
  const minSamples = Math.min(...data.tasks.map((t) => t.sampleCorrect.length));
  const baselineKs = ks.filter((k) => k <= minSamples);
  const problems: RerankProblemResult[] = data.tasks.map((task) => {
    const n = task.sampleCorrect.length;
    const c = task.sampleCorrect.filter(Boolean).length;
    const baselinePassAtK = keyed(baselineKs, baselineKs.map((k) => passAtK(n, c, k)));
    const solutions = task.solutions.map((s) => ({ multiplicity: s.multiplicity, correct: s.correct }));
    let values: readonly number[];
    let fallback: boolean | undefined;
    if (method === 'first') {
      values = firstSamplesPassAtK(task.sampleCorrect, ks);
    } else if (method === 'majority') {
      values = majorityPassAtK(task.solutions.map((s, i) => ({ ...solutions[i]!, outputs: s.signatures })), ks);
    } else {
      const codetProblem: CodetProblem = {
        taskId: task.taskId,
        solutions,
        passes: task.solutions.map((s) => s.passes),
        testMultiplicities: task.tests.map((t) => t.count),
      };
      const evaluated = evaluateCodet([codetProblem], { ks, scoring });
      values = evaluated.passAtK;
      fallback = evaluated.problems[0]!.fallback;
    }
    return {
      taskId: task.taskId, samples: n, correctSamples: c, distinctSolutions: task.solutions.length, generatedTests: task.tests.length,
      passAtK: keyed(ks, values), baselinePassAtK, ...(fallback !== undefined ? { fallback } : {}),
    };
  });
  return {
    method,
    ks,
    ...(method === 'codet' ? { scoring } : {}),
    passAtK: meanOver(problems, (p) => p.passAtK, ks),
    baselinePassAtK: meanOver(problems, (p) => p.baselinePassAtK, baselineKs),
    problems,
    counts: {
      problems: problems.length,
      samples: data.samples,
      distinctSolutions: data.tasks.reduce((acc, t) => acc + t.solutions.length, 0),
      distinctGeneratedTests: data.tasks.reduce((acc, t) => acc + t.tests.length, 0),
      generatedTestRuns: data.generatedTestRuns,
      generatedTestStatuses: data.generatedTestStatuses,
      reusedVerdicts: data.reusedVerdicts,
    },
    internalErrors: data.internalErrors,
    limits: data.limits,
    wallMs: data.wallMs,
  };
}

/**
 * `crucible rerank` in one call: `executeRerank` (generated tests only for codet and majority) then `scoreRerank`.
 * @throws RerankInputError as those two.
 */
export async function rerank(options: RerankOptions): Promise<RerankResult> {
  if (options.method !== 'first' && options.tests === undefined) {
    throw new RerankInputError(`--method ${options.method} needs generated tests (--tests)`);
  }
  checkKs(options.ks ?? []); // before minutes of execution, not after
  const data = await executeRerank({ ...options, runGeneratedTests: options.method !== 'first' });
  return scoreRerank(data, options.method, options.ks, options.scoring);
}

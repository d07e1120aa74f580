/**
 * Selection by reranking, the executing part (the statistics are pure functions in `src/metrics/codet.ts`):
 *
 * 1. Every sample is judged on the problem's real tests (the shared pipeline, identical programs once): this
 *    gives each sample's correctness, which only scores the selection and never feeds it.
 * 2. `codet` and `majority`: every distinct solution of a problem (its program, in order of first appearance,
 *    with the number of samples that produced it) runs every distinct generated test of the problem in the
 *    sandbox, each test on its own under its own CPU limit (harness `assertions` mode, see
 *    harness/python/crucible_harness/zygote.py). That gives the pass matrix CodeT needs and, from what the
 *    program answered to each call, the output signatures majority voting (MBR-exec) needs.
 * 3. The method's pass@k is computed next to the baseline: the unbiased pass@k over all samples
 *    (Chen et al. 2021), i.e. what one gets without selection.
 *
 * Choices that move the CodeT number (docs/METRICS.md lists them with their effect): the generated-test
 * post-processing and the 5-per-sample limit follow `readCodetTests` (CodeT's `--test_case_limit 5`); each
 * test gets `testTimeLimitMs` of CPU (default 100 ms, CodeT's 0.1 s per program is wall time); the scoring is
 * |tests| x sqrt(|solutions|) as in CodeT's released code unless `scoring: 'product'`.
 */
import type { Problem, Sample } from '../formats/types.js';
import type { CodetTaskTests } from '../formats/codet.js';
import {
  evaluateCodet, firstSamplesPassAtK, majorityPassAtK, type CodetProblem, type CodetScoring,
} from '../metrics/codet.js';
import { passAtK } from '../metrics/pass-at-k.js';
import { GENERATED_TEST_CPU_MS, wallMsFor } from '../limits.js';
import { planRequests } from './evaluate.js';
import { inPool } from './in-pool.js';
import type { Pipeline } from './pipeline.js';

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

/** Thrown when Crucible itself failed to judge something; the result would be wrong, so none is given. */
export class RerankInfrastructureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RerankInfrastructureError';
  }
}

/** What to rerank and how. */
export interface RerankOptions {
  readonly pipeline: Pipeline;
  readonly problems: readonly Problem[];
  readonly samples: readonly Sample[];
  /** Generated tests per task id (`readCodetTests`); required by `codet` and `majority`. */
  readonly tests?: ReadonlyMap<string, CodetTaskTests>;
  readonly method: RerankMethod;
  /** k values, each an integer >= 1 (default 1, 2, 10 as CodeT reports). */
  readonly ks?: readonly number[];
  /** CPU time per generated test, ms (default `GENERATED_TEST_CPU_MS`). */
  readonly testTimeLimitMs?: number;
  /** CodeT consensus score (default `'sqrt'`, CodeT's released code). */
  readonly scoring?: CodetScoring;
  /** Jobs in flight at once (default `Pipeline.defaultConcurrency`). */
  readonly concurrency?: number;
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
  };
  readonly limits: { readonly testCpuMs: number; readonly testWallMs: number; readonly programCpuMs: number };
  readonly wallMs: number;
}

interface Solution {
  readonly program: string;
  readonly sampleIndices: number[];
  correct: boolean;
  passes: boolean[];
  signatures: string[];
}

interface TaskPlan {
  readonly problem: Problem;
  readonly sampleCorrect: boolean[];
  readonly solutions: Solution[];
  readonly tests: CodetTaskTests | undefined;
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
  readonly limits: { readonly testCpuMs: number; readonly testWallMs: number; readonly programCpuMs: number };
  readonly wallMs: number;
}

/**
 * Judge every sample and, when `runGeneratedTests`, run every distinct solution on its problem's distinct
 * generated tests.
 * @throws RerankInputError for unknown task ids, io problems with generated tests, missing tests.
 * @throws RerankInfrastructureError when a judgement or a generated-test run ended in `internal_error`.
 */
export async function executeRerank(options: Omit<RerankOptions, 'method' | 'ks' | 'scoring'> & { readonly runGeneratedTests: boolean }):
  Promise<RerankData> {
  const started = Date.now();
  const { pipeline } = options;
  const needsTests = options.runGeneratedTests;
  if (needsTests && options.tests === undefined) throw new RerankInputError('running generated tests needs the generated tests (--tests)');
  let planned: ReturnType<typeof planRequests>;
  try {
    planned = planRequests(options.problems, options.samples);
  } catch (error) {
    throw new RerankInputError((error as Error).message);
  }
  if (planned.length === 0) throw new RerankInputError('no samples to rerank');

  // Group samples by task (in sample-index order) and by distinct program within a task.
  const tasks = new Map<string, TaskPlan & { bySolution: Map<string, Solution>; entries: typeof planned }>();
  for (const entry of planned) {
    const { problem } = entry.request;
    let task = tasks.get(problem.taskId);
    if (!task) {
      if (needsTests && problem.kind === 'io') {
        throw new RerankInputError(`problem ${problem.taskId}: generated tests call a Python entry point; io problems have none`);
      }
      task = { problem, sampleCorrect: [], solutions: [], tests: options.tests?.get(problem.taskId), bySolution: new Map(), entries: [] };
      tasks.set(problem.taskId, task);
    }
    task.entries.push(entry);
  }
  for (const task of tasks.values()) {
    task.entries.sort((a, b) => a.sample.index - b.sample.index);
    for (const { request } of task.entries) {
      const hash = pipeline.hashOf(request);
      let solution = task.bySolution.get(hash);
      if (!solution) {
        solution = { program: request.source, sampleIndices: [], correct: false, passes: [], signatures: [] };
        task.bySolution.set(hash, solution);
        task.solutions.push(solution);
      }
      solution.sampleIndices.push(task.sampleCorrect.length);
      task.sampleCorrect.push(false);
    }
  }
  const concurrency = options.concurrency ?? pipeline.defaultConcurrency;

  // 1. Correctness of every distinct solution on the real tests.
  const judgeItems = [...tasks.values()].flatMap((task) => task.solutions.map((solution) => ({ task, solution })));
  let judged = 0;
  const internal: string[] = [];
  await inPool(judgeItems, concurrency, async ({ task, solution }) => {
    const verdict = await pipeline.judge({ problem: task.problem, source: solution.program, failFast: true });
    if (verdict.status === 'internal_error') internal.push(`${task.problem.taskId}: ${verdict.reason ?? ''}`);
    solution.correct = verdict.passed;
    for (const i of solution.sampleIndices) task.sampleCorrect[i] = verdict.passed;
    options.onProgress?.('judge', ++judged, judgeItems.length);
  });
  if (internal.length > 0) {
    throw new RerankInfrastructureError(`${internal.length} judgements failed inside Crucible (internal_error), e.g. ${internal[0]}`);
  }

  // 2. Generated tests, each distinct solution against its problem's distinct tests.
  const testCpuMs = options.testTimeLimitMs ?? GENERATED_TEST_CPU_MS;
  const testWallMs = wallMsFor(testCpuMs);
  const statuses: Record<string, number> = {};
  let runs = 0;
  if (needsTests) {
    const testItems = judgeItems.filter(({ task }) => (task.tests?.distinct.length ?? 0) > 0);
    let done = 0;
    await inPool(testItems, concurrency, async ({ task, solution }) => {
      const problem = task.problem;
      if (problem.kind === 'io') return;
      const assertions = task.tests!.distinct.map((t) => t.assertion);
      const response = await pipeline.python.run({
        mode: 'assertions', program: solution.program, prelude: problem.prompt, entryPoint: problem.entryPoint, assertions,
        cpuMs: testCpuMs, wallMs: testWallMs, memoryKiB: pipeline.options.memoryLimitKiB, outputBytes: pipeline.options.outputBytes,
      });
      const results = response.results ?? [];
      if (response.status === 'internal_error' || results.length !== assertions.length) {
        internal.push(`${problem.taskId}: ${response.status} ${response.reason ?? ''} (${results.length} of ${assertions.length} results)`);
        return;
      }
      for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      runs += results.length;
      solution.passes = results.map((r) => r.status === 'passed');
      // An assertion's signature is what the program answered; a limit or crash has none, so its status stands in.
      solution.signatures = results.map((r) => r.signature ?? `status:${r.status}`);
      options.onProgress?.('generated-tests', ++done, testItems.length);
    });
    if (internal.length > 0) {
      throw new RerankInfrastructureError(`${internal.length} generated-test runs failed inside Crucible, e.g. ${internal[0]}`);
    }
  }
  return {
    tasks: [...tasks.values()].map((task) => {
      const ran = needsTests && (task.tests?.distinct.length ?? 0) > 0;
      return {
        taskId: task.problem.taskId,
        sampleCorrect: task.sampleCorrect,
        solutions: task.solutions.map((s) => ({ multiplicity: s.sampleIndices.length, correct: s.correct,
          passes: ran ? s.passes : [], signatures: ran ? s.signatures : [] })),
        tests: ran ? task.tests!.distinct : [],
      };
    }),
    samples: planned.length,
    generatedTestRuns: runs,
    generatedTestStatuses: statuses,
    limits: { testCpuMs, testWallMs, programCpuMs: pipeline.options.timeLimitMs },
    wallMs: Date.now() - started,
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
    },
    limits: data.limits,
    wallMs: data.wallMs,
  };
}

/**
 * `crucible rerank` in one call: `executeRerank` (generated tests only for codet and majority) then `scoreRerank`.
 * @throws RerankInputError, RerankInfrastructureError as those two.
 */
export async function rerank(options: RerankOptions): Promise<RerankResult> {
  if (options.method !== 'first' && options.tests === undefined) {
    throw new RerankInputError(`--method ${options.method} needs generated tests (--tests)`);
  }
  checkKs(options.ks ?? []); // before minutes of execution, not after
  const data = await executeRerank({ ...options, runGeneratedTests: options.method !== 'first' });
  return scoreRerank(data, options.method, options.ks, options.scoring);
}

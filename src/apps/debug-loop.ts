/**
 * The self-debug replay: model samples taken as first attempts, judged, and each failing one turned into the
 * feedback a `program` session gives (`formatFeedback`, `src/sessions/feedback.ts`), then measured: does the
 * feedback name the failing input, does a crash come with a traceback, does a wrong answer show expected vs got,
 * which failures are time-outs. A measurement of the environment's feedback quality, the observation a model
 * would debug from in self-debugging (Chen et al. 2023, "Teaching Large Language Models to Self-Debug": unit-test
 * feedback = the failing input, the expected and the actual output) or an agentic-RL rollout.
 *
 * Each distinct program of a task is judged once (with `detail`, fail-fast: the first failing test is what
 * feedback shows) and its figures count once per sample that produced it. Pure orchestration over a `Judge`.
 */
import type { Problem, Sample } from '../formats/types.js';
import type { Judge } from '../judge/judge.js';
import type { SubmissionContext } from '../judge/submission.js';
import { formatFeedback, type Feedback } from '../sessions/index.js';
import type { DetailedVerdict, FailedTestDetail } from '../verdict/index.js';
import { prepareSample, preparedHash } from './evaluate.js';
import { inPool } from './in-pool.js';

/** What to replay. `problems` must be registered in `judge.catalog` under `datasetHash`. */
export interface DebugLoopOptions {
  readonly judge: Judge;
  readonly context: SubmissionContext;
  readonly datasetHash: string;
  readonly problems: readonly Problem[];
  /** The first attempts (each names its task by `taskId`; tasks not in `problems` are an error). */
  readonly samples: readonly Sample[];
  /** Feedback budget, characters (default the formatter's, `DEFAULT_FEEDBACK_CHARS`). */
  readonly budgetChars?: number;
  /** Requests in flight at once (default the judge's `capacity.concurrency`). */
  readonly concurrency?: number;
  readonly signal?: AbortSignal;
  /** Called after each distinct program is judged: (done, total). */
  readonly onProgress?: (done: number, total: number) => void;
}

/** One failing program's feedback and what it shows. `samples` are the indices of the samples that wrote it. */
export interface FeedbackRecord {
  readonly taskId: string;
  readonly samples: readonly number[];
  readonly status: string;
  readonly feedback: Feedback;
  readonly quality: FeedbackQuality;
}

/**
 * What one feedback text shows. `namesInput`: the text shows an input of the failing test (the formatter's
 * flag). `namesFailingCase`: the failing case itself is shown, not only the whole test suite it sits in (a
 * HumanEval problem is one test, `check(candidate)` with every assertion: showing all of it does not say which
 * assertion failed; its failing line does). `traceback`: the text holds a Python traceback. `expectedAndGot`: it shows both the
 * expected result and what the program gave (a value, not only the judge's failure message).
 */
export interface FeedbackQuality {
  readonly namesInput: boolean;
  readonly namesFailingCase: boolean;
  readonly traceback: boolean;
  readonly expectedAndGot: boolean;
}

/** Sample counts of a replay (every count is of samples, duplicates included, unless it says programs). */
export interface DebugLoopReport {
  readonly samples: number;
  readonly tasks: number;
  /** Distinct (task, program) pairs judged. */
  readonly distinctPrograms: number;
  readonly passed: number;
  /** Samples that did not pass (Crucible's own failures excluded: they are not the program's). */
  readonly failing: number;
  readonly internalErrors: number;
  readonly byStatus: Readonly<Record<string, number>>;
  readonly namesInput: number;
  readonly namesFailingCase: number;
  readonly runtimeErrors: { readonly total: number; readonly withTraceback: number; readonly namesFailingCase: number };
  readonly wrongAnswers: { readonly total: number; readonly withExpectedAndGot: number; readonly namesFailingCase: number };
  readonly timeouts: { readonly total: number; readonly namesFailingCase: number };
  /** Feedback texts cut to the budget. */
  readonly cut: number;
  readonly budgetChars: number | null;
}

/** What a feedback text shows (see `FeedbackQuality`); `suite` is the input of the whole test suite, if any. */
export function feedbackQuality(feedback: Feedback, verdict: DetailedVerdict, described: readonly FailedTestDetail[]): FeedbackQuality {
  const failing = feedback.failingTest;
  // The shown input is the failing case itself when the verdict's own detail gave it, or when the problem has
  // one test per case (its description is that case's input).
  const ownInput = failing !== null && verdict.detail?.failures?.some((f) => f.index === failing.index && f.input !== undefined) === true;
  const perCase = failing !== null && verdict.testCount > 1 && described.some((d) => d.index === failing.index && d.input !== undefined);
  // A unit test's failing line (the assertion that failed, or whose call raised) is the failing case.
  const line = feedback.text.includes('\nFailing line ');
  return {
    namesInput: feedback.namesInput,
    namesFailingCase: feedback.namesInput && (ownInput || perCase || line),
    traceback: /Traceback \(most recent call last\)/.test(feedback.text),
    // What the program gave, not only the judge's message about it (a HumanEval tester reports "assertion failed
    // (test line 11)" as the one test's outcome: no value to compare with the expected one).
    expectedAndGot: failing !== null && failing.expected !== undefined && failing.actual !== undefined && failing.actual !== failing.reason
      && feedback.text.includes('\nExpected:\n') && feedback.text.includes('\nGot:\n'),
  };
}

interface Distinct {
  readonly problem: Problem;
  readonly samples: number[];
  readonly prepared: ReturnType<typeof prepareSample>;
}

/**
 * Replay `samples` as first attempts (see the module comment). Resolves with the report and one record per
 * failing distinct program, in task then first-sample order. Rejects when a sample names an unknown task, or
 * with the signal's reason.
 */
export async function replayFirstAttempts(options: DebugLoopOptions): Promise<{ report: DebugLoopReport; records: FeedbackRecord[] }> {
  const { judge, datasetHash } = options;
  const byId = new Map(options.problems.map((p) => [p.taskId, p]));
  const distinct = new Map<string, Distinct>();
  for (const sample of options.samples) {
    const problem = byId.get(sample.taskId);
    if (problem === undefined) throw new Error(`sample ${sample.index} names task "${sample.taskId}", which is not among the problems`);
    const prepared = prepareSample(problem, sample, options.context);
    const key = `${sample.taskId}\u0000${preparedHash(prepared)}`;
    const entry = distinct.get(key);
    if (entry === undefined) distinct.set(key, { problem, samples: [sample.index], prepared });
    else entry.samples.push(sample.index);
  }
  const described = new Map<string, Promise<readonly FailedTestDetail[]>>();
  const testsOf = (taskId: string): Promise<readonly FailedTestDetail[]> => {
    let tests = described.get(taskId);
    if (tests === undefined) described.set(taskId, (tests = judge.describeTests({ datasetHash, taskId }, { signal: options.signal })));
    return tests;
  };
  const items = [...distinct.values()];
  const verdicts = new Map<Distinct, DetailedVerdict>();
  let done = 0;
  await inPool(items, options.concurrency ?? judge.capacity.concurrency, async (item) => {
    const verdict = item.prepared.kind === 'decided' ? item.prepared.verdict
      : await judge.judge({ problem: { datasetHash, taskId: item.problem.taskId }, program: item.prepared.program, failFast: true },
        { detail: true, signal: options.signal });
    verdicts.set(item, verdict);
    options.onProgress?.(++done, items.length);
  });

  const counts = { passed: 0, failing: 0, internalErrors: 0, namesInput: 0, namesFailingCase: 0, cut: 0 };
  const byStatus: Record<string, number> = {};
  const runtime = { total: 0, withTraceback: 0, namesFailingCase: 0 };
  const wrong = { total: 0, withExpectedAndGot: 0, namesFailingCase: 0 };
  const timeouts = { total: 0, namesFailingCase: 0 };
  const records: FeedbackRecord[] = [];
  for (const item of items) {
    const verdict = verdicts.get(item)!;
    const n = item.samples.length;
    byStatus[verdict.status] = (byStatus[verdict.status] ?? 0) + n;
    if (verdict.passed) { counts.passed += n; continue; }
    if (verdict.status === 'internal_error') { counts.internalErrors += n; continue; }
    counts.failing += n;
    const tests = await testsOf(item.problem.taskId);
    const feedback = formatFeedback(verdict, { tests, ...(options.budgetChars === undefined ? {} : { budgetChars: options.budgetChars }) });
    const quality = feedbackQuality(feedback, verdict, tests);
    if (quality.namesInput) counts.namesInput += n;
    if (quality.namesFailingCase) counts.namesFailingCase += n;
    if (feedback.cut) counts.cut += n;
    const pinned = quality.namesFailingCase ? n : 0;
    if (verdict.status === 'runtime_error') {
      runtime.total += n; runtime.namesFailingCase += pinned;
      if (quality.traceback) runtime.withTraceback += n;
    } else if (verdict.status === 'wrong_answer') {
      wrong.total += n; wrong.namesFailingCase += pinned;
      if (quality.expectedAndGot) wrong.withExpectedAndGot += n;
    } else if (verdict.status === 'time_limit_exceeded') {
      timeouts.total += n; timeouts.namesFailingCase += pinned;
    }
    records.push({ taskId: item.problem.taskId, samples: item.samples, status: verdict.status, feedback, quality });
  }
  return {
    report: {
      samples: options.samples.length, tasks: new Set(options.samples.map((s) => s.taskId)).size, distinctPrograms: items.length,
      ...counts, byStatus, runtimeErrors: runtime, wrongAnswers: wrong, timeouts, budgetChars: options.budgetChars ?? null,
    },
    records,
  };
}

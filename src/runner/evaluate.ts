/**
 * `crucible eval` as a library: judge every sample of a dataset through the shared pipeline, stream
 * verdicts into a run directory, resume what is already there, and summarise (pass@k with bootstrap CIs,
 * counts by status, provenance). The CLI only parses flags and draws the progress bar.
 */
import type { Problem, Sample } from '../formats/types.js';
import { countsFromRecords } from '../metrics/counts.js';
import { passAtKWithIntervals, type PassAtKSummary } from '../metrics/summary.js';
import type { JudgedSample } from '../store/eval-sink.js';
import type { SampleRecord } from '../store/records.js';
import { RunStore, sampleKey } from '../store/run-store.js';
import { inPool } from './in-pool.js';
import type { Pipeline, JudgeRequest } from './pipeline.js';

/** Thrown when samples and problems do not fit together (unknown task id, missing language). */
export class EvaluationInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EvaluationInputError';
  }
}

/** The program to judge for a sample: `solution` as is, else prompt + completion (openai/human-eval). */
export function programOf(problem: Problem, sample: Sample): string {
  if (sample.solution !== undefined) return sample.solution;
  const completion = sample.completion ?? '';
  return problem.kind === 'io' ? completion : problem.prompt + completion;
}

/** Build the judge request of each sample. @throws EvaluationInputError for unknown task ids. */
export function planRequests(problems: readonly Problem[], samples: readonly Sample[]): { sample: Sample; request: JudgeRequest }[] {
  const byId = new Map(problems.map((p) => [p.taskId, p]));
  return samples.map((sample) => {
    const problem = byId.get(sample.taskId);
    if (!problem) throw new EvaluationInputError(`sample ${sample.index} names task "${sample.taskId}", which is not in the problems file`);
    const language = problem.kind === 'io' ? sample.language ?? problem.language : 'python';
    if (language === undefined) throw new EvaluationInputError(`sample ${sample.index} of ${sample.taskId}: no language (set "language" on the sample)`);
    return { sample, request: { problem, source: programOf(problem, sample), language } };
  });
}

/** Progress callback: done and total samples so far (done includes resumed ones). */
export type ProgressListener = (done: number, total: number) => void;

/** Options of an evaluation. */
export interface EvaluateOptions {
  readonly pipeline: Pipeline;
  readonly store: RunStore;
  readonly problems: readonly Problem[];
  readonly samples: readonly Sample[];
  /** Requests in flight at once (default `Pipeline.defaultConcurrency`). */
  readonly concurrency?: number;
  readonly ks: readonly number[];
  readonly bootstrapReps?: number;
  readonly seed?: number;
  readonly onProgress?: ProgressListener;
  /** Run every test even after one fails (default: stop at the first failure; pass@k only needs that). */
  readonly allTests?: boolean;
  /** Gets each judged sample once it is in the run directory, with its program and failure detail (the result store's `EvalSink`). */
  readonly sink?: { record(record: SampleRecord, judged: JudgedSample): void };
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
}

/** Judge everything not yet in the store, append as it finishes, and summarise. */
export async function evaluate(options: EvaluateOptions): Promise<EvaluationResult> {
  const { pipeline, store } = options;
  const planned = planRequests(options.problems, options.samples);
  const records = new Map<string, SampleRecord>(store.existing);
  const todo = planned.filter(({ sample }) => !records.has(sampleKey(sample.taskId, sample.index)));
  const total = planned.length;
  const resumed = total - todo.length;
  let done = resumed;
  options.onProgress?.(done, total);
  const started = Date.now();
  await inPool(todo, options.concurrency ?? pipeline.defaultConcurrency, async ({ sample, request }) => {
    const verdict = await pipeline.judge({ ...request, failFast: options.allTests !== true, detail: options.sink !== undefined });
    const record: SampleRecord = {
      taskId: sample.taskId,
      sampleIndex: sample.index,
      programHash: pipeline.hashOf(request),
      status: verdict.status,
      passed: verdict.passed,
      ...(verdict.plusStatus !== undefined ? { plusStatus: verdict.plusStatus, plusPassed: verdict.plusPassed === true } : {}),
      tests: verdict.tests,
      cpuMs: verdict.cpuMs,
      wallMs: verdict.wallMs,
      ...(verdict.reason !== undefined ? { reason: verdict.reason } : {}),
    };
    store.append(record);
    options.sink?.record(record, { problem: request.problem, sample, source: request.source, language: request.language, verdict });
    records.set(sampleKey(sample.taskId, sample.index), record);
    options.onProgress?.(++done, total);
  });
  const wallMs = Date.now() - started;

  const all = planned.map(({ sample }) => records.get(sampleKey(sample.taskId, sample.index))!);
  const countsByStatus: Record<string, number> = {};
  for (const r of all) countsByStatus[r.status] = (countsByStatus[r.status] ?? 0) + 1;
  const counts = countsFromRecords(all);
  const minN = Math.min(...counts.map((c) => c.n));
  const ks = options.ks.filter((k) => k <= minN);
  const unsupportedKs = options.ks.filter((k) => k > minN);
  const bootstrap = { reps: options.bootstrapReps ?? 2000, seed: options.seed };
  const passAtKSummary = passAtKWithIntervals(counts, { ...bootstrap });
  const pick = (summary: PassAtKSummary): Record<string, number> =>
    Object.fromEntries(ks.map((k) => [String(k), summary.points.find((p) => p.k === k)!.passAtK]));
  const hasPlus = all.some((r) => r.plusStatus !== undefined);
  const plusPassAtKSummary = hasPlus ? passAtKWithIntervals(countsFromRecords(all, 'plusPassed'), { ...bootstrap }) : undefined;
  return {
    records: all,
    resumed,
    judged: todo.length,
    wallMs,
    countsByStatus,
    passAtK: pick(passAtKSummary),
    passAtKSummary,
    ...(plusPassAtKSummary ? { plusPassAtK: pick(plusPassAtKSummary), plusPassAtKSummary } : {}),
    unsupportedKs,
    distinctPrograms: new Set(all.map((r) => `${r.taskId}\0${r.programHash}`)).size,
  };
}

/**
 * Turns the sample records of a run (`verdicts.jsonl`, see `src/store/records.ts`) into per-problem
 * pass outcomes and counts, the input of every other metric.
 *
 * Problems whose reference solution failed under the run's limits (any sample with status `reference_failed`: the
 * expected values could not be computed, so no sample of the problem was judged) are left out by default: counting
 * them as failures would charge the benchmark's broken ground truth to the model. `includeReferenceFailures`
 * counts every sample of them as failed instead (a score comparable with a harness that does so).
 */
import type { ProblemCounts } from './pass-at-k.js';

/**
 * What counting needs of one sample: its problem, its index among the problem's samples, and whether it passed
 * (base tests; `plusPassed`: EvalPlus base and plus). The store's `SampleRecord` (`src/store/records.ts`) has
 * this shape, so records are passed as they are; metrics never import the store.
 */
export interface SampleOutcome {
  readonly taskId: string;
  readonly sampleIndex: number;
  readonly passed: boolean;
  readonly plusPassed?: boolean;
  /** The sample's status (`SampleStatus`); only `reference_failed` matters here. */
  readonly status?: string;
}

/** The status of a sample whose problem's reference solution failed (`SampleStatus`, src/verdict/status.ts). */
export const REFERENCE_FAILED = 'reference_failed';

/** How problems whose reference failed are counted: left out (default) or every sample failed. */
export interface CountOptions {
  readonly includeReferenceFailures?: boolean;
}

/** Task ids (in order of first appearance) of the problems with a `reference_failed` sample (latest line per sample). */
export function referenceFailedTasks(records: readonly SampleOutcome[]): string[] {
  const latest = new Map<string, SampleOutcome>();
  for (const r of records) latest.set(JSON.stringify([r.taskId, r.sampleIndex]), r);
  return [...new Set([...latest.values()].filter((r) => r.status === REFERENCE_FAILED).map((r) => r.taskId))];
}

/** Which pass signal to count: the base tests (`passed`) or EvalPlus' base-and-plus (`plusPassed`). */
export type PassField = 'passed' | 'plusPassed';

/** Pass outcome of every sample of one problem, ordered by `sampleIndex`. */
export interface ProblemOutcomes {
  readonly taskId: string;
  readonly outcomes: readonly boolean[];
}

/**
 * Groups records by `taskId` (problems in order of first appearance, samples by `sampleIndex`).
 * When the same (taskId, sampleIndex) appears twice (a resumed run re-appended it), the later line wins.
 * With `field = 'plusPassed'` a record without `plusPassed` counts as not passed. Problems whose reference
 * failed are left out unless `options.includeReferenceFailures` (see the module comment).
 */
export function outcomesFromRecords(
  records: readonly SampleOutcome[],
  field: PassField = 'passed',
  options: CountOptions = {},
): readonly ProblemOutcomes[] {
  const byTask = new Map<string, Map<number, SampleOutcome>>();
  for (const r of records) {
    let samples = byTask.get(r.taskId);
    if (samples === undefined) {
      samples = new Map();
      byTask.set(r.taskId, samples);
    }
    samples.set(r.sampleIndex, r);
  }
  const result: ProblemOutcomes[] = [];
  for (const [taskId, samples] of byTask) {
    const latest = [...samples.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => r);
    if (options.includeReferenceFailures !== true && latest.some((r) => r.status === REFERENCE_FAILED)) continue;
    result.push({ taskId, outcomes: latest.map((r) => (field === 'passed' ? r.passed : r.plusPassed === true)) });
  }
  return result;
}

/** n (samples) and c (passed samples) of each problem. */
export function countsFromOutcomes(problems: readonly ProblemOutcomes[]): readonly ProblemCounts[] {
  return problems.map((p) => ({
    taskId: p.taskId,
    n: p.outcomes.length,
    c: p.outcomes.reduce((acc, passed) => acc + (passed ? 1 : 0), 0),
  }));
}

/** Shorthand for `countsFromOutcomes(outcomesFromRecords(records, field, options))`. */
export function countsFromRecords(
  records: readonly SampleOutcome[],
  field: PassField = 'passed',
  options: CountOptions = {},
): readonly ProblemCounts[] {
  return countsFromOutcomes(outcomesFromRecords(records, field, options));
}

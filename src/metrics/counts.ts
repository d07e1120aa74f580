/**
 * Turns the sample records of a run (`verdicts.jsonl`, see `src/store/records.ts`) into per-problem
 * pass outcomes and counts, the input of every other metric.
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
 * With `field = 'plusPassed'` a record without `plusPassed` counts as not passed.
 */
export function outcomesFromRecords(
  records: readonly SampleOutcome[],
  field: PassField = 'passed',
): readonly ProblemOutcomes[] {
  const byTask = new Map<string, Map<number, boolean>>();
  for (const r of records) {
    let samples = byTask.get(r.taskId);
    if (samples === undefined) {
      samples = new Map();
      byTask.set(r.taskId, samples);
    }
    samples.set(r.sampleIndex, field === 'passed' ? r.passed : r.plusPassed === true);
  }
  const result: ProblemOutcomes[] = [];
  for (const [taskId, samples] of byTask) {
    const ordered = [...samples.entries()].sort((a, b) => a[0] - b[0]).map(([, passed]) => passed);
    result.push({ taskId, outcomes: ordered });
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

/** Shorthand for `countsFromOutcomes(outcomesFromRecords(records, field))`. */
export function countsFromRecords(
  records: readonly SampleOutcome[],
  field: PassField = 'passed',
): readonly ProblemCounts[] {
  return countsFromOutcomes(outcomesFromRecords(records, field));
}

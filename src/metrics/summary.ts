/**
 * pass@k of a run with percentile-bootstrap confidence intervals, for every reportable k: what
 * `crucible eval`, `crucible report` and the HTTP API print.
 *
 * Point estimate: mean over problems of the unbiased per-problem pass@k (`pass-at-k.ts`).
 * Interval: percentile bootstrap over problems (`bootstrap.ts`); with `twoLevel`, each resampled problem
 * also has its n samples resampled with replacement and c recounted — drawing n of the problem's n
 * outcomes with replacement, so c* ~ Binomial(n, c/n) — which adds the sampling noise of the model's
 * samples to the noise of the choice of problems. All k share the same resamples, so the band is coherent.
 *
 * Problems are resampled in task-id order (`inTaskOrder`), whatever order they come in: with a fixed seed the
 * draws depend on the order of the items, and a run meets its problems in one order in `verdicts.jsonl` (as
 * samples finish), another in its samples file and another in the store (problems file order). Sorting makes
 * the interval a function of the per-problem counts and the bootstrap settings alone, so `crucible eval`,
 * `crucible report` (run directory or store run), the store's analysis and the dashboard give the same interval
 * for the same run (issue #31).
 */
import type { Rng } from './random.js';
import { bootstrapIntervals, resolveBootstrapOptions, type BootstrapOptions, type BootstrapSettings } from './bootstrap.js';
import { maxReportableK, passAtKTable, type ProblemCounts } from './pass-at-k.js';

/** The k values headline tables show (each reported when every problem has at least k samples). */
export const HEADLINE_KS: readonly number[] = [1, 2, 5, 10, 20, 50, 100];

export interface PassAtKIntervalOptions extends BootstrapOptions {
  /** The k to report; default every k from 1 to the smallest n. Each must be in 1..smallest n. */
  readonly ks?: readonly number[];
  /** Also resample samples within each problem (default false: problems only). */
  readonly twoLevel?: boolean;
}

/** pass@k (fraction in [0, 1]) with its interval. */
export interface PassAtKEstimate {
  readonly k: number;
  readonly passAtK: number;
  readonly lower: number;
  readonly upper: number;
}

export interface PassAtKSummary {
  readonly numProblems: number;
  /** Total samples over all problems. */
  readonly numSamples: number;
  /** Total correct samples over all problems. */
  readonly numCorrect: number;
  /** Largest reportable k (smallest n over problems). */
  readonly maxK: number;
  readonly points: readonly PassAtKEstimate[];
  readonly bootstrap: BootstrapSettings & { readonly twoLevel: boolean };
}

/**
 * `problems` sorted by `taskId` in UTF-16 code-unit order (locale-independent; stable, so problems listed twice
 * keep their order): the order every bootstrap over problems draws from.
 */
export function inTaskOrder<T extends { readonly taskId: string }>(problems: readonly T[]): T[] {
  return [...problems].sort((a, b) => (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0));
}

/**
 * The bootstrap settings a result records (`summary.json`'s or a `PassAtKSummary`'s `bootstrap`: `reps`, `seed`,
 * `confidence`), so that a run's intervals are recomputed with the settings its eval used; `{}` (the defaults)
 * for anything else. Opaque input: fields of the wrong type are ignored.
 */
export function recordedBootstrapOptions(recorded: unknown): BootstrapOptions {
  const b = (recorded as { bootstrap?: { reps?: unknown; seed?: unknown; confidence?: unknown } } | null | undefined)?.bootstrap;
  const options: { reps?: number; seed?: number; confidence?: number } = {};
  if (typeof b?.reps === 'number') options.reps = b.reps;
  if (typeof b?.seed === 'number') options.seed = b.seed;
  if (typeof b?.confidence === 'number') options.confidence = b.confidence;
  return options;
}

/** Resamples the n samples of one problem with replacement and recounts c. */
export function resampleCounts(problem: ProblemCounts, rng: Rng): ProblemCounts {
  let c = 0;
  for (let j = 0; j < problem.n; j++) if (rng.nextInt(problem.n) < problem.c) c++;
  return { taskId: problem.taskId, n: problem.n, c };
}

/**
 * Checks a list of k against the problems: integers in 1..smallest n, returned sorted and deduplicated.
 * @throws RangeError naming the first k that cannot be reported.
 */
export function checkKs(problems: readonly ProblemCounts[], ks: readonly number[]): readonly number[] {
  const maxK = maxReportableK(problems);
  for (const k of ks) {
    if (!Number.isInteger(k) || k < 1) throw new RangeError(`pass@k: k must be an integer >= 1, got ${k}`);
    if (k > maxK) {
      throw new RangeError(`pass@${k} is not reportable: some problem has only ${maxK} samples (every problem needs n >= k)`);
    }
  }
  return [...new Set(ks)].sort((a, b) => a - b);
}

/**
 * Builds a statistic computing mean pass@k for each of `ks` over a sample of problems, using
 * precomputed per-n tables so one evaluation costs O(problems × |ks|).
 */
export function meanPassAtKStatistic(
  problems: readonly ProblemCounts[],
  ks: readonly number[],
): (sample: readonly ProblemCounts[]) => readonly number[] {
  const largestK = ks[ks.length - 1] ?? 1;
  const tables = new Map<number, readonly Float64Array[]>();
  for (const p of problems) if (!tables.has(p.n)) tables.set(p.n, passAtKTable(p.n, largestK));
  return (sample) => {
    const sums = new Array<number>(ks.length).fill(0);
    for (const p of sample) {
      const row = tables.get(p.n)![p.c]!;
      for (let j = 0; j < ks.length; j++) sums[j]! += row[ks[j]! - 1]!;
    }
    return sums.map((s) => s / sample.length);
  };
}

/**
 * Mean pass@k with bootstrap CIs for each requested k (default: the whole curve 1..smallest n). The result does
 * not depend on the order of `problems` (they are resampled in `inTaskOrder`).
 * @throws RangeError when there are no problems, counts are invalid, a k is not reportable, or the
 * bootstrap options are out of range.
 */
export function passAtKWithIntervals(
  problems: readonly ProblemCounts[],
  options: PassAtKIntervalOptions = {},
): PassAtKSummary {
  const maxK = maxReportableK(problems);
  const ks = checkKs(problems, options.ks ?? Array.from({ length: maxK }, (_, i) => i + 1));
  const settings = resolveBootstrapOptions(options);
  const twoLevel = options.twoLevel ?? false;
  const estimates = bootstrapIntervals(
    inTaskOrder(problems),
    meanPassAtKStatistic(problems, ks),
    settings,
    twoLevel ? resampleCounts : undefined,
  );
  return {
    numProblems: problems.length,
    numSamples: problems.reduce((acc, p) => acc + p.n, 0),
    numCorrect: problems.reduce((acc, p) => acc + p.c, 0),
    maxK,
    points: ks.map((k, j) => {
      const e = estimates[j]!;
      return { k, passAtK: e.point, lower: e.lower, upper: e.upper };
    }),
    bootstrap: { ...settings, twoLevel },
  };
}

/**
 * N runs ranked on the problems they all attempted, at one k.
 *
 * - Each run's pass@k on the shared problems with a percentile-bootstrap interval; all runs share every
 *   replicate's draw of problems (`bootstrap.ts`), so the intervals are paired across runs.
 * - The rank of each run (1 = highest pass@k, ties share the mean rank) with a percentile-bootstrap interval of
 *   the rank over the same draws: how sure the order is.
 * - Every pair (i < j): A − B with its paired-bootstrap interval (`comparePaired`), a two-sided paired
 *   permutation p-value on per-problem pass@k differences (`multiple.ts`) and that p-value Holm-adjusted over the
 *   m = N(N−1)/2 pairs (family-wise error rate at α for "A differs from B" claims).
 */
import { bootstrapIntervals, resolveBootstrapOptions, type BootstrapOptions, type BootstrapSettings } from './bootstrap.js';
import { holmAdjust, pairedPermutationPValue } from './multiple.js';
import { comparePaired, type PairedComparison } from './paired.js';
import { passAtK, type ProblemCounts } from './pass-at-k.js';
import { checkKs, inTaskOrder, meanPassAtKStatistic } from './summary.js';

/** One run to rank: an id and its per-problem counts. */
export interface RankedRunInput {
  readonly id: number;
  readonly counts: readonly ProblemCounts[];
}

/** A run's place. Fractions for pass@k; ranks from 1 (best). */
export interface RankedRun {
  readonly id: number;
  readonly passAtK: number;
  readonly lower: number;
  readonly upper: number;
  readonly rank: number;
  readonly rankLower: number;
  readonly rankUpper: number;
}

/** One pair of runs: `a` − `b` on the shared problems. */
export interface RankedPair {
  readonly a: number;
  readonly b: number;
  readonly comparison: PairedComparison;
  /** Two-sided paired permutation p-value, and the same Holm-adjusted over every pair. */
  readonly pValue: number;
  readonly holmPValue: number;
}

/** The ranking of N runs at one k. */
export interface Ranking {
  readonly k: number;
  /** Task ids every run attempted, in task-id order; the rest are left out of every figure. */
  readonly shared: readonly string[];
  /** Per run, problems it has that some other run lacks. */
  readonly leftOut: ReadonlyMap<number, number>;
  /** Best first. */
  readonly runs: readonly RankedRun[];
  readonly pairs: readonly RankedPair[];
  readonly bootstrap: BootstrapSettings;
  readonly permutationReps: number;
}

/** Ranks (1 = largest value) with ties sharing their mean rank. */
export function ranksOf(values: readonly number[]): number[] {
  const order = values.map((v, i) => ({ v, i })).sort((x, y) => y.v - x.v);
  const ranks = new Array<number>(values.length);
  for (let start = 0; start < order.length;) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]!.v === order[start]!.v) end++;
    for (let j = start; j <= end; j++) ranks[order[j]!.i] = (start + end) / 2 + 1;
    start = end + 1;
  }
  return ranks;
}

/**
 * Rank `runs` at `k` on their shared problems (see the module comment).
 * @throws RangeError with fewer than 2 runs, a run id given twice, no shared problem, or k not reportable there.
 */
export function rankRuns(runs: readonly RankedRunInput[], k: number, options: BootstrapOptions & { readonly permutationReps?: number } = {}): Ranking {
  if (runs.length < 2) throw new RangeError('ranking: give at least two runs');
  if (new Set(runs.map((r) => r.id)).size !== runs.length) throw new RangeError('ranking: a run is given twice');
  const maps = runs.map((r) => new Map(r.counts.filter((c) => c.n > 0).map((c) => [c.taskId, c])));
  const shared = inTaskOrder([...maps[0]!.keys()].filter((t) => maps.every((m) => m.has(t))).map((taskId) => ({ taskId }))).map((x) => x.taskId);
  if (shared.length === 0) throw new RangeError('ranking: the runs share no problem');
  const perRun = maps.map((m) => shared.map((t) => m.get(t)!));
  checkKs(perRun.flat(), [k]);
  const settings = resolveBootstrapOptions(options);
  const stats = perRun.map((counts) => meanPassAtKStatistic(counts, [k]));
  const indices = shared.map((_, i) => i);
  const statistic = (sample: readonly number[]): number[] => {
    const values = stats.map((stat, r) => stat(sample.map((i) => perRun[r]![i]!))[0]!);
    return [...values, ...ranksOf(values)];
  };
  const estimates = bootstrapIntervals(indices, statistic, settings);
  const n = runs.length;
  const ranked: RankedRun[] = runs.map((r, i) => ({
    id: r.id, passAtK: estimates[i]!.point, lower: estimates[i]!.lower, upper: estimates[i]!.upper,
    rank: estimates[n + i]!.point, rankLower: estimates[n + i]!.lower, rankUpper: estimates[n + i]!.upper,
  }));
  const permutationReps = options.permutationReps ?? 10_000;
  const raw: Omit<RankedPair, 'holmPValue'>[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const comparison = comparePaired(perRun[i]!, perRun[j]!, { ...settings, ks: [k] });
      const diffs = shared.map((_, p) => passAtK(perRun[i]![p]!.n, perRun[i]![p]!.c, k) - passAtK(perRun[j]![p]!.n, perRun[j]![p]!.c, k));
      raw.push({ a: runs[i]!.id, b: runs[j]!.id, comparison, pValue: pairedPermutationPValue(diffs, { reps: permutationReps, seed: settings.seed }) });
    }
  }
  const holm = holmAdjust(raw.map((p) => p.pValue));
  const leftOut = new Map(runs.map((r, i) => [r.id, maps[i]!.size - shared.length]));
  return {
    k, shared, leftOut, runs: [...ranked].sort((x, y) => x.rank - y.rank || x.id - y.id),
    pairs: raw.map((p, i) => ({ ...p, holmPValue: holm[i]! })), bootstrap: settings, permutationReps,
  };
}

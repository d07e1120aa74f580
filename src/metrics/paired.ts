/**
 * Paired comparison of run A against run B on the problems both runs attempted.
 *
 * - Difference in pass@k, A − B (fractions), with a paired percentile bootstrap: each replicate draws
 *   shared problems with replacement and uses the same draw for both runs, so per-problem difficulty
 *   cancels out of the interval.
 * - Probability of improvement P(A > B), as rliable defines it (Agarwal et al. 2021, "Deep RL at the
 *   Edge of the Statistical Precipice"; `rliable/metrics.py` `probability_of_improvement`): per task,
 *   P(X > Y) + ½·P(X = Y) over all pairs (run of X, run of Y) — the Mann–Whitney U statistic divided by
 *   (runs of X × runs of Y) — averaged over tasks. Mapping used here: a task is a shared problem, a "run"
 *   is one sample, and its score is its pass outcome (1 or 0). With A having nA samples (cA correct) and
 *   B having nB (cB correct), a problem contributes
 *       [cA·(nB − cB) + ½·(cA·cB + (nA − cA)·(nB − cB))] / (nA·nB).
 *   rliable returns exactly 0.5 for a task whose score arrays are equal; the formula gives 0.5 there too.
 * - Wins / losses / ties per problem, comparing pass rates cA/nA and cB/nB exactly (cA·nB vs cB·nA).
 * - Exact McNemar test (McNemar 1947; exact form: two-sided binomial test on the discordant pairs),
 *   applicable only when both runs have exactly one sample on every shared problem: with b problems
 *   solved by A only and c by B only, p = min(1, 2·Σ_{i=0}^{min(b,c)} C(b+c, i)·2^−(b+c)), and p = 1
 *   when b + c = 0.
 */
import { bootstrapIntervals, resolveBootstrapOptions, type BootstrapOptions, type BootstrapSettings } from './bootstrap.js';
import { maxReportableK, type ProblemCounts } from './pass-at-k.js';
import { checkKs, inTaskOrder, meanPassAtKStatistic } from './summary.js';

export interface PairedOptions extends BootstrapOptions {
  /** The k to compare (default [1]); each must be <= the smallest n of both runs on shared problems. */
  readonly ks?: readonly number[];
}

/** pass@k of A and B on the shared problems and A − B with its paired bootstrap interval. */
export interface PassAtKDifference {
  readonly k: number;
  readonly a: number;
  readonly b: number;
  readonly difference: number;
  readonly lower: number;
  readonly upper: number;
}

export type ProblemOutcome = 'win' | 'loss' | 'tie';

export interface ProblemComparison {
  readonly taskId: string;
  /** Pass rate c/n of A and of B (fractions). */
  readonly rateA: number;
  readonly rateB: number;
  /** `win`: A's pass rate is higher. */
  readonly outcome: ProblemOutcome;
}

export type McNemarResult =
  | {
      readonly applicable: true;
      /** Problems solved by A but not B. */
      readonly onlyA: number;
      /** Problems solved by B but not A. */
      readonly onlyB: number;
      /** Two-sided exact p-value. */
      readonly pValue: number;
    }
  | { readonly applicable: false; readonly reason: string };

export interface PairedComparison {
  readonly sharedProblems: number;
  /** Problems present in one run only (left out of every statistic). */
  readonly onlyInA: readonly string[];
  readonly onlyInB: readonly string[];
  readonly differences: readonly PassAtKDifference[];
  /** rliable-style probability of improvement of A over B, in [0, 1]. */
  readonly probabilityOfImprovement: number;
  readonly wins: number;
  readonly losses: number;
  readonly ties: number;
  readonly problems: readonly ProblemComparison[];
  readonly mcnemar: McNemarResult;
  readonly bootstrap: BootstrapSettings;
}

interface SharedProblem {
  readonly taskId: string;
  readonly a: ProblemCounts;
  readonly b: ProblemCounts;
}

function pairProblems(runA: readonly ProblemCounts[], runB: readonly ProblemCounts[]) {
  const byIdB = new Map<string, ProblemCounts>();
  for (const p of runB) {
    if (byIdB.has(p.taskId)) throw new RangeError(`paired: run B lists problem ${p.taskId} twice`);
    byIdB.set(p.taskId, p);
  }
  const seenA = new Set<string>();
  const shared: SharedProblem[] = [];
  const onlyInA: string[] = [];
  for (const a of runA) {
    if (seenA.has(a.taskId)) throw new RangeError(`paired: run A lists problem ${a.taskId} twice`);
    seenA.add(a.taskId);
    const b = byIdB.get(a.taskId);
    if (b === undefined) onlyInA.push(a.taskId);
    else shared.push({ taskId: a.taskId, a, b });
  }
  const onlyInB = runB.filter((p) => !seenA.has(p.taskId)).map((p) => p.taskId);
  // Task-id order, so nothing of the comparison depends on the order either run lists its problems.
  return { shared: inTaskOrder(shared), onlyInA: [...onlyInA].sort(), onlyInB: [...onlyInB].sort() };
}

/**
 * Probability that a random sample of A beats a random sample of B on one problem, ties counting ½.
 * @throws RangeError when n < 1 or c is outside 0..n for either run.
 */
export function problemImprovementProbability(a: ProblemCounts, b: ProblemCounts): number {
  maxReportableK([a, b]);
  const failA = a.n - a.c;
  const failB = b.n - b.c;
  return (a.c * failB + 0.5 * (a.c * b.c + failA * failB)) / (a.n * b.n);
}

/** Exact two-sided McNemar p-value from the discordant counts (see the module comment). */
export function mcnemarExactPValue(onlyA: number, onlyB: number): number {
  if (!Number.isInteger(onlyA) || !Number.isInteger(onlyB) || onlyA < 0 || onlyB < 0) {
    throw new RangeError(`mcnemar: counts must be non-negative integers, got ${onlyA}, ${onlyB}`);
  }
  const total = onlyA + onlyB;
  if (total === 0) return 1;
  const smaller = Math.min(onlyA, onlyB);
  // Sum C(total, i) / 2^total in log space so large totals neither overflow nor underflow early.
  const logHalf = total * Math.log(0.5);
  let logC = 0;
  let tail = 0;
  for (let i = 0; i <= smaller; i++) {
    if (i > 0) logC += Math.log(total - i + 1) - Math.log(i);
    tail += Math.exp(logC + logHalf);
  }
  return Math.min(1, 2 * tail);
}

function mcnemar(shared: readonly SharedProblem[]): McNemarResult {
  const multi = shared.find(({ a, b }) => a.n !== 1 || b.n !== 1);
  if (multi !== undefined) {
    return {
      applicable: false,
      reason: `McNemar's test needs exactly one sample per problem in each run; problem ${multi.a.taskId} has ${multi.a.n} (A) and ${multi.b.n} (B)`,
    };
  }
  let onlyA = 0;
  let onlyB = 0;
  for (const { a, b } of shared) {
    if (a.c === 1 && b.c === 0) onlyA++;
    if (a.c === 0 && b.c === 1) onlyB++;
  }
  return { applicable: true, onlyA, onlyB, pValue: mcnemarExactPValue(onlyA, onlyB) };
}

/**
 * Compares run A with run B on their shared problems (matched by `taskId`). Shared problems are taken in task-id
 * order (`inTaskOrder`: the bootstrap's draws, the `problems` list), so nothing of the result depends on the
 * order either run lists them.
 * @throws RangeError when no problem is shared, a run lists a problem twice, counts are invalid, a k is
 * not reportable on the shared problems, or bootstrap options are out of range.
 */
export function comparePaired(
  runA: readonly ProblemCounts[],
  runB: readonly ProblemCounts[],
  options: PairedOptions = {},
): PairedComparison {
  const { shared, onlyInA, onlyInB } = pairProblems(runA, runB);
  if (shared.length === 0) throw new RangeError('paired: the two runs share no problem');
  const settings = resolveBootstrapOptions(options);
  const sharedA = shared.map((s) => s.a);
  const sharedB = shared.map((s) => s.b);
  const ks = checkKs([...sharedA, ...sharedB], options.ks ?? [1]);

  const statA = meanPassAtKStatistic(sharedA, ks);
  const statB = meanPassAtKStatistic(sharedB, ks);
  const statistic = (sample: readonly SharedProblem[]): readonly number[] => {
    const va = statA(sample.map((s) => s.a));
    const vb = statB(sample.map((s) => s.b));
    return [...va, ...vb, ...va.map((x, j) => x - vb[j]!)];
  };
  const estimates = bootstrapIntervals(shared, statistic, settings);
  const differences = ks.map((k, j) => {
    const diff = estimates[2 * ks.length + j]!;
    return {
      k,
      a: estimates[j]!.point,
      b: estimates[ks.length + j]!.point,
      difference: diff.point,
      lower: diff.lower,
      upper: diff.upper,
    };
  });

  let probabilitySum = 0;
  let wins = 0;
  let losses = 0;
  let ties = 0;
  const problems: ProblemComparison[] = shared.map(({ a, b }) => {
    probabilitySum += problemImprovementProbability(a, b);
    const lhs = a.c * b.n;
    const rhs = b.c * a.n;
    const outcome: ProblemOutcome = lhs > rhs ? 'win' : lhs < rhs ? 'loss' : 'tie';
    if (outcome === 'win') wins++;
    else if (outcome === 'loss') losses++;
    else ties++;
    return { taskId: a.taskId, rateA: a.c / a.n, rateB: b.c / b.n, outcome };
  });

  return {
    sharedProblems: shared.length,
    onlyInA,
    onlyInB,
    differences,
    probabilityOfImprovement: probabilitySum / shared.length,
    wins,
    losses,
    ties,
    problems,
    mcnemar: mcnemar(shared),
    bootstrap: settings,
  };
}

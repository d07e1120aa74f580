/**
 * CodeT reranking, the pure part (B. Chen et al. 2022, "CodeT: Code Generation with Generated Tests",
 * ICLR 2023), matching microsoft/CodeT's released code: `CodeT/src/agreement.py` (`DataManager`,
 * `DualAgreement.get_sorted_solutions_without_iter`) and `CodeT/src/evaluation.py`
 * (`get_result_of_sorted_solutions`, `_turn_solution_scores_into_choose_count`, `_estimator`).
 *
 * Input, per problem: the distinct solutions (with how many samples produced each, and whether it is
 * truly correct by the real tests), the distinct generated tests (with how many times each was
 * generated) and a boolean matrix solutions × tests (does the solution pass the test?).
 *
 * 1. Consensus sets. CodeT expands every distinct solution and test into one id per occurrence, so
 *    duplicates count. Solutions that pass no test are dropped. The rest are grouped by the exact set of
 *    tests they pass. For a set S with passed tests T:
 *      |solutions| = Σ multiplicity over S,  |tests| = Σ multiplicity over T,
 *      score = |tests| · sqrt(|solutions|)   (`'sqrt'`, what the released code does), or
 *      score = |tests| · |solutions|         (`'product'`, the paper's formula).
 * 2. Ranking. Sets are sorted by score, descending; sets with exactly equal scores are merged into one
 *    tier (their samples pooled).
 * 3. pass@k. With T tiers: if T >= k, one sample is picked from each of the first k tiers; otherwise
 *    every tier gets one pick and the k − T extra picks go round-robin from the top tier down (extra
 *    pick number e, from 0, goes to tier e mod T). A pick draws one sample uniformly from the tier
 *    (independently for each pick, i.e. with replacement),
 *    so pass@k = 1 − ∏_tiers ((n_t − c_t)/n_t)^{picks_t}, with n_t the tier's samples and c_t its correct
 *    samples.
 * 4. Fallback. A problem with no consensus set (no solution passes any generated test) gets the plain
 *    unbiased pass@k over all its samples, as CodeT does (`pass_at_K_by_task`). One divergence: for
 *    k > n CodeT's `_estimator` returns 1 even with no correct sample; here it is 1 if any sample is
 *    correct and 0 otherwise (CodeT's data, 100 samples per problem, never reaches this case).
 *
 * Baselines on the same input: `first` (the first sample, i.e. the first solution in order of first
 * appearance) and `majority` (MBR-exec, Shi et al. 2022, "Natural Language to Code Translation with
 * Execution": group solutions by their outputs on the generated inputs and pick a sample of the largest
 * group by sample count; ties between groups are averaged, as a uniformly random choice would be).
 */
import { passAtK } from './pass-at-k.js';

/** One distinct solution of a problem. Solutions must be listed in order of first appearance. */
export interface CodetSolution {
  /** How many samples produced exactly this solution (>= 1). */
  readonly multiplicity: number;
  /** Whether it passes the problem's real tests. */
  readonly correct: boolean;
}

export interface CodetProblem {
  readonly taskId: string;
  readonly solutions: readonly CodetSolution[];
  /** `passes[s][t]`: solution s passes generated test t. Every row has one entry per test. */
  readonly passes: readonly (readonly boolean[])[];
  /** How many times each distinct test was generated (default 1 each). */
  readonly testMultiplicities?: readonly number[];
}

export type CodetScoring = 'sqrt' | 'product';

/** A group of solutions passing exactly the same generated tests. */
export interface ConsensusSet {
  /** Indices into `CodetProblem.solutions`. */
  readonly solutionIndices: readonly number[];
  /** Indices of the generated tests every member passes. */
  readonly testIndices: readonly number[];
  /** Σ multiplicity of the member solutions. */
  readonly solutionCount: number;
  /** Σ multiplicity of the passed tests. */
  readonly testCount: number;
  readonly score: number;
}

/** Solutions with equal score, pooled: `samples` in the tier, `correct` of them correct. */
export interface CodetTier {
  readonly score: number;
  readonly samples: number;
  readonly correct: number;
}

export interface CodetProblemResult {
  readonly taskId: string;
  /** pass@k for each requested k (fractions), in the order of `ks`. */
  readonly passAtK: readonly number[];
  /** True when no consensus set existed and plain pass@k was used. */
  readonly fallback: boolean;
}

export interface CodetEvaluation {
  readonly ks: readonly number[];
  /** Mean over problems for each k (fractions), in the order of `ks`. */
  readonly passAtK: readonly number[];
  readonly problems: readonly CodetProblemResult[];
}

/** Default k of CodeT's released evaluation. */
export const CODET_KS: readonly number[] = [1, 2, 10];

function checkProblem(problem: CodetProblem): readonly number[] {
  const where = `codet: problem ${problem.taskId}`;
  if (problem.solutions.length === 0) throw new RangeError(`${where} has no solutions`);
  if (problem.passes.length !== problem.solutions.length) {
    throw new RangeError(`${where}: passes has ${problem.passes.length} rows for ${problem.solutions.length} solutions`);
  }
  const tests = problem.passes[0]!.length;
  problem.passes.forEach((row, s) => {
    if (row.length !== tests) throw new RangeError(`${where}: passes row ${s} has ${row.length} tests, expected ${tests}`);
  });
  problem.solutions.forEach((sol, s) => {
    if (!Number.isInteger(sol.multiplicity) || sol.multiplicity < 1) {
      throw new RangeError(`${where}: solution ${s} has multiplicity ${sol.multiplicity}, expected an integer >= 1`);
    }
  });
  const multiplicities = problem.testMultiplicities ?? new Array<number>(tests).fill(1);
  if (multiplicities.length !== tests) {
    throw new RangeError(`${where}: ${multiplicities.length} test multiplicities for ${tests} tests`);
  }
  multiplicities.forEach((m, t) => {
    if (!Number.isInteger(m) || m < 1) throw new RangeError(`${where}: test ${t} has multiplicity ${m}, expected an integer >= 1`);
  });
  return multiplicities;
}

/**
 * Consensus sets of one problem, sorted by score descending (ties keep order of first appearance).
 * @throws RangeError on a malformed problem (see `CodetProblem`).
 */
export function consensusSets(problem: CodetProblem, scoring: CodetScoring = 'sqrt'): readonly ConsensusSet[] {
  const testMultiplicities = checkProblem(problem);
  const groups = new Map<string, { tests: number[]; members: number[] }>();
  problem.passes.forEach((row, s) => {
    const tests = row.flatMap((passed, t) => (passed ? [t] : []));
    if (tests.length === 0) return;
    const key = tests.join(',');
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { tests, members: [s] });
    else group.members.push(s);
  });
  const sets = [...groups.values()].map(({ tests, members }) => {
    const solutionCount = members.reduce((acc, s) => acc + problem.solutions[s]!.multiplicity, 0);
    const testCount = tests.reduce((acc, t) => acc + testMultiplicities[t]!, 0);
    const score = testCount * (scoring === 'sqrt' ? Math.sqrt(solutionCount) : solutionCount);
    return { solutionIndices: members, testIndices: tests, solutionCount, testCount, score };
  });
  return sets.sort((a, b) => b.score - a.score);
}

/** Merges sorted consensus sets of exactly equal score into tiers (CodeT's `wrapped` branch). */
export function tiersOf(problem: CodetProblem, sets: readonly ConsensusSet[]): readonly CodetTier[] {
  const tiers: { score: number; samples: number; correct: number }[] = [];
  for (const set of sets) {
    let tier = tiers[tiers.length - 1];
    if (tier === undefined || tier.score !== set.score) {
      tier = { score: set.score, samples: 0, correct: 0 };
      tiers.push(tier);
    }
    for (const s of set.solutionIndices) {
      const sol = problem.solutions[s]!;
      tier.samples += sol.multiplicity;
      if (sol.correct) tier.correct += sol.multiplicity;
    }
  }
  return tiers;
}

/**
 * How many picks each tier gets for top-k (CodeT `_turn_solution_scores_into_choose_count`): one per
 * tier for the first min(k, T) tiers, extra picks round-robin from the top when T < k.
 * @throws RangeError when tierCount < 1 or k < 1.
 */
export function picksPerTier(tierCount: number, k: number): readonly number[] {
  if (!Number.isInteger(tierCount) || tierCount < 1) throw new RangeError(`codet: need at least one tier, got ${tierCount}`);
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`codet: k must be an integer >= 1, got ${k}`);
  if (tierCount >= k) return new Array<number>(k).fill(1);
  const picks = new Array<number>(tierCount).fill(1);
  for (let extra = 0; extra < k - tierCount; extra++) picks[extra % tierCount]! += 1;
  return picks;
}

/** CodeT pass@k from ranked tiers (see the module comment, step 3). */
export function tieredPassAtK(tiers: readonly CodetTier[], k: number): number {
  const picks = picksPerTier(tiers.length, k);
  let allWrong = 1;
  picks.forEach((count, i) => {
    const tier = tiers[i]!;
    allWrong *= ((tier.samples - tier.correct) / tier.samples) ** count;
  });
  return 1 - allWrong;
}

function fallbackPassAtK(problem: CodetProblem, k: number): number {
  let n = 0;
  let c = 0;
  for (const sol of problem.solutions) {
    n += sol.multiplicity;
    if (sol.correct) c += sol.multiplicity;
  }
  if (k > n) return c > 0 ? 1 : 0;
  return passAtK(n, c, k);
}

/**
 * CodeT pass@k of one problem for each k.
 * @throws RangeError on a malformed problem or a k < 1.
 */
export function codetProblemPassAtK(
  problem: CodetProblem,
  ks: readonly number[] = CODET_KS,
  scoring: CodetScoring = 'sqrt',
): CodetProblemResult {
  const sets = consensusSets(problem, scoring);
  if (sets.length === 0) {
    return { taskId: problem.taskId, passAtK: ks.map((k) => fallbackPassAtK(problem, k)), fallback: true };
  }
  const tiers = tiersOf(problem, sets);
  return { taskId: problem.taskId, passAtK: ks.map((k) => tieredPassAtK(tiers, k)), fallback: false };
}

/**
 * CodeT pass@k over problems (mean of per-problem values), k in `ks` (default 1, 2, 10).
 * @throws RangeError when `problems` is empty, a problem is malformed, or a k < 1.
 */
export function evaluateCodet(
  problems: readonly CodetProblem[],
  options: { readonly ks?: readonly number[]; readonly scoring?: CodetScoring } = {},
): CodetEvaluation {
  if (problems.length === 0) throw new RangeError('codet: no problems');
  const ks = options.ks ?? CODET_KS;
  const results = problems.map((p) => codetProblemPassAtK(p, ks, options.scoring ?? 'sqrt'));
  const passAtKMean = ks.map((_, j) => results.reduce((acc, r) => acc + r.passAtK[j]!, 0) / results.length);
  return { ks, passAtK: passAtKMean, problems: results };
}

/**
 * `first` baseline: 1 if the first sample of the problem (its first-listed solution) is correct, else 0.
 * @throws RangeError when the problem has no solutions.
 */
export function firstSamplePass(solutions: readonly CodetSolution[]): number {
  const first = solutions[0];
  if (first === undefined) throw new RangeError('codet: no solutions');
  return first.correct ? 1 : 0;
}

/** Input of the majority (MBR-exec) baseline: a solution and its outputs on the generated inputs. */
export interface ExecutedSolution extends CodetSolution {
  /** Outputs (serialised by the caller, one per generated input); equal arrays mean equal behaviour. */
  readonly outputs: readonly string[];
}

/**
 * `majority` baseline (MBR-exec with exact output match): the expected correctness of a sample drawn
 * from the largest group of identical outputs (group size = Σ multiplicity), ties between groups
 * averaged. Returns a pass@1 in [0, 1].
 * @throws RangeError when there are no solutions or a multiplicity is not an integer >= 1.
 */
export function majorityPass(solutions: readonly ExecutedSolution[]): number {
  if (solutions.length === 0) throw new RangeError('codet: no solutions');
  const groups = outputGroups(solutions);
  const largest = Math.max(...groups.map((g) => g.samples));
  const top = groups.filter((g) => g.samples === largest);
  return top.reduce((acc, g) => acc + g.correct / g.samples, 0) / top.length;
}

function outputGroups(solutions: readonly ExecutedSolution[]): { samples: number; correct: number }[] {
  const groups = new Map<string, { samples: number; correct: number }>();
  for (const sol of solutions) {
    if (!Number.isInteger(sol.multiplicity) || sol.multiplicity < 1) {
      throw new RangeError(`codet: multiplicity must be an integer >= 1, got ${sol.multiplicity}`);
    }
    const key = JSON.stringify(sol.outputs);
    const group = groups.get(key) ?? { samples: 0, correct: 0 };
    group.samples += sol.multiplicity;
    if (sol.correct) group.correct += sol.multiplicity;
    groups.set(key, group);
  }
  return [...groups.values()];
}

/**
 * `majority` baseline for several k: output groups ranked by sample count (descending), groups of equal
 * count pooled into one tier, and picks spread over tiers exactly as CodeT spreads them over its tiers
 * (`picksPerTier`, `tieredPassAtK`). For k = 1 this equals `majorityPass` (tied groups have equal sizes,
 * so pooling them equals averaging their rates). Returns one fraction per k, in the order of `ks`.
 * @throws RangeError as `majorityPass`, or for a k < 1.
 */
export function majorityPassAtK(solutions: readonly ExecutedSolution[], ks: readonly number[]): readonly number[] {
  if (solutions.length === 0) throw new RangeError('codet: no solutions');
  const groups = outputGroups(solutions).sort((a, b) => b.samples - a.samples);
  const tiers: CodetTier[] = [];
  for (const g of groups) {
    const last = tiers[tiers.length - 1];
    if (last !== undefined && last.score === g.samples) {
      tiers[tiers.length - 1] = { score: g.samples, samples: last.samples + g.samples, correct: last.correct + g.correct };
    } else {
      tiers.push({ score: g.samples, samples: g.samples, correct: g.correct });
    }
  }
  return ks.map((k) => tieredPassAtK(tiers, k));
}

/**
 * `first` baseline for several k: 1 if one of the first k samples (in file order) is correct, else 0 — what a
 * user who keeps the first k generations gets. `sampleCorrect` lists every sample of the problem in order; a
 * k beyond the sample count uses all samples. Returns one value per k, in the order of `ks`.
 * @throws RangeError when there are no samples or a k < 1.
 */
export function firstSamplesPassAtK(sampleCorrect: readonly boolean[], ks: readonly number[]): readonly number[] {
  if (sampleCorrect.length === 0) throw new RangeError('codet: no samples');
  return ks.map((k) => {
    if (!Number.isInteger(k) || k < 1) throw new RangeError(`codet: k must be an integer >= 1, got ${k}`);
    return sampleCorrect.slice(0, k).some(Boolean) ? 1 : 0;
  });
}

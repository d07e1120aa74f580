/**
 * Curriculum sampling (issue #28, item 3): choose the next batch of problems from a pool by their current pass-rate
 * estimate (the EMA of `difficulty.ts`). Pure and deterministic: the same pool (in the same order), estimates,
 * strategy and seed give the same batch (xoshiro128**, `random.ts`).
 *
 * Strategies — which problems are eligible (e = a problem's estimate, null when it has no stepped rollout yet):
 * - `uniform`: every problem of the pool.
 * - `band` {lo, hi}: lo ≤ e ≤ hi — the problems of intermediate difficulty that give a GRPO group non-zero
 *   advantage. CLPO (Zhang et al. 2025, arXiv 2509.25004) buckets problems by the on-policy accuracy
 *   Acc(q) = 1/G · Σ 1[verifier(y_i)] against thresholds τ_hard < τ_med; DARS ("Depth-Breadth Synergy in RLVR",
 *   Yang et al. 2025) spends extra rollouts on problems by their current pass rate. A band selects one bucket.
 * - `drop-solved` {solvedAt = 1}: e < solvedAt — Skywork-OR1 (He et al. 2025, arXiv 2505.22312) removes prompts the
 *   current policy already solves; DAPO (Yu et al. 2025, arXiv 2503.14476) drops groups whose rollouts all pass.
 * - `drop-unsolved` {unsolvedAt = 0}: e > unsolvedAt — the other half of that filtering (groups that all fail
 *   carry no gradient either).
 * Problems without an estimate are eligible under every strategy unless `unseen: "exclude"` (a new problem must be
 * tried once to be estimated).
 *
 * Drawing: `batchSize` problems uniformly from the eligible ones, without replacement (a partial Fisher–Yates
 * shuffle: draw i takes index i + nextInt(m − i)); when fewer are eligible, all of them in shuffled order and
 * `shortfall` says how many are missing, unless `replacement` is true (then `batchSize` independent uniform draws).
 */
import { createRng } from './random.js';

/** Which problems are eligible (see the module comment). */
export type CurriculumStrategy =
  | { readonly kind: 'uniform' }
  | { readonly kind: 'band'; readonly lo: number; readonly hi: number }
  | { readonly kind: 'drop-solved'; readonly solvedAt?: number }
  | { readonly kind: 'drop-unsolved'; readonly unsolvedAt?: number };

/** Options of one draw. */
export interface CurriculumRequest {
  /** Problem ids to draw from; a repeated id counts once (its first place). */
  readonly pool: readonly string[];
  readonly batchSize: number;
  readonly strategy: CurriculumStrategy;
  readonly seed: number;
  /** Problems without an estimate: eligible (`include`, default) or not. */
  readonly unseen?: 'include' | 'exclude';
  /** Draw with replacement (default false). */
  readonly replacement?: boolean;
}

/** The batch drawn and why. */
export interface CurriculumSample {
  /** The drawn problem ids, in draw order. */
  readonly problems: readonly string[];
  /** Distinct problems of the pool. */
  readonly pool: number;
  /** Eligible problems under the strategy. */
  readonly eligible: number;
  /** batchSize − problems drawn (without replacement, when too few are eligible). */
  readonly shortfall: number;
}

/** Whether a problem with estimate `e` is eligible. */
function eligible(strategy: CurriculumStrategy, e: number | null, unseen: 'include' | 'exclude'): boolean {
  if (e === null) return unseen === 'include';
  switch (strategy.kind) {
    case 'uniform': return true;
    case 'band': return e >= strategy.lo && e <= strategy.hi;
    case 'drop-solved': return e < (strategy.solvedAt ?? 1);
    case 'drop-unsolved': return e > (strategy.unsolvedAt ?? 0);
  }
}

/**
 * Draw a batch. `estimates` maps a problem id to its pass-rate estimate in [0, 1] (absent or null: none yet).
 * @throws RangeError for a batch size that is not a positive integer, a band with lo > hi, bounds outside [0, 1],
 * or a seed `createRng` refuses.
 */
export function sampleCurriculum(request: CurriculumRequest, estimates: ReadonlyMap<string, number | null>): CurriculumSample {
  const { batchSize, strategy } = request;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a positive integer, got ${batchSize}`);
  const bounds = strategy.kind === 'band' ? [strategy.lo, strategy.hi]
    : strategy.kind === 'drop-solved' ? [strategy.solvedAt ?? 1] : strategy.kind === 'drop-unsolved' ? [strategy.unsolvedAt ?? 0] : [];
  if (bounds.some((b) => !(b >= 0 && b <= 1))) throw new RangeError(`strategy bounds must be in [0, 1], got ${bounds.join(', ')}`);
  if (strategy.kind === 'band' && strategy.lo > strategy.hi) throw new RangeError(`band: lo ${strategy.lo} > hi ${strategy.hi}`);
  const rng = createRng(request.seed);
  const pool = [...new Set(request.pool)];
  const unseen = request.unseen ?? 'include';
  const candidates = pool.filter((id) => eligible(strategy, estimates.get(id) ?? null, unseen));
  const m = candidates.length;
  if (m === 0) return { problems: [], pool: pool.length, eligible: 0, shortfall: batchSize };
  if (request.replacement === true) {
    const problems = Array.from({ length: batchSize }, () => candidates[rng.nextInt(m)]!);
    return { problems, pool: pool.length, eligible: m, shortfall: 0 };
  }
  const take = Math.min(batchSize, m);
  const order = [...candidates];
  for (let i = 0; i < take; i++) {
    const j = i + rng.nextInt(m - i);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return { problems: order.slice(0, take), pool: pool.length, eligible: m, shortfall: batchSize - take };
}

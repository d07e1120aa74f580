/**
 * Dynamic-sampling signals of one GRPO group: what a trainer that filters groups needs to decide, computed by the
 * verifier that knows them (issue #28, item 1).
 *
 * - `acc`: per rollout, 1 when the rollout passed (every test of the problem; EvalPlus base and plus), else 0 —
 *   the accuracy metric DAPO filters on. `passRate` is its mean, CLPO's Acc(q) = 1/G · Σ 1[verifier(y_i)]
 *   (Zhang et al. 2025, "CLPO: Curriculum Learning meets Policy Optimization").
 * - `allPass` / `allFail`: every acc is 1 / 0. DAPO (Yu et al. 2025, "DAPO", §3.2, dynamic sampling) keeps only
 *   groups with 0 < |{correct}| < G; verl's implementation (`recipe/dapo/dapo_ray_trainer.py`, with
 *   `algorithm.filter_groups.enable=True, metric=acc`) keeps a group (all rollouts sharing one `uid`) exactly when
 *   `np.std(acc values) > 0` or the group has one rollout. For 0/1 values `np.std > 0` is "not all equal", so
 *   `keep` = n = 1 or not (allPass or allFail).
 * - `keepByReward`: the same rule with the reward as the metric (verl's `metric: seq_reward` / `score`), computed
 *   with numpy's float64 arithmetic (`numpyStd`): `[0.1, 0.1, 0.1]` has np.std 1.4e-17 > 0, so verl keeps it,
 *   and so does this flag, although `allEqual` (exact equality, no gradient in exact arithmetic) is true.
 * Input: one entry per rewarded rollout of the group (rollouts without a reward — Crucible's failures — are left
 * out by the caller, who reports them as an incomplete group). Errors: `RangeError` for an empty group, arrays of
 * different lengths or a non-finite reward.
 */
import { groupStats, type GroupStats } from './group.js';
import { numpyStd } from './numpy-float.js';

/** The signals of one group (rewards: GRPO statistics; acc: DAPO's predicate). */
export interface GroupSignals extends GroupStats {
  /** Mean of acc, in [0, 1]. */
  readonly passRate: number;
  /** Rollouts that passed. */
  readonly passed: number;
  readonly allPass: boolean;
  readonly allFail: boolean;
  /** verl `filter_groups` (metric `acc`) keeps the group: n = 1 or np.std(acc) > 0. */
  readonly keep: boolean;
  /** verl `filter_groups` with the reward as metric keeps the group: n = 1 or np.std(rewards) > 0 (numpy float64). */
  readonly keepByReward: boolean;
}

/** Signals of one group from its rollouts' rewards and pass flags (same order, same length). */
export function groupSignals(rewards: readonly number[], acc: readonly boolean[]): GroupSignals {
  if (rewards.length !== acc.length) throw new RangeError(`groupSignals: ${rewards.length} rewards but ${acc.length} acc values`);
  const stats = groupStats(rewards);
  const passed = acc.reduce((k, a) => k + (a ? 1 : 0), 0);
  const n = acc.length;
  return {
    ...stats,
    passRate: passed / n,
    passed,
    allPass: passed === n,
    allFail: passed === 0,
    keep: n === 1 || numpyStd(acc) > 0,
    keepByReward: n === 1 || numpyStd(rewards) > 0,
  };
}

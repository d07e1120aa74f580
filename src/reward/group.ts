/**
 * Statistics of one GRPO group (the rewards of the G samples drawn for one prompt).
 *
 * GRPO normalises each reward within its group: `A_i = (r_i - mean(r)) / (std(r) + eps)` (Shao et al. 2024,
 * "DeepSeekMath", §4.1.2, outcome supervision). The paper does not say which std. Implementations differ:
 * - huggingface/trl `trl/trainer/grpo_trainer.py` computes `rewards.view(-1, G).std(dim=1)` and
 *   volcengine/verl `verl/trainer/ppo/core_algos.py` (`compute_grpo_outcome_advantage`) `torch.std(scores)`:
 *   torch's default is the sample (Bessel-corrected, n - 1) std;
 * - the population (n) std is numpy's default `np.std`, which verl's DAPO recipe uses for filtering.
 * Both are returned; `advantages` takes which one to use and defaults to `sample`, matching TRL and verl.
 *
 * `allEqual`: every reward in the group is the same, so every advantage is 0 and the group carries no
 * gradient. DAPO's dynamic sampling (Yu et al. 2025, "DAPO", §3.2, keeps groups with
 * `0 < |{o_i | is_equivalent(a, o_i)}| < G`) drops such groups; verl `recipe/dapo/dapo_ray_trainer.py` keeps a
 * prompt only when `np.std(metric_vals) > 0` or the group has one sample.
 * Input: rewards, any length >= 1 (finite numbers). Errors: `RangeError` on an empty group or a non-finite reward.
 */
export interface GroupStats {
  readonly size: number;
  readonly mean: number;
  /** Population standard deviation, sqrt(sum((r - mean)^2) / n). */
  readonly populationStd: number;
  /** Sample standard deviation, sqrt(sum((r - mean)^2) / (n - 1)); 0 for a group of one. */
  readonly sampleStd: number;
  /** All rewards identical (zero advantage for every member). */
  readonly allEqual: boolean;
}

export function groupStats(rewards: readonly number[]): GroupStats {
  const n = rewards.length;
  if (n === 0) throw new RangeError('groupStats: empty group');
  for (const r of rewards) if (!Number.isFinite(r)) throw new RangeError(`groupStats: non-finite reward ${r}`);
  const mean = rewards.reduce((a, r) => a + r, 0) / n;
  const ss = rewards.reduce((a, r) => a + (r - mean) * (r - mean), 0);
  const first = rewards[0]!;
  return {
    size: n,
    mean,
    populationStd: Math.sqrt(ss / n),
    sampleStd: n > 1 ? Math.sqrt(ss / (n - 1)) : 0,
    allEqual: rewards.every((r) => r === first),
  };
}

export interface AdvantageOptions {
  /** Which std divides: `sample` (TRL, verl; default), `population`, or `none` (Dr. GRPO, Liu et al. 2025). */
  readonly std?: 'sample' | 'population' | 'none';
  /** Added to the std; default 1e-4 as in TRL's GRPOTrainer. */
  readonly eps?: number;
}

/** GRPO advantages of one group, `(r_i - mean) / (std + eps)`; all 0 for an all-equal group. */
export function advantages(rewards: readonly number[], options: AdvantageOptions = {}): number[] {
  const s = groupStats(rewards);
  const kind = options.std ?? 'sample';
  const eps = options.eps ?? 1e-4;
  const denom = kind === 'none' ? 1 : (kind === 'sample' ? s.sampleStd : s.populationStd) + eps;
  return rewards.map((r) => (s.allEqual ? 0 : (r - s.mean) / denom));
}

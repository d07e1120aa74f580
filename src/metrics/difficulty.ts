/**
 * Difficulty of a problem during RL training (issue #28, item 2): counts of its rollouts and an exponential moving
 * average of its pass rate across trainer steps. Pure; the counts per (problem, step) come from the result store
 * (`problem_steps`).
 *
 * Per step t at which the problem had rollouts, its pass rate is p_t = passed_t / rollouts_t (CLPO's
 * Acc(q) = 1/G · Σ 1[verifier(y_i)] over that step's rollouts of q; Zhang et al. 2025, "CLPO"). The EMA runs over
 * those steps in ascending order:
 *
 *     ema_1 = p_1,    ema_t = α · p_t + (1 − α) · ema_{t−1}
 *
 * with α = `DEFAULT_DIFFICULTY_ALPHA` = 0.3 unless asked otherwise: the latest step weighs 0.3, the one before
 * 0.21, and a step's weight halves after ln 0.5 / ln 0.7 ≈ 1.9 later steps — recent enough to follow a policy that
 * improves every step, smooth enough that one group of G = 8 rollouts (pass rate granularity 1/8) does not flip a
 * problem across a band. Seeding with p_1 instead of 0 avoids the start-up bias an EMA from 0 has (which Adam
 * corrects by dividing by 1 − (1 − α)^t; Kingma and Ba 2015). Steps at which the problem got no rollout do not
 * update it (the estimate is about the problem, not about time). Events recorded without a step (step -1) count in
 * the totals but not in the EMA.
 */

/** α of the pass-rate EMA when none is given (see the module comment). */
export const DEFAULT_DIFFICULTY_ALPHA = 0.3;

/** Counts of one problem at one step (`step` -1: events without a step). */
export interface StepCounts {
  readonly step: number;
  readonly rollouts: number;
  readonly passed: number;
  readonly rewardSum: number;
}

/** One point of a problem's series: a step at which it had rollouts, its pass rate and the EMA after it. */
export interface DifficultyPoint {
  readonly step: number;
  readonly rollouts: number;
  readonly passed: number;
  readonly passRate: number;
  readonly ema: number;
}

/** Difficulty of one problem in one training run. */
export interface DifficultyStats {
  readonly taskId: string;
  /** Every rollout recorded, with or without a step. */
  readonly rollouts: number;
  readonly passed: number;
  /** passed / rollouts, null without rollouts. */
  readonly passRate: number | null;
  /** Mean reward over every rollout, null without rollouts. */
  readonly rewardMean: number | null;
  /** Rollouts recorded without a step (not in the EMA). */
  readonly unsteppedRollouts: number;
  /** Steps at which the problem had rollouts. */
  readonly steps: number;
  readonly firstStep: number | null;
  readonly lastStep: number | null;
  /** Pass rate at the last step, null without stepped rollouts. */
  readonly lastPassRate: number | null;
  /** The EMA of the pass rate after the last step, null without stepped rollouts. */
  readonly ema: number | null;
  readonly alpha: number;
  readonly series: readonly DifficultyPoint[];
}

/**
 * Difficulty of `taskId` from its per-step counts (any order; one entry per step, as the store keeps them).
 * @throws RangeError when α is not in (0, 1], a step repeats, or counts are negative or passed > rollouts.
 */
export function difficultyOf(taskId: string, counts: readonly StepCounts[], alpha = DEFAULT_DIFFICULTY_ALPHA): DifficultyStats {
  if (!(alpha > 0 && alpha <= 1)) throw new RangeError(`alpha must be in (0, 1], got ${alpha}`);
  const seen = new Set<number>();
  for (const c of counts) {
    if (seen.has(c.step)) throw new RangeError(`${taskId}: step ${c.step} appears twice`);
    seen.add(c.step);
    if (c.rollouts < 0 || c.passed < 0 || c.passed > c.rollouts) throw new RangeError(`${taskId}: bad counts at step ${c.step}`);
  }
  const stepped = counts.filter((c) => c.step >= 0 && c.rollouts > 0).sort((a, b) => a.step - b.step);
  const series: DifficultyPoint[] = [];
  let ema: number | null = null;
  for (const c of stepped) {
    const p = c.passed / c.rollouts;
    ema = ema === null ? p : alpha * p + (1 - alpha) * ema;
    series.push({ step: c.step, rollouts: c.rollouts, passed: c.passed, passRate: p, ema });
  }
  const rollouts = counts.reduce((k, c) => k + c.rollouts, 0);
  const passed = counts.reduce((k, c) => k + c.passed, 0);
  const rewardSum = counts.reduce((k, c) => k + c.rewardSum, 0);
  const last = series[series.length - 1];
  return {
    taskId,
    rollouts,
    passed,
    passRate: rollouts === 0 ? null : passed / rollouts,
    rewardMean: rollouts === 0 ? null : rewardSum / rollouts,
    unsteppedRollouts: counts.filter((c) => c.step < 0).reduce((k, c) => k + c.rollouts, 0),
    steps: series.length,
    firstStep: series[0]?.step ?? null,
    lastStep: last?.step ?? null,
    lastPassRate: last?.passRate ?? null,
    ema,
    alpha,
    series,
  };
}

/** Difficulty of every problem in `rows` (counts of many problems), by task id. */
export function difficultyByProblem(rows: readonly (StepCounts & { readonly taskId: string })[],
  alpha = DEFAULT_DIFFICULTY_ALPHA): Map<string, DifficultyStats> {
  const byTask = new Map<string, StepCounts[]>();
  for (const r of rows) {
    const list = byTask.get(r.taskId);
    if (list === undefined) byTask.set(r.taskId, [r]);
    else list.push(r);
  }
  return new Map([...byTask].map(([taskId, counts]) => [taskId, difficultyOf(taskId, counts, alpha)]));
}

/** A verdict's reward: the bridge from judging (`src/verdict/`) to reward specs (`spec.ts`). Pure. */
import type { SampleStatus, Verdict } from '../verdict/index.js';
import { computeReward, RewardError, type RewardInput, type RewardSpec } from './spec.js';

/** Tests passed, per test index (tests not run count as failed): `testCount` entries. */
export function testsPassedOf(verdict: Verdict): boolean[] {
  const passed = new Array<boolean>(verdict.testCount).fill(false);
  for (const t of verdict.tests) if (t.index < passed.length) passed[t.index] = t.status === 'passed';
  return passed;
}

/**
 * The status a reward counts: EvalPlus' base-and-plus status (`plusStatus`) when the verdict has one (HumanEval+,
 * MBPP+: a sample passes only when its base and its plus inputs pass, as EvalPlus' "plus" score counts it, and
 * every test of the problem is in `testCount`), else the verdict's status. A wrong plus answer found after the
 * base inputs passed is therefore a 0, not a `passed` whose tests disagree.
 */
export function rewardStatusOf(verdict: Pick<Verdict, 'status' | 'plusStatus'>): SampleStatus {
  return verdict.plusStatus ?? verdict.status;
}

/**
 * The reward of a verdict under `spec` (status: `rewardStatusOf`), or null when there is none to give
 * (`internal_error`, `reference_failed`, an inconsistent verdict, a spec's `efficiency` term without `efficiency`,
 * the passing sample's measured cost and its reference's in one unit, as `RewardInput.efficiency`).
 */
export function rewardOf(spec: RewardSpec, verdict: Verdict, efficiency?: RewardInput['efficiency']): number | null {
  const status = rewardStatusOf(verdict);
  if (status === 'internal_error' || status === 'reference_failed') return null;
  try {
    return computeReward(spec, {
      status, testsPassed: testsPassedOf(verdict), testCount: verdict.testCount,
      ...(verdict.score === undefined ? {} : { score: verdict.score }),
      ...(verdict.analysis === undefined ? {} : { analysis: verdict.analysis }),
      ...(efficiency === undefined ? {} : { efficiency }),
      ...(verdict.formal?.synthesis === undefined ? {} : { synthesis: verdict.formal.synthesis }),
    });
  } catch (error) {
    if (error instanceof RewardError) return null;
    throw error;
  }
}

/** A verdict's reward: the bridge from judging (`src/verdict/`) to reward specs (`spec.ts`). Pure. */
import type { Verdict } from '../verdict/index.js';
import { computeReward, RewardError, type RewardSpec } from './spec.js';

/** Tests passed, per test index (tests not run count as failed): `testCount` entries. */
export function testsPassedOf(verdict: Verdict): boolean[] {
  const passed = new Array<boolean>(verdict.testCount).fill(false);
  for (const t of verdict.tests) if (t.index < passed.length) passed[t.index] = t.status === 'passed';
  return passed;
}

/** The reward of a verdict under `spec`, or null when there is none to give (`internal_error`, an inconsistent verdict). */
export function rewardOf(spec: RewardSpec, verdict: Verdict): number | null {
  if (verdict.status === 'internal_error') return null;
  try {
    return computeReward(spec, {
      status: verdict.status, testsPassed: testsPassedOf(verdict), testCount: verdict.testCount,
      ...(verdict.analysis === undefined ? {} : { analysis: verdict.analysis }),
    });
  } catch (error) {
    if (error instanceof RewardError) return null;
    throw error;
  }
}

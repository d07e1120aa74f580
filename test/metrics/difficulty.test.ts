/** Difficulty tracking (issue #28, item 2): counts and the EMA of the pass rate across steps, checked by hand. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { difficultyByProblem, difficultyOf, DEFAULT_DIFFICULTY_ALPHA } from '../../src/metrics/difficulty.js';

test('the EMA starts at the first step\'s pass rate and weighs each later step by alpha', () => {
  const s = difficultyOf('p', [
    { step: 2, rollouts: 4, passed: 2, rewardSum: 2 }, // out of order on purpose
    { step: 0, rollouts: 8, passed: 0, rewardSum: 0 },
    { step: -1, rollouts: 3, passed: 3, rewardSum: 3 }, // no step: in the totals, not in the EMA
    { step: 5, rollouts: 8, passed: 8, rewardSum: 8 },
  ], 0.5);
  // 0 -> 0.5*0.5 + 0.5*0 = 0.25 -> 0.5*1 + 0.5*0.25 = 0.625
  assert.deepEqual(s.series.map((p) => [p.step, p.passRate, p.ema]), [[0, 0, 0], [2, 0.5, 0.25], [5, 1, 0.625]]);
  assert.deepEqual([s.rollouts, s.passed, s.unsteppedRollouts, s.steps, s.firstStep, s.lastStep, s.lastPassRate, s.ema],
    [23, 13, 3, 3, 0, 5, 1, 0.625]);
  assert.equal(s.passRate, 13 / 23);
  assert.equal(s.rewardMean, 13 / 23);
  assert.equal(DEFAULT_DIFFICULTY_ALPHA, 0.3);
  assert.equal(difficultyOf('q', []).ema, null);
  assert.equal(difficultyOf('q', [{ step: -1, rollouts: 2, passed: 1, rewardSum: 1 }]).ema, null);
});

test('bad input is refused', () => {
  assert.throws(() => difficultyOf('p', [], 0), RangeError);
  assert.throws(() => difficultyOf('p', [], 1.5), RangeError);
  assert.throws(() => difficultyOf('p', [{ step: 1, rollouts: 1, passed: 2, rewardSum: 0 }]), RangeError);
  assert.throws(() => difficultyOf('p', [{ step: 1, rollouts: 1, passed: 1, rewardSum: 0 }, { step: 1, rollouts: 1, passed: 1, rewardSum: 0 }]), RangeError);
});

test('difficultyByProblem groups rows by task', () => {
  const m = difficultyByProblem([
    { taskId: 'a', step: 0, rollouts: 2, passed: 1, rewardSum: 1 },
    { taskId: 'b', step: 0, rollouts: 2, passed: 2, rewardSum: 2 },
    { taskId: 'a', step: 1, rollouts: 2, passed: 2, rewardSum: 2 },
  ]);
  assert.equal(m.get('a')!.ema, 0.3 * 1 + 0.7 * 0.5);
  assert.equal(m.get('b')!.ema, 1);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { advantages, computeReward, groupStats, parseRewardSpec, rewardOf, rewardStatusOf, RewardError } from '../../src/reward/index.js';
import type { Verdict } from '../../src/verdict/index.js';

test('binary, fraction, threshold on hand cases', () => {
  const binary = parseRewardSpec({ kind: 'binary' });
  // Fail-fast by default: a binary reward cannot use the tests after the first failure.
  assert.equal(binary.kind === 'binary' && binary.failFast, true);
  const all = parseRewardSpec({ kind: 'binary', failFast: false });
  assert.equal(all.kind === 'binary' && all.failFast, false);
  assert.equal(computeReward(binary, { status: 'passed', testsPassed: [true, true] }), 1);
  assert.equal(computeReward(binary, { status: 'wrong_answer', testsPassed: [true, false] }), 0);
  assert.equal(computeReward(binary, { status: 'time_limit_exceeded', testsPassed: [true], testCount: 3 }), 0);
  const fraction = parseRewardSpec({ kind: 'fraction' });
  assert.equal(computeReward(fraction, { status: 'wrong_answer', testsPassed: [true, false, true, false] }), 0.5);
  // Tests not run (fail fast / crash) count as failed.
  assert.equal(computeReward(fraction, { status: 'runtime_error', testsPassed: [true], testCount: 4 }), 0.25);
  const weighted = parseRewardSpec({ kind: 'fraction', weights: [1, 3] });
  assert.equal(computeReward(weighted, { status: 'wrong_answer', testsPassed: [false, true] }), 0.75);
  const threshold = parseRewardSpec({ kind: 'threshold', threshold: 0.75 });
  assert.equal(computeReward(threshold, { status: 'wrong_answer', testsPassed: [true, true, true, false] }), 1);
  assert.equal(computeReward(threshold, { status: 'wrong_answer', testsPassed: [true, true, false, false] }), 0);
});

test('penalties, no_tests, internal_error, inconsistent input', () => {
  const spec = parseRewardSpec({ kind: 'fraction', penalties: { noCode: -1, compileError: -0.5 } });
  assert.equal(computeReward(spec, { status: 'no_code', testsPassed: [] , testCount: 3 }), -1);
  assert.equal(computeReward(spec, { status: 'compile_error', testsPassed: [], testCount: 3 }), -0.5);
  assert.equal(computeReward(parseRewardSpec({ kind: 'binary' }), { status: 'no_code', testsPassed: [] }), 0);
  assert.equal(computeReward(spec, { status: 'no_tests', testsPassed: [] }), 0);
  assert.throws(() => computeReward(spec, { status: 'internal_error', testsPassed: [] }), RewardError);
  assert.throws(() => computeReward(spec, { status: 'passed', testsPassed: [true, false] }), RewardError);
  const weighted = parseRewardSpec({ kind: 'fraction', weights: [1, 1, 1] });
  assert.throws(() => computeReward(weighted, { status: 'wrong_answer', testsPassed: [true, false] }), /3 weights, problem has 2 tests/);
});

test('spec validation: failFast only on binary, threshold range, weights', () => {
  assert.equal(parseRewardSpec({ kind: 'binary', failFast: true }).kind, 'binary');
  assert.throws(() => parseRewardSpec({ kind: 'fraction', failFast: true }));
  assert.throws(() => parseRewardSpec({ kind: 'threshold', threshold: 1.5 }));
  assert.throws(() => parseRewardSpec({ kind: 'threshold' }));
  assert.throws(() => parseRewardSpec({ kind: 'fraction', weights: [0, 0] }));
  assert.throws(() => parseRewardSpec({ kind: 'fraction', weights: [-1, 2] }));
  assert.throws(() => parseRewardSpec({ kind: 'binary', penalties: { noCode: -1, typo: 1 } }));
});

test('group statistics and advantages', () => {
  const s = groupStats([1, 0, 0, 1]);
  assert.equal(s.mean, 0.5);
  assert.equal(s.populationStd, 0.5);
  assert.ok(Math.abs(s.sampleStd - Math.sqrt(1 / 3)) < 1e-12);
  assert.equal(s.allEqual, false);
  assert.equal(groupStats([1, 1, 1]).allEqual, true);
  assert.equal(groupStats([1, 1, 1]).populationStd, 0);
  assert.deepEqual(groupStats([0.3]), { size: 1, mean: 0.3, populationStd: 0, sampleStd: 0, allEqual: true });
  assert.deepEqual(advantages([1, 0, 0, 1], { std: 'population', eps: 0 }), [1, -1, -1, 1]);
  assert.deepEqual(advantages([1, 0], { std: 'none' }), [0.5, -0.5]);
  assert.deepEqual(advantages([0, 0, 0]), [0, 0, 0]);
  const a = advantages([1, 0, 0, 1]);
  assert.ok(Math.abs(a[0]! - 0.5 / (Math.sqrt(1 / 3) + 1e-4)) < 1e-12);
  assert.throws(() => groupStats([]), RangeError);
  assert.throws(() => groupStats([Number.NaN]), RangeError);
});

test('an EvalPlus verdict is rewarded on base + plus: base passed, plus failed is a 0 with the plus status, never null', () => {
  const tests = [{ index: 0, status: 'passed' as const }, { index: 1, status: 'passed' as const }, { index: 2, status: 'time_limit_exceeded' as const }];
  // Fail-fast stopped at the plus input that timed out: 3 of 5 tests ran.
  const verdict: Verdict = { status: 'passed', passed: true, plusStatus: 'time_limit_exceeded', plusPassed: false, tests, testCount: 5, cpuMs: 1, wallMs: 1 };
  assert.equal(rewardStatusOf(verdict), 'time_limit_exceeded');
  assert.equal(rewardOf(parseRewardSpec({ kind: 'binary' }), verdict), 0);
  assert.equal(rewardOf(parseRewardSpec({ kind: 'fraction' }), verdict), 2 / 5);
  const both: Verdict = { ...verdict, plusStatus: 'passed', plusPassed: true, testCount: 3, tests: tests.map((t) => ({ ...t, status: 'passed' as const })) };
  assert.equal(rewardOf(parseRewardSpec({ kind: 'binary' }), both), 1);
  // Without a plus status (any other problem) the verdict's status counts.
  assert.equal(rewardStatusOf({ status: 'wrong_answer' }), 'wrong_answer');
  // No reward to give: Crucible's failure, and a problem whose reference failed under the limits.
  assert.equal(rewardOf(parseRewardSpec({ kind: 'binary' }), { ...verdict, status: 'reference_failed', plusStatus: undefined, tests: [] }), null);
  assert.throws(() => computeReward(parseRewardSpec({ kind: 'binary' }), { status: 'reference_failed', testsPassed: [] }), RewardError);
});

import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
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

describe('synthesis term of a reward spec (verilog)', () => {
  const passed = { status: 'passed' as const, testsPassed: [true] };
  it('adds weight · min(cap, reference / design transistors) to a passing design, cells when an estimate is missing', () => {
    const spec = parseRewardSpec({ kind: 'binary', synthesis: { weight: 0.5 } });
    const stats = (design: number, reference: number) => ({ design: { cells: 10, transistors: design }, reference: { cells: 20, transistors: reference } });
    assert.equal(computeReward(spec, { ...passed, synthesis: stats(100, 150) }), 1 + 0.5 * 1.5);
    assert.equal(computeReward(spec, { ...passed, synthesis: stats(10, 1000) }), 1 + 0.5 * 2, 'capped at 2 by default');
    assert.equal(computeReward(spec, { ...passed, synthesis: { design: { cells: 40 }, reference: { cells: 20, transistors: 96 } } }), 1 + 0.5 * 0.5);
    assert.equal(computeReward(spec, { ...passed, synthesis: { reference: { cells: 20 } } }), 1, 'a design yosys could not synthesise earns no term');
    assert.equal(computeReward(spec, { status: 'wrong_answer', testsPassed: [false] }), 0, 'no term and no statistics needed when failing');
  });
  it('refuses a passing design judged without statistics, and bad specs', () => {
    const spec = parseRewardSpec({ kind: 'fraction', synthesis: { weight: 1, cap: 1 } });
    assert.throws(() => computeReward(spec, passed), /no synthesis statistics/);
    assert.throws(() => parseRewardSpec({ kind: 'binary', synthesis: { weight: 0 } }));
  });
});

describe('efficiency term of a reward spec', () => {
  const passed = { status: 'passed' as const, testsPassed: [true, true] };
  it('adds weight · min(cap, referenceCost / cost) to a passing sample only', () => {
    const spec = parseRewardSpec({ kind: 'binary', efficiency: { weight: 0.5 } });
    assert.equal(computeReward(spec, { ...passed, efficiency: { cost: 100, referenceCost: 150 } }), 1 + 0.5 * 1.5);
    assert.equal(computeReward(spec, { ...passed, efficiency: { cost: 1, referenceCost: 1000 } }), 1 + 0.5 * 2, 'capped at 2 by default');
    assert.equal(computeReward(spec, { status: 'wrong_answer', testsPassed: [true, false] }), 0, 'no term and no measurement needed when failing');
    const fraction = parseRewardSpec({ kind: 'fraction', efficiency: { weight: 1, cap: 1 } });
    assert.equal(computeReward(fraction, { ...passed, efficiency: { cost: 300, referenceCost: 100 } }), 1 + 1 / 3);
  });
  it('refuses a passing sample without a measurement, bad costs and bad specs', () => {
    const spec = parseRewardSpec({ kind: 'threshold', threshold: 0.5, efficiency: { weight: 1 } });
    assert.throws(() => computeReward(spec, passed), RewardError);
    assert.throws(() => computeReward(spec, { ...passed, efficiency: { cost: 0, referenceCost: 1 } }), /positive and finite/);
    assert.throws(() => parseRewardSpec({ kind: 'binary', efficiency: { weight: -1 } }));
    assert.throws(() => parseRewardSpec({ kind: 'binary', efficiency: { weight: 1, extra: 1 } }));
  });
});

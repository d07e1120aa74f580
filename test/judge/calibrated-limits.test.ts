/**
 * Calibrated time limits (issue #32, `calibratedCpuMs` in src/limits.ts): the pure rule min(limit, ceil(factor ×
 * reference + floor)), its range checks, the `--time-limit-rule` parser, and how the unit_test mode picks a
 * program's limit from its reference (the fixed limit when the canonical solution did not pass or is absent).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CALIBRATED_TIME_DEFAULTS, calibratedCpuMs, calibrationProblem, JUDGE_DEFAULTS } from '../../src/limits.js';
import { parseTimeLimitRule, timeLimitRuleText } from '../../src/cli/options.js';
import { unitTestCpuMs } from '../../src/kinds/python/unit-test.js';

describe('calibratedCpuMs', () => {
  it('is factor × reference + floor, rounded up, under the cap', () => {
    assert.equal(calibratedCpuMs(0, 1000, { factor: 4, floorMs: 100 }), 100);
    assert.equal(calibratedCpuMs(10, 1000, { factor: 4, floorMs: 100 }), 140);
    assert.equal(calibratedCpuMs(2.5, 1000, { factor: 3, floorMs: 50 }), 58);   // 57.5 rounded up
    assert.equal(calibratedCpuMs(300, 1000, { factor: 4, floorMs: 100 }), 1000); // 1,300 capped by the request's limit
    assert.equal(calibratedCpuMs(300, 3000, { factor: 4, floorMs: 100 }), 1300);
  });

  it('with no rule is the fixed limit whatever the reference took', () => {
    assert.equal(calibratedCpuMs(0, 1000, null), 1000);
    assert.equal(calibratedCpuMs(5000, 250, null), 250);
  });

  it('refuses a reference time that is not a CPU time and a rule out of range', () => {
    assert.throws(() => calibratedCpuMs(-1, 1000, CALIBRATED_TIME_DEFAULTS), RangeError);
    assert.throws(() => calibratedCpuMs(Number.NaN, 1000, CALIBRATED_TIME_DEFAULTS), RangeError);
    assert.throws(() => calibratedCpuMs(1, 1000, { factor: 0.5, floorMs: 100 }), /factor 0.5/);
    assert.throws(() => calibratedCpuMs(1, 1000, { factor: 4, floorMs: 1 }), /floorMs 1 /);
    assert.equal(calibrationProblem(CALIBRATED_TIME_DEFAULTS), null);
  });

  it('defaults to EvalPlus\' factor and a 200 ms floor', () => {
    assert.deepEqual(CALIBRATED_TIME_DEFAULTS, { factor: 4, floorMs: 200 });
  });
});

describe('--time-limit-rule', () => {
  it('reads fixed, calibrated and FACTORx+FLOORms, and writes them back', () => {
    assert.equal(parseTimeLimitRule('fixed'), null);
    assert.deepEqual(parseTimeLimitRule('calibrated'), CALIBRATED_TIME_DEFAULTS);
    assert.deepEqual(parseTimeLimitRule('2.5x+40ms'), { factor: 2.5, floorMs: 40 });
    assert.equal(timeLimitRuleText(parseTimeLimitRule('2.5x+40ms')), '2.5x+40ms');
    assert.equal(timeLimitRuleText(null), 'fixed');
  });

  it('says what is wrong with a bad rule', () => {
    assert.throws(() => parseTimeLimitRule('4x'), /FACTORx\+FLOORms/);
    assert.throws(() => parseTimeLimitRule('0.5x+100ms'), /factor 0.5/);
    assert.throws(() => parseTimeLimitRule('4x+5ms'), /floorMs 5 /);
  });
});

describe('unit_test: the limit of a program', () => {
  const limits = JUDGE_DEFAULTS;
  it('is calibrated from a canonical solution that passed', () => {
    assert.equal(unitTestCpuMs({ referenceCpuMs: 10, status: 'passed' }, limits, CALIBRATED_TIME_DEFAULTS), 240);
  });
  it('is the fixed limit without a reference, with one that failed, or with calibration off', () => {
    assert.equal(unitTestCpuMs(undefined, limits, CALIBRATED_TIME_DEFAULTS), 1000);
    assert.equal(unitTestCpuMs({ referenceCpuMs: null, status: 'wrong_answer' }, limits, CALIBRATED_TIME_DEFAULTS), 1000);
    assert.equal(unitTestCpuMs({ referenceCpuMs: 10, status: 'passed' }, limits, null), 1000);
  });
});

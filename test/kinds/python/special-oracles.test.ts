/** EvalPlus special oracles, one hand case each. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { digitDistanceNums, judgeEvalPlusOutput, poly, surfaceArea } from '../../../src/kinds/python/special-oracles.js';
import type { PyValue } from '../../../src/verdict/index.js';

const i = (n: number): PyValue => ({ i: String(n) });
const f = (x: number): PyValue => ({ f: x });

describe('EvalPlus special oracles', () => {
  it('HumanEval/32 find_zero: judged by |poly(xs, x)| <= atol, not by the reference root', () => {
    const input: PyValue[] = [{ l: [i(-6), i(11), i(-6), i(1)] }]; // (x-1)(x-2)(x-3)
    const base = { dataset: 'humaneval' as const, entryPoint: 'find_zero', input, expected: f(1), atol: 1e-4 };
    assert.equal(poly([-6, 11, -6, 1], 2), 0);
    assert.ok(judgeEvalPlusOutput({ ...base, actual: f(3.0) }).ok);
    assert.ok(!judgeEvalPlusOutput({ ...base, actual: f(2.5) }).ok);
    assert.ok(!judgeEvalPlusOutput({ ...base, actual: 'x' }).ok);
  });
  it('Mbpp set-equality tasks compare set(out) == set(exp)', () => {
    const c = { dataset: 'mbpp' as const, entryPoint: 'similar_elements', input: [], atol: 0 };
    assert.ok(judgeEvalPlusOutput({ ...c, actual: { l: [i(4), i(3)] }, expected: { t: [i(3), i(4)] } }).ok);
    assert.ok(!judgeEvalPlusOutput({ ...c, actual: { l: [i(4)] }, expected: { t: [i(3), i(4)] } }).ok);
  });
  it('Mbpp not-None tasks', () => {
    const c = { dataset: 'mbpp' as const, entryPoint: 'text_match_three', input: [], atol: 0 };
    assert.ok(judgeEvalPlusOutput({ ...c, actual: { o: 're.Match', r: '<re.Match>' }, expected: true }).ok);
    assert.ok(!judgeEvalPlusOutput({ ...c, actual: null, expected: true }).ok);
    assert.ok(judgeEvalPlusOutput({ ...c, actual: false, expected: false }).ok);
  });
  it('Mbpp/295 sum_div accepts 0, Mbpp/164 are_equivalent accepts anything (as EvalPlus does)', () => {
    assert.ok(judgeEvalPlusOutput({ dataset: 'mbpp', entryPoint: 'sum_div', input: [i(8)], actual: i(0), expected: i(7), atol: 0 }).ok);
    assert.ok(!judgeEvalPlusOutput({ dataset: 'mbpp', entryPoint: 'sum_div', input: [i(8)], actual: i(1), expected: i(7), atol: 0 }).ok);
    assert.ok(judgeEvalPlusOutput({ dataset: 'mbpp', entryPoint: 'are_equivalent', input: [], actual: false, expected: true, atol: 0 }).ok);
  });
  it('Mbpp/581 surface_Area and Mbpp/558 digit_distance_nums alternative readings', () => {
    assert.equal(surfaceArea(3, 4), 35); // 9 + 2*3*sqrt(2.25 + 16) = 34.63, rounded (checked in CPython)
    assert.ok(judgeEvalPlusOutput({ dataset: 'mbpp', entryPoint: 'surface_Area', input: [i(3), i(4)], actual: i(35), expected: i(33), atol: 0 }).ok);
    assert.equal(digitDistanceNums(123n, 45n), 1n + 2n + 2n);
    assert.ok(judgeEvalPlusOutput({ dataset: 'mbpp', entryPoint: 'digit_distance_nums', input: [i(123), i(45)], actual: i(5), expected: i(99), atol: 0 }).ok);
  });
  it('ordinary tasks fall through to the tolerance rule', () => {
    assert.ok(judgeEvalPlusOutput({ dataset: 'humaneval', entryPoint: 'mean', input: [], actual: f(0.1 + 0.2), expected: f(0.3), atol: 0 }).ok);
  });
});

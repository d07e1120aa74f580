/** Compact rows of a sample: ranges of passing tests, what a failing test keeps, program elision. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compactProgram, compactSample, expandRecord, formatRanges, parseRanges, programSource } from '../../src/store/compact.js';
import { failedTestDetail, TEST_DETAIL_CHARS } from '../../src/store/records.js';

describe('passed_ranges', () => {
  it('writes runs of indices and reads them back', () => {
    assert.equal(formatRanges([0, 1, 2, 3, 5, 7, 8, 9]), '0-3,5,7-9');
    assert.equal(formatRanges([9, 3, 3, 4]), '3-4,9');
    assert.equal(formatRanges([]), '');
    assert.deepEqual(parseRanges('0-3,5,7-9'), [0, 1, 2, 3, 5, 7, 8, 9]);
    assert.deepEqual(parseRanges(''), []);
    const many = Array.from({ length: 750 }, (_, i) => i);
    assert.equal(formatRanges(many), '0-749');
    assert.deepEqual(parseRanges(formatRanges(many)), many);
  });

  it('refuses text it does not write', () => {
    assert.throws(() => parseRanges('3-1'), RangeError);
    assert.throws(() => parseRanges('a'), /bad range "a"/);
  });
});

describe('compactSample', () => {
  const record = {
    taskId: 't', sampleIndex: 0, programHash: 'h', status: 'wrong_answer' as const, passed: false,
    tests: [{ index: 0, status: 'passed' as const, cpuMs: 1 }, { index: 1, status: 'wrong_answer' as const, cpuMs: 2, reason: 'differs' }],
    cpuMs: 3, wallMs: 4,
  };

  it('keeps failing tests with their detail and passing tests as counts; cases go to their own rows', () => {
    const rows = compactSample({ record, failures: [failedTestDetail(1, { input: 'in', expected: 'out', actual: 'got', stderr: 'err' })] }, 'failing');
    assert.deepEqual(rows.sample.passedRanges, '0');
    assert.equal(rows.sample.testsRun, 2);
    assert.equal(rows.sample.testsPassed, 1);
    assert.deepEqual(rows.tests, [{ index: 1, status: 'wrong_answer', cpuMs: 2, wallMs: null, reason: 'differs', actual: 'got', stderr: 'err', cut: null }]);
    assert.deepEqual(rows.cases, [{ index: 1, input: 'in', expected: 'out', cut: null }]);
    assert.deepEqual(expandRecord('t', 0, 'h', rows.sample, rows.tests),
      { ...record, tests: [{ index: 0, status: 'passed' }, { index: 1, status: 'wrong_answer', cpuMs: 2, reason: 'differs' }] });
  });

  it('keeps every test with --keep-tests all, and records which detail fields were cut', () => {
    const long = 'y'.repeat(TEST_DETAIL_CHARS + 10);
    const rows = compactSample({ record, failures: [failedTestDetail(1, { input: long, actual: long })] }, 'all');
    assert.equal(rows.sample.passedRanges, '');
    assert.deepEqual(rows.tests.map((t) => [t.index, t.cut]), [[0, null], [1, 'actual']]);
    assert.deepEqual(rows.cases.map((c) => [c.input?.length, c.cut]), [[TEST_DETAIL_CHARS, 'input']]);
    assert.deepEqual(expandRecord('t', 0, 'h', rows.sample, rows.tests), record);
  });
});

describe('program columns', () => {
  it('stores the completion only when the program is prompt + completion', () => {
    const p = compactProgram({ completion: '  return 1\n', source: 'def f():\n  return 1\n', language: 'python' }, 'def f():\n');
    assert.deepEqual(p, { language: 'python', completion: '  return 1\n', source: null, extraction: null });
    assert.equal(programSource(p, 'def f():\n'), 'def f():\n  return 1\n');
    const whole = compactProgram({ completion: '```py\nx\n```', source: 'x\n', extraction: { kind: 'fenced' } }, undefined);
    assert.equal(whole.source, 'x\n');
    assert.equal(whole.extraction, '{"kind":"fenced"}');
    assert.equal(programSource(compactProgram(undefined, 'p'), 'p'), null, 'an imported sample has no program');
  });
});

/** Compact rows of a sample: ranges of passing tests, what a failing test keeps, program elision. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeColumns, encodeColumns } from '../../src/store/blob.js';
import {
  compactCompletion, compactProgram, compactSample, COMPLETION_KIND, detailColumns, expandCompletion, expandRecord, formatRanges, packTestColumns, parseRanges,
  programSource, storedFormal, unpackTestColumns,
} from '../../src/store/compact.js';
import { failedTestDetail, TEST_DETAIL_CHARS, type SampleRecord } from '../../src/store/records.js';

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

  it('keeps failing tests as columns and passing tests as counts, and gives the record back', () => {
    const rows = compactSample(record, 'failing');
    assert.equal(rows.sample.passedRanges, '0');
    assert.equal(rows.sample.testsRun, 2);
    assert.equal(rows.sample.testsPassed, 1);
    assert.deepEqual(rows.tests, { index: [1], status: ['wrong_answer'], cpuMs: [2], wallMs: [null], reason: ['differs'], score: [null] });
    assert.equal(rows.sample.score, null);
    assert.deepEqual(expandRecord('t', 0, 'h', rows.sample, rows.tests),
      { ...record, tests: [{ index: 0, status: 'passed' }, { index: 1, status: 'wrong_answer', cpuMs: 2, reason: 'differs' }] });
  });

  it('keeps every test with --keep-tests all, exactly', () => {
    const rows = compactSample(record, 'all');
    assert.equal(rows.sample.passedRanges, '');
    assert.deepEqual(rows.tests?.index, [0, 1]);
    assert.deepEqual(expandRecord('t', 0, 'h', rows.sample, rows.tests), record);
  });

  it('keeps partial credit: the sample\'s score, each kept test\'s, and score 1 for passing tests kept as counts', () => {
    const graded = { ...record, score: 0.5, tests: [{ ...record.tests[0]!, score: 1 }, { ...record.tests[1]!, score: 0 }] };
    const rows = compactSample(graded, 'failing');
    assert.equal(rows.sample.score, 0.5);
    assert.deepEqual(rows.tests?.score, [0]);
    assert.deepEqual(expandRecord('t', 0, 'h', rows.sample, rows.tests),
      { ...graded, tests: [{ index: 0, status: 'passed', score: 1 }, { index: 1, status: 'wrong_answer', cpuMs: 2, reason: 'differs', score: 0 }] });
    const all = compactSample(graded, 'all');
    assert.deepEqual(expandRecord('t', 0, 'h', all.sample, all.tests), graded);
    const unscored = { ...graded, score: undefined };
    delete unscored.score;
    const partial = compactSample(unscored, 'failing');
    assert.deepEqual(expandRecord('t', 0, 'h', partial.sample, partial.tests).tests[0], { index: 0, status: 'passed', score: 1 },
      'graded without a sample score (a fail-fast stop): a kept test has a score');
  });

  it('a passing sample has no kept tests', () => {
    const passing = { ...record, status: 'passed' as const, passed: true, tests: [record.tests[0]!] };
    assert.equal(compactSample(passing, 'failing').tests, null);
  });
});

describe('detail columns', () => {
  it('hold what failing tests showed and which texts were cut (4,000 characters kept)', () => {
    const long = 'y'.repeat(TEST_DETAIL_CHARS + 10);
    const first = failedTestDetail(1, { input: long, actual: long, stderr: 'err' });
    assert.equal(first.actual?.length, TEST_DETAIL_CHARS);
    assert.deepEqual(first.cut, ['input', 'actual']);
    const other = failedTestDetail(30, { actual: 'None' });
    assert.deepEqual(detailColumns([first, other]), { index: [1, 30], actual: [first.actual, 'None'], stderr: ['err', null], cut: ['actual', null] });
    assert.equal(detailColumns([]), null);
  });
});

describe('stored test columns', () => {
  it('pack indices as ranges and statuses run-length, and unpack to the same columns', () => {
    const columns = { index: [0, 1, 2, 5], status: ['wrong_answer', 'wrong_answer', 'wrong_answer', 'runtime_error'] as const,
      cpuMs: [1, 0, 0, 2], wallMs: [null, null, null, null], reason: ['a', 'b', 'c', null], score: [null, null, null, null] };
    const packed = packTestColumns({ ...columns, status: [...columns.status] });
    assert.deepEqual(packed, { ranges: ['0-2,5'], status: ['wrong_answer', 3, 'runtime_error', 1], cpuMs: [1, 0, 0, 2], reason: ['a', 'b', 'c', null] });
    assert.deepEqual(unpackTestColumns(packed), { ...columns, status: [...columns.status] });
    const unordered = { ...columns, index: [5, 0, 1, 2], status: [...columns.status] };
    assert.deepEqual(unpackTestColumns(packTestColumns(unordered)).index, [5, 0, 1, 2]);
    assert.throws(() => unpackTestColumns({ ranges: ['0-3'], status: ['passed', 1] }), RangeError);
    const scored = { ...columns, status: [...columns.status], score: [0.5, 0, null, 0.25] };
    assert.deepEqual(packTestColumns(scored).score, [0.5, 0, null, 0.25]);
    assert.deepEqual(unpackTestColumns(packTestColumns(scored)), scored);
  });
});

describe('column blobs', () => {
  it('round-trip and compress repeated per-test text', async () => {
    const columns = { index: Array.from({ length: 1000 }, (_, i) => i), reason: Array.from({ length: 1000 }, () => 'expected False, got None') };
    const blob = await encodeColumns(columns);
    assert.ok(blob.length < JSON.stringify(columns).length / 20, `${blob.length} bytes`);
    assert.deepEqual(await decodeColumns(blob), columns);
    await assert.rejects(decodeColumns(Buffer.from('nonsense')));
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

describe('a sample\'s model text (store step 8)', () => {
  it('keeps only what differs from its program\'s text, and gives the record\'s fields back', () => {
    const cases: { record: Pick<SampleRecord, 'completion' | 'completionSha256'>; program: string | null; kind: number | null; text: string | null }[] = [
      { record: { completion: 'return 1' }, program: 'return 1', kind: COMPLETION_KIND.sameAsProgram, text: null },
      { record: { completion: 'return 1\n# more' }, program: 'return 1', kind: COMPLETION_KIND.own, text: 'return 1\n# more' },
      { record: { completion: '' }, program: null, kind: COMPLETION_KIND.own, text: '' },
      { record: { completionSha256: 'a'.repeat(64) }, program: 'return 1', kind: COMPLETION_KIND.sha256, text: 'a'.repeat(64) },
      { record: {}, program: 'return 1', kind: null, text: null },
    ];
    for (const c of cases) {
      const columns = compactCompletion(c.record, c.program);
      assert.deepEqual(columns, { kind: c.kind, text: c.text }, JSON.stringify(c.record));
      assert.deepEqual(expandCompletion(columns, c.program), c.record, JSON.stringify(c.record));
    }
  });
});

describe('a sample\'s formal check (store step 10)', () => {
  it('is kept as JSON and read back checked', () => {
    const record: SampleRecord = { taskId: 't', sampleIndex: 0, programHash: 'h', status: 'passed', passed: true, tests: [{ index: 0, status: 'passed' }],
      cpuMs: 1, wallMs: 2, formal: { result: 'unknown', reason: 'no counterexample within 20 cycles', cycles: 20 } };
    const { sample, tests } = compactSample(record, 'all');
    assert.equal(sample.formal, JSON.stringify(record.formal));
    assert.deepEqual(expandRecord('t', 0, 'h', sample, tests).formal, record.formal);
    assert.equal(compactSample({ ...record, formal: undefined }, 'all').sample.formal, null);
    assert.throws(() => storedFormal('{"result":"maybe"}'), /samples\.formal_json: not a formal check/);
  });
});

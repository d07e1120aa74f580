import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SampleRecord } from '../../src/store/records.js';
import { countsFromRecords, outcomesFromRecords, referenceFailedTasks } from '../../src/metrics/counts.js';

function rec(taskId: string, sampleIndex: number, passed: boolean, plusPassed?: boolean): SampleRecord {
  return {
    taskId,
    sampleIndex,
    programHash: `${taskId}-${sampleIndex}`,
    status: passed ? 'passed' : 'wrong_answer',
    passed,
    ...(plusPassed === undefined ? {} : { plusPassed }),
    tests: [],
    cpuMs: 1,
    wallMs: 2,
  };
}

test('groups by task in order of first appearance and sorts samples', () => {
  const records = [rec('b', 1, true), rec('a', 0, false), rec('b', 0, false), rec('a', 1, true), rec('a', 2, true)];
  const outcomes = outcomesFromRecords(records);
  assert.deepEqual(outcomes, [
    { taskId: 'b', outcomes: [false, true] },
    { taskId: 'a', outcomes: [false, true, true] },
  ]);
  assert.deepEqual(countsFromRecords(records), [
    { taskId: 'b', n: 2, c: 1 },
    { taskId: 'a', n: 3, c: 2 },
  ]);
});

test('a re-appended sample replaces the earlier line', () => {
  const records = [rec('a', 0, false), rec('a', 1, false), rec('a', 0, true)];
  assert.deepEqual(countsFromRecords(records), [{ taskId: 'a', n: 2, c: 1 }]);
});

test('plusPassed counting treats a missing field as not passed', () => {
  const records = [rec('a', 0, true, true), rec('a', 1, true, false), rec('a', 2, true)];
  assert.deepEqual(countsFromRecords(records, 'plusPassed'), [{ taskId: 'a', n: 3, c: 1 }]);
  assert.deepEqual(countsFromRecords(records, 'passed'), [{ taskId: 'a', n: 3, c: 3 }]);
});

test('problems whose reference failed are left out, or counted as failed on request; the latest line of a sample decides', () => {
  const records = [
    { taskId: 'a', sampleIndex: 0, passed: true, status: 'passed' },
    { taskId: 'b', sampleIndex: 0, passed: false, status: 'reference_failed' },
    { taskId: 'b', sampleIndex: 1, passed: false, status: 'no_code' },
    { taskId: 'c', sampleIndex: 0, passed: false, status: 'reference_failed' },
    // Judged again (a resumed run with the reference computed): the later line wins.
    { taskId: 'c', sampleIndex: 0, passed: true, status: 'passed' },
  ];
  assert.deepEqual(referenceFailedTasks(records), ['b']);
  assert.deepEqual(countsFromRecords(records), [{ taskId: 'a', n: 1, c: 1 }, { taskId: 'c', n: 1, c: 1 }]);
  assert.deepEqual(countsFromRecords(records, 'passed', { includeReferenceFailures: true }),
    [{ taskId: 'a', n: 1, c: 1 }, { taskId: 'b', n: 2, c: 0 }, { taskId: 'c', n: 1, c: 1 }]);
});

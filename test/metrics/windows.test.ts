/** pass@k by release window and the n-gram copy check (issue #28, item 6), on hand-made counts and texts. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { codeTokens, copyCheck, COPY_NGRAM, COPY_THRESHOLD } from '../../src/metrics/ngram.js';
import { passAtKByWindow, windowOf, windowsFromRecords } from '../../src/metrics/windows.js';

test('windows: calendar months and LiveCodeBench releases by date', () => {
  assert.equal(windowOf('2023-07-09T00:00:00', 'month'), '2023-07');
  assert.equal(windowOf('2024-03-31', 'release'), 'v1');
  assert.equal(windowOf('2024-04-01T00:00:00', 'release'), 'v2');
  assert.equal(windowOf('2024-09-30', 'release'), 'v4');
  assert.equal(windowOf('2025-01-15', 'release'), 'v5');
  assert.equal(windowOf('2025-04-30', 'release'), 'v6');
  assert.equal(windowOf('2025-06-01', 'release'), 'after-v6');
  assert.equal(windowOf(undefined, 'month'), 'undated');
  assert.throws(() => windowOf('someday', 'month'), RangeError);
});

test('pass@k per window is the mean over the window\'s problems; windows in date order, undated last', () => {
  const counts = [
    { taskId: 'a', n: 4, c: 4 }, { taskId: 'b', n: 4, c: 2 }, // 2023-05: pass@1 = (1 + 0.5) / 2
    { taskId: 'c', n: 4, c: 0 }, // 2024-06
    { taskId: 'd', n: 2, c: 1 }, // no date
  ];
  const dates = new Map([['a', '2023-05-01'], ['b', '2023-05-31T23:00:00'], ['c', '2024-06-02']]);
  const windows = passAtKByWindow(counts, dates, 'month', { ks: [1, 4], reps: 200 });
  assert.deepEqual(windows.map((w) => [w.window, w.problems, w.samples, w.correct, w.first, w.last]),
    [['2023-05', 2, 8, 6, '2023-05-01', '2023-05-31'], ['2024-06', 1, 4, 0, '2024-06-02', '2024-06-02'], ['undated', 1, 2, 1, null, null]]);
  assert.deepEqual(windows[0]!.passAtK.map((p) => [p.k, p.passAtK]), [[1, 0.75], [4, 1]]);
  assert.deepEqual(windows[2]!.passAtK.map((p) => p.k), [1], 'k above a window\'s smallest n is left out');
  const byRelease = passAtKByWindow(counts, dates, 'release', { ks: [1], reps: 200 });
  assert.deepEqual(byRelease.map((w) => [w.window, w.problems]), [['v1', 2], ['v3', 1], ['undated', 1]]);
  // From records: the latest line of a sample wins, plus windows when the records carry plusPassed.
  const records = [
    { taskId: 'a', sampleIndex: 0, passed: false, plusPassed: false }, { taskId: 'a', sampleIndex: 0, passed: true, plusPassed: false },
    { taskId: 'c', sampleIndex: 0, passed: false, plusPassed: false },
  ];
  const split = windowsFromRecords(records, dates, 'month', { ks: [1], reps: 100 });
  assert.deepEqual(split.windows.map((w) => [w.window, w.passAtK[0]!.passAtK]), [['2023-05', 1], ['2024-06', 0]]);
  assert.deepEqual(split.plusWindows!.map((w) => w.passAtK[0]!.passAtK), [0, 0]);
});

test('n-gram copies: a re-indented copy is flagged, an independent solution and a short one are not', () => {
  const reference = `    result = []
    for i, x in enumerate(numbers):
        if i > 0:
            result.append(delimeter)
        result.append(x)
    return result
`;
  const reindented = reference.replace(/ {4}/g, '\t').replace(/\n/g, '\n\n');
  const copy = copyCheck(reindented, reference);
  assert.equal(copy.overlap, 1);
  assert.equal(copy.copy, true);
  const independent = `    if not numbers:
        return []
    out = [numbers[0]]
    for value in numbers[1:]:
        out.extend([delimeter, value])
    return out
`;
  const other = copyCheck(independent, reference);
  assert.ok(other.overlap < 0.2, String(other.overlap));
  assert.equal(other.copy, false);
  const short = copyCheck('    return a + b\n', '    return a + b\n');
  assert.deepEqual([short.overlap, short.copy], [short.ngrams === 0 ? 0 : 1, false]);
  assert.deepEqual(codeTokens('x1 = foo(2.5e3)'), ['x1', '=', 'foo', '(', '2.5e3', ')']);
  assert.deepEqual([COPY_NGRAM, COPY_THRESHOLD], [10, 0.8]);
});

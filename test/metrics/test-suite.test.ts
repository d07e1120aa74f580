/** Test-suite quality (issue #28, item 4): TPR/TNR, catches, redundant tests and minimal subsets on hand cases. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { minimalCover, redundantTests, suiteQuality } from '../../src/metrics/test-suite.js';

const v = (bits: string): boolean[] => [...bits].map((b) => b === '1');

test('TPR, TNR, catches and false alarms', () => {
  const q = suiteQuality({
    testCount: 4,
    correct: [v('1111'), v('1110')], // the second correct solution fails test 3: a false alarm
    incorrect: [v('0111'), v('1011'), v('1111'), v('0011')], // solution 2 passes everything: undetected
  });
  assert.deepEqual([q.tpr, q.tnr], [0.5, 0.75]);
  assert.deepEqual(q.undetected, [2]);
  assert.deepEqual(q.tests.map((t) => [t.test, t.catches, t.falseAlarms]), [[0, [0, 3], []], [1, [1, 3], []], [2, [], []], [3, [], [1]]]);
  // Tests 2 and 3 catch nothing; 0 and 1 each catch a solution only they catch.
  assert.deepEqual(q.redundant, [2, 3]);
  assert.deepEqual([q.minimalSubset, q.minimalSubsetExact], [[0, 1], true]);
  assert.equal(suiteQuality({ testCount: 1, correct: [], incorrect: [] }).tpr, null);
  assert.throws(() => suiteQuality({ testCount: 2, correct: [v('1')], incorrect: [] }), RangeError);
});

test('not-run tests (null) neither catch nor alarm; their solution is not accepted; the cells are counted', () => {
  // Incorrect solution 0 timed out on test 1 and was stopped: tests 2 and 3 did not run.
  const q = suiteQuality({
    testCount: 4,
    correct: [v('1111'), [true, false, null, null]],
    incorrect: [[true, false, null, null], v('1110')],
  });
  assert.deepEqual([q.tpr, q.tnr, q.undetected, q.notRunCells], [0.5, 1, [], 4]);
  assert.deepEqual(q.tests.map((t) => [t.catches, t.falseAlarms]), [[[], []], [[0], [1]], [[], []], [[1], []]]);
  assert.deepEqual(q.minimalSubset, [1, 3]);
  assert.equal(suiteQuality({ testCount: 2, correct: [v('11')], incorrect: [] }).notRunCells, 0);
});

test('the exact cover beats greedy where greedy is known to fail; past the node budget greedy is used and said so', () => {
  // Universe 0..5. Greedy takes the big set {0,1,2,3} first and then needs two more; {0,2,4} + {1,3,5} cover it with two.
  const catches = [[0, 1, 2, 3], [0, 2, 4], [1, 3, 5], [4], [5]];
  assert.deepEqual(minimalCover(catches), { tests: [1, 2], exact: true });
  // (Tests 3 and 4 are dominated by 1 and 2 and dropped first, so greedy completes with 1 and 2.)
  assert.deepEqual(minimalCover(catches, 1), { tests: [0, 1, 2], exact: false });
  // Every solution caught twice: each test alone is redundant, though not all at once.
  assert.deepEqual(redundantTests([[0, 1], [1, 2], [2, 0]]), [0, 1, 2]);
  assert.equal(minimalCover([[0, 1], [1, 2], [2, 0]]).tests.length, 2);
  assert.deepEqual(minimalCover([[], []]), { tests: [], exact: true });
});

test('exact covers of random instances are never larger than greedy and always cover', () => {
  let seed = 12345;
  const rand = (): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  for (let trial = 0; trial < 200; trial++) {
    const tests = 2 + Math.floor(rand() * 12);
    const solutions = 1 + Math.floor(rand() * 20);
    const catches = Array.from({ length: tests }, () => Array.from({ length: solutions }, (_, s) => s).filter(() => rand() < 0.25));
    const exact = minimalCover(catches);
    const greedy = minimalCover(catches, 0);
    assert.ok(exact.tests.length <= greedy.tests.length);
    const covered = new Set(exact.tests.flatMap((t) => catches[t]!));
    assert.deepEqual([...covered].sort((a, b) => a - b), [...new Set(catches.flat())].sort((a, b) => a - b));
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { passAtKCurve, type ProblemCounts } from '../../src/metrics/pass-at-k.js';
import { createRng } from '../../src/metrics/random.js';
import { inTaskOrder, passAtKWithIntervals, recordedBootstrapOptions, resampleCounts } from '../../src/metrics/summary.js';

function randomProblems(count: number, n: number, seed: number): ProblemCounts[] {
  const rng = createRng(seed);
  return Array.from({ length: count }, (_, i) => ({ taskId: `t${i}`, n, c: rng.nextInt(n + 1) }));
}

test('points equal the plain pass@k curve and lie inside their intervals', () => {
  const problems = randomProblems(30, 10, 1);
  const s = passAtKWithIntervals(problems, { reps: 500 });
  const curve = passAtKCurve(problems);
  assert.equal(s.points.length, 10);
  assert.equal(s.maxK, 10);
  assert.equal(s.numProblems, 30);
  assert.equal(s.numSamples, 300);
  s.points.forEach((p, i) => {
    assert.equal(p.k, i + 1);
    assert.ok(Math.abs(p.passAtK - curve[i]!.passAtK) < 1e-12);
    assert.ok(p.lower <= p.passAtK + 1e-12 && p.passAtK <= p.upper + 1e-12, `k=${p.k}`);
    if (i > 0) assert.ok(p.passAtK >= s.points[i - 1]!.passAtK - 1e-15, 'monotone in k');
  });
});

test('requested ks are sorted, deduplicated and checked', () => {
  const problems = [
    { taskId: 'a', n: 5, c: 2 },
    { taskId: 'b', n: 3, c: 1 },
  ];
  const s = passAtKWithIntervals(problems, { ks: [2, 1, 2], reps: 100 });
  assert.deepEqual(s.points.map((p) => p.k), [1, 2]);
  assert.ok(Math.abs(s.points[0]!.passAtK - (0.4 + 1 / 3) / 2) < 1e-12);
  assert.throws(() => passAtKWithIntervals(problems, { ks: [4] }), /pass@4 is not reportable/);
  assert.throws(() => passAtKWithIntervals(problems, { ks: [0] }), RangeError);
});

test('intervals shrink with more problems', () => {
  const few = randomProblems(20, 5, 2);
  const many = [...few, ...few, ...few, ...few, ...few, ...few, ...few, ...few].map((p, i) => ({ ...p, taskId: `m${i}` }));
  const wf = passAtKWithIntervals(few, { ks: [1] }).points[0]!;
  const wm = passAtKWithIntervals(many, { ks: [1] }).points[0]!;
  assert.ok(wm.upper - wm.lower < (wf.upper - wf.lower) / 2);
});

test('two-level bootstrap adds within-problem noise', () => {
  // every problem identical: resampling problems alone cannot move the mean
  const same = Array.from({ length: 20 }, (_, i) => ({ taskId: `t${i}`, n: 10, c: 5 }));
  const one = passAtKWithIntervals(same, { ks: [1] });
  const two = passAtKWithIntervals(same, { ks: [1], twoLevel: true });
  assert.equal(one.points[0]!.upper - one.points[0]!.lower, 0);
  assert.ok(two.points[0]!.upper - two.points[0]!.lower > 0.05);
  assert.equal(two.bootstrap.twoLevel, true);
});

test('resampleCounts keeps n and draws c from Binomial(n, c/n)', () => {
  const rng = createRng(4);
  let total = 0;
  for (let i = 0; i < 2000; i++) {
    const r = resampleCounts({ taskId: 'x', n: 10, c: 3 }, rng);
    assert.equal(r.n, 10);
    assert.ok(r.c >= 0 && r.c <= 10);
    total += r.c;
  }
  assert.ok(Math.abs(total / 2000 - 3) < 0.15);
  assert.equal(resampleCounts({ taskId: 'x', n: 4, c: 0 }, rng).c, 0);
  assert.equal(resampleCounts({ taskId: 'x', n: 4, c: 4 }, rng).c, 4);
});

test('the interval does not depend on the order the problems come in (they are drawn in task-id order)', () => {
  const problems = randomProblems(40, 6, 9).map((p, i) => ({ ...p, taskId: `HumanEval/${i}` }));
  const shuffled = [...problems].sort((a, b) => (a.c - b.c) || b.taskId.localeCompare(a.taskId));
  assert.notDeepEqual(shuffled, problems);
  const inOrder = passAtKWithIntervals(problems, { reps: 300, seed: 5 });
  assert.deepEqual(passAtKWithIntervals(shuffled, { reps: 300, seed: 5 }), inOrder);
  assert.deepEqual(passAtKWithIntervals([...problems].reverse(), { reps: 300, seed: 5 }), inOrder);
  assert.deepEqual(inTaskOrder([{ taskId: 'b' }, { taskId: 'B' }, { taskId: 'a' }, { taskId: 'a10' }, { taskId: 'a2' }]).map((p) => p.taskId),
    ['B', 'a', 'a10', 'a2', 'b'], 'code-unit order, whatever the locale');
});

test('recordedBootstrapOptions reads the settings a summary records, and nothing else', () => {
  assert.deepEqual(recordedBootstrapOptions({ bootstrap: { reps: 500, seed: 7, confidence: 0.9, method: 'percentile', twoLevel: false } }),
    { reps: 500, seed: 7, confidence: 0.9 });
  assert.deepEqual(recordedBootstrapOptions({ bootstrap: { reps: '500', seed: null } }), {});
  assert.deepEqual(recordedBootstrapOptions(undefined), {});
  assert.deepEqual(recordedBootstrapOptions(null), {});
});

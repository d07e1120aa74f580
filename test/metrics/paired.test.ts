import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ProblemCounts } from '../../src/metrics/pass-at-k.js';
import { comparePaired, mcnemarExactPValue, problemImprovementProbability } from '../../src/metrics/paired.js';
import { createRng } from '../../src/metrics/random.js';

function randomRun(count: number, n: number, seed: number): ProblemCounts[] {
  const rng = createRng(seed);
  return Array.from({ length: count }, (_, i) => ({ taskId: `t${i}`, n, c: rng.nextInt(n + 1) }));
}

/** rliable's definition by brute force: every pair of (sample of A, sample of B). */
function bruteForceProbability(a: ProblemCounts, b: ProblemCounts): number {
  const xs = Array.from({ length: a.n }, (_, i) => (i < a.c ? 1 : 0));
  const ys = Array.from({ length: b.n }, (_, i) => (i < b.c ? 1 : 0));
  let u = 0;
  for (const x of xs) for (const y of ys) u += x > y ? 1 : x === y ? 0.5 : 0;
  return u / (a.n * b.n);
}

test('identical runs: P = 0.5, all ties, zero difference with a zero-width interval', () => {
  const run = randomRun(25, 8, 3);
  const r = comparePaired(run, run, { ks: [1, 4] });
  assert.equal(r.probabilityOfImprovement, 0.5);
  assert.equal(r.ties, 25);
  assert.equal(r.wins, 0);
  assert.equal(r.losses, 0);
  for (const d of r.differences) {
    assert.equal(d.difference, 0);
    assert.equal(d.lower, 0);
    assert.equal(d.upper, 0);
  }
});

test('probability of improvement: hand cases and brute force', () => {
  const a = { taskId: 'x', n: 2, c: 2 };
  const b = { taskId: 'x', n: 2, c: 0 };
  assert.equal(problemImprovementProbability(a, b), 1);
  assert.equal(problemImprovementProbability(b, a), 0);
  // A 1/2 vs B 1/2: pairs (1,1)=.5, (1,0)=1, (0,1)=0, (0,0)=.5 → 2/4
  assert.equal(problemImprovementProbability({ taskId: 'x', n: 2, c: 1 }, { taskId: 'x', n: 2, c: 1 }), 0.5);
  for (let na = 1; na <= 4; na++)
    for (let ca = 0; ca <= na; ca++)
      for (let nb = 1; nb <= 4; nb++)
        for (let cb = 0; cb <= nb; cb++) {
          const pa = { taskId: 'x', n: na, c: ca };
          const pb = { taskId: 'x', n: nb, c: cb };
          assert.ok(Math.abs(problemImprovementProbability(pa, pb) - bruteForceProbability(pa, pb)) < 1e-12);
          assert.ok(Math.abs(problemImprovementProbability(pa, pb) + problemImprovementProbability(pb, pa) - 1) < 1e-12);
        }
  const r = comparePaired(
    [a, { taskId: 'y', n: 2, c: 1 }],
    [b, { taskId: 'y', n: 2, c: 1 }],
    { reps: 100 },
  );
  assert.equal(r.probabilityOfImprovement, 0.75);
});

test('wins, losses and ties compare pass rates exactly; unshared problems are listed', () => {
  const runA = [
    { taskId: 'p', n: 2, c: 1 },
    { taskId: 'q', n: 3, c: 3 },
    { taskId: 'r', n: 3, c: 0 },
    { taskId: 'onlyA', n: 3, c: 0 },
  ];
  const runB = [
    { taskId: 'onlyB', n: 4, c: 1 },
    { taskId: 'p', n: 4, c: 2 },
    { taskId: 'q', n: 4, c: 1 },
    { taskId: 'r', n: 4, c: 1 },
  ];
  const r = comparePaired(runA, runB, { reps: 100 });
  assert.equal(r.sharedProblems, 3);
  assert.deepEqual(r.onlyInA, ['onlyA']);
  assert.deepEqual(r.onlyInB, ['onlyB']);
  assert.deepEqual(r.problems.map((p) => p.outcome), ['tie', 'win', 'loss']);
  assert.equal(r.wins, 1);
  assert.equal(r.losses, 1);
  assert.equal(r.ties, 1);
  // pass@1 on shared: A (0.5 + 1 + 0)/3, B (0.5 + 0.25 + 0.25)/3
  const d = r.differences[0]!;
  assert.ok(Math.abs(d.a - 0.5) < 1e-12);
  assert.ok(Math.abs(d.b - 1 / 3) < 1e-12);
  assert.ok(Math.abs(d.difference - 1 / 6) < 1e-12);
  assert.ok(d.lower <= d.difference && d.difference <= d.upper);
  assert.equal(r.mcnemar.applicable, false);
});

test('exact McNemar p-values by hand', () => {
  assert.equal(mcnemarExactPValue(0, 0), 1);
  assert.ok(Math.abs(mcnemarExactPValue(1, 5) - 14 / 64) < 1e-12); // 2·(C(6,0)+C(6,1))/2^6
  assert.ok(Math.abs(mcnemarExactPValue(5, 1) - 14 / 64) < 1e-12);
  assert.ok(Math.abs(mcnemarExactPValue(0, 6) - 2 / 64) < 1e-12);
  assert.ok(Math.abs(mcnemarExactPValue(2, 10) - (2 * 79) / 4096) < 1e-12); // 1 + 12 + 66 = 79
  assert.equal(mcnemarExactPValue(5, 5), 1); // 2·638/1024 > 1 is capped
  assert.ok(mcnemarExactPValue(0, 3000) === 0 || mcnemarExactPValue(0, 3000) < 1e-300);
  assert.throws(() => mcnemarExactPValue(-1, 2), RangeError);
});

test('McNemar is computed when every problem has one sample per run', () => {
  const outcomesA = [1, 1, 1, 1, 1, 0, 0, 1];
  const outcomesB = [0, 0, 0, 0, 0, 1, 0, 1];
  const runA = outcomesA.map((c, i) => ({ taskId: `t${i}`, n: 1, c }));
  const runB = outcomesB.map((c, i) => ({ taskId: `t${i}`, n: 1, c }));
  const r = comparePaired(runA, runB, { reps: 200 });
  assert.deepEqual(r.mcnemar, { applicable: true, onlyA: 5, onlyB: 1, pValue: mcnemarExactPValue(5, 1) });
  assert.ok(Math.abs(r.mcnemar.applicable ? r.mcnemar.pValue - 0.21875 : 1) < 1e-12);
});

test('paired interval: same seed same result, more problems narrower; A better than B is detected', () => {
  const runA = randomRun(40, 10, 1).map((p) => ({ ...p, c: Math.min(p.n, p.c + 3) }));
  const runB = randomRun(40, 10, 1);
  const r1 = comparePaired(runA, runB, { seed: 5 });
  const r2 = comparePaired(runA, runB, { seed: 5 });
  const r3 = comparePaired(runA, runB, { seed: 6 });
  assert.deepEqual(r1, r2);
  assert.notDeepEqual(r1.differences, r3.differences);
  assert.ok(r1.differences[0]!.lower > 0);
  assert.ok(r1.probabilityOfImprovement > 0.5);
  const bigA = [0, 1, 2, 3].flatMap((j) => runA.map((p) => ({ ...p, taskId: `${p.taskId}-${j}` })));
  const bigB = [0, 1, 2, 3].flatMap((j) => runB.map((p) => ({ ...p, taskId: `${p.taskId}-${j}` })));
  const big = comparePaired(bigA, bigB);
  const w = (r: typeof r1) => r.differences[0]!.upper - r.differences[0]!.lower;
  assert.ok(w(big) < w(r1) * 0.7);
});

test('errors: nothing shared, duplicates, k too large', () => {
  assert.throws(() => comparePaired([{ taskId: 'a', n: 1, c: 1 }], [{ taskId: 'b', n: 1, c: 1 }]), /share no problem/);
  assert.throws(
    () => comparePaired([{ taskId: 'a', n: 1, c: 1 }, { taskId: 'a', n: 1, c: 0 }], [{ taskId: 'a', n: 1, c: 1 }]),
    /twice/,
  );
  assert.throws(() => comparePaired([{ taskId: 'a', n: 5, c: 1 }], [{ taskId: 'a', n: 2, c: 1 }], { ks: [3] }), /not reportable/);
});

test('nothing of a comparison depends on the order either run lists its problems', () => {
  const a = randomRun(30, 6, 11);
  const b = randomRun(32, 6, 12);
  const result = comparePaired(a, b, { ks: [1, 3], reps: 300 });
  assert.ok(result.differences.every((d) => d.lower < d.upper));
  assert.deepEqual(comparePaired([...a].reverse(), [...b].sort((x, y) => x.c - y.c), { ks: [1, 3], reps: 300 }), result);
  assert.deepEqual(result.problems.map((p) => p.taskId), result.problems.map((p) => p.taskId).sort());
  assert.deepEqual(result.onlyInB, ['t30', 't31']);
});

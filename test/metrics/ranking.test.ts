/**
 * Ranking N runs (`metrics/ranking.ts`) and the multiple-comparison tools under it (`metrics/multiple.ts`), on cases
 * checkable by hand: Holm's adjustment, the sign-flip permutation p-value's exact value on small inputs, mean ranks
 * of ties, and rankings whose order and pairwise tests follow from the counts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { holmAdjust, pairedPermutationPValue } from '../../src/metrics/multiple.js';
import { rankRuns, ranksOf } from '../../src/metrics/ranking.js';

const counts = (cs: readonly number[], n = 4) => cs.map((c, i) => ({ taskId: `T/${i}`, n, c }));

describe('multiple comparisons', () => {
  it('Holm: p sorted ascending times m, m−1, …, made monotone, capped at 1, in the order given', () => {
    assert.deepEqual(holmAdjust([0.01, 0.04, 0.03]).map((p) => +p.toFixed(10)), [0.03, 0.06, 0.06]);
    assert.deepEqual(holmAdjust([0.5, 0.9]), [1, 1]);
    assert.deepEqual(holmAdjust([]), []);
    assert.throws(() => holmAdjust([1.2]), /out of \[0, 1\]/);
  });

  it('the paired permutation p-value: 2 of 2^n sign vectors are as extreme when every difference has one sign', () => {
    const p = pairedPermutationPValue([1, 1, 1], { reps: 40_000, seed: 3 });
    assert.ok(Math.abs(p - 0.25) < 0.01, String(p));
    assert.equal(pairedPermutationPValue([0, 0, 0]), 1, 'no difference: nothing to reject');
    const five = pairedPermutationPValue([0.5, 0.25, 0.75, 1, 0.5], { reps: 40_000, seed: 3 });
    assert.ok(Math.abs(five - 2 / 32) < 0.006, String(five));
    assert.throws(() => pairedPermutationPValue([]), /no differences/);
  });
});

describe('ranking N runs', () => {
  it('ranks ties with their mean rank', () => {
    assert.deepEqual(ranksOf([0.5, 0.7, 0.5]), [2.5, 1, 2.5]);
  });

  it('orders runs by pass@k on shared problems, with rank intervals and Holm-adjusted pairs', () => {
    const best = { id: 1, counts: counts([4, 4, 3, 4, 4, 3, 4, 4]) };
    const mid = { id: 2, counts: counts([2, 2, 2, 2, 2, 2, 2, 2]) };
    const worst = { id: 3, counts: [...counts([0, 0, 0, 0, 0, 0, 0, 0]), { taskId: 'extra', n: 4, c: 4 }] };
    const r = rankRuns([mid, worst, best], 1, { reps: 500, seed: 1, permutationReps: 5000 });
    assert.deepEqual(r.runs.map((x) => x.id), [1, 2, 3]);
    assert.deepEqual(r.runs.map((x) => x.rank), [1, 2, 3]);
    assert.deepEqual(r.runs.map((x) => [x.rankLower, x.rankUpper]), [[1, 1], [2, 2], [3, 3]], 'no draw of the problems reorders them');
    assert.equal(r.shared.length, 8);
    assert.equal(r.leftOut.get(3), 1, 'the problem only run 3 has is left out');
    assert.ok(Math.abs(r.runs[0]!.passAtK - 30 / 32) < 1e-12);
    assert.equal(r.pairs.length, 3);
    for (const p of r.pairs) {
      assert.ok(p.pValue < 0.01, `${p.a} vs ${p.b}: every problem differs the same way`);
      assert.ok(p.holmPValue >= p.pValue && p.holmPValue <= 3 * p.pValue + 1e-12);
    }
  });

  it('gives equal runs the same rank and p = 1; refuses one run, or none shared', () => {
    const a = { id: 1, counts: counts([1, 2, 3]) };
    const b = { id: 2, counts: counts([1, 2, 3]) };
    const r = rankRuns([a, b], 2, { reps: 200 });
    assert.deepEqual(r.runs.map((x) => x.rank), [1.5, 1.5]);
    assert.equal(r.pairs[0]!.pValue, 1);
    assert.throws(() => rankRuns([a], 1), /at least two runs/);
    assert.throws(() => rankRuns([a, { id: 3, counts: [{ taskId: 'other', n: 1, c: 1 }] }], 1), /share no problem/);
    assert.throws(() => rankRuns([a, b], 5), /not reportable/);
  });
});

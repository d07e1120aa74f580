/**
 * Efficiency scores (issue #28, item 7) on hand-computed cases: EvalPerf's DPS/DPS_norm against reference clusters,
 * Mercury's Beyond, EffiBench's NET/NMU/NTMU, and the noise-aware comparison of repeated timings.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { beyondOf, clusterScores, compareTimings, dpsOf, effiScores, median, medianInterval } from '../../src/metrics/efficiency.js';

describe('EvalPerf DPS', () => {
  // Four clusters, slowest first, of 1, 2, 3 and 4 reference solutions.
  const scores = clusterScores([1, 2, 3, 4]);
  const clusters = [{ cost: 9000 }, { cost: 5000 }, { cost: 2000 }, { cost: 1000 }].map((c, i) => ({ ...c, score: scores[i]! }));

  test('cluster scores are the cumulative share of references, slowest first', () => {
    assert.deepEqual(scores, [10, 30, 60, 100]);
    assert.throws(() => clusterScores([]), RangeError);
    assert.throws(() => clusterScores([2, 0]), /positive integer/);
  });

  test('a sample matches the fastest cluster it is no slower than', () => {
    assert.deepEqual(dpsOf(800, clusters), { dps: 100, dpsNorm: 100, cluster: 3 });
    assert.deepEqual(dpsOf(1000, clusters), { dps: 100, dpsNorm: 100, cluster: 3 }, 'equal cost matches');
    assert.deepEqual(dpsOf(1001, clusters), { dps: 60, dpsNorm: 75, cluster: 2 });
    assert.deepEqual(dpsOf(5000, clusters), { dps: 30, dpsNorm: 50, cluster: 1 });
    assert.deepEqual(dpsOf(8999, clusters), { dps: 10, dpsNorm: 25, cluster: 0 });
    assert.deepEqual(dpsOf(9001, clusters), { dps: 0, dpsNorm: 0, cluster: -1 }, 'slower than every reference');
    assert.deepEqual(dpsOf(undefined, clusters), { dps: 0, dpsNorm: 0, cluster: -1 }, 'measurement failed');
    assert.throws(() => dpsOf(1, [...clusters].reverse()), /slowest first/);
    assert.throws(() => dpsOf(1, []), RangeError);
  });
});

test('Mercury Beyond: 1 at the fastest reference, 0 at the slowest or on failure, linear between', () => {
  const refs = [40, 100, 20, 60];
  assert.equal(beyondOf(10, refs), 1);
  assert.equal(beyondOf(20, refs), 1);
  assert.equal(beyondOf(60, refs), 0.5);
  assert.equal(beyondOf(95, refs), 0.0625);
  assert.equal(beyondOf(500, refs), 0);
  assert.equal(beyondOf(undefined, refs), 0);
  assert.deepEqual([beyondOf(7, [7, 7]), beyondOf(8, [7, 7])], [1, 0], 'a reference range of one value');
  assert.throws(() => beyondOf(1, []), RangeError);
  assert.throws(() => beyondOf(1, [Infinity]), /finite/);
});

test('EffiBench NET/NMU/NTMU: means of per-sample ratios to the canonical solution', () => {
  const s = effiScores([
    { timeMs: 20, canonicalTimeMs: 10, peakKiB: 1000, canonicalPeakKiB: 1000, memoryKiBMs: 30_000, canonicalMemoryKiBMs: 10_000 },
    { timeMs: 5, canonicalTimeMs: 10, peakKiB: 3000, canonicalPeakKiB: 1000, memoryKiBMs: 5_000, canonicalMemoryKiBMs: 10_000 },
  ]);
  assert.deepEqual(s, { samples: 2, net: 1.25, nmu: 2, ntmu: 1.75 });
  assert.deepEqual(effiScores([]), { samples: 0, net: null, nmu: null, ntmu: null });
  assert.throws(() => effiScores([{ timeMs: 1, canonicalTimeMs: 0, peakKiB: 1, canonicalPeakKiB: 1, memoryKiBMs: 1, canonicalMemoryKiBMs: 1 }]),
    /canonical execution time must be positive/);
});

describe('noise-aware timing', () => {
  test('median and its bootstrap interval are reproducible and contain the median', () => {
    assert.equal(median([3, 1, 2]), 2);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    const runs = [101, 99, 100, 103, 98, 100, 102];
    const a = medianInterval(runs, { seed: 7, reps: 500 });
    assert.equal(a.point, 100);
    assert.ok(a.lower <= 100 && a.upper >= 100 && a.lower >= 98 && a.upper <= 103, JSON.stringify(a));
    assert.deepEqual(medianInterval(runs, { seed: 7, reps: 500 }), a);
    assert.deepEqual(medianInterval([5, 5, 5], { reps: 50 }), { point: 5, lower: 5, upper: 5 });
  });

  test('overlapping intervals are indistinguishable; separated ones are not', () => {
    const same = compareTimings([100, 102, 98, 101, 99], [101, 103, 99, 100, 102], { reps: 500 });
    assert.equal(same.indistinguishable, true);
    const slower = compareTimings([150, 152, 148, 151, 149], [100, 102, 98, 101, 99], { reps: 500 });
    assert.equal(slower.indistinguishable, false);
    assert.equal(slower.ratio, 1.5);
    assert.ok(slower.a.lower > slower.b.upper);
    assert.equal(compareTimings([1], [0]).ratio, null);
  });
});

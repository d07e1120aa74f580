import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  aggregateIqm,
  aggregateMean,
  aggregateMedian,
  aggregateOptimalityGap,
  fractionAbove,
  intervalEstimates,
  performanceProfile,
  stratifiedInterval,
  tauGrid,
} from '../../src/metrics/rliable.js';

// 2 runs × 3 tasks
const m = [
  [0, 0, 1],
  [0, 1, 10],
];

test('aggregates on a hand matrix', () => {
  assert.equal(aggregateMean(m), 2); // task means 0, 0.5, 5.5
  assert.equal(aggregateMedian(m), 0.5);
  assert.equal(aggregateIqm(m), 0.5); // sorted 0 0 0 1 1 10, drop one each end → 0 0 1 1
  assert.equal(aggregateOptimalityGap(m), 0.5); // gaps 1 1 0 1 0 0
  assert.ok(Math.abs(aggregateOptimalityGap(m, 2) - 8 / 6) < 1e-12);
  assert.equal(aggregateMedian([[1, 2, 3, 4]]), 2.5);
});

test('IQM trims floor(N/4) from each end like scipy trim_mean(…, 0.25)', () => {
  // N = 8 → drop 2 from each end: mean of 3, 4, 5, 6
  assert.equal(aggregateIqm([[1, 2, 3, 4], [5, 6, 7, 100]]), 4.5);
  // N = 5 → drop 1 from each end
  assert.equal(aggregateIqm([[1, 2, 3, 4, 100]]), 3);
});

test('malformed matrices are rejected', () => {
  assert.throws(() => aggregateMean([]), RangeError);
  assert.throws(() => aggregateMean([[1, 2], [3]]), /row 1/);
  assert.throws(() => aggregateIqm([[1, Number.NaN]]), /not a finite/);
});

test('stratified bootstrap resamples runs within each task only', () => {
  // each task constant across runs: stratified resampling cannot change anything
  const constantTasks = [
    [0, 1],
    [0, 1],
    [0, 1],
  ];
  assert.deepEqual(stratifiedInterval(constantTasks, aggregateMean, { reps: 300 }), { point: 0.5, lower: 0.5, upper: 0.5 });
  const single = [[0.2, 0.9, 0.4]];
  assert.deepEqual(stratifiedInterval(single, aggregateIqm, { reps: 50 }), { point: aggregateIqm(single), lower: aggregateIqm(single), upper: aggregateIqm(single) });
});

test('stratified intervals: contain the point, reproducible, seed-dependent', () => {
  const scores = Array.from({ length: 10 }, (_, r) => Array.from({ length: 6 }, (_, t) => ((r * 7 + t * 3) % 10) / 10));
  const a = stratifiedInterval(scores, aggregateMean, { seed: 1 });
  const b = stratifiedInterval(scores, aggregateMean, { seed: 1 });
  const c = stratifiedInterval(scores, aggregateMean, { seed: 2 });
  assert.deepEqual(a, b);
  assert.notDeepEqual(a, c);
  assert.ok(a.lower < a.point && a.point < a.upper);
  const both = intervalEstimates({ x: scores, y: scores }, aggregateMean, { seed: 1 });
  assert.deepEqual(both.x, a);
  assert.deepEqual(both.y, a);
});

test('performance profile: fraction strictly above tau, non-increasing', () => {
  const s = [
    [0, 0.5],
    [1, 1],
  ];
  assert.equal(fractionAbove(s, 0), 0.75);
  assert.equal(fractionAbove(s, 0.5), 0.5);
  assert.equal(fractionAbove(s, 1), 0);
  const profile = performanceProfile(s, tauGrid(0, 1, 5), { reps: 200 });
  assert.deepEqual(profile.map((p) => p.tau), [0, 0.25, 0.5, 0.75, 1]);
  assert.deepEqual(profile.map((p) => p.fraction), [0.75, 0.75, 0.5, 0.5, 0]);
  for (const p of profile) assert.ok(p.lower <= p.fraction && p.fraction <= p.upper);
  assert.throws(() => performanceProfile(s, []), RangeError);
  assert.throws(() => tauGrid(1, 0, 5), RangeError);
});

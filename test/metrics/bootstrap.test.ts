import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bootstrapInterval, bootstrapIntervals, quantileSorted, resolveBootstrapOptions } from '../../src/metrics/bootstrap.js';
import { createRng } from '../../src/metrics/random.js';

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

function coinFlips(count: number, seed: number): number[] {
  const rng = createRng(seed);
  return Array.from({ length: count }, () => (rng.nextFloat() < 0.5 ? 1 : 0));
}

test('quantiles interpolate linearly between order statistics (numpy default)', () => {
  assert.equal(quantileSorted([1, 2, 3, 4], 0.5), 2.5);
  assert.equal(quantileSorted([1, 2, 3, 4], 0.25), 1.75);
  assert.equal(quantileSorted([1, 2, 3, 4], 0), 1);
  assert.equal(quantileSorted([1, 2, 3, 4], 1), 4);
  assert.equal(quantileSorted([7], 0.975), 7);
  assert.throws(() => quantileSorted([], 0.5), RangeError);
  assert.throws(() => quantileSorted([1], 1.5), RangeError);
});

test('defaults: 2000 replicates, 95%, fixed seed; bad options throw', () => {
  const s = resolveBootstrapOptions();
  assert.equal(s.reps, 2000);
  assert.equal(s.confidence, 0.95);
  assert.equal(typeof s.seed, 'number');
  assert.throws(() => resolveBootstrapOptions({ reps: 0 }), RangeError);
  assert.throws(() => resolveBootstrapOptions({ confidence: 1 }), RangeError);
  assert.throws(() => bootstrapInterval([], mean), /no items/);
});

test('constant data gives a zero-width interval at the constant', () => {
  const e = bootstrapInterval([3, 3, 3, 3], mean, { reps: 200 });
  assert.deepEqual(e, { point: 3, lower: 3, upper: 3 });
});

test('same seed gives the same interval; different seeds differ', () => {
  const rng = createRng(1);
  const data = Array.from({ length: 50 }, () => rng.nextFloat()); // continuous: quantiles cannot coincide by chance
  const a = bootstrapInterval(data, mean, { seed: 11 });
  const b = bootstrapInterval(data, mean, { seed: 11 });
  const c = bootstrapInterval(data, mean, { seed: 12 });
  assert.deepEqual(a, b);
  assert.notDeepEqual([a.lower, a.upper], [c.lower, c.upper]);
});

test('interval contains the point and shrinks with more items', () => {
  const small = coinFlips(40, 5);
  const large = [...small, ...small, ...small, ...small, ...small, ...small, ...small, ...small, ...small];
  const es = bootstrapInterval(small, mean);
  const el = bootstrapInterval(large, mean);
  assert.ok(es.lower <= es.point && es.point <= es.upper);
  assert.equal(es.point, el.point);
  const ws = es.upper - es.lower;
  const wl = el.upper - el.lower;
  // width scales like 1/sqrt(items): 9x the items should give about a third of the width
  assert.ok(wl < ws / 2, `widths ${ws} and ${wl}`);
  // 95% interval of a proportion near 0.5 with 40 items: about ±0.155
  assert.ok(ws > 0.2 && ws < 0.42, `width ${ws}`);
});

test('vector statistics share resamples: the interval of x and of 2x agree', () => {
  const data = coinFlips(30, 9);
  const [e1, e2] = bootstrapIntervals(data, (s) => [mean(s), 2 * mean(s)], { reps: 500 });
  assert.ok(Math.abs(e2!.lower - 2 * e1!.lower) < 1e-12);
  assert.ok(Math.abs(e2!.upper - 2 * e1!.upper) < 1e-12);
});

test('the resampleItem hook is applied to every drawn item', () => {
  const e = bootstrapInterval([1, 1, 1], mean, { reps: 50 }, () => 5);
  assert.equal(e.point, 1);
  assert.equal(e.lower, 5);
  assert.equal(e.upper, 5);
});

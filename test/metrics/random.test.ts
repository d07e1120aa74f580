import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng, createRngFromState, DEFAULT_SEED } from '../../src/metrics/random.js';

test('xoshiro128** matches the reference implementation from state {1, 2, 3, 4}', () => {
  // Values produced by a direct port of https://prng.di.unimi.it/xoshiro128starstar.c
  const rng = createRngFromState([1, 2, 3, 4]);
  const out = Array.from({ length: 6 }, () => rng.nextUint32());
  assert.deepEqual(out, [11520, 0, 5927040, 70819200, 2031721883, 1637235492]);
});

test('same seed gives the same stream; the default seed is fixed', () => {
  const a = createRng(42);
  const b = createRng(42);
  for (let i = 0; i < 100; i++) assert.equal(a.nextUint32(), b.nextUint32());
  const d1 = createRng();
  const d2 = createRng(DEFAULT_SEED);
  for (let i = 0; i < 10; i++) assert.equal(d1.nextFloat(), d2.nextFloat());
});

test('different seeds give different streams, including seeds differing only in high bits', () => {
  const take = (seed: number) => {
    const r = createRng(seed);
    return Array.from({ length: 8 }, () => r.nextUint32());
  };
  assert.notDeepEqual(take(1), take(2));
  assert.notDeepEqual(take(5), take(5 + 2 ** 32));
  assert.notDeepEqual(take(0), take(1));
});

test('nextInt stays in range and is roughly uniform', () => {
  const rng = createRng(7);
  const counts = new Array<number>(6).fill(0);
  const draws = 60000;
  for (let i = 0; i < draws; i++) {
    const x = rng.nextInt(6);
    assert.ok(Number.isInteger(x) && x >= 0 && x < 6);
    counts[x]! += 1;
  }
  // chi-square with 5 degrees of freedom; 20.5 is the 0.999 quantile
  const expected = draws / 6;
  const chi2 = counts.reduce((acc, c) => acc + (c - expected) ** 2 / expected, 0);
  assert.ok(chi2 < 20.5, `chi2 = ${chi2}`);
  assert.equal(rng.nextInt(1), 0);
});

test('nextFloat is in [0, 1)', () => {
  const rng = createRng(3);
  for (let i = 0; i < 1000; i++) {
    const x = rng.nextFloat();
    assert.ok(x >= 0 && x < 1);
  }
});

test('bad seeds, states and bounds are rejected', () => {
  assert.throws(() => createRng(-1), RangeError);
  assert.throws(() => createRng(1.5), RangeError);
  assert.throws(() => createRngFromState([0, 0, 0, 0]), RangeError);
  assert.throws(() => createRngFromState([1, 2, 3]), RangeError);
  assert.throws(() => createRng(1).nextInt(0), RangeError);
});

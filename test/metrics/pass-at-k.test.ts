import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maxReportableK, meanPassAtK, passAtK, passAtKCurve, passAtKTable } from '../../src/metrics/pass-at-k.js';

function binomial(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let r = 1n;
  for (let i = 1; i <= k; i++) r = (r * BigInt(n - k + i)) / BigInt(i);
  return r;
}

/** 1 − C(n−c, k)/C(n, k) computed exactly with big integers, then divided once. */
function exactPassAtK(n: number, c: number, k: number): number {
  return 1 - Number(binomial(n - c, k)) / Number(binomial(n, k));
}

test('hand cases: n = 5, c = 2', () => {
  assert.ok(Math.abs(passAtK(5, 2, 1) - 0.4) < 1e-12);
  assert.ok(Math.abs(passAtK(5, 2, 2) - 0.7) < 1e-12); // 1 − C(3,2)/C(5,2) = 1 − 3/10
  assert.ok(Math.abs(passAtK(5, 2, 3) - 0.9) < 1e-12); // 1 − C(3,3)/C(5,3) = 1 − 1/10
  assert.equal(passAtK(5, 2, 4), 1); // n − c = 3 < 4
  assert.equal(passAtK(5, 0, 3), 0);
  assert.equal(passAtK(5, 5, 1), 1);
  assert.equal(passAtK(1, 1, 1), 1);
  assert.equal(passAtK(1, 0, 1), 0);
});

test('product form equals the binomial ratio for every small (n, c, k)', () => {
  for (let n = 1; n <= 25; n++) {
    for (let c = 0; c <= n; c++) {
      for (let k = 1; k <= n; k++) {
        const got = passAtK(n, c, k);
        const want = exactPassAtK(n, c, k);
        assert.ok(Math.abs(got - want) < 1e-9, `n=${n} c=${c} k=${k}: ${got} vs ${want}`);
      }
    }
  }
});

test('pass@k is monotone non-decreasing in k and in c', () => {
  for (const n of [3, 10, 50]) {
    for (let c = 0; c <= n; c++) {
      for (let k = 2; k <= n; k++) assert.ok(passAtK(n, c, k) >= passAtK(n, c, k - 1) - 1e-15);
      if (c > 0) for (let k = 1; k <= n; k++) assert.ok(passAtK(n, c, k) >= passAtK(n, c - 1, k) - 1e-15);
    }
  }
});

test('stable for large n (no overflow where C(n, k) would overflow)', () => {
  const v = passAtK(2000, 3, 1000);
  assert.ok(Number.isFinite(v) && v > 0.87 && v < 0.88, String(v)); // 1 − (1/2)^3 approximately
});

test('invalid arguments throw RangeError', () => {
  assert.throws(() => passAtK(5, 6, 1), /must not exceed n/);
  assert.throws(() => passAtK(5, 2, 0), /k must be an integer >= 1/);
  assert.throws(() => passAtK(5, 2, 6), /k \(6\) must not exceed n \(5\)/);
  assert.throws(() => passAtK(0, 0, 1), /n must be an integer >= 1/);
  assert.throws(() => passAtK(5, -1, 1), RangeError);
  assert.throws(() => passAtK(5, 1.5, 1), RangeError);
  assert.throws(() => passAtK(5, 1, 1.5), RangeError);
});

test('mean over problems and the curve; k limited by the smallest n', () => {
  const problems = [
    { taskId: 'a', n: 5, c: 2 },
    { taskId: 'b', n: 3, c: 0 },
    { taskId: 'c', n: 4, c: 4 },
  ];
  assert.equal(maxReportableK(problems), 3);
  assert.ok(Math.abs(meanPassAtK(problems, 1) - (0.4 + 0 + 1) / 3) < 1e-12);
  assert.ok(Math.abs(meanPassAtK(problems, 2) - (0.7 + 0 + 1) / 3) < 1e-12);
  const curve = passAtKCurve(problems);
  assert.deepEqual(curve.map((p) => p.k), [1, 2, 3]);
  assert.ok(Math.abs(curve[2]!.passAtK - (0.9 + 0 + 1) / 3) < 1e-12);
  assert.throws(() => meanPassAtK(problems, 4), /not reportable/);
  assert.throws(() => meanPassAtK([], 1), /no problems/);
});

test('passAtKTable agrees with passAtK for every (c, k)', () => {
  for (const n of [1, 2, 7, 30]) {
    const table = passAtKTable(n, n);
    assert.equal(table.length, n + 1);
    for (let c = 0; c <= n; c++) {
      for (let k = 1; k <= n; k++) assert.ok(Math.abs(table[c]![k - 1]! - passAtK(n, c, k)) < 1e-12, `n=${n} c=${c} k=${k}`);
    }
  }
  assert.throws(() => passAtKTable(3, 4), RangeError);
});

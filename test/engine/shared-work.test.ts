/** `SharedWork`, the judge's memo: joined in flight, remembered, and bounded by count and by the weight of what it holds. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SharedWork } from '../../src/engine/shared-work.js';
import { memoWeight, MEMO_WEIGHT } from '../../src/engine/local-judge.js';
import type { Verdict } from '../../src/verdict/index.js';

test('identical keys share one execution, in flight and after', async () => {
  const work = new SharedWork<number>(10);
  let started = 0;
  const start = async (): Promise<number> => { started++; return 42; };
  const [a, b] = await Promise.all([work.run('k', start), work.run('k', start)]);
  assert.deepEqual([a, b, await work.run('k', start), started], [42, 42, 42, 1]);
  assert.deepEqual(work.stats, { calls: 3, shared: 2 });
});

test('the weight bound holds: oldest results go first, one heavier than the budget is not kept', async () => {
  const work = new SharedWork<number[]>(1000, () => true, { weigh: (v) => v.length, maxWeight: 100 });
  for (let i = 0; i < 50; i++) {
    await work.run(`k${i}`, async () => new Array<number>(30).fill(i));
    assert.ok(work.weight <= 100, `weight ${work.weight} after ${i + 1} results`);
  }
  assert.equal(work.size, 3); // 3 × 30 ≤ 100 < 4 × 30
  assert.equal(work.weight, 90);
  // The newest are remembered, the oldest were dropped.
  assert.ok(work.has('k49') && work.has('k47') && !work.has('k46'));
  await work.run('huge', async () => new Array<number>(101).fill(0));
  assert.ok(!work.has('huge'));
  assert.equal(work.weight, 90);
  // The count bound still applies on its own.
  const counted = new SharedWork<number[]>(2, () => true, { weigh: (v) => v.length, maxWeight: 1e9 });
  for (let i = 0; i < 5; i++) await counted.run(`k${i}`, async () => [i]);
  assert.deepEqual([counted.size, counted.weight], [2, 2]);
});

test('results not kept and failures hold no weight', async () => {
  const work = new SharedWork<number[]>(10, (v) => v.length > 1, { weigh: (v) => v.length, maxWeight: 100 });
  await work.run('short', async () => [1]);
  await assert.rejects(work.run('fails', async () => { throw new Error('no'); }));
  assert.deepEqual([work.size, work.weight], [0, 0]);
});

test("the judge's memo weighs a verdict by the test results it holds, within a budget far below the heap", () => {
  const verdict = (tests: number): Verdict => ({ status: 'wrong_answer', passed: false, testCount: tests, cpuMs: 0, wallMs: 0,
    tests: Array.from({ length: tests }, (_, index) => ({ index, status: 'passed' as const })) });
  assert.equal(memoWeight(verdict(0)), 1);
  assert.equal(memoWeight(verdict(1000)), 1001);
  // A HumanEval+ verdict with every input kept: at most ~1,000 of them are remembered.
  assert.ok(MEMO_WEIGHT / memoWeight(verdict(1000)) < 1000);
});

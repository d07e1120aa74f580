/** Curriculum draws (issue #28, item 3): eligibility per strategy, determinism for a seed, without replacement. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sampleCurriculum } from '../../src/metrics/curriculum.js';

const estimates = new Map<string, number | null>([['solved', 1], ['easy', 0.9], ['mid', 0.5], ['hard', 0.1], ['never', 0], ['new', null]]);
const pool = ['solved', 'easy', 'mid', 'hard', 'never', 'new'];

test('each strategy draws only from its eligible problems', () => {
  const draw = (strategy: Parameters<typeof sampleCurriculum>[0]['strategy'], unseen?: 'include' | 'exclude') =>
    sampleCurriculum({ pool, batchSize: 10, strategy, seed: 1, ...(unseen === undefined ? {} : { unseen }) }, estimates).problems.slice().sort();
  assert.deepEqual(draw({ kind: 'uniform' }), [...pool].sort());
  assert.deepEqual(draw({ kind: 'band', lo: 0.1, hi: 0.5 }), ['hard', 'mid', 'new']);
  assert.deepEqual(draw({ kind: 'band', lo: 0.1, hi: 0.5 }, 'exclude'), ['hard', 'mid']);
  assert.deepEqual(draw({ kind: 'drop-solved' }), ['easy', 'hard', 'mid', 'never', 'new']);
  assert.deepEqual(draw({ kind: 'drop-solved', solvedAt: 0.9 }), ['hard', 'mid', 'never', 'new']);
  assert.deepEqual(draw({ kind: 'drop-unsolved' }), ['easy', 'hard', 'mid', 'new', 'solved']);
  assert.deepEqual(draw({ kind: 'drop-unsolved', unsolvedAt: 0.5 }, 'exclude'), ['easy', 'solved']);
});

test('the same seed gives the same batch; draws are distinct without replacement; shortfall is reported', () => {
  const many = Array.from({ length: 200 }, (_, i) => `p${i}`);
  const a = sampleCurriculum({ pool: many, batchSize: 50, strategy: { kind: 'uniform' }, seed: 42 }, new Map());
  const b = sampleCurriculum({ pool: many, batchSize: 50, strategy: { kind: 'uniform' }, seed: 42 }, new Map());
  const c = sampleCurriculum({ pool: many, batchSize: 50, strategy: { kind: 'uniform' }, seed: 43 }, new Map());
  assert.deepEqual(a.problems, b.problems);
  assert.notDeepEqual(a.problems, c.problems);
  assert.equal(new Set(a.problems).size, 50);
  const short = sampleCurriculum({ pool: [...pool, 'mid'], batchSize: 5, strategy: { kind: 'band', lo: 0.4, hi: 0.6 }, seed: 1 }, estimates);
  assert.deepEqual([short.pool, short.eligible, short.problems.length, short.shortfall], [6, 2, 2, 3]);
  const repeated = sampleCurriculum({ pool, batchSize: 30, strategy: { kind: 'uniform' }, seed: 1, replacement: true }, estimates);
  assert.equal(repeated.problems.length, 30);
  assert.throws(() => sampleCurriculum({ pool, batchSize: 0, strategy: { kind: 'uniform' }, seed: 1 }, estimates), RangeError);
  assert.throws(() => sampleCurriculum({ pool, batchSize: 1, strategy: { kind: 'band', lo: 0.6, hi: 0.4 }, seed: 1 }, estimates), RangeError);
});

test('uniform draws are uniform: each of 10 problems first about 1/10 of the time over 20,000 seeds', () => {
  const ten = Array.from({ length: 10 }, (_, i) => `p${i}`);
  const first = new Map<string, number>();
  for (let seed = 0; seed < 20_000; seed++) {
    const id = sampleCurriculum({ pool: ten, batchSize: 3, strategy: { kind: 'uniform' }, seed }, new Map()).problems[0]!;
    first.set(id, (first.get(id) ?? 0) + 1);
  }
  // Binomial(20000, 0.1): sd 42; 6 sd is 255.
  for (const id of ten) assert.ok(Math.abs((first.get(id) ?? 0) - 2000) < 255, `${id}: ${first.get(id)}`);
});

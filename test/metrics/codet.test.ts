import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  codetProblemPassAtK,
  consensusSets,
  evaluateCodet,
  firstSamplePass,
  majorityPass,
  picksPerTier,
  tiersOf,
  type CodetProblem,
} from '../../src/metrics/codet.js';

const T = true;
const F = false;
const close = (a: number, b: number) => Math.abs(a - b) < 1e-12;

// Tests t0, t1, t2 generated 1, 2 and 1 times.
const hand: CodetProblem = {
  taskId: 'hand',
  solutions: [
    { multiplicity: 3, correct: false }, // s0 passes t0 t1
    { multiplicity: 1, correct: true }, // s1 passes t0 t1 t2
    { multiplicity: 2, correct: false }, // s2 passes t0 t1 t2
    { multiplicity: 4, correct: false }, // s3 passes nothing
    { multiplicity: 1, correct: false }, // s4 passes t2
  ],
  passes: [
    [T, T, F],
    [T, T, T],
    [T, T, T],
    [F, F, F],
    [F, F, T],
  ],
  testMultiplicities: [1, 2, 1],
};

test('consensus sets group by passed tests and count duplicates of solutions and tests', () => {
  const sets = consensusSets(hand);
  assert.equal(sets.length, 3);
  const [top, second, third] = sets;
  assert.deepEqual(top!.solutionIndices, [1, 2]);
  assert.deepEqual(top!.testIndices, [0, 1, 2]);
  assert.equal(top!.solutionCount, 3);
  assert.equal(top!.testCount, 4);
  assert.ok(close(top!.score, 4 * Math.sqrt(3)));
  assert.deepEqual(second!.solutionIndices, [0]);
  assert.ok(close(second!.score, 3 * Math.sqrt(3)));
  assert.deepEqual(third!.solutionIndices, [4]);
  assert.equal(third!.score, 1);
  assert.deepEqual(consensusSets(hand, 'product').map((s) => s.score), [12, 9, 1]);
});

test('CodeT pass@k: one pick per tier, extra picks round-robin from the top', () => {
  assert.deepEqual(picksPerTier(3, 1), [1]);
  assert.deepEqual(picksPerTier(3, 2), [1, 1]);
  assert.deepEqual(picksPerTier(3, 10), [4, 3, 3]);
  assert.deepEqual(picksPerTier(1, 3), [3]);
  const r = codetProblemPassAtK(hand, [1, 2, 10]);
  assert.equal(r.fallback, false);
  // top tier: 3 samples, 1 correct; the other tiers have no correct sample
  assert.ok(close(r.passAtK[0]!, 1 / 3));
  assert.ok(close(r.passAtK[1]!, 1 / 3));
  assert.ok(close(r.passAtK[2]!, 1 - (2 / 3) ** 4)); // 65/81
});

test('sqrt and product scoring can rank differently', () => {
  const p: CodetProblem = {
    taskId: 'flip',
    solutions: [
      { multiplicity: 1, correct: true }, // passes 3 tests: sqrt 3·1, product 3·1
      { multiplicity: 4, correct: false }, // passes 1 test: sqrt 1·2, product 1·4
    ],
    passes: [
      [T, T, T, F],
      [F, F, F, T],
    ],
  };
  assert.deepEqual(codetProblemPassAtK(p, [1, 2], 'sqrt').passAtK, [1, 1]);
  assert.deepEqual(codetProblemPassAtK(p, [1, 2], 'product').passAtK, [0, 1]);
});

test('sets with equal scores merge into one tier', () => {
  const p: CodetProblem = {
    taskId: 'tie',
    solutions: [
      { multiplicity: 1, correct: true },
      { multiplicity: 1, correct: false },
    ],
    passes: [
      [T, F],
      [F, T],
    ],
  };
  const tiers = tiersOf(p, consensusSets(p));
  assert.deepEqual(tiers, [{ score: 1, samples: 2, correct: 1 }]);
  const r = codetProblemPassAtK(p, [1, 2]);
  assert.equal(r.passAtK[0], 0.5);
  assert.equal(r.passAtK[1], 0.75); // two picks from the single tier: 1 − (1/2)²
});

test('no consensus set: plain pass@k over all samples', () => {
  const p: CodetProblem = {
    taskId: 'none',
    solutions: [
      { multiplicity: 3, correct: false },
      { multiplicity: 1, correct: true },
    ],
    passes: [
      [F, F],
      [F, F],
    ],
  };
  const r = codetProblemPassAtK(p, [1, 2, 10]);
  assert.equal(r.fallback, true);
  assert.ok(close(r.passAtK[0]!, 0.25));
  assert.ok(close(r.passAtK[1]!, 0.5)); // 1 − C(3,2)/C(4,2)
  assert.equal(r.passAtK[2], 1); // k > n with a correct sample
  const noTests = { ...p, passes: [[], []] };
  assert.equal(codetProblemPassAtK(noTests, [1]).fallback, true);
});

test('evaluateCodet averages over problems', () => {
  const e = evaluateCodet([hand, { ...hand, taskId: 'h2', solutions: hand.solutions.map((s) => ({ ...s, correct: true })) }]);
  assert.deepEqual(e.ks, [1, 2, 10]);
  assert.ok(close(e.passAtK[0]!, (1 / 3 + 1) / 2));
  assert.throws(() => evaluateCodet([]), /no problems/);
});

test('malformed problems are rejected', () => {
  assert.throws(() => consensusSets({ ...hand, passes: hand.passes.slice(1) }), /rows/);
  assert.throws(() => consensusSets({ ...hand, testMultiplicities: [1, 1] }), /multiplicities/);
  assert.throws(() => consensusSets({ ...hand, solutions: hand.solutions.map((s) => ({ ...s, multiplicity: 0 })) }), /multiplicity/);
});

test('baselines: first sample and majority of identical outputs', () => {
  assert.equal(firstSamplePass(hand.solutions), 0);
  assert.equal(firstSamplePass(hand.solutions.slice(1)), 1);
  const executed = [
    { multiplicity: 3, correct: false, outputs: ['1'] },
    { multiplicity: 2, correct: true, outputs: ['2'] },
    { multiplicity: 2, correct: false, outputs: ['2'] },
  ];
  assert.equal(majorityPass(executed), 0.5); // group "2" has 4 samples, 2 correct
  const tied = [
    { multiplicity: 2, correct: true, outputs: ['a', 'b'] },
    { multiplicity: 2, correct: false, outputs: ['a', 'c'] },
  ];
  assert.equal(majorityPass(tied), 0.5);
  assert.equal(majorityPass([{ multiplicity: 1, correct: true, outputs: [] }]), 1);
});

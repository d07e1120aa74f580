/**
 * Group signals (issue #28, item 1): numpy's float64 std to the bit, and DAPO's keep decisions equal to verl's on a
 * replayed batch (`test/fixtures/verl-dapo/batch.json`, recorded by running verl's rule with numpy on the host:
 * `make_fixture.py`).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { groupSignals, numpyStd, numpySum } from '../../src/reward/index.js';
import { PROJECT_ROOT } from '../../src/paths.js';

interface Fixture {
  readonly items: readonly { readonly uid: string; readonly k: number }[];
  readonly keptByAcc: readonly string[];
  readonly keptByReward: readonly string[];
}

const fixture = JSON.parse(readFileSync(join(PROJECT_ROOT, 'test/fixtures/verl-dapo/batch.json'), 'utf8')) as Fixture;

test('numpySum and numpyStd give numpy 1.24\'s bits (values printed by numpy)', () => {
  // python3 -c "import numpy as np; print(repr(np.std([0.1]*3)), repr(np.std([0.3]*10)), repr(np.std([0.1]*16)))"
  assert.equal(numpyStd([0.1, 0.1, 0.1]), 1.3877787807814457e-17);
  assert.equal(numpyStd(new Array(10).fill(0.3)), 5.551115123125783e-17);
  assert.equal(numpyStd(new Array(16).fill(0.1)), 0);
  assert.equal(numpyStd(new Array(6).fill(1 / 3)), 0);
  // np.sum(np.arange(1, 201) / 5) == 4019.9999999999995 (pairwise); a left-to-right loop gives 4020.0000000000005
  const fifths = Array.from({ length: 200 }, (_, i) => (i + 1) / 5);
  assert.equal(numpySum(fifths), 4019.9999999999995);
  assert.equal(fifths.reduce((a, x) => a + x, 0), 4020.0000000000005);
  assert.equal(numpyStd([true, false, false, true]), 0.5);
  assert.equal(numpyStd([1, 2, 3, 4], 1), Math.sqrt(5 / 3));
  assert.throws(() => numpyStd([]), RangeError);
});

test('groupSignals: counts, all-pass, all-fail and the keep rule on hand cases', () => {
  const mixed = groupSignals([1, 0, 0, 1], [true, false, false, true]);
  assert.deepEqual([mixed.size, mixed.passed, mixed.passRate, mixed.allPass, mixed.allFail, mixed.keep], [4, 2, 0.5, false, false, true]);
  const solved = groupSignals([1, 1], [true, true]);
  assert.deepEqual([solved.allPass, solved.allFail, solved.keep, solved.allEqual], [true, false, false, true]);
  // A single rollout is kept by verl whatever it scored.
  assert.equal(groupSignals([0], [false]).keep, true);
  // Rewards 0.1 x 3: equal, yet np.std > 0, so verl with metric seq_reward keeps the group.
  const tenths = groupSignals([0.1, 0.1, 0.1], [false, false, false]);
  assert.deepEqual([tenths.allEqual, tenths.keepByReward, tenths.keep], [true, true, false]);
  assert.throws(() => groupSignals([1], [true, false]), RangeError);
});

test('on a replayed GRPO batch the keep flags equal verl\'s filter_groups decisions exactly (acc and reward)', () => {
  const byUid = new Map<string, { rewards: number[]; acc: boolean[] }>();
  for (const item of fixture.items) {
    const group = byUid.get(item.uid) ?? { rewards: [], acc: [] };
    group.rewards.push(item.k / 10);
    group.acc.push(item.k === 10);
    byUid.set(item.uid, group);
  }
  const keptAcc: string[] = [];
  const keptReward: string[] = [];
  let allEqualButKept = 0;
  for (const [uid, g] of byUid) {
    const s = groupSignals(g.rewards, g.acc);
    if (s.keep) keptAcc.push(uid);
    if (s.keepByReward) keptReward.push(uid);
    if (s.allEqual && s.keepByReward && s.size > 1) allEqualButKept++;
    // On acc, keep is exactly "neither all pass nor all fail" (or a single rollout).
    assert.equal(s.keep, s.size === 1 || !(s.allPass || s.allFail), uid);
  }
  assert.deepEqual(keptAcc.sort(), [...fixture.keptByAcc]);
  assert.deepEqual(keptReward.sort(), [...fixture.keptByReward]);
  assert.ok(allEqualButKept > 0, 'the batch has equal-reward groups numpy keeps (the case an exact test gets wrong)');
});

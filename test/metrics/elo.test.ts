/**
 * CodeElo ratings (issue #28, item 5) on a hand-made contest set (`test/fixtures/elo/hand-contests.json`), every
 * figure worked out by hand in the comments, and the CLI on the same file.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { expectedPlace, modelScore, rateContest, rateContests, ratingForPlace, winProbability, type ContestResult } from '../../src/metrics/elo.js';
import { PROJECT_ROOT } from '../../src/paths.js';

const FIXTURE = join(PROJECT_ROOT, 'test/fixtures/elo/hand-contests.json');
const contests = (JSON.parse(readFileSync(FIXTURE, 'utf8')) as { contests: ContestResult[] }).contests;
const close = (a: number, b: number, eps = 1e-4): void => assert.ok(Math.abs(a - b) < eps, `${a} vs ${b}`);

test('Codeforces\' Elo probability and expected place', () => {
  close(winProbability(1700, 1500), 1 / (1 + 10 ** -0.5)); // 200 points: ~0.76 ("~0.75" in the blog)
  close(winProbability(1900, 1500), 10 / 11); // 400 points: ~0.9
  assert.equal(expectedPlace(1500, [1500, 1500]), 2);
  close(expectedPlace(1500, [1200, 1800]), 2); // the two terms add to 1 by symmetry
});

test('the hand-made contests: score, place and rating of each, and their mean', () => {
  const [cf, icpc, swept] = contests.map(rateContest);
  // cf: A 500 - 50*2 = 400; B 1000 - floor(1000*25/250) = 900; C unsolved: 1300 points. Humans 2000, 1300 (tie: ahead of
  // the model), 500: place 3. 1 + 3P = 3 -> P = 2/3 -> 10^((r-1500)/400) = 1/2 -> r = 1500 - 400 log10 2 = 1379.588.
  assert.deepEqual([cf!.points, cf!.place, cf!.participants, cf!.clamped], [1300, 3, 4, false]);
  close(cf!.rating, 1500 - 400 * Math.log10(2));
  // icpc: 2 solved, penalty 0 + (30 + 10*1) = 40; one human solved 3, one 1: place 2; 1 + P(1200) + P(1800) = 2 at 1500.
  assert.deepEqual([icpc!.solved, icpc!.penalty, icpc!.place], [2, 40, 2]);
  close(icpc!.rating, 1500);
  assert.equal(icpc!.percentile, 0.5);
  // swept: first of two; no finite rating expects place 1, so the upper bound (1400 + 100) with clamped set.
  assert.deepEqual([swept!.place, swept!.rating, swept!.clamped], [1, 1500, true]);
  const all = rateContests(contests, { reps: 500, seed: 3 });
  close(all.rating.point, (1500 - 400 * Math.log10(2) + 1500 + 1500) / 3);
  assert.ok(all.rating.lower >= 1379.58 && all.rating.lower < all.rating.point, String(all.rating.lower));
  close(all.rating.upper, 1500);
  assert.deepEqual(rateContests(contests, { reps: 500, seed: 3 }).rating, all.rating, 'same seed, same interval');
});

test('rules and input checks', () => {
  // At least 30% of the points however late or wrong.
  assert.equal(modelScore({ id: 'x', rules: 'cf', problems: [{ id: 'A', points: 1000, solved: true, submissions: 20, minute: 100 }], humans: [] }).points, 300);
  assert.throws(() => modelScore({ id: 'x', rules: 'cf', problems: [{ id: 'A', solved: true, submissions: 1 }], humans: [] }), /points/);
  assert.throws(() => modelScore({ id: 'x', rules: 'icpc', problems: [{ id: 'A', solved: true, submissions: 0 }], humans: [] }), /submissions/);
  assert.throws(() => rateContest({ id: 'x', rules: 'icpc', problems: [{ id: 'A', solved: false, submissions: 1 }], humans: [{ rating: 1500, solved: 1 }] }), /penalty/);
  // Last of all: the lower bound.
  assert.deepEqual(ratingForPlace(3, [1500, 1500], [0, 1600]), { rating: 0, clamped: true });
  close(ratingForPlace(2, [1500, 1500, 1500], [0, 4000]).rating, 1500 + 400 * Math.log10(2));
  assert.throws(() => rateContests([]), RangeError);
});

test('crucible elo prints the rating and its interval; --json gives the numbers', async () => {
  const run = (args: string[]) => new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(join(PROJECT_ROOT, 'bin', 'crucible'), args, (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code) : 0, stdout, stderr }));
  });
  const json = await run(['elo', '--contests', FIXTURE, '--json', '--reps', '500', '--seed', '3']);
  assert.equal(json.code, 0, json.stderr);
  const parsed = JSON.parse(json.stdout) as { model: string; rating: { point: number }; contests: { place: number }[] };
  close(parsed.rating.point, (1500 - 400 * Math.log10(2) + 3000) / 3);
  assert.deepEqual(parsed.contests.map((c) => c.place), [3, 2, 1]);
  const text = await run(['elo', '--contests', FIXTURE]);
  assert.match(text.stdout, /hand-made: Elo 1460 \(95% CI \d+–1500/);
  const bad = await run(['elo', '--contests', join(PROJECT_ROOT, 'package.json')]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /package\.json: contests: Required/);
});

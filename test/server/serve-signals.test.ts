/**
 * Training signals of `crucible serve` (issue #28, items 1-3), end to end on a real server, sandbox and store:
 * - a GRPO batch recorded with verl's DAPO rule (`test/fixtures/verl-dapo/batch.json`) replayed through
 *   `/v1/rewards` (JSON and NDJSON) and `/get_reward`: every group's keep flags equal verl's decisions;
 * - a problem's difficulty across steps (`GET /v1/problems/{id}/stats`), its EMA checked by hand;
 * - curriculum draws (`POST /v1/curriculum/sample`): eligibility by strategy, the same batch for the same seed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { IoProblem } from '../../src/formats/types.js';
import { Sandbox } from '../../src/sandbox/index.js';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { startServer, type ServerHandle } from '../../src/server/index.js';
import { createLogger } from '../../src/server/logging.js';
import { httpCall } from '../support/http.js';

interface Fixture {
  readonly items: readonly { readonly uid: string; readonly k: number }[];
  readonly keptByAcc: readonly string[];
  readonly keptByReward: readonly string[];
}
const fixture = JSON.parse(readFileSync(join(PROJECT_ROOT, 'test/fixtures/verl-dapo/batch.json'), 'utf8')) as Fixture;

/** Ten tests "i" -> "i"; the program of k passes exactly the first k. */
const TESTS = Array.from({ length: 10 }, (_, i) => ({ input: `${i}\n`, output: `${i}\n` }));
const passesFirst = (k: number): string => `n = int(input())\nprint(n if n < ${k} else -1)\n`;

const problem = (taskId: string): IoProblem => ({ kind: 'io', taskId, comparator: { kind: 'tokens' }, tests: [{ input: '2 3\n', output: '5\n' }] });
const SUM_PY = 'a, b = map(int, input().split())\nprint(a + b)\n';
const WRONG_PY = 'a, b = map(int, input().split())\nprint(a - b)\n';

const dir = mkdtempSync(join(tmpdir(), 'crucible-serve-signals-'));
let sandbox: Sandbox;
let server: ServerHandle;
let bare: ServerHandle;

before(async () => {
  sandbox = Sandbox.create({ slots: 2 });
  const problems = ['easy', 'medium', 'hard', 'fresh'].map(problem);
  server = await startServer({ port: 0, logLevel: 'silent', store: join(dir, 'store.db'), trainingRun: 'signals' },
    { sandbox, problems, logger: createLogger('silent') });
  bare = await startServer({ port: 0, logLevel: 'silent' }, { sandbox, problems, logger: createLogger('silent') });
});

after(async () => {
  await server.shutdown(5000);
  await bare.shutdown(1000);
  sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

const post = (s: ServerHandle, path: string, body: unknown, headers: Record<string, string> = {}) => httpCall(s.url, 'POST', path, body, headers);
const get = (s: ServerHandle, path: string) => httpCall(s.url, 'GET', path);

const replayItems = fixture.items.map((item, i) => ({ id: i, group: item.uid, code: passesFirst(item.k), tests: TESTS }));
const FRACTION = { kind: 'fraction' };

function keptOf(groups: readonly { group: string; keep: boolean; keepByReward: boolean }[]): { acc: string[]; reward: string[] } {
  return { acc: groups.filter((g) => g.keep).map((g) => g.group).sort(), reward: groups.filter((g) => g.keepByReward).map((g) => g.group).sort() };
}

describe('group signals on a replayed GRPO batch equal verl\'s filter_groups decisions', () => {
  test('/v1/rewards (JSON): n, mean, std, all-pass, all-fail and keep per group', async () => {
    const r = await post(bare, '/v1/rewards', { reward: FRACTION, items: replayItems });
    assert.equal(r.status, 200, r.text);
    const rewards = r.body.items.map((i: { reward: number }) => i.reward);
    assert.deepEqual(rewards, fixture.items.map((i) => i.k / 10));
    const kept = keptOf(r.body.groups);
    assert.deepEqual(kept.acc, [...fixture.keptByAcc]);
    assert.deepEqual(kept.reward, [...fixture.keptByReward]);
    for (const g of r.body.groups) {
      const ks = fixture.items.filter((i) => i.uid === g.group).map((i) => i.k);
      assert.equal(g.n, ks.length);
      assert.equal(g.allPass, ks.every((k) => k === 10), g.group);
      assert.equal(g.allFail, ks.every((k) => k !== 10), g.group);
      assert.equal(g.passed, ks.filter((k) => k === 10).length);
      assert.ok(Math.abs(g.mean - ks.reduce((a, k) => a + k / 10, 0) / ks.length) < 1e-12);
      assert.equal(typeof g.std, 'number');
    }
  });

  test('/v1/rewards (NDJSON): the group lines carry the same decisions', async () => {
    const response = await fetch(`${bare.url}/v1/rewards`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' },
      body: JSON.stringify({ reward: FRACTION, items: replayItems }) });
    assert.equal(response.status, 200);
    const lines = (await response.text()).trim().split('\n').map((l) => JSON.parse(l) as { kind: string; group: string; keep: boolean; keepByReward: boolean });
    const kept = keptOf(lines.filter((l) => l.kind === 'group'));
    assert.deepEqual(kept.acc, [...fixture.keptByAcc]);
    assert.deepEqual(kept.reward, [...fixture.keptByReward]);
  });

  test('/get_reward: extra_logs carry the group signals per sample, as numbers', async () => {
    const labels = fixture.items.map((item) => JSON.stringify({ tests: TESTS, reward: FRACTION, group: item.uid }));
    const query = fixture.items.map((item) => `\`\`\`python\n${passesFirst(item.k)}\`\`\``);
    const r = await post(bare, '/get_reward', { query, labels });
    assert.equal(r.status, 200, r.text);
    const logs = r.body.extra_logs as Record<string, number[]>;
    for (const key of ['group_index', 'group_size', 'group_mean', 'group_std', 'group_pass_rate', 'group_all_pass', 'group_all_fail', 'group_keep', 'group_keep_by_reward']) {
      assert.equal(logs[key]!.length, fixture.items.length, key);
      assert.ok(logs[key]!.every((v) => typeof v === 'number' && Number.isFinite(v)), key);
    }
    const acc = new Set(fixture.keptByAcc);
    const reward = new Set(fixture.keptByReward);
    fixture.items.forEach((item, i) => {
      assert.equal(logs.group_keep![i], acc.has(item.uid) ? 1 : 0, `${item.uid} acc`);
      assert.equal(logs.group_keep_by_reward![i], reward.has(item.uid) ? 1 : 0, `${item.uid} reward`);
    });
    // Without a label group, the prompt is the group key (OpenRLHF sends a prompt's samples with the same prompt).
    const byPrompt = await post(bare, '/get_reward', { query: [`P1${SUM_PY}`, `P1${WRONG_PY}`, `P2${SUM_PY}`], prompts: ['P1', 'P1', 'P2'], labels: ['easy', 'easy', 'easy'] });
    assert.equal(byPrompt.status, 200, byPrompt.text);
    assert.deepEqual(byPrompt.body.extra_logs.group_index, [0, 0, 1]);
    assert.deepEqual(byPrompt.body.extra_logs.group_keep, [1, 1, 1]);
    assert.deepEqual(byPrompt.body.extra_logs.group_all_pass, [0, 0, 1]);
  });
});

describe('difficulty per problem and curriculum draws from the store', () => {
  const rollouts = async (step: number, problemId: string, passing: number, failing: number): Promise<void> => {
    const items = [...Array.from({ length: passing }, () => SUM_PY), ...Array.from({ length: failing }, () => WRONG_PY)]
      .map((code, i) => ({ id: `${problemId}-${step}-${i}`, group: `${problemId}@${step}`, code, problem: problemId }));
    const r = await post(server, '/v1/rewards', { step, items });
    assert.equal(r.status, 200, r.text);
  };

  before(async () => {
    // easy: 4/4, 4/4, 3/4; medium: 1/4, 2/4, 2/4; hard: 0/4 each step; fresh: never.
    for (const [step, easy, medium] of [[0, 4, 1], [1, 4, 2], [2, 3, 2]] as const) {
      await rollouts(step, 'easy', easy, 4 - easy);
      await rollouts(step, 'medium', medium, 4 - medium);
      await rollouts(step, 'hard', 0, 4);
    }
  });

  test('GET /v1/problems/{id}/stats: counts and the EMA of the pass rate (α 0.3 by default)', async () => {
    const r = await get(server, '/v1/problems/medium/stats');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.run, 'signals');
    assert.deepEqual([r.body.rollouts, r.body.passed, r.body.steps, r.body.firstStep, r.body.lastStep], [12, 5, 3, 0, 2]);
    // ema0 = 0.25; ema1 = 0.3*0.5 + 0.7*0.25 = 0.325; ema2 = 0.3*0.5 + 0.7*0.325 = 0.3775
    assert.ok(Math.abs(r.body.ema - 0.3775) < 1e-12, String(r.body.ema));
    assert.deepEqual(r.body.series.map((p: { passRate: number }) => p.passRate), [0.25, 0.5, 0.5]);
    const alpha = await get(server, '/v1/problems/medium/stats?alpha=1');
    assert.equal(alpha.body.ema, 0.5);
    const unseen = await get(server, '/v1/problems/fresh/stats');
    assert.deepEqual([unseen.status, unseen.body.rollouts, unseen.body.ema], [200, 0, null]);
    assert.equal((await get(server, '/v1/problems/medium/stats?alpha=2')).status, 400);
    const unknownRun = await get(server, '/v1/problems/medium/stats?run=nope');
    assert.deepEqual([unknownRun.status, unknownRun.body.error.code], [404, 'unknown_training_run']);
    const noStore = await get(bare, '/v1/problems/medium/stats');
    assert.deepEqual([noStore.status, noStore.body.error.code], [409, 'no_store']);
  });

  test('POST /v1/curriculum/sample: band, drop-solved, drop-unsolved, uniform; the same seed draws the same batch', async () => {
    const pool = ['easy', 'medium', 'hard', 'fresh'];
    const draw = async (strategy: unknown, extra: Record<string, unknown> = {}) => {
      const r = await post(server, '/v1/curriculum/sample', { pool, batchSize: 4, strategy, seed: 7, ...extra });
      assert.equal(r.status, 200, r.text);
      return r.body as { problems: string[]; eligible: number; shortfall: number; estimates: Record<string, number | null> };
    };
    // EMAs: easy 0.3*0.75 + 0.7*1 = 0.925, medium 0.3775, hard 0; fresh has none (eligible unless excluded).
    const band = await draw({ kind: 'band', lo: 0.2, hi: 0.8 });
    assert.deepEqual(band.problems.sort(), ['fresh', 'medium']);
    assert.equal(band.shortfall, 2);
    assert.deepEqual((await draw({ kind: 'band', lo: 0.2, hi: 0.8 }, { unseen: 'exclude' })).problems, ['medium']);
    assert.deepEqual((await draw({ kind: 'drop-solved', solvedAt: 0.9 })).problems.sort(), ['fresh', 'hard', 'medium']);
    assert.deepEqual((await draw('drop-unsolved')).problems.sort(), ['easy', 'fresh', 'medium']);
    const uniform = await draw('uniform');
    assert.deepEqual([...uniform.problems].sort(), [...pool].sort());
    assert.ok(Math.abs(uniform.estimates.easy! - 0.925) < 1e-12);
    assert.equal(uniform.estimates.fresh, null);
    const again = await draw('uniform');
    assert.deepEqual(again.problems, uniform.problems);
    const withReplacement = await draw('uniform', { batchSize: 20, replacement: true });
    assert.equal(withReplacement.problems.length, 20);
    const bad = await post(server, '/v1/curriculum/sample', { pool, batchSize: 2, strategy: { kind: 'band', lo: 0.9, hi: 0.1 }, seed: 1 });
    assert.deepEqual([bad.status, bad.body.error.field], [400, 'strategy.lo']);
  });

  test('the training page links the difficulty page, which lists every problem hardest first', async () => {
    const runs = await get(server, '/ui/api/training/1/problems');
    assert.equal(runs.status, 200, runs.text);
    assert.deepEqual(runs.body.problems.map((p: { taskId: string }) => p.taskId), ['hard', 'medium', 'easy']);
    const training = await fetch(`${server.url}/ui/training/1`);
    assert.match(await training.text(), /training\/1\/problems/);
    const page = await fetch(`${server.url}/ui/training/1/problems`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /data-task="medium"/);
  });
});

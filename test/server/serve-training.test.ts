/**
 * `crucible serve` with a result store: the dashboard at /ui and every rewarded rollout recorded as a training
 * event, which the training page's series shows (issue #16). Real server, real sandbox, real programs, a real
 * SQLite store in a temporary directory.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { IoProblem } from '../../src/formats/types.js';
import { Sandbox } from '../../src/sandbox/index.js';
import { startServer, type ServerHandle } from '../../src/server/index.js';
import { createLogger } from '../../src/server/logging.js';
import { openResultStore } from '../../src/store/open.js';

const SUM: IoProblem = {
  kind: 'io', taskId: 'sum', comparator: { kind: 'tokens' },
  tests: [{ input: '1 2\n', output: '3\n' }, { input: '5 5\n', output: '10\n' }],
};
const SUM_PY = 'a, b = map(int, input().split())\nprint(a + b)\n';
const WRONG_PY = 'a, b = map(int, input().split())\nprint(a - b)\n';

const dir = mkdtempSync(join(tmpdir(), 'crucible-serve-training-'));
const storePath = join(dir, 'store.db');
let sandbox: Sandbox;
let server: ServerHandle;

before(async () => {
  sandbox = Sandbox.create({ slots: 2 });
  server = await startServer({ port: 0, logLevel: 'silent', store: storePath, trainingRun: 'grpo-test' },
    { sandbox, problems: [SUM], logger: createLogger('silent') });
});

after(() => {
  sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

async function postJson(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const response = await fetch(server.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

describe('crucible serve with a result store', () => {
  test('serves the dashboard at /ui', async () => {
    const page = await fetch(`${server.url}/ui/`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    const training = await fetch(`${server.url}/ui/training`);
    assert.equal(training.status, 200);
  });

  test('lists its problems at GET /v1/problems, a page at a time', async () => {
    const page = await fetch(`${server.url}/v1/problems`);
    assert.equal(page.status, 200);
    assert.deepEqual(await page.json(), { problems: [{ id: 'sum', qualifiedId: 'inline:sum', dataset: 'inline', kind: 'io', testCount: 2, language: 'python' }], total: 1, offset: 0, next: null });
    const bad = await fetch(`${server.url}/v1/problems?limit=0`);
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { error: { field: string } }).error.field, 'limit');
  });

  test('records each rewarded rollout of /v1/rewards and /get_reward in the training run, by step and group', async () => {
    const step0 = await postJson('/v1/rewards', { step: 0, items: [
      { id: 1, group: 'p@0', code: SUM_PY, problem: 'sum' },
      { id: 2, group: 'p@0', code: WRONG_PY, problem: 'sum' },
    ] });
    assert.equal(step0.status, 200);
    assert.deepEqual(step0.body.items.map((i: { reward: number }) => i.reward), [1, 0]);
    const step1 = await postJson('/v1/rewards', { step: 1, items: [
      { id: 3, group: 'p@1', code: SUM_PY, problem: 'sum' },
      { id: 4, group: 'p@1', code: SUM_PY, problem: 'sum' },
    ] });
    assert.equal(step1.status, 200);
    const openrlhf = await postJson('/get_reward', { query: [`\`\`\`python\n${WRONG_PY}\`\`\``], labels: ['sum'] });
    assert.equal(openrlhf.status, 200);
    assert.deepEqual(openrlhf.body.rewards, [0]);
    // Another trainer on the same server names its run in a header; a batch it retries (same Idempotency-Key) counts once.
    const b = { 'x-crucible-training-run': 'trainer-b', 'idempotency-key': 'batch-7' };
    for (let attempt = 0; attempt < 2; attempt++) {
      assert.equal((await postJson('/v1/rewards', { step: 7, items: [{ id: 1, code: SUM_PY, problem: 'sum' }, { id: 2, code: WRONG_PY, problem: 'sum' }] }, b)).status, 200);
    }
    assert.equal((await postJson('/get_reward', { query: [SUM_PY], labels: ['sum'] }, { 'x-crucible-training-run': 'trainer-b' })).status, 200);
    // A third names it in the body, which beats the header.
    assert.equal((await postJson('/v1/rewards', { step: 0, trainingRun: 'trainer-c', items: [{ id: 1, code: SUM_PY, problem: 'sum' }] },
      { 'x-crucible-training-run': 'trainer-b' })).status, 200);
    const badRun = await postJson('/v1/rewards', { items: [] }, { 'x-crucible-training-run': 'no spaces please' });
    assert.equal(badRun.status, 400);
    await server.shutdown(5000);

    const store = await openResultStore(storePath);
    try {
      const run = await store.getTrainingRun('grpo-test');
      assert.ok(run, 'the training run exists');
      assert.equal(run.events, 5);
      const series = await store.trainingSeries(run.id);
      // The OpenRLHF rollout carries no step: it is counted apart, and the run stays on its step axis.
      assert.equal(series.unit, 'step');
      assert.equal(series.unstepped, 1);
      assert.equal(series.buckets.reduce((n, b) => n + b.events, 0), 4);
      assert.equal(series.buckets.reduce((n, b) => n + b.passed, 0), 3);
      assert.ok(series.buckets.every((b) => b.latencyMeanMs !== null && b.latencyMeanMs > 0), 'each rollout has its call\'s latency');
      const sumEvents = series.problems.filter((p) => p.taskId === 'sum').reduce((n, p) => n + p.events, 0);
      assert.equal(sumEvents, 4);
      const trainerB = await store.getTrainingRun('trainer-b');
      assert.equal(trainerB?.events, 3, 'the retried batch once, plus the OpenRLHF call');
      assert.equal((await store.getTrainingRun('trainer-c'))?.events, 1);
      assert.equal(series.buckets.reduce((n, b) => n + b.zeroVarianceGroups, 0), 1, 'group p@1 (both rewards 1) has zero variance');
    } finally {
      await store.close();
    }
  });
});

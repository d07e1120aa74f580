/**
 * `QueueJudge` and the worker loop in one process against a real `redis-server`: answers that are not verdicts
 * on the program. A request the worker's judge refuses rejects with `JudgeRequestError`; a job that fails on
 * every attempt (its dataset is gone from Redis) is an `internal_error` verdict naming why; a cancelled call
 * rejects with its signal's reason and its job leaves the queue; a real program gets its real verdict.
 */
// crucible-test: alone — a dataset's expiry in Redis is timed (answered within 6 s of the last front end leaving) (test/run.ts runs it with no other file).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import type { UnitTestProblem } from '../../src/formats/types.js';
import { JudgeRequestError } from '../../src/judge/judge.js';
import { defaultSubmissionContext } from '../../src/kinds/index.js';
import { queueLocation, type QueueLocation } from '../../src/queue/connection.js';
import { QueueJudge } from '../../src/queue/queue-judge.js';
import { startWorker, type RunningWorker } from '../../src/queue/worker.js';
import { datasetKey } from '../../src/queue/wire.js';
import { startRedis, type RedisServer } from '../support/redis.js';

const problem: UnitTestProblem = {
  kind: 'unit_test', taskId: 'add', language: 'python', prompt: 'def add(a, b):\n', entryPoint: 'add',
  test: 'def check(f):\n    assert f(2, 3) == 5\n    assert f(-1, 1) == 0\n',
};
const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);
const program = (body: string) => ({ language: 'python', source: `def add(a, b):\n    ${body}\n` });

describe('QueueJudge with a worker on a real Redis', () => {
  let redis: RedisServer;
  let client: Redis;
  let location: QueueLocation;

  before(async () => {
    redis = await startRedis();
    client = new Redis(redis.url, { maxRetriesPerRequest: null });
    location = queueLocation(redis.url);
  });

  after(async () => {
    client.disconnect();
    await redis.stop();
  });

  it('cancels a call whose job no worker has taken, and removes the job', async () => {
    const judge = await QueueJudge.connect(location);
    try {
      judge.catalog.add(HASH_A, [problem]);
      const controller = new AbortController();
      const call = judge.judge({ problem: { datasetHash: HASH_A, taskId: 'add' }, program: program('return a + b') }, { signal: controller.signal });
      // Every job carries a priority (interactive before batch, tenants round-robin): it waits in BullMQ's prioritized set.
      const waiting = async (): Promise<number> => (await client.llen('crucible:judge:wait')) + (await client.zcard('crucible:judge:prioritized'));
      for (let i = 0; i < 100 && (await waiting()) === 0; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(await waiting(), 1, 'the job is waiting');
      controller.abort();
      await assert.rejects(call, (error: Error) => error.name === 'AbortError');
      for (let i = 0; i < 100 && (await waiting()) > 0; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(await waiting(), 0, 'the cancelled job left the queue');
    } finally {
      await judge.close();
    }
  });

  it('ships a dataset with a time to live that starts again while a front end uses it, and lets it expire after', async () => {
    const hash = 'c'.repeat(64);
    const key = datasetKey(location.prefix, location.queueName, hash);
    const judge = await QueueJudge.connect(location, { datasetTtlS: 2 });
    try {
      judge.catalog.add(hash, [problem]);
      await judge.catalog.shipped(hash);
      const ttl = await client.ttl(key);
      assert.ok(ttl > 0 && ttl <= 2, `time to live ${ttl} s`);
      await new Promise((r) => setTimeout(r, 3_000));
      assert.equal(await client.exists(key), 1, 'in use for longer than its time to live, and still there');
    } finally {
      await judge.close();
    }
    for (let waited = 0; (await client.exists(key)) === 1; waited += 200) {
      assert.ok(waited < 6_000, 'the dataset did not expire once no front end used it');
      await new Promise((r) => setTimeout(r, 200));
    }
  });

  it('judges, refuses what the worker refuses, and turns a job failing every attempt into internal_error', async () => {
    const context = defaultSubmissionContext();
    const worker: RunningWorker = await startWorker({ location, name: 'unit', crucibleVersion: 'test',
      judge: { slots: 1, cacheDir: null, languages: context.languages, modes: context.modes } });
    const judge = await QueueJudge.connect(location, { reconcileAfterMs: 3_000 });
    try {
      judge.catalog.add(HASH_A, [problem]);
      const ref = { datasetHash: HASH_A, taskId: 'add' };
      const right = await judge.judge({ problem: ref, program: program('return a + b') });
      assert.equal(right.status, 'passed');
      assert.equal(right.judgedBy?.worker, 'unit');
      const wrong = await judge.judge({ problem: ref, program: program('return a - b') });
      assert.equal(wrong.status, 'wrong_answer');
      const inline = await judge.judge({ problem: { inline: problem }, program: program('raise ValueError("no")') });
      assert.equal(inline.status, 'runtime_error');
      // The health check of a queue-backed judge: a known-good program judged end to end by a worker.
      const health = await judge.selfTest();
      assert.equal(health.ok, true, JSON.stringify(health));
      assert.deepEqual(health.checks.map((c) => c.name), ['queue']);

      await assert.rejects(judge.judge({ problem: ref, program: { language: 'no-such-language', source: 'x' } }),
        (error: Error) => error instanceof JudgeRequestError && error.field === 'program.language');

      // Requests made together travel as one batch job; each caller gets its own answer, refusals included.
      const together = await Promise.allSettled([
        judge.judge({ problem: ref, program: program('return a + b') }),
        judge.judge({ problem: ref, program: program('return a * b') }),
        judge.judge({ problem: { inline: problem }, program: program('return (a + b) % 7') }),
        judge.judge({ problem: ref, program: { language: 'no-such-language', source: 'x' } }),
        judge.judge({ problem: ref, program: program('while True: pass') }, { detail: true }),
      ]);
      assert.deepEqual(together.map((r) => (r.status === 'fulfilled' ? r.value.status : (r.reason as Error).name)),
        ['passed', 'wrong_answer', 'passed', 'JudgeRequestError', 'time_limit_exceeded']);
      const batches = await client.zrange('crucible:judge:completed', '0', '-1');
      const names = await Promise.all(batches.map((id) => client.hget(`crucible:judge:${id}`, 'name')));
      assert.equal(names.filter((n) => n === 'batch').length, 1, `job names ${names.join(' ')}`);

      // A dataset that vanished from Redis after its front end shipped it (here: it found one under the hash and
      // shipped nothing): every attempt fails on the worker, which never saw it; the sample is internal_error.
      const fresh = await QueueJudge.connect(location);
      try {
        await client.set(datasetKey(location.prefix, location.queueName, HASH_B), 'marker');
        fresh.catalog.add(HASH_B, [problem]);
        await fresh.catalog.shipped(HASH_B);
        await client.del(datasetKey(location.prefix, location.queueName, HASH_B));
        const lost = await fresh.judge({ problem: { datasetHash: HASH_B, taskId: 'add' }, program: program('return b + a') });
        assert.equal(lost.status, 'internal_error');
        assert.match(lost.reason ?? '', /failed on every attempt.*not in Redis/);
      } finally {
        await fresh.close();
      }
    } finally {
      await judge.close();
      await worker.drain();
    }
  });
});

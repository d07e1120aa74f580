/**
 * Scheduling across a fleet, with a real `redis-server` and a real worker holding one job at a time: interactive
 * work goes before a batch backlog, one tenant's burst does not hold back another tenant's first job, and a
 * server on the queue answers 429 with `Retry-After` once the queue's backlog exceeds the fleet's capacity
 * times its factor (and admits again once the backlog is worked off).
 */
// crucible-test: alone — job order and 429 admission are timed against 0.4 s programs on a one-slot worker (test/run.ts runs it with no other file).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import type { IoProblem } from '../../src/formats/types.js';
import type { CallOptions } from '../../src/judge/judge.js';
import { defaultSubmissionContext } from '../../src/kinds/index.js';
import { queueLocation, type QueueLocation } from '../../src/queue/connection.js';
import { QueueJudge } from '../../src/queue/queue-judge.js';
import { startWorker, type RunningWorker } from '../../src/queue/worker.js';
import { startServer } from '../../src/server/index.js';
import { createLogger } from '../../src/server/logging.js';
import { httpCall } from '../support/http.js';
import { startRedis, type RedisServer } from '../support/redis.js';

const ECHO: IoProblem = { kind: 'io', taskId: 'echo', comparator: { kind: 'tokens' }, tests: [{ input: '7\n', output: '7\n' }] };
/** Sleeps (no CPU) so a backlog builds behind the one job the worker holds. */
const SLOW_ECHO = 'import time\ntime.sleep(0.4)\nprint(input())\n';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('fleet scheduling and admission', () => {
  let redis: RedisServer;
  let client: Redis;
  let location: QueueLocation;
  let worker: RunningWorker;

  before(async () => {
    redis = await startRedis();
    client = new Redis(redis.url, { maxRetriesPerRequest: null });
    location = queueLocation(redis.url);
    const context = defaultSubmissionContext();
    worker = await startWorker({ location, name: 'one-at-a-time', crucibleVersion: 'test', concurrency: 1,
      judge: { slots: 1, cacheDir: null, languages: context.languages, modes: context.modes } });
  });

  after(async () => {
    await worker?.drain();
    client?.disconnect();
    await redis?.stop();
  });

  /** Jobs queued or held now. */
  const queued = async (): Promise<number> => (await client.zcard('crucible:judge:prioritized')) + (await client.llen('crucible:judge:wait'))
    + (await client.llen('crucible:judge:active'));

  it('takes an interactive job and another tenant\'s job before a tenant\'s batch backlog', async () => {
    // Priority batch by default, as crucible eval; one request per job, so the order shows job by job.
    const judge = await QueueJudge.connect(location, { maxBatch: 1 });
    try {
      const order: string[] = [];
      const submit = (label: string, options: CallOptions): Promise<void> =>
        judge.judge({ problem: { inline: ECHO }, program: { language: 'python', source: SLOW_ECHO } }, options).then((v) => {
          assert.equal(v.status, 'passed', v.reason);
          order.push(label);
        });
      const burst = Array.from({ length: 12 }, (_, i) => submit(`A${i}`, { tenant: 'A' }));
      for (let waited = 0; (await queued()) < 12 - order.length; waited += 20) {
        assert.ok(waited < 10_000, 'the burst was not queued');
        await sleep(20);
      }
      const doneBefore = order.length;
      assert.ok(doneBefore <= 6, `the worker finished ${doneBefore} of the burst before it was queued: no backlog`);
      const others = [submit('B', { tenant: 'B' }), submit('I', { tenant: 'A', priority: 'interactive' })];
      await Promise.all([...burst, ...others]);
      assert.equal(order.length, 14);
      // At most the job the worker held when B and I arrived finishes between them and the ones before.
      assert.ok(order.indexOf('I') <= doneBefore + 1, `interactive finished at ${order.indexOf('I')}: ${order.join(' ')}`);
      assert.ok(order.indexOf('B') <= doneBefore + 2, `tenant B finished at ${order.indexOf('B')}: ${order.join(' ')}`);
      assert.ok(order.indexOf('B') < order.indexOf('A11'), 'B waited for the whole burst of A');
    } finally {
      await judge.close();
    }
  });

  it('answers 429 with Retry-After while the backlog exceeds the fleet\'s capacity, and admits again after', async () => {
    const server = await startServer({ port: 0, queue: redis.url, logLevel: 'silent', fleetBacklogPerSlot: 2 },
      { problems: [ECHO], logger: createLogger('silent') });
    const batch = await QueueJudge.connect(location, { maxBatch: 1 }); // six jobs, not one batch of six
    try {
      const post = (): ReturnType<typeof httpCall> => httpCall(server.url, 'POST', '/v1/judge', { code: 'print(input())\n', problem: 'echo', tenant: 'trainer-1' });
      const ok = await post();
      assert.equal(ok.status, 200, ok.text);
      assert.equal(ok.body.status, 'passed');
      const backlog = Array.from({ length: 6 }, () =>
        batch.judge({ problem: { inline: ECHO }, program: { language: 'python', source: SLOW_ECHO } }));
      let refused = await post();
      for (let waited = 0; refused.status !== 429; waited += 100) {
        assert.ok(waited < 10_000, `never refused while 6 jobs waited for 1 slot (last ${refused.status})`);
        await sleep(100);
        refused = await post();
      }
      assert.equal(refused.body.error.code, 'overloaded');
      assert.match(refused.body.error.message, /jobs wait for 1 slots/);
      assert.ok(Number(refused.headers.get('retry-after')) >= 1, 'Retry-After in seconds');
      const bad = await httpCall(server.url, 'POST', '/v1/judge', { code: 'print(1)', problem: 'echo', tenant: 'no spaces' });
      assert.equal(bad.status, 400);
      for (const verdict of await Promise.all(backlog)) assert.equal(verdict.status, 'passed');
      let admitted = await post();
      for (let waited = 0; admitted.status !== 200; waited += 200) {
        assert.ok(waited < 10_000, 'still refused after the backlog was worked off');
        await sleep(200);
        admitted = await post();
      }
      assert.equal(admitted.body.status, 'passed');
    } finally {
      await batch.close();
      await server.shutdown(1000);
    }
  });
});

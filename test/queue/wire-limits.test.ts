/**
 * The queue's wire checks a job's limits against `LIMIT_RANGES` on both sides (issue #23, item 9): a front end
 * refuses to enqueue a request whose limits are out of range, and a worker answers such a job — written by hand,
 * straight into BullMQ — with `request_error` naming the field, before it runs anything (no 2^31 ms timer, no
 * 45 s sleeper, no 300 MiB of output kept). A real `redis-server` and a real worker.
 */
// crucible-test: alone — a refused 45 s sleeper must be answered before it could run (test/run.ts runs it with no other file).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { JudgeRequestError } from '../../src/judge/judge.js';
import { defaultSubmissionContext } from '../../src/kinds/index.js';
import { queueLocation, type QueueLocation } from '../../src/queue/connection.js';
import { QueueJudge } from '../../src/queue/queue-judge.js';
import { jobLimitsProblem, jobResultSchema, WIRE_VERSION, type JobPayload } from '../../src/queue/wire.js';
import { startWorker, type RunningWorker } from '../../src/queue/worker.js';
import { startRedis, type RedisServer } from '../support/redis.js';

const SLEEPER = { language: 'python', source: 'import time\ntime.sleep(45)\nprint("x" * (300 << 20))\n' };
const TESTS = [{ input: '', output: 'x\n' }];
const inline = (extra: Record<string, unknown> = {}) => ({ inline: { kind: 'io', taskId: 'sleeper', tests: TESTS, comparator: { kind: 'tokens' }, ...extra } });

describe('job limits out of range (pure)', () => {
  const cases: [string, JobPayload, string][] = [
    ['a judge job\'s CPU limit of 2^31 ms', { v: WIRE_VERSION, kind: 'judge', detail: false,
      request: { problem: inline() as never, program: SLEEPER, limits: { cpuMs: 2 ** 31 } } }, 'request.limits.cpuMs'],
    ['a plain job\'s wall limit of 2^31 ms', { v: WIRE_VERSION, kind: 'plain',
      request: { program: SLEEPER, stdin: '', limits: { cpuMs: 1000, memoryKiB: 65536, wallMs: 2 ** 31 } } }, 'request.limits.wallMs'],
    ['a plain job keeping 300 MiB of output', { v: WIRE_VERSION, kind: 'plain',
      request: { program: SLEEPER, stdin: '', limits: { cpuMs: 1000, memoryKiB: 65536, outputBytes: 300 << 20 } } }, 'request.limits.outputBytes'],
    ['an inline problem\'s own time limit', { v: WIRE_VERSION, kind: 'describe', problem: inline({ timeLimitMs: 45_000_000 }) as never },
      'describe.problem.inline.timeLimitMs'],
    ['a harness job\'s wall limit', { v: WIRE_VERSION, kind: 'harness', job: { mode: 'call', program: 'def f(): pass', entryPoint: 'f', inputs: [],
      cpuMs: 100, wallMs: 2 ** 40, memoryKiB: 65536, outputBytes: 1 << 20 } }, 'job.wallMs'],
  ];
  for (const [name, payload, field] of cases) {
    it(name, () => {
      const problem = jobLimitsProblem(payload);
      assert.ok(problem !== null, 'refused');
      assert.ok(problem.message.startsWith(`${field}: `), problem.message);
      assert.match(problem.message, /outside the allowed range/);
    });
  }
  it('limits in range pass', () => {
    assert.equal(jobLimitsProblem({ v: WIRE_VERSION, kind: 'plain', request: { program: SLEEPER, stdin: '',
      limits: { cpuMs: 1000, memoryKiB: 65536, wallMs: 300_000, outputBytes: 64 << 20, compileCpuMs: 60_000 } } }), null);
  });
});

describe('on a real Redis: the front end and the worker both refuse', () => {
  let redis: RedisServer;
  let client: Redis;
  let location: QueueLocation;
  let worker: RunningWorker;

  before(async () => {
    redis = await startRedis();
    client = new Redis(redis.url, { maxRetriesPerRequest: null });
    location = queueLocation(redis.url);
    const context = defaultSubmissionContext();
    worker = await startWorker({ location, name: 'limits', crucibleVersion: 'test',
      judge: { slots: 1, cacheDir: null, languages: context.languages, modes: context.modes } });
  });

  after(async () => {
    await worker.drain();
    client.disconnect();
    await redis.stop();
  });

  it('QueueJudge refuses to enqueue out-of-range limits (JudgeRequestError naming limits)', async () => {
    const judge = await QueueJudge.connect(location);
    try {
      await assert.rejects(judge.judge({ problem: inline() as never, program: SLEEPER, limits: { cpuMs: 2 ** 31 } }),
        (e: Error) => e instanceof JudgeRequestError && e.field === 'limits' && /cpuMs/.test(e.message));
      await assert.rejects(judge.runPlain({ program: SLEEPER, stdin: '', limits: { cpuMs: 45_000, memoryKiB: 65536, outputBytes: 300 << 20 } }),
        (e: Error) => e instanceof JudgeRequestError && e.field === 'limits' && /outputBytes/.test(e.message));
      const waiting = (await client.llen('crucible:judge:wait')) + (await client.zcard('crucible:judge:prioritized'));
      assert.equal(waiting, 0, 'nothing was enqueued');
    } finally {
      await judge.close();
    }
  });

  it('a worker answers a hand-written job with out-of-range limits as request_error, without running it', async () => {
    const queue = new Queue(location.queueName, { connection: client, prefix: location.prefix });
    // BullMQ does not close connections it is handed: this one is disconnected below.
    const eventsConnection = client.duplicate();
    const events = new QueueEvents(location.queueName, { connection: eventsConnection, prefix: location.prefix });
    try {
      await events.waitUntilReady();
      const jobs: [JobPayload, string][] = [
        [{ v: WIRE_VERSION, kind: 'plain', request: { program: SLEEPER, stdin: '', limits: { cpuMs: 1000, memoryKiB: 65536, wallMs: 2 ** 31 } } }, 'wallMs'],
        [{ v: WIRE_VERSION, kind: 'plain', request: { program: SLEEPER, stdin: '', limits: { cpuMs: 1000, memoryKiB: 65536, outputBytes: 300 << 20 } } }, 'outputBytes'],
        [{ v: WIRE_VERSION, kind: 'judge', detail: false, request: { problem: inline() as never, program: SLEEPER, limits: { cpuMs: 2 ** 31 } } }, 'cpuMs'],
        [{ v: WIRE_VERSION, kind: 'batch', items: [
          { v: WIRE_VERSION, kind: 'judge', detail: false, request: { problem: inline() as never, program: SLEEPER, limits: { memoryKiB: 2 ** 40 } } }] }, 'memoryKiB'],
      ];
      const started = worker.completed();
      for (const [payload, field] of jobs) {
        const job = await queue.add(payload.kind, payload);
        const result = jobResultSchema.parse(await job.waitUntilFinished(events, 60_000));
        const answer = result.kind === 'batch' ? result.results[0]! : result;
        assert.equal(answer.kind, 'request_error', JSON.stringify(answer));
        if (answer.kind !== 'request_error') continue;
        assert.equal(answer.field, 'limits');
        assert.match(answer.message, new RegExp(`${field}: .* is outside the allowed range`));
      }
      assert.equal(worker.completed() - started, jobs.length, 'every job was answered (none retried or failed)');
    } finally {
      await events.close();
      await queue.close();
      eventsConnection.disconnect();
    }
  });
});

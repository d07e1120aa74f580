/**
 * Redis itself goes down mid-run: a real `redis-server` with persistence on (an append-only file fsynced on every
 * write) is killed with SIGKILL while `crucible eval --queue` judges 400 real HumanEval samples on two
 * `crucible worker` processes, and started again on the same port and directory a moment later. The front end
 * and the workers reconnect (ioredis), the queue comes back from the append-only file, and the run finishes:
 * every sample gets exactly one verdict, none of them Crucible's failure, and each equals a local run's.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startRedis, type RedisServer } from '../support/redis.js';
import { evalRun, spawnWorker, stopWorkers, verdictLines, writeSubset, type Subset } from '../support/queue-eval.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-redis-restart-'));
const env = { ...process.env, CRUCIBLE_CACHE_DIR: join(dir, 'cache') };
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('crucible eval --queue across a Redis crash and restart (append-only file)', () => {
  let redis: RedisServer | undefined;
  let subset: Subset;
  const workers: ChildProcess[] = [];

  before(async () => {
    subset = await writeSubset(dir, 40, 10);
    redis = await startRedis({ appendOnly: true });
  });

  after(async () => {
    await stopWorkers(workers);
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('resumes: every sample gets exactly one verdict, equal to a local run\'s', async () => {
    assert.equal(subset.samples, 400);
    const local = await evalRun(subset, join(dir, 'local'), ['--jobs', '2'], env);
    assert.equal(local.code, 0, local.output);
    workers.push(spawnWorker(redis!.url, 'r1', env), spawnWorker(redis!.url, 'r2', env));

    const out = join(dir, 'queue');
    const run = evalRun(subset, out, ['--queue', redis!.url], env);
    for (let waited = 0; verdictLines(out).length < 100; waited += 100) {
      assert.ok(waited < 180_000, 'the run did not reach 100 verdicts');
      await sleep(100);
    }
    const pidBefore = redis!.pid;
    await redis!.crash();
    const atCrash = verdictLines(out).length;
    await sleep(1_500);
    await redis!.restart();
    assert.notEqual(redis!.pid, pidBefore, 'a new redis-server process');
    const queued = await run;
    assert.equal(queued.code, 0, queued.output);
    assert.ok(atCrash < subset.samples, 'the run had finished before Redis went down');

    const lines = verdictLines(out);
    const keys = lines.map((l) => `${l.taskId}#${l.sampleIndex}`);
    assert.equal(lines.length, subset.samples);
    assert.equal(new Set(keys).size, subset.samples, 'a sample has more than one verdict');
    assert.deepEqual(lines.filter((l) => l.status === 'internal_error').map((l) => `${l.taskId}#${l.sampleIndex}`), []);
    const reference = new Map(verdictLines(join(dir, 'local')).map((l) => [`${l.taskId}#${l.sampleIndex}`, l.status]));
    const differing = lines.filter((l) => reference.get(`${l.taskId}#${l.sampleIndex}`) !== l.status)
      .map((l) => `${l.taskId}#${l.sampleIndex}: local ${reference.get(`${l.taskId}#${l.sampleIndex}`)}, queue ${l.status}`);
    assert.deepEqual(differing, []);
  });
});

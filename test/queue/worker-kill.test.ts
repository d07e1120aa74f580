/**
 * The queue with real parts: a real `redis-server` on a free loopback port, three `crucible worker` processes
 * (own process groups, one slot each), and `crucible eval --queue` on 2,000 real HumanEval samples (CodeGen-16B
 * completions from CodeT's files: the first 20 samples of the first 100 problems). One worker is SIGKILLed
 * (its whole process group) while it holds jobs; its jobs must be judged again by the others, every sample must
 * get exactly one verdict, and every verdict must equal a local run's on the same samples.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { readFleet } from '../../src/queue/fleet.js';
import { queueLocation } from '../../src/queue/connection.js';
import { jobResultSchema } from '../../src/queue/wire.js';
import { startRedis, type RedisServer } from '../support/redis.js';
import { evalRun as runEval, killGroup, spawnWorker, stopWorkers, verdictLines as verdicts, writeSubset, type Subset } from '../support/queue-eval.js';

const PROBLEMS = 100;
const SAMPLES_PER_PROBLEM = 20;

const dir = mkdtempSync(join(tmpdir(), 'crucible-queue-test-'));
const env = { ...process.env, CRUCIBLE_CACHE_DIR: join(dir, 'cache') };
const workers = new Map<string, ChildProcess>();
let redis: RedisServer | undefined;
let client: Redis | undefined;
let subset: Subset;

const evalRun = (out: string, extra: readonly string[]): ReturnType<typeof runEval> => runEval(subset, out, extra, env);

function startWorker(name: string): ChildProcess {
  const child = spawnWorker(redis!.url, name, env);
  workers.set(name, child);
  return child;
}

const lineCount = (out: string): number => verdicts(out).length;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('crucible eval --queue on three workers, one SIGKILLed mid-run', () => {
  let sampleCount = 0;

  before(async () => {
    subset = await writeSubset(dir, PROBLEMS, SAMPLES_PER_PROBLEM);
    sampleCount = subset.samples;
    redis = await startRedis();
    client = new Redis(redis.url, { maxRetriesPerRequest: null });
  });

  after(async () => {
    await stopWorkers(workers.values());
    client?.disconnect();
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('judges every sample exactly once, as a local run does, after a worker dies holding jobs', async () => {
    assert.ok(sampleCount >= 2_000, `${sampleCount} samples`);
    const local = await evalRun(join(dir, 'local'), ['--jobs', '2']);
    assert.equal(local.code, 0, local.output);

    for (const name of ['w1', 'w2', 'w3']) startWorker(name);
    const location = queueLocation(redis!.url);
    for (let waited = 0; (await readFleet(client!, location)).workers.length < 3; waited += 200) {
      assert.ok(waited < 60_000, 'three workers did not advertise themselves within 60 s');
      await sleep(200);
    }

    const out = join(dir, 'queue');
    const run = evalRun(out, ['--queue', redis!.url]);
    // Kill w2 once the run is well under way and w2 holds jobs (BullMQ records the worker name on each job it
    // takes); the jobs still active under its name just after the kill are the ones it can never finish.
    const heldBy = async (name: string): Promise<string[]> => {
      const active = await client!.lrange('crucible:judge:active', 0, -1);
      const takenBy = await Promise.all(active.map((id) => client!.hget(`crucible:judge:${id}`, 'pb')));
      return active.filter((_, i) => takenBy[i] === name);
    };
    for (let waited = 0; ; waited += 100) {
      assert.ok(waited < 120_000, 'w2 never held two jobs while the run was under way');
      await sleep(100);
      if (lineCount(out) >= 200 && (await heldBy('w2')).length >= 2) break;
    }
    killGroup(workers.get('w2')!, 'SIGKILL');
    const before = lineCount(out);
    const queued = await run;
    assert.equal(queued.code, 0, queued.output);
    assert.ok(before < sampleCount, 'the run had finished before the kill');

    const lines = verdicts(out);
    const keys = lines.map((l) => `${l.taskId}#${l.sampleIndex}`);
    assert.equal(lines.length, sampleCount);
    assert.equal(new Set(keys).size, sampleCount, 'a sample has more than one verdict');
    assert.equal(lines.filter((l) => l.status === 'internal_error').length, 0);
    // Provenance: every verdict names the worker that judged it and its Python toolchain.
    const unattributed = lines.filter((l) => !['w1', 'w2', 'w3'].includes(l.judgedBy?.worker ?? '') || !/Python 3/.test(l.judgedBy?.toolchain ?? ''));
    assert.deepEqual(unattributed.slice(0, 3), [], 'verdicts without a worker and toolchain');

    const reference = new Map(verdicts(join(dir, 'local')).map((l) => [`${l.taskId}#${l.sampleIndex}`, l.status]));
    assert.equal(reference.size, sampleCount);
    const differing = lines.filter((l) => reference.get(`${l.taskId}#${l.sampleIndex}`) !== l.status)
      .map((l) => `${l.taskId}#${l.sampleIndex}: local ${reference.get(`${l.taskId}#${l.sampleIndex}`)}, queue ${l.status}`);
    assert.deepEqual(differing, []);
    assert.ok(lines.some((l) => l.passed) && lines.some((l) => !l.passed), 'the subset has passing and failing samples');

    // The jobs w2 held when it died were found stalled (BullMQ counts it on the job: `stc`) and judged by a live worker.
    const jobKeys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await client!.scan(cursor, 'MATCH', 'crucible:judge:[0-9]*', 'COUNT', 1000);
      cursor = next;
      jobKeys.push(...found.filter((k) => /^crucible:judge:\d+$/.test(k)));
    } while (cursor !== '0');
    const stalledCounts = await Promise.all(jobKeys.map((k) => client!.hget(k, 'stc')));
    const recovered = jobKeys.filter((_, i) => Number(stalledCounts[i] ?? 0) > 0);
    assert.ok(recovered.length > 0, `no job of the ${jobKeys.length} was recovered from the killed worker`);
    for (const key of recovered) {
      const returned = await client!.hget(key, 'returnvalue');
      assert.ok(returned !== null, `${key}, recovered from w2, has no result`);
      const result = jobResultSchema.parse(JSON.parse(returned));
      assert.ok(['w1', 'w3'].includes(result.provenance.worker), `${key} completed by ${result.provenance.worker}`);
      assert.match(result.provenance.toolchain ?? '', /Python 3/, 'provenance names the Python toolchain');
    }
  });
});

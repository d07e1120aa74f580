/**
 * bench:queue — what the Redis/BullMQ queue adds per job, against judging on the same machine directly.
 *
 * One HumanEval problem (CodeT's file), `--jobs` distinct tiny completions (each a different program, so no
 * deduplication hides the work), judged one at a time (latency) through:
 * 1. local: a `LocalJudge` with one slot in this process;
 * 2. queue: a `QueueJudge` in this process, a `crucible worker` loop (`startWorker`, one slot) in this process,
 *    and a throw-away `redis-server` on a free loopback port.
 * Figures: p50 and p90 latency per job (ms) of each, their difference (the queue's latency overhead), and CPU per
 * job (ms) of this process (front end + worker, Node side only; the sandboxed programs are child processes and
 * not counted) and of redis-server (/proc/PID/stat), the difference being the queue's CPU overhead.
 *
 * `--fleet` (the issue's acceptance run): CodeT's HumanEval problems with their CodeGen-16B samples (100 per
 * problem; `--problems P` takes the first P problems, default all 164 = 16,400 samples), judged
 * 1. locally: a `LocalJudge` with 2 slots in this process, `capacity.concurrency` samples in flight, as
 *    `crucible eval --jobs 2` does;
 * 2. on the queue: a `QueueJudge` in this process and three `crucible worker --slots 1` processes.
 * Figures: wall time and samples/s of each, whether every verdict is identical, and CPU per sample (ms): this
 * process's own (the local judge, or the queue's front end), the workers' Node processes (/proc/PID/stat, their
 * own CPU without the sandboxed programs) and redis-server's.
 * `--max-batch N`: most samples per job (`QueueJudgeOptions.maxBatch`, default 8; 1 = one job per sample).
 * Usage: npm run bench:queue [-- --jobs 300]   |   npm run bench:queue -- --fleet [--problems 164] [--max-batch 8]
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { datasetHash, readProblems, readSamples } from '../src/formats/index.js';
import type { Problem } from '../src/formats/types.js';
import { inPool } from '../src/apps/in-pool.js';
import { spawnWorker, stopWorkers } from '../test/support/queue-eval.js';
import { CODET_SOLUTIONS } from '../test/support/data.js';
import type { Judge } from '../src/judge/judge.js';
import { defaultSubmissionContext } from '../src/kinds/index.js';
import { prepareSubmission } from '../src/judge/submission.js';
import { queueLocation } from '../src/queue/connection.js';
import { QueueJudge } from '../src/queue/queue-judge.js';
import { startWorker } from '../src/queue/worker.js';
import { createJudge } from '../src/engine/factory.js';
import { startRedis } from '../test/support/redis.js';
import { CODET_PROBLEMS } from '../test/support/data.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const JOBS = arg('--jobs', 300);
const WARMUP = 20;

/** CPU time (user + system) of a process from /proc/PID/stat, ms. */
function procCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

function ownCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

interface Phase { p50Ms: number; p90Ms: number; cpuMsPerJob: number; redisCpuMsPerJob: number }

async function phase(judge: Judge, hash: string, offset: number, redisPid: number | null): Promise<Phase> {
  const context = defaultSubmissionContext();
  const problems = await readProblems(CODET_PROBLEMS, 'humaneval');
  const problem = problems[0]!;
  judge.catalog.add(hash, problems);
  const request = (i: number) => {
    const prepared = prepareSubmission(problem, { completion: `    # variant ${offset + i}\n    return False\n` }, context);
    if (prepared.kind !== 'program') throw new Error('unexpected decided sample');
    return { problem: { datasetHash: hash, taskId: problem.taskId }, program: prepared.program, failFast: true };
  };
  for (let i = 0; i < WARMUP; i++) await judge.judge(request(JOBS + i));
  const latencies: number[] = [];
  const cpu0 = ownCpuMs();
  const redis0 = redisPid === null ? 0 : procCpuMs(redisPid);
  for (let i = 0; i < JOBS; i++) {
    const started = performance.now();
    const verdict = await judge.judge(request(i));
    latencies.push(performance.now() - started);
    if (verdict.status === 'internal_error') throw new Error(`internal_error: ${verdict.reason}`);
  }
  latencies.sort((a, b) => a - b);
  return {
    p50Ms: quantile(latencies, 0.5), p90Ms: quantile(latencies, 0.9), cpuMsPerJob: (ownCpuMs() - cpu0) / JOBS,
    redisCpuMsPerJob: redisPid === null ? 0 : (procCpuMs(redisPid) - redis0) / JOBS,
  };
}

async function serialBench(): Promise<void> {
  const hash = await datasetHash(CODET_PROBLEMS);
  const local = createJudge({ slots: 1, cacheDir: null });
  const localPhase = await phase(local, hash, 0, null);
  await local.close();

  const redis = await startRedis();
  let queuePhase: Phase;
  try {
    const location = queueLocation(redis.url);
    const context = defaultSubmissionContext();
    const worker = await startWorker({ location, name: 'bench', crucibleVersion: 'bench',
      judge: { slots: 1, cacheDir: null, languages: context.languages, modes: context.modes } });
    const judge = await QueueJudge.connect(location);
    try {
      queuePhase = await phase(judge, hash, 100_000, redis.pid);
    } finally {
      await judge.close();
      await worker.drain();
    }
  } finally {
    await redis.stop();
  }

  const f = (x: number): string => x.toFixed(2);
  console.log(`jobs ${JOBS} (one at a time, after ${WARMUP} warm-up jobs), HumanEval/0, one slot`);
  console.log(`local: p50 ${f(localPhase.p50Ms)} ms, p90 ${f(localPhase.p90Ms)} ms, Node CPU ${f(localPhase.cpuMsPerJob)} ms/job`);
  console.log(`queue: p50 ${f(queuePhase.p50Ms)} ms, p90 ${f(queuePhase.p90Ms)} ms, Node CPU ${f(queuePhase.cpuMsPerJob)} ms/job (front end + worker), redis-server CPU ${f(queuePhase.redisCpuMsPerJob)} ms/job`);
  console.log(`queue overhead per job: latency p50 +${f(queuePhase.p50Ms - localPhase.p50Ms)} ms, CPU +${f(queuePhase.cpuMsPerJob + queuePhase.redisCpuMsPerJob - localPhase.cpuMsPerJob)} ms`);
}

interface FleetPhase { wallMs: number; cpuMsPerSample: number; statuses: Map<string, string> }

/** Judge every sample through `judge` with its `capacity.concurrency` in flight, as `crucible eval` does. */
async function judgeAll(judge: Judge, all: readonly Problem[], problems: readonly Problem[], hash: string): Promise<FleetPhase> {
  const context = defaultSubmissionContext();
  const byId = new Map(problems.map((p) => [p.taskId, p]));
  // CodeT's samples name their problem by prompt: read them against every problem, keep the chosen ones'.
  const samples = (await readSamples(CODET_SOLUTIONS, { problems: all as Problem[] })).filter((s) => byId.has(s.taskId));
  judge.catalog.add(hash, all);
  const statuses = new Map<string, string>();
  const cpu0 = ownCpuMs();
  const started = performance.now();
  await inPool(samples, judge.capacity.concurrency, async (sample) => {
    const prepared = prepareSubmission(byId.get(sample.taskId)!, sample, context);
    const status = prepared.kind === 'decided' ? prepared.verdict.status
      : (await judge.judge({ problem: { datasetHash: hash, taskId: sample.taskId }, program: prepared.program, failFast: true })).status;
    statuses.set(`${sample.taskId}#${sample.index}`, status);
  });
  return { wallMs: performance.now() - started, cpuMsPerSample: (ownCpuMs() - cpu0) / samples.length, statuses };
}

async function fleetBench(): Promise<void> {
  const all = await readProblems(CODET_PROBLEMS, 'humaneval');
  const problems = all.slice(0, arg('--problems', all.length));
  const hash = await datasetHash(CODET_PROBLEMS);
  const dir = mkdtempSync(join(tmpdir(), 'crucible-bench-queue-'));
  const env = { ...process.env, CRUCIBLE_CACHE_DIR: join(dir, 'cache') };
  const local = createJudge({ slots: 2, cacheDir: join(dir, 'cache') });
  let localPhase: FleetPhase;
  try {
    localPhase = await judgeAll(local, all, problems, hash);
  } finally {
    await local.close();
  }
  const redis = await startRedis();
  const workers: ChildProcess[] = [];
  let queuePhase: FleetPhase;
  let workerCpuMs = 0;
  let redisCpuMs = 0;
  try {
    for (const name of ['f1', 'f2', 'f3']) workers.push(spawnWorker(redis.url, name, env));
    const maxBatch = arg('--max-batch', 8);
    const judge = await QueueJudge.connect(queueLocation(redis.url), { maxBatch });
    try {
      // Wait for the three workers' adverts (sent once their toolchains are detected and they take jobs), so their
      // start-up (module loading, toolchain detection: ~2 s of CPU each) is not counted as the queue's cost per sample.
      // (The judge's capacity is no sign: before any advert it is its default concurrency, already large enough.)
      for (let waited = 0; (await judge.fleetStatus()).workers.filter((w) => !w.draining).length < workers.length; waited += 200) {
        if (waited > 60_000) throw new Error('the three workers did not advertise themselves within 60 s');
        await new Promise((r) => setTimeout(r, 200));
      }
      const workers0 = workers.map((w) => procCpuMs(w.pid!));
      const redis0 = procCpuMs(redis.pid);
      queuePhase = await judgeAll(judge, all, problems, hash);
      workerCpuMs = workers.reduce((sum, w, i) => sum + procCpuMs(w.pid!) - workers0[i]!, 0);
      redisCpuMs = procCpuMs(redis.pid) - redis0;
    } finally {
      await judge.close();
    }
  } finally {
    await stopWorkers(workers);
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const n = localPhase.statuses.size;
  const differing = [...localPhase.statuses].filter(([key, status]) => queuePhase.statuses.get(key) !== status);
  const f = (x: number): string => x.toFixed(2);
  const counts = new Map<string, number>();
  for (const status of queuePhase.statuses.values()) counts.set(status, (counts.get(status) ?? 0) + 1);
  console.log(`fleet: ${problems.length} problems, ${n} samples (CodeGen-16B, CodeT's HumanEval); verdicts: ${[...counts].map(([s, c]) => `${s} ${c}`).join(', ')}`);
  console.log(`local (2 slots): ${(localPhase.wallMs / 1000).toFixed(1)} s, ${(n / (localPhase.wallMs / 1000)).toFixed(1)} samples/s, this process ${f(localPhase.cpuMsPerSample)} ms CPU/sample`);
  console.log(`queue (3 workers x 1 slot, up to ${arg('--max-batch', 8)} samples per job): ${(queuePhase.wallMs / 1000).toFixed(1)} s, ${(n / (queuePhase.wallMs / 1000)).toFixed(1)} samples/s; CPU/sample: front end ${f(queuePhase.cpuMsPerSample)} ms, ` +
    `workers' Node ${f(workerCpuMs / n)} ms, redis-server ${f(redisCpuMs / n)} ms`);
  console.log(`queue overhead CPU/sample (front end + workers + redis - local judge): ${f(queuePhase.cpuMsPerSample + (workerCpuMs + redisCpuMs) / n - localPhase.cpuMsPerSample)} ms`);
  console.log(`identical verdicts: ${differing.length === 0 ? 'yes' : `NO, ${differing.length} differ, e.g. ${differing.slice(0, 3).map(([k, s]) => `${k} local ${s} queue ${queuePhase.statuses.get(k)}`).join('; ')}`}`);
  if (differing.length > 0) process.exitCode = 1;
}

if (process.argv.includes('--fleet')) await fleetBench();
else await serialBench();

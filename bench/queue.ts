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
 * Usage: npm run bench:queue [-- --jobs 300]
 */
import { readFileSync } from 'node:fs';
import { datasetHash, readProblems } from '../src/formats/index.js';
import type { Judge } from '../src/judge/judge.js';
import { defaultSubmissionContext, prepareSubmission } from '../src/judge/submission.js';
import { queueLocation } from '../src/queue/connection.js';
import { QueueJudge } from '../src/queue/queue-judge.js';
import { startWorker } from '../src/queue/worker.js';
import { createJudge } from '../src/runner/factory.js';
import { startRedis } from '../test/support/redis.js';
import { CODET_PROBLEMS } from '../test/support/codet-data.js';

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

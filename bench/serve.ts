/**
 * bench:serve — `crucible serve` under a GRPO rollout batch and under a burst, on loopback.
 *
 * 1. Direct: the batch (256 prompts x 8 responses; HumanEval problems, real CodeGen-16B completions from CodeT's
 *    files) judged through a `Judge` in this process, with the same concurrency as the server. Baseline.
 * 2. Served: a server child process (fresh judge, fresh memo) gets the same batch on `/v1/rewards`, one request
 *    per GRPO group (8 items, raw completions as `response`), 64 requests in flight like parallel reward workers.
 *    Figures: verdicts/s, p50/p99 request latency, server peak RSS (VmHWM), machine CPU utilisation over the batch
 *    (/proc/stat), server CPU and wall overhead per verdict against the direct run.
 * 3. Burst: a server with a small queue gets 10x its capacity at once. Every request must be answered: 200, or
 *    429 `overloaded` with Retry-After; the server must stay up with bounded memory.
 * Usage: npm run bench:serve [-- --prompts 256 --group 8 --burst-queue 256]
 */
import { ProblemIndex } from '../src/server/problem-index.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { datasetHash, readProblems, readSamples } from '../src/formats/index.js';
import type { Problem, Sample } from '../src/formats/types.js';
import { defaultSubmissionContext } from '../src/kinds/index.js';
import { JUDGE_DEFAULTS } from '../src/limits.js';
import { createJudge } from '../src/engine/factory.js';
import { AdmissionQueue } from '../src/server/admission.js';
import { JudgeService, type Prepared } from '../src/server/service.js';
import { join } from 'node:path';
import { SHARED_DATA } from '../test/support/data.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const PROMPTS = arg('--prompts', 256);
const GROUP = arg('--group', 8);
const CLIENT_CONCURRENCY = arg('--client-concurrency', 64);
const BURST_QUEUE = arg('--burst-queue', 256);
const SLOTS = availableParallelism();
const IN_FLIGHT_PER_SLOT = 2;
const DATA = join(SHARED_DATA, 'codet');
const PROBLEMS_FILE = `${DATA}/HumanEval_for_code_generation.jsonl.gz`;
const SOLUTIONS_FILE = `${DATA}/HumanEval_codegen16B_temp0.8_topp0.95_num100_max300_code_solution.jsonl.gz`;

// ---- data ------------------------------------------------------------------------------------------------

interface Item { readonly id: string; readonly group: string; readonly response: string; readonly problem: string }

function buildBatch(problems: readonly Problem[], samples: readonly Sample[], prompts: number, group: number, offset = 0): Item[][] {
  const byTask = new Map<string, Sample[]>();
  for (const s of samples) {
    const list = byTask.get(s.taskId) ?? [];
    list.push(s);
    byTask.set(s.taskId, list);
  }
  const groups: Item[][] = [];
  for (let p = 0; p < prompts; p++) {
    const problem = problems[p % problems.length]!;
    const pool = byTask.get(problem.taskId) ?? [];
    // Prompts that reuse a problem take the next samples, as a fresh rollout would.
    const start = offset + Math.floor(p / problems.length) * group;
    groups.push(Array.from({ length: group }, (_, r) => ({
      id: `p${p}-r${r}`, group: `p${p}`, problem: problem.taskId,
      response: pool[(start + r) % Math.max(1, pool.length)]?.completion ?? '',
    })));
  }
  return groups;
}

// ---- measurement helpers ---------------------------------------------------------------------------------

function cpuTicks(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const f = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (f[3] ?? 0) + (f[4] ?? 0);
  const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

function utilisation(a: { busy: number; total: number }, b: { busy: number; total: number }): number {
  return (b.busy - a.busy) / Math.max(1, b.total - a.total);
}

/** CPU seconds (user + system) used so far by a process, from /proc/<pid>/stat. */
function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

function peakRssMiB(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function pool<T>(tasks: readonly (() => Promise<T>)[], concurrency: number): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, tasks.length) }, async () => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await tasks[i]!();
    }
  }));
  return out;
}

// ---- server child ----------------------------------------------------------------------------------------

interface Child { readonly process: ChildProcess; readonly url: string }

async function startChild(extra: Record<string, unknown>): Promise<Child> {
  const serverModule = fileURLToPath(new URL('../src/server/index.js', import.meta.url));
  const config = { port: 0, logLevel: 'warn', slots: SLOTS, inFlightPerSlot: IN_FLIGHT_PER_SLOT, problems: [PROBLEMS_FILE], ...extra };
  const code = `
    const { startServer } = await import(${JSON.stringify(serverModule)});
    const server = await startServer(${JSON.stringify(config)});
    process.stdout.write('URL ' + server.url + '\\n');
    process.once('SIGTERM', () => server.shutdown(10000).then(() => process.exit(0)));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => { if (line.startsWith('URL ')) resolve(line.slice(4)); });
    child.once('exit', (code) => reject(new Error(`server exited early (${code})`)));
  });
  return { process: child, url };
}

async function stopChild(child: Child): Promise<void> {
  const exited = new Promise<void>((resolve) => child.process.once('exit', () => resolve()));
  child.process.kill('SIGTERM');
  await exited;
}

interface Answer { readonly status: number; readonly ms: number; readonly retryAfter: string | null; readonly body: any } // eslint-disable-line @typescript-eslint/no-explicit-any

async function postRewards(url: string, items: readonly Item[]): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(`${url}/v1/rewards`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items }),
  });
  const body = await response.json();
  return { status: response.status, ms: performance.now() - started, retryAfter: response.headers.get('retry-after'), body };
}

// ---- main ------------------------------------------------------------------------------------------------

const problems = await readProblems(PROBLEMS_FILE, 'humaneval');
const samples = await readSamples(SOLUTIONS_FILE, { problems });
const batch = buildBatch(problems, samples, PROMPTS, GROUP);
const items = batch.flat();
console.log(`batch: ${PROMPTS} prompts x ${GROUP} responses = ${items.length} verdicts on ${problems.length} HumanEval problems; `
  + `${SLOTS} slots x ${IN_FLIGHT_PER_SLOT} in flight; CPU limit ${JUDGE_DEFAULTS.cpuMs} ms`);

// 1. Direct, through the same preparation (extraction, prompt + completion) the server uses.
const direct = await (async () => {
  const submission = defaultSubmissionContext();
  const judge = createJudge({ slots: SLOTS, languages: submission.languages, modes: submission.modes, cacheDir: null });
  const hash = await datasetHash(PROBLEMS_FILE);
  judge.catalog.add(hash, problems);
  const admission = new AdmissionQueue({ maxInFlight: SLOTS * IN_FLIGHT_PER_SLOT, capacity: items.length });
  const loaded = new ProblemIndex();
  loaded.addFile('HumanEval', PROBLEMS_FILE, hash, problems);
  const service = new JudgeService(judge, submission, loaded, admission, { maxTimeLimitMs: 60_000, maxMemoryLimitKiB: 4 << 20 });
  const prepared: Prepared[] = items.map((it) => service.prepare({ response: it.response, problem: it.problem }));
  const cpu0 = process.cpuUsage();
  const t0 = cpuTicks();
  const started = performance.now();
  service.reserve(prepared);
  const verdicts = await Promise.all(prepared.map((p) => service.judgeReserved(p)));
  const wallS = (performance.now() - started) / 1000;
  const util = utilisation(t0, cpuTicks());
  const cpu = process.cpuUsage(cpu0);
  const passed = verdicts.filter((v) => v.verdict.status === 'passed').length;
  await judge.close();
  return { wallS, util, nodeCpuS: (cpu.user + cpu.system) / 1e6, passed };
})();
console.log(`direct:  ${direct.wallS.toFixed(2)} s, ${(items.length / direct.wallS).toFixed(0)} verdicts/s, `
  + `CPU ${(direct.util * 100).toFixed(0)}%, Node CPU ${(1000 * direct.nodeCpuS / items.length).toFixed(3)} ms/verdict, passed ${direct.passed}`);

// 2. Served.
const served = await (async () => {
  const child = await startChild({});
  const pid = child.process.pid!;
  const cpuBefore = processCpuSeconds(pid);
  const t0 = cpuTicks();
  const started = performance.now();
  const answers = await pool(batch.map((group) => () => postRewards(child.url, group)), CLIENT_CONCURRENCY);
  const wallS = (performance.now() - started) / 1000;
  const util = utilisation(t0, cpuTicks());
  const serverCpuS = processCpuSeconds(pid) - cpuBefore;
  const rssMiB = peakRssMiB(pid);
  await stopChild(child);
  const bad = answers.filter((a) => a.status !== 200);
  const results = answers.flatMap((a) => (a.status === 200 ? a.body.items : []));
  const passed = results.filter((r: { status: string }) => r.status === 'passed').length;
  const internal = results.filter((r: { status: string }) => r.status === 'internal_error').length;
  const allEqualGroups = answers.flatMap((a) => (a.status === 200 ? a.body.groups : [])).filter((g: { allEqual: boolean }) => g.allEqual).length;
  const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
  return { wallS, util, serverCpuS, rssMiB, bad: bad.length, results: results.length, passed, internal, allEqualGroups,
    p50: percentile(ms, 0.5), p99: percentile(ms, 0.99) };
})();
console.log(`served:  ${served.wallS.toFixed(2)} s, ${(served.results / served.wallS).toFixed(0)} verdicts/s, `
  + `request latency p50 ${served.p50.toFixed(0)} ms p99 ${served.p99.toFixed(0)} ms (${PROMPTS} requests of ${GROUP}, ${CLIENT_CONCURRENCY} in flight), `
  + `CPU ${(served.util * 100).toFixed(0)}%, server peak RSS ${served.rssMiB.toFixed(0)} MiB, passed ${served.passed}, `
  + `internal_error ${served.internal}, non-200 ${served.bad}, all-equal groups ${served.allEqualGroups}/${PROMPTS}`);
const overheadCpuMs = (1000 * (served.serverCpuS - direct.nodeCpuS)) / items.length;
const overheadWallMs = (1000 * (served.wallS - direct.wallS)) / items.length;
console.log(`overhead per verdict: server CPU ${overheadCpuMs.toFixed(3)} ms (server process ${(1000 * served.serverCpuS / items.length).toFixed(3)} ms `
  + `vs direct Node ${(1000 * direct.nodeCpuS / items.length).toFixed(3)} ms), wall ${overheadWallMs.toFixed(3)} ms`);

// 3. Burst: 10x capacity at once on a server with a small queue.
const burst = await (async () => {
  const child = await startChild({ queueCapacity: BURST_QUEUE });
  const pid = child.process.pid!;
  const capacity = SLOTS * IN_FLIGHT_PER_SLOT + BURST_QUEUE;
  const groups = buildBatch(problems, samples, Math.ceil((10 * capacity) / GROUP), GROUP, 40);
  const started = performance.now();
  const answers = await Promise.all(groups.map((g) => postRewards(child.url, g).catch((e: Error) => ({ status: -1, ms: 0, retryAfter: null, body: String(e) }))));
  const wallS = (performance.now() - started) / 1000;
  const health = await fetch(`${child.url}/health`).then((r) => r.status).catch(() => -1);
  const rssMiB = peakRssMiB(pid);
  await stopChild(child);
  const ok = answers.filter((a) => a.status === 200);
  const overloaded = answers.filter((a) => a.status === 429 && a.body?.error?.code === 'overloaded' && Number(a.retryAfter) >= 1);
  const other = answers.length - ok.length - overloaded.length;
  const internal = ok.flatMap((a) => a.body.items).filter((r: { status: string }) => r.status === 'internal_error').length;
  return { capacity, requests: answers.length, items: groups.length * GROUP, ok: ok.length, overloaded: overloaded.length, other,
    internal, wallS, health, rssMiB };
})();
console.log(`burst:   capacity ${burst.capacity} items, sent ${burst.items} items in ${burst.requests} requests at once: `
  + `${burst.ok} answered 200, ${burst.overloaded} answered 429 overloaded + Retry-After, ${burst.other} other (lost/5xx), `
  + `internal_error ${burst.internal}, ${burst.wallS.toFixed(1)} s, health after ${burst.health}, server peak RSS ${burst.rssMiB.toFixed(0)} MiB`);
if (burst.other !== 0 || burst.health !== 200 || served.bad !== 0) process.exitCode = 1;

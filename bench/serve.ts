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
 * 4. Mix (issue #32 item 5): 1,000 closed-loop clients hold 1,000 SandboxFusion `/run_code` calls open for
 *    `--mix-seconds` against a fresh server child: 50% a trivial print, 40% a ~50 ms CPU loop, 10% `while True: pass`
 *    under a `--mix-timeout-ms` run_timeout. Every program is unique (no memo hit). An overload answer (504 on
 *    /run_code, verl's retried status, with `Retry-After` and error code `overloaded`) is honoured: the client sleeps
 *    Retry-After seconds and sends the same call again. Every verdict is checked against the expected one (print ->
 *    Success with its own stdout; loop -> TimeLimitExceeded). Figures: calls/s (verdicts answered within the window),
 *    per core, per CPU-second of the machine, per-request latency p50/p99/p99.9 of answered calls, end-to-end call
 *    latency (retries included), overload-answer rate, 5xx / internal errors, wrong verdicts.
 * 5. Half load: GRPO groups of 8 HumanEval items on `/v1/rewards`, sent open-loop (Poisson arrivals) at half the
 *    served batch's verdicts/s for `--half-seconds`; p50/p99 group latency.
 * Usage: npm run bench:serve [-- --phases batch,burst,mix,half --prompts 256 --group 8 --burst-queue 256
 *   --mix-seconds 60 --mix-clients 1000 --mix-timeout-ms 100 --mix-iterations 1300000 --mix-wait-ms 500 --half-seconds 20]
 */
import { ProblemIndex } from '../src/server/problem-index.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
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
const PHASES = new Set((process.argv.includes('--phases') ? process.argv[process.argv.indexOf('--phases') + 1]! : 'batch,burst,mix,half').split(','));
const MIX_SECONDS = arg('--mix-seconds', 60);
const MIX_CLIENTS = arg('--mix-clients', 1000);
const MIX_TIMEOUT_MS = arg('--mix-timeout-ms', 100);
const MIX_ITERATIONS = arg('--mix-iterations', 1_300_000);
/** The server's queue-wait bound for the mix (`maxQueueWaitMs`); 0 = the server's default. */
const MIX_WAIT_MS = arg('--mix-wait-ms', 500);
const HALF_SECONDS = arg('--half-seconds', 20);
const IN_FLIGHT_PER_SLOT = arg('--in-flight-per-slot', 2);
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

/**
 * CPU seconds of a process and every live descendant (utime + stime + cutime + cstime, /proc/<pid>/stat fields
 * 14-17): what the server and its sandboxes spent, whatever else the shared machine runs. A descendant that exited
 * counts through its parent's cutime/cstime once reaped.
 */
function treeCpuSeconds(rootPid: number): number {
  const parent = new Map<number, number>();
  const cpu = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(name), Number(f[1]));
      cpu.set(Number(name), (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100);
    } catch { /* exited meanwhile */ }
  }
  let total = 0;
  for (const [pid, seconds] of cpu) {
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = parent.get(p)) {
      if (p === rootPid) { total += seconds; break; }
    }
  }
  return total;
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

let servedRate = arg('--half-rate', NaN);
if (PHASES.has('batch')) {
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
    const { harnessJobs, testerReuses } = judge.stats();
    // The next GRPO step: fresh responses (the next samples of each problem) to the same judge, whose problems'
    // references (ground truth, calibrated limits) are known by now, as in every step of a training run but the first.
    const next = buildBatch(problems, samples, PROMPTS, GROUP, 2 * GROUP).flat()
      .map((it) => service.prepare({ response: it.response, problem: it.problem }));
    const nextStarted = performance.now();
    service.reserve(next);
    await Promise.all(next.map((p) => service.judgeReserved(p)));
    const nextWallS = (performance.now() - nextStarted) / 1000;
    await judge.close();
    return { wallS, util, nodeCpuS: (cpu.user + cpu.system) / 1e6, passed, harnessJobs, testerReuses, nextWallS, nextItems: next.length };
  })();
  console.log(`direct:  ${direct.wallS.toFixed(2)} s, ${(items.length / direct.wallS).toFixed(0)} verdicts/s, `
    + `CPU ${(direct.util * 100).toFixed(0)}%, Node CPU ${(1000 * direct.nodeCpuS / items.length).toFixed(3)} ms/verdict, passed ${direct.passed}, `
    + `harness jobs ${direct.harnessJobs}, judged by a reused warm tester ${direct.testerReuses}`);
  console.log(`direct, next step (other responses, references known): ${direct.nextWallS.toFixed(2)} s, `
    + `${(direct.nextItems / direct.nextWallS).toFixed(0)} verdicts/s`);

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
    // The next GRPO step on the same server (as the direct run's): other responses, the references known.
    const nextBatch = buildBatch(problems, samples, PROMPTS, GROUP, 2 * GROUP);
    const nextStarted = performance.now();
    const nextAnswers = await pool(nextBatch.map((group) => () => postRewards(child.url, group)), CLIENT_CONCURRENCY);
    const nextWallS = (performance.now() - nextStarted) / 1000;
    const nextResults = nextAnswers.flatMap((a) => (a.status === 200 ? a.body.items : [])).length;
    const nextMs = nextAnswers.map((a) => a.ms).sort((a, b) => a - b);
    const rssMiB = peakRssMiB(pid);
    await stopChild(child);
    const bad = answers.filter((a) => a.status !== 200).concat(nextAnswers.filter((a) => a.status !== 200));
    const results = answers.flatMap((a) => (a.status === 200 ? a.body.items : []));
    const passed = results.filter((r: { status: string }) => r.status === 'passed').length;
    const internal = results.filter((r: { status: string }) => r.status === 'internal_error').length;
    const allEqualGroups = answers.flatMap((a) => (a.status === 200 ? a.body.groups : [])).filter((g: { allEqual: boolean }) => g.allEqual).length;
    const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
    return { wallS, util, serverCpuS, rssMiB, bad: bad.length, results: results.length, passed, internal, allEqualGroups,
      p50: percentile(ms, 0.5), p99: percentile(ms, 0.99), nextWallS, nextResults, nextP50: percentile(nextMs, 0.5), nextP99: percentile(nextMs, 0.99) };
  })();
  console.log(`served:  ${served.wallS.toFixed(2)} s, ${(served.results / served.wallS).toFixed(0)} verdicts/s, `
    + `request latency p50 ${served.p50.toFixed(0)} ms p99 ${served.p99.toFixed(0)} ms (${PROMPTS} requests of ${GROUP}, ${CLIENT_CONCURRENCY} in flight), `
    + `CPU ${(served.util * 100).toFixed(0)}%, server peak RSS ${served.rssMiB.toFixed(0)} MiB, passed ${served.passed}, `
    + `internal_error ${served.internal}, non-200 ${served.bad}, all-equal groups ${served.allEqualGroups}/${PROMPTS}`);
  console.log(`served, next step (other responses, references known): ${served.nextWallS.toFixed(2)} s, `
    + `${(served.nextResults / served.nextWallS).toFixed(0)} verdicts/s, request latency p50 ${served.nextP50.toFixed(0)} ms p99 ${served.nextP99.toFixed(0)} ms`);
  const overheadCpuMs = (1000 * (served.serverCpuS - direct.nodeCpuS)) / items.length;
  const overheadWallMs = (1000 * (served.wallS - direct.wallS)) / items.length;
  console.log(`overhead per verdict: server CPU ${overheadCpuMs.toFixed(3)} ms (server process ${(1000 * served.serverCpuS / items.length).toFixed(3)} ms `
    + `vs direct Node ${(1000 * direct.nodeCpuS / items.length).toFixed(3)} ms), wall ${overheadWallMs.toFixed(3)} ms`);
  servedRate = served.results / served.wallS;
  if (served.bad !== 0) process.exitCode = 1;
}

if (PHASES.has('burst')) {
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
  if (burst.other !== 0 || burst.health !== 200) process.exitCode = 1;
}

// ---- 4. mix: 1,000 concurrent /run_code calls -----------------------------------------------------------------

type MixKind = 'trivial' | 'cpu' | 'timeout';

/** The kind of the n-th call: 5 in 10 trivial, 4 in 10 a ~50 ms CPU loop, 1 in 10 a time-out. */
function mixKind(n: number): MixKind {
  const r = n % 10;
  return r < 5 ? 'trivial' : r < 9 ? 'cpu' : 'timeout';
}

/** A unique program of that kind (its own number in the source, so no two calls share a memo entry). */
function mixProgram(kind: MixKind, n: number): { code: string; run_timeout: number } {
  if (kind === 'trivial') return { code: `print(${n})\n`, run_timeout: 5 };
  if (kind === 'cpu') return { code: `s = 0\nfor i in range(${MIX_ITERATIONS}):\n    s += i\nprint(${n})\n`, run_timeout: 5 };
  return { code: `# call ${n}\nwhile True:\n    pass\n`, run_timeout: MIX_TIMEOUT_MS / 1000 };
}

interface RawAnswer { readonly status: number; readonly retryAfter: string | null; readonly text: string }

const clientAgent = new Agent({ keepAlive: true, maxSockets: Infinity });

/** POST a JSON body over a keep-alive socket; resolves with status, Retry-After and the body text. */
function postJson(url: string, body: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', agent: clientAgent,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? -1, retryAfter: (res.headers['retry-after'] as string | undefined) ?? null,
        text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

type MixOutcome = 'right' | 'wrong' | 'internal' | 'http_error';

/** Is the answer the expected verdict for its kind? (SandboxFusion RunCodeResponse, sandbox-fusion.ts.) */
function checkMix(kind: MixKind, n: number, status: number, text: string): MixOutcome {
  if (status !== 200 && status !== 504) return 'http_error';
  let body: { status?: string; run_result?: { status?: string; stdout?: string } | null };
  try { body = JSON.parse(text); } catch { return 'http_error'; }
  if (body.status === 'SandboxError') return 'internal';
  if (status !== 200) return 'http_error';
  if (kind === 'timeout') return body.run_result?.status === 'TimeLimitExceeded' ? 'right' : 'wrong';
  return body.status === 'Success' && body.run_result?.stdout === `${n}\n` ? 'right' : 'wrong';
}

interface MixStats {
  readonly requestMs: number[]; readonly callMs: number[]; readonly byKindMs: Record<MixKind, number[]>;
  answered: number; answeredInWindow: number; overloaded: number; requests: number; abandoned: number;
  readonly outcomes: Record<MixOutcome, number>; readonly wrongExamples: string[]; readonly retryAfterS: number[];
}

/** One closed-loop client: call after call until the window closes; an overload answer is retried after Retry-After. */
async function mixClient(url: string, next: () => number, endMs: number, stats: MixStats): Promise<void> {
  while (performance.now() < endMs) {
    const n = next();
    const kind = mixKind(n);
    const body = JSON.stringify({ language: 'python', ...mixProgram(kind, n) });
    const callStarted = performance.now();
    for (;;) {
      const started = performance.now();
      stats.requests++;
      const answer = await postJson(`${url}/run_code`, body).catch((e: Error) => ({ status: -1, retryAfter: null, text: String(e) }));
      const ms = performance.now() - started;
      const overloaded = answer.status === 504 && answer.retryAfter !== null && answer.text.includes('"overloaded"');
      if (overloaded) {
        stats.overloaded++;
        const s = Number(answer.retryAfter);
        stats.retryAfterS.push(s);
        // A retry that would fall past the window is not made (counted as abandoned), and the client stops: the
        // bench drains only what is in flight, and an abandoned call is not replaced by a new one (no flood).
        if (performance.now() + Math.max(1, s) * 1000 > endMs) { stats.abandoned++; return; }
        await new Promise((r) => setTimeout(r, Math.max(1, s) * 1000));
        continue;
      }
      const outcome = checkMix(kind, n, answer.status, answer.text);
      stats.outcomes[outcome]++;
      if (outcome !== 'right' && stats.wrongExamples.length < 5) stats.wrongExamples.push(`${kind} #${n}: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
      stats.answered++;
      if (performance.now() <= endMs) stats.answeredInWindow++;
      stats.requestMs.push(ms);
      stats.byKindMs[kind].push(ms);
      stats.callMs.push(performance.now() - callStarted);
      break;
    }
  }
}

function sorted(xs: readonly number[]): number[] {
  return [...xs].sort((a, b) => a - b);
}

function latencyLine(xs: readonly number[]): string {
  const s = sorted(xs);
  return `p50 ${percentile(s, 0.5).toFixed(0)} ms p99 ${percentile(s, 0.99).toFixed(0)} ms p99.9 ${percentile(s, 0.999).toFixed(0)} ms`;
}

if (PHASES.has('mix')) {
  const child = await startChild(MIX_WAIT_MS > 0 ? { maxQueueWaitMs: MIX_WAIT_MS } : {});
  const pid = child.process.pid!;
  // Warm the interpreter image and the first slots before the clock starts.
  for (let i = 0; i < 4; i++) await postJson(`${child.url}/run_code`, JSON.stringify({ language: 'python', code: `print(-${i})\n` }));
  const stats: MixStats = { requestMs: [], callMs: [], byKindMs: { trivial: [], cpu: [], timeout: [] }, answered: 0, answeredInWindow: 0,
    overloaded: 0, abandoned: 0, requests: 0, outcomes: { right: 0, wrong: 0, internal: 0, http_error: 0 }, wrongExamples: [], retryAfterS: [] };
  let counter = 0;
  const cpu0 = processCpuSeconds(pid);
  const tree0 = treeCpuSeconds(pid);
  const client0 = process.cpuUsage();
  const t0 = cpuTicks();
  const started = performance.now();
  const endMs = started + MIX_SECONDS * 1000;
  const clients = Array.from({ length: MIX_CLIENTS }, () => mixClient(child.url, () => counter++, endMs, stats));
  await new Promise((r) => setTimeout(r, MIX_SECONDS * 1000));
  const t1 = cpuTicks();
  const serverCpuS = processCpuSeconds(pid) - cpu0;
  const treeCpuS = treeCpuSeconds(pid) - tree0;
  const clientCpu = process.cpuUsage(client0);
  const clientCpuS = (clientCpu.user + clientCpu.system) / 1e6;
  await Promise.all(clients);
  const drainS = (performance.now() - endMs) / 1000;
  const rssMiB = peakRssMiB(pid);
  await stopChild(child);
  const machineCpuS = (t1.busy - t0.busy) / 100; // /proc/stat ticks, USER_HZ = 100
  const rate = stats.answeredInWindow / MIX_SECONDS;
  const retryAfter = sorted(stats.retryAfterS);
  console.log(`mix:     ${MIX_CLIENTS} clients x ${MIX_SECONDS} s on /run_code (50% print, 40% ${MIX_ITERATIONS} loop steps, 10% while-True under `
    + `run_timeout ${MIX_TIMEOUT_MS} ms; server maxQueueWaitMs ${MIX_WAIT_MS > 0 ? MIX_WAIT_MS : 'default'}): `
    + `${rate.toFixed(1)} calls/s, ${(rate / SLOTS).toFixed(1)} calls/s per core; ${(stats.answeredInWindow / treeCpuS).toFixed(1)} calls per CPU-second `
    + `of the server and its sandboxes (${(1000 * treeCpuS / Math.max(1, stats.answeredInWindow)).toFixed(1)} ms CPU/call, of which the server process `
    + `${(1000 * serverCpuS / Math.max(1, stats.answeredInWindow)).toFixed(2)} ms; load generator ${(1000 * clientCpuS / Math.max(1, stats.answeredInWindow)).toFixed(2)} ms); `
    + `machine CPU ${(100 * utilisation(t0, t1)).toFixed(0)}% busy, ${machineCpuS.toFixed(0)} CPU-s over the window (everyone's)`);
  console.log(`mix:     answered request latency ${latencyLine(stats.requestMs)}; by kind: print ${latencyLine(stats.byKindMs.trivial)}, `
    + `loop ${latencyLine(stats.byKindMs.cpu)}, time-out ${latencyLine(stats.byKindMs.timeout)}`);
  console.log(`mix:     call latency with retries ${latencyLine(stats.callMs)}; ${stats.requests} requests, ${stats.overloaded} overload answers `
    + `(${(100 * stats.overloaded / Math.max(1, stats.requests)).toFixed(1)}% of requests; Retry-After p50 ${percentile(retryAfter, 0.5)} s max ${retryAfter.at(-1) ?? '-'} s), `
    + `answered ${stats.answered} (${stats.outcomes.right} right verdicts, ${stats.outcomes.wrong} wrong, ${stats.outcomes.internal} internal errors, `
    + `${stats.outcomes.http_error} other HTTP; ${stats.abandoned} refused calls whose Retry-After fell past the window, not retried), drain ${drainS.toFixed(1)} s, server peak RSS ${rssMiB.toFixed(0)} MiB`);
  for (const w of stats.wrongExamples) console.log(`mix:     NOT RIGHT ${w}`);
  if (stats.outcomes.right !== stats.answered) process.exitCode = 1;
}

// ---- 5. half load: GRPO groups of 8 at half the served rate ----------------------------------------------------

if (PHASES.has('half')) {
  if (!Number.isFinite(servedRate)) throw new Error('half: needs the batch phase or --half-rate VERDICTS_PER_S');
  const child = await startChild({});
  const groupsPerS = servedRate / 2 / GROUP;
  const count = Math.max(1, Math.round(groupsPerS * HALF_SECONDS));
  const groups = buildBatch(problems, samples, count, GROUP, 24);
  const pending: Promise<Answer>[] = [];
  const started = performance.now();
  let at = 0;
  for (const group of groups) {
    // Poisson arrivals: exponential gaps of mean 1/groupsPerS.
    at += -Math.log(1 - Math.random()) / groupsPerS * 1000;
    const wait = started + at - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(postRewards(child.url, group));
  }
  const answers = await Promise.all(pending);
  await stopChild(child);
  const ok = answers.filter((a) => a.status === 200);
  const internal = ok.flatMap((a) => a.body.items).filter((r: { status: string }) => r.status === 'internal_error').length;
  console.log(`half:    ${count} groups of ${GROUP} at ${(groupsPerS * GROUP).toFixed(0)} verdicts/s (half of ${servedRate.toFixed(0)}), Poisson, ${HALF_SECONDS} s: `
    + `group latency ${latencyLine(ok.map((a) => a.ms))}; non-200 ${answers.length - ok.length}, internal_error ${internal}`);
  if (ok.length !== answers.length) process.exitCode = 1;
}
clientAgent.destroy();

/**
 * bench:sessions — multi-turn sessions (`/v1/sessions`) on this machine, with a real server on loopback.
 *
 * 1. Step overhead: one python session takes `--overhead-runs` steps `print(i)` one after another, and the same
 *    code runs as many one-shot runs (`Judge.runPlain`, the path of `/run_code`); p50 of each (wall, client side
 *    of HTTP for the step; in-process for the one-shot run, so the step also pays its HTTP round trip).
 * 2. Load: `--sessions` sessions at once (2/5 python, 2/5 bash, 1/5 program with inline tests), each taking
 *    `--steps` steps in turn: creation time, steps/s, p50/p99 step latency by environment, server RSS and heap.
 * 3. Idle cost: `--idle` python sessions opened through a SessionManager and left idle: server heap and RSS per
 *    session, and what each box itself holds (its cgroup's memory usage; the PSS of its processes: agent + REPL,
 *    shared pages split).
 * Usage: npm run bench:sessions [-- --sessions 200 --steps 20 --idle 50 --overhead-runs 50]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Sandbox } from '../src/sandbox/index.js';
import type { BoxEnvironment } from '../src/sessions/environments/box-environment.js';
import { SessionManager } from '../src/sessions/manager.js';
import { startServer } from '../src/server/index.js';
import { createLogger } from '../src/server/logging.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const SESSIONS = arg('--sessions', 200);
const STEPS = arg('--steps', 20);
const IDLE = arg('--idle', 50);
const OVERHEAD_RUNS = arg('--overhead-runs', 50);

function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
const ms = (v: number): string => `${v.toFixed(1)} ms`;
const mib = (bytes: number): string => `${(bytes / 1048576).toFixed(2)} MiB`;

async function call(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const r = await fetch(url + path, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
}

/** PSS (KiB) of every process running as `uid`. */
function pssKiB(uid: number): number {
  let total = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = readFileSync(join('/proc', name, 'status'), 'utf8');
      if (Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]) !== uid) continue;
      total += Number(/^Pss:\s+(\d+)/m.exec(readFileSync(join('/proc', name, 'smaps_rollup'), 'utf8'))?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

async function main(): Promise<void> {
  console.log(`bench:sessions — sessions ${SESSIONS} x steps ${STEPS}, idle ${IDLE}, overhead runs ${OVERHEAD_RUNS}; load average at start ${loadAverage()}`);
  const sandbox = Sandbox.create({ slots: 2 });
  const server = await startServer({ port: 0, logLevel: 'silent', maxSessions: Math.max(256, SESSIONS + 8) },
    { sandbox, logger: createLogger('silent') });
  const url = server.url;
  try {
    // ---- 1. overhead ------------------------------------------------------------------------------------
    const py = await call(url, 'POST', '/v1/sessions', { environment: 'python' });
    const stepMs: number[] = [];
    const oneShotMs: number[] = [];
    for (let i = 0; i < OVERHEAD_RUNS; i++) {
      let t = performance.now();
      const s = await call(url, 'POST', `/v1/sessions/${py.body.id}/step`, { action: `print(${i})` });
      if (s.body.observation?.stdout !== `${i}\n`) throw new Error(`step ${i}: ${JSON.stringify(s.body).slice(0, 300)}`);
      stepMs.push(performance.now() - t);
      t = performance.now();
      const o = await server.context.judge.runPlain({ program: { language: 'python', source: `print(${i})` }, stdin: '',
        limits: { cpuMs: 2000, memoryKiB: 256 * 1024 } });
      if (o.run?.stdout !== `${i}\n`) throw new Error(`one-shot ${i}: ${JSON.stringify(o.run).slice(0, 300)}`);
      oneShotMs.push(performance.now() - t);
    }
    await call(url, 'DELETE', `/v1/sessions/${py.body.id}`);
    const stepP50 = quantile(stepMs, 0.5);
    const oneShotP50 = quantile(oneShotMs, 0.5);
    console.log(`overhead: session step print(i) p50 ${ms(stepP50)} (p99 ${ms(quantile(stepMs, 0.99))}), one-shot run of the same code p50 ${ms(oneShotP50)}`
      + ` (p99 ${ms(quantile(oneShotMs, 0.99))}): step - one-shot = ${ms(stepP50 - oneShotP50)} at p50`);

    // ---- 2. load ----------------------------------------------------------------------------------------
    const kinds = ['python', 'python', 'bash', 'bash', 'program'] as const;
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => { rssPeak = Math.max(rssPeak, process.memoryUsage().rss); }, 100);
    const createMs: number[] = [];
    const tCreate = performance.now();
    const ids = await Promise.all(Array.from({ length: SESSIONS }, async (_, i) => {
      const kind = kinds[i % kinds.length]!;
      const task = kind === 'program' ? { tests: [{ input: '2 3\n', output: '5\n' }, { input: '4 4\n', output: '8\n' }] } : undefined;
      const t = performance.now();
      for (;;) {
        const r = await call(url, 'POST', '/v1/sessions', { environment: kind, ...(task === undefined ? {} : { task }) });
        if (r.status === 201) {
          createMs.push(performance.now() - t);
          return { id: r.body.id as string, kind };
        }
        if (r.status !== 429) throw new Error(`create ${kind}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }));
    const createWallMs = performance.now() - tCreate;
    const heapAfterCreate = process.memoryUsage().heapUsed;
    const latency: Record<string, number[]> = { python: [], bash: [], program: [] };
    const statuses: Record<string, number> = {};
    const tSteps = performance.now();
    await Promise.all(ids.map(async ({ id, kind }) => {
      for (let j = 0; j < STEPS; j++) {
        const action = kind === 'python' ? `v${j} = sum(range(${1000 + j}))\nprint(v${j})`
          : kind === 'bash' ? `echo $((${j} * ${j})) > /tmp/f${j}; cat /tmp/f${j}`
            : j % 2 === 0 ? { kind: 'run', code: 'a, b = map(int, input().split())\nprint(a + b)', stdin: `${j} 1\n` }
              : { kind: 'submit', code: `a, b = map(int, input().split())\nprint(a + b${j % 4 === 1 ? ' + 1' : ''})` };
        const t = performance.now();
        const r = await call(url, 'POST', `/v1/sessions/${id}/step`, { action });
        latency[kind]!.push(performance.now() - t);
        const status = r.status === 200 ? String(r.body.observation.status) : `http_${r.status}`;
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }));
    const stepsWallMs = performance.now() - tSteps;
    clearInterval(sampler);
    const all = Object.values(latency).flat();
    console.log(`load: ${SESSIONS} sessions created in ${(createWallMs / 1000).toFixed(1)} s (create p50 ${ms(quantile(createMs, 0.5))}, p99 ${ms(quantile(createMs, 0.99))});`
      + ` ${all.length} steps in ${(stepsWallMs / 1000).toFixed(1)} s = ${(all.length / (stepsWallMs / 1000)).toFixed(0)} steps/s;`
      + ` step latency p50 ${ms(quantile(all, 0.5))}, p99 ${ms(quantile(all, 0.99))}`);
    for (const [kind, values] of Object.entries(latency)) {
      console.log(`  ${kind}: ${values.length} steps, p50 ${ms(quantile(values, 0.5))}, p99 ${ms(quantile(values, 0.99))}`);
    }
    console.log(`  statuses: ${JSON.stringify(statuses)}`);
    console.log(`  server (this process) RSS ${mib(rssBefore)} before, peak ${mib(rssPeak)}; heap used after creating ${mib(heapAfterCreate)}`);
    await Promise.all(ids.map(({ id }) => call(url, 'DELETE', `/v1/sessions/${id}`)));
  } finally {
    await server.shutdown(5000);
    sandbox.close();
  }

  // ---- 3. idle cost -------------------------------------------------------------------------------------
  const manager = new SessionManager({ maxSessions: IDLE + 1, evictionIntervalMs: 0 });
  try {
    globalThis.gc?.();
    const heap0 = process.memoryUsage().heapUsed;
    const rss0 = process.memoryUsage().rss;
    const idle: string[] = [];
    for (let i = 0; i < IDLE; i++) {
      const s = await manager.create({ environment: 'python' });
      await manager.step(s.id, 'x = 1');
      idle.push(s.id);
    }
    globalThis.gc?.();
    const heap1 = process.memoryUsage().heapUsed;
    const rss1 = process.memoryUsage().rss;
    let cgroupBytes = 0;
    let pss = 0;
    for (const id of idle) {
      const box = (manager.environmentOf(id) as BoxEnvironment).sessionBox!;
      cgroupBytes += Number(readFileSync(join(box.cgroupDirs[0]!, 'memory.usage_in_bytes'), 'utf8'));
      pss += pssKiB(box.uid);
    }
    console.log(`idle: ${IDLE} python sessions: server heap +${mib((heap1 - heap0) / IDLE)} and RSS +${mib((rss1 - rss0) / IDLE)} per session;`
      + ` each box holds ${mib(cgroupBytes / IDLE)} (cgroup memory usage: agent + REPL + bubblewrap + page cache charged to it),`
      + ` PSS of its processes ${mib((pss * 1024) / IDLE)}`);
  } finally {
    await manager.close();
  }
  console.log(`load average at end ${loadAverage()}`);
}

await main();

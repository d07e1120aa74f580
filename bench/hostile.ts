/**
 * bench:hostile — a bounded soak of `crucible serve` under a mixed stream of hostile and correct programs.
 *
 * A server child process (`crucible serve --port 0`, HumanEval loaded) receives, from `--workers` concurrent
 * clients for `--seconds`, requests drawn in turn from: correct programs (a Python and a C stdin/stdout sum, a
 * HumanEval canonical solution through the Python harness, a /run_code and a Piston run), the attack corpus of
 * test/hostile/programs (fork bombs, memory and disk fillers, deep trees, output floods, sleepers, orphaned
 * grandchildren, keyring writes, parent killers; the harness ones wrapped as a HumanEval solution), and
 * abandoned requests (a sleeper whose client hangs up after 300 ms); and (issue #23) session, MCP and Piston
 * attackers next to honest use of the same surfaces: sessions whose steps fake their end and kill their REPL or
 * fork a CPU burner, print 1 MiB of control bytes, sleep until their client hangs up, or are left open for their
 * TTL; a lookup-table policy on a `program` session; `initialize` floods on `/mcp`; Piston and contest-package
 * limits at 2^31 ms and past the server's maximum; and, honest, a python session computing, a `program` session
 * solved, an MCP `run_code` call and a codeforces contest job. Every program's source is made unique per request
 * (a comment) so nothing is answered from the memo.
 *
 * Figures: requests by kind, correct programs judged correct (must be all), internal errors (must be 0), the
 * verdicts hostile programs got, sandbox slots busy, queue items held, sessions open and MCP sessions open once
 * the stream stops and the server is idle (leaks; must be 0 once the sessions' TTL has passed), and host disk free
 * (the filesystem of the server's TMPDIR) and memory available (/proc/meminfo) before and after, plus the
 * server's RSS after a warm-up round of every kind (idle, after a full GC: the server is started with
 * `--expose-gc` and a preload that collects on SIGUSR2), every 30 s, at its peak (VmHWM) and at the end (idle, after
 * a full GC: must be back near its start).
 * Usage: npm run bench:hostile [-- --seconds 180 --workers 4]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, statfsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HUMANEVAL } from '../test/support/data.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const SECONDS = arg('--seconds', 180);
const WORKERS = arg('--workers', 4);
const ROOT = join(fileURLToPath(import.meta.url), '..', '..', '..');
const PROGRAMS = join(ROOT, 'test', 'hostile', 'programs');
const HUMAN_EVAL = HUMANEVAL;

interface Job {
  readonly name: string;
  readonly kind: 'correct' | 'hostile' | 'abandoned';
  readonly path: string;
  body(n: number): unknown;
  /** For correct programs: whether the answer says correct. */
  correct?(answer: any): boolean; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** A job of several requests (sessions, MCP): runs them all; `outcome` is what is counted, `correct` for honest ones. */
  run?(url: string, n: number): Promise<{ readonly outcome: string; readonly correct?: boolean; readonly internalError?: boolean }>;
}

const SUM_TESTS = [{ input: '1 2\n', output: '3\n' }, { input: '20 22\n', output: '42\n' }];
const SESSIONS = join(PROGRAMS, 'sessions');
/** Sessions the bench opens are evicted this soon after their last step if a job leaves them open. */
const SESSION_TTL_S = 20;
const source = (file: string): string => readFileSync(join(PROGRAMS, file), 'utf8');
const hostileIo = (file: string, language: string): Job => ({
  name: file, kind: 'hostile', path: '/v1/judge',
  body: (n) => ({ code: `${source(file)}\n${language === 'c' ? '/*' : '#'} ${n}${language === 'c' ? ' */' : ''}\n`, language,
    tests: [{ input: file === 'keyring_secret.py' ? (n % 2 === 0 ? 'store' : 'read') : '', output: 'never printed\n' }] }),
});
const hostileHarness = (file: string): Job => ({
  name: `harness/${file}`, kind: 'hostile', path: '/v1/judge',
  body: (n) => ({ problem: 'HumanEval/0', code: `${source(join('harness', file))}\n\ndef has_close_elements(numbers, threshold):  # ${n}\n`
    + '    f()\n    return any(abs(a - b) < threshold for i, a in enumerate(numbers) for b in numbers[i + 1:])\n' }),
});

/** One JSON request of a multi-request job; `signal` lets the client hang up. */
async function call(url: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}, signal?: AbortSignal):
  Promise<{ status: number; body: any; headers: Headers }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const response = await fetch(url + path, { method, signal, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    // A streamable-HTTP MCP answer may come as server-sent events: its data line is the JSON-RPC message.
    parsed = JSON.parse(/^data: (.*)$/m.exec(text)?.[1] ?? text);
  } catch {
    parsed = null;
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

/** A POST from the source address `from` (another client, as the server sees it); answers the status. */
function postFrom(from: string, url: string, path: string, body: unknown, headers: Record<string, string>): Promise<{ status: number }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: target.hostname, port: target.port, path, method: 'POST', localAddress: from,
      headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** A session job: open a session, run `steps` on it, delete it (unless `keep`); the outcome lists every answer. */
async function sessionJob(url: string, create: Record<string, unknown>, steps: readonly unknown[], keep = false):
  Promise<{ statuses: string[]; answers: any[]; internalError: boolean }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const created = await call(url, 'POST', '/v1/sessions', { ttlSeconds: SESSION_TTL_S, ...create });
  if (created.status !== 201) return { statuses: [`create ${created.status} ${created.body?.error?.code ?? ''}`], answers: [], internalError: created.status >= 500 };
  const id = created.body.id as string;
  const statuses: string[] = [];
  const answers: any[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any
  let internalError = false;
  for (const action of steps) {
    const r = await call(url, 'POST', `/v1/sessions/${id}/step`, { action });
    statuses.push(r.status === 200 ? String(r.body.observation.status) : `${r.status} ${r.body?.error?.code ?? ''}`);
    answers.push(r.body);
    if (r.status >= 500 || r.body?.observation?.status === 'internal_error') internalError = true;
  }
  if (!keep) await call(url, 'DELETE', `/v1/sessions/${id}`);
  return { statuses, answers, internalError };
}

const MCP_HEADERS = { accept: 'application/json, text/event-stream' };
const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } };

/** The session, MCP and Piston attackers of issue #23, and honest use of the same surfaces. */
function surfaceJobs(): Job[] {
  const program = (file: string, prelude: string): string => `${prelude}\n${readFileSync(join(SESSIONS, file), 'utf8')}`;
  const keyed = (input: string): string => `${(Number(input) * 7919 + 13) % 100_003}`;
  const KEYED_TESTS = ['3', '14', '15', '92', '65'].map((input) => ({ input: `${input}\n`, output: `${keyed(input)}\n` }));
  const noBody = (): unknown => ({});
  const pistonRefused = (name: string, body: (n: number) => unknown): Job => ({ name, kind: 'hostile', path: '/api/v2/execute', body });
  return [
    { name: 'session: python computes', kind: 'correct', path: '', body: noBody, run: async (url, n) => {
      const r = await sessionJob(url, { environment: 'python' }, [`x = 6  # ${n}`, 'x * 7']);
      return { outcome: r.statuses.join(' '), correct: r.answers[1]?.observation?.stdout === '42\n', internalError: r.internalError };
    } },
    { name: 'session: program solved', kind: 'correct', path: '', body: noBody, run: async (url, n) => {
      const r = await sessionJob(url, { environment: 'program', task: { tests: SUM_TESTS, visibleTests: 'all' } },
        [{ kind: 'submit', code: `a, b = map(int, input().split())\nprint(a + b)  # ${n}\n` }]);
      return { outcome: r.statuses.join(' '), correct: r.answers[0]?.reward === 1, internalError: r.internalError };
    } },
    { name: 'session: faked end, REPL killed', kind: 'hostile', path: '', body: noBody, run: async (url, n) => {
      const r = await sessionJob(url, { environment: n % 2 === 0 ? 'python' : 'bash' }, n % 2 === 0
        ? [program('forged_report_kill.py', `delay_s = ${(n % 5) / 1000}`), 'print(1)', 'print(2)']
        : [program('forged_report_kill.sh', `delay_s=${(n % 5) / 1000}`), 'echo 1', 'echo 2']);
      return { outcome: r.statuses.join(' '), internalError: r.internalError };
    } },
    { name: 'session: faked end, burner', kind: 'hostile', path: '', body: noBody, run: async (url, n) => {
      const r = await sessionJob(url, { environment: 'python', limits: { cpuMs: 1000, wallMs: 4000 } },
        [program('forged_report_burner.py', `# ${n}`), 'print(1)', 'print(2)']);
      return { outcome: r.statuses.join(' '), internalError: r.internalError };
    } },
    { name: 'session: 1 MiB control bytes', kind: 'hostile', path: '', body: noBody, run: async (url, n) => {
      const r = await sessionJob(url, { environment: 'python', limits: { outputBytes: 1 << 20 } },
        [program('output_amplifier.py', `n_bytes = ${(1 << 20) + (n % 2)}`)]);
      return { outcome: r.statuses.join(' '), internalError: r.internalError };
    } },
    { name: 'session: left open (TTL)', kind: 'hostile', path: '', body: noBody, run: async (url, n) => {
      const r = await sessionJob(url, { environment: 'bash' }, [`sleep 0.2 & echo ${n} > /box/kept`], true);
      return { outcome: r.statuses.join(' '), internalError: r.internalError };
    } },
    { name: 'session: lookup-table policy', kind: 'hostile', path: '', body: noBody, run: async (url, n) => {
      const created = await call(url, 'POST', '/v1/sessions', { environment: 'program', ttlSeconds: SESSION_TTL_S, task: { tests: KEYED_TESTS }, limits: { maxSubmits: 3 } });
      if (created.status !== 201) return { outcome: `create ${created.status}`, internalError: created.status >= 500 };
      const table = new Map<string, string>();
      const rewards: string[] = [];
      for (let k = 0; k < 4; k++) {
        const code = `TABLE = ${JSON.stringify(Object.fromEntries(table))}  # ${n}\n${readFileSync(join(SESSIONS, 'lookup_table.py'), 'utf8')}`;
        const r = await call(url, 'POST', `/v1/sessions/${created.body.id}/step`, { action: { kind: 'submit', code } });
        if (r.status !== 200) {
          rewards.push(String(r.status));
          break;
        }
        rewards.push(String(r.body.reward));
        const learned = /Input:\n([^]*?)\nExpected:\n([^]*?)(?:\nGot:|$)/.exec(String(r.body.observation.feedback));
        if (learned !== null) table.set(learned[1]!.trim(), learned[2]!.trim());
      }
      await call(url, 'DELETE', `/v1/sessions/${created.body.id}`);
      return { outcome: `rewards ${rewards.join(',')}${rewards.includes('1') ? ' BREACH' : ''}` };
    } },
    { name: 'session: abandoned sleeper', kind: 'abandoned', path: '', body: noBody, run: async (url) => {
      const created = await call(url, 'POST', '/v1/sessions', { environment: 'python', ttlSeconds: SESSION_TTL_S, limits: { cpuMs: 60_000, wallMs: 300_000 } });
      if (created.status !== 201) return { outcome: `create ${created.status}`, internalError: created.status >= 500 };
      const hangUp = new AbortController();
      setTimeout(() => hangUp.abort(), 300);
      const outcome = await call(url, 'POST', `/v1/sessions/${created.body.id}/step`, { action: 'import time\ntime.sleep(200)' }, {}, hangUp.signal)
        .then((r) => `answered ${r.status}`, () => 'abandoned');
      await call(url, 'DELETE', `/v1/sessions/${created.body.id}`);
      return { outcome };
    } },
    { name: 'MCP: initialize flood', kind: 'hostile', path: '', body: noBody, run: async (url) => {
      const statuses = new Map<number, number>();
      for (let k = 0; k < 30; k++) {
        // From another loopback address: a client of its own (the caps are per remote address).
        const r = await postFrom('127.0.0.2', url, '/mcp', INITIALIZE, MCP_HEADERS);
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      }
      return { outcome: [...statuses].map(([status, count]) => `${status}×${count}`).join(' '), internalError: [...statuses.keys()].some((x) => x >= 500) };
    } },
    { name: 'MCP: run_code', kind: 'correct', path: '', body: noBody, run: async (url, n) => {
      const init = await call(url, 'POST', '/mcp', INITIALIZE, MCP_HEADERS);
      const id = init.headers.get('mcp-session-id');
      if (init.status !== 200 || id === null) return { outcome: `initialize ${init.status}`, correct: false };
      const session = { ...MCP_HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' };
      await call(url, 'POST', '/mcp', { jsonrpc: '2.0', method: 'notifications/initialized' }, session);
      const r = await call(url, 'POST', '/mcp', { jsonrpc: '2.0', id: 2, method: 'tools/call',
        params: { name: 'run_code', arguments: { language: 'python', code: `print(6 * 7)  # ${n}` } } }, session);
      await call(url, 'DELETE', '/mcp', undefined, session);
      const result = r.body?.result?.structuredContent;
      return { outcome: `${r.status} ${result?.status ?? r.body?.error?.message ?? ''}`, correct: result?.run?.stdout === '42\n', internalError: result?.status === 'internal_error' };
    } },
    pistonRefused('Piston: run_timeout 2^31', (n) => ({ language: 'python', version: '*', files: [{ content: `import time\ntime.sleep(100)  # ${n}` }], run_timeout: 2 ** 31 })),
    pistonRefused('Piston: 90 s sleeper', (n) => ({ language: 'python', version: '*', files: [{ content: `import time\ntime.sleep(90)  # ${n}` }], run_timeout: 90_000 })),
    pistonRefused('Piston: TIME_LIMIT=70', (n) => ({ language: 'c++17', version: '*', files: [{ name: 'main.cpp', content: `int main(){for(;;);} // ${n}` },
      { name: 'input.txt', content: '' }, { name: 'grader_config', content: 'TIME_LIMIT=70\nMEMORY_LIMIT=256\n' }] })),
    { name: 'Piston: abandoned sleeper', kind: 'abandoned', path: '/api/v2/execute',
      body: (n) => ({ language: 'python', version: '*', files: [{ content: `import time\ntime.sleep(100)  # ${n}` }], run_timeout: 60_000 }) },
    { name: 'Piston: codeforces job', kind: 'correct', path: '/api/v2/execute', correct: (a) => a.run?.stdout === '1\n',
      body: (n) => ({ language: 'c++17', version: '*', files: [
        { name: 'main.cpp', content: `#include <cstdio>\nint main(){int a,b;std::scanf("%d %d",&a,&b);std::printf("%d\\n",a+b);} // ${n}` },
        { name: 'input.txt', content: '20 22\n' }, { name: 'correct_output.txt', content: '42\n' },
        { name: 'grader_config', content: 'TIME_LIMIT=2\nMEMORY_LIMIT=256\nINPUT_MODE=stdio\n' }] }) },
  ];
}

function jobs(canonical: string): Job[] {
  return [
    { name: 'sum.py', kind: 'correct', path: '/v1/judge', body: (n) => ({ code: `a, b = map(int, input().split())\nprint(a + b)  # ${n}\n`, tests: SUM_TESTS }),
      correct: (a) => a.status === 'passed' },
    { name: 'sum.c', kind: 'correct', path: '/v1/judge', correct: (a) => a.status === 'passed',
      body: (n) => ({ language: 'c', code: `#include <stdio.h>\nint main(void){int a,b;scanf("%d %d",&a,&b);printf("%d\\n",a+b);return 0;} /* ${n} */\n`, tests: SUM_TESTS }) },
    { name: 'HumanEval/0', kind: 'correct', path: '/v1/judge', correct: (a) => a.status === 'passed',
      body: (n) => ({ problem: 'HumanEval/0', response: `${canonical}    # ${n}\n` }) },
    { name: '/run_code', kind: 'correct', path: '/run_code', correct: (a) => a.status === 'Success' && a.run_result.stdout === '42\n',
      body: (n) => ({ language: 'python', code: `print(int(input()) * 2)  # ${n}`, stdin: '21', run_timeout: 5 }) },
    { name: '/api/v2/execute', kind: 'correct', path: '/api/v2/execute', correct: (a) => a.run.code === 0 && a.run.stdout === '42\n',
      body: (n) => ({ language: 'python', version: '*', files: [{ content: `print(6 * 7)  # ${n}` }] }) },
    ...['fork_bomb.c', 'infinite_loop.c', 'busy_threads.c'].map((f) => hostileIo(f, 'c')),
    ...['memory_bomb.py', 'fill_disk.py', 'fill_tmp.py', 'deep_tree.py', 'stdout_flood.py', 'stderr_flood.py', 'sleep_forever.py',
      'double_fork_setsid.py', 'keyring_secret.py', 'kill_parent.py', 'write_outside.py', 'connect_public.py'].map((f) => hostileIo(f, 'python')),
    ...['grandchild_cpu.py', 'children_memory.py', 'fill_box.py', 'leave_traces.py'].map(hostileHarness),
    { name: 'abandoned sleeper', kind: 'abandoned', path: '/v1/judge',
      body: (n) => ({ code: `import time\ntime.sleep(100)  # ${n}\n`, tests: SUM_TESTS, timeLimitMs: 60_000 }) },
    ...surfaceJobs(),
  ];
}

/**
 * Preloaded into the server (bench only): SIGUSR2 runs a full garbage collection, so the memory figures compare
 * live memory, not garbage the collector has not met yet.
 */
const GC_ON_SIGUSR2 = `data:text/javascript,${encodeURIComponent("process.on('SIGUSR2', () => globalThis.gc());")}`;

function startServe(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', GC_ON_SIGUSR2, join(ROOT, 'bin', 'crucible'),
    'serve', '--port', '0', '--problems', HUMAN_EVAL, '--log-level', 'warn', '--no-store'], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let seen = '';
    const read = (chunk: Buffer): void => {
      seen += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(seen);
      if (m) resolve({ child, url: m[1]! });
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) => reject(new Error(`crucible serve exited (${code}):\n${seen}`)));
  });
}

function host(): { diskFreeMiB: number; memAvailableMiB: number } {
  const fs = statfsSync(tmpdir());
  const mem = Number(/^MemAvailable:\s+(\d+)/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1] ?? 0);
  return { diskFreeMiB: Math.round((fs.bavail * fs.bsize) / 2 ** 20), memAvailableMiB: Math.round(mem / 1024) };
}

function serverKiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  return Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
}

async function main(): Promise<void> {
  const humanEval = readFileSync(HUMAN_EVAL);
  const { gunzipSync } = await import('node:zlib');
  const first = JSON.parse(gunzipSync(humanEval).toString('utf8').split('\n')[0]!) as { canonical_solution: string };
  const before = host();
  const { child, url } = await startServe();
  const all = jobs(first.canonical_solution);
  const counts = new Map<string, Map<string, number>>();
  const note = (name: string, outcome: string): void => {
    const m = counts.get(name) ?? new Map<string, number>();
    m.set(outcome, (m.get(outcome) ?? 0) + 1);
    counts.set(name, m);
  };
  let breaches = 0;
  let correctRight = 0;
  let correctTotal = 0;
  let internalErrors = 0;
  /** One job; `counted` false for the warm-up round (nothing tallied). */
  const runOne = async (job: Job, i: number, counted: boolean): Promise<void> => {
    const tally = (name: string, outcome: string): void => {
      if (counted) note(name, outcome);
    };
    if (job.run !== undefined) {
      try {
        const r = await job.run(url, i);
        if (!counted) return;
        if (r.internalError === true) internalErrors++;
        if (r.outcome.includes('BREACH')) breaches++;
        if (job.kind === 'correct') {
          correctTotal++;
          if (r.correct === true) correctRight++;
        }
        tally(job.name, r.outcome);
      } catch (error) {
        tally(job.name, `client error ${(error as Error).message}`);
      }
      return;
    }
    const controller = new AbortController();
    if (job.kind === 'abandoned') setTimeout(() => controller.abort(), 300);
    try {
      const response = await fetch(url + job.path, { method: 'POST', signal: controller.signal,
        headers: { 'content-type': 'application/json' }, body: JSON.stringify(job.body(i)) });
      const answer = await response.json() as any; // eslint-disable-line @typescript-eslint/no-explicit-any
      if (!counted) return;
      const status = answer.run !== undefined && answer.status === undefined
        ? String(answer.run.status ?? 'exit 0') // Piston: null status is a normal exit
        : String(answer.status ?? answer.verdict?.status ?? answer.error?.code ?? response.status);
      if (response.status >= 500 || status === 'internal_error' || status === 'SandboxError' || status === 'XX') internalErrors++;
      if (job.correct) {
        correctTotal++;
        if (job.correct(answer)) correctRight++;
      }
      tally(job.name, `${response.status} ${status}`);
    } catch (error) {
      tally(job.name, (error as Error).name === 'AbortError' ? 'abandoned' : `client error ${(error as Error).message}`);
    }
  };
  const gauge = (text: string, name: string): number => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? NaN);
  /** Wait until the server is idle: no item held, no slot busy, every session closed (those left open by their TTL). */
  const idle = async (): Promise<{ health: any; sessionsOpen: number; mcpOpen: number }> => { // eslint-disable-line @typescript-eslint/no-explicit-any
    let health: any = null; // eslint-disable-line @typescript-eslint/no-explicit-any
    let sessionsOpen = NaN;
    let mcpOpen = NaN;
    for (let t = 0; t < 10 * (SESSION_TTL_S + 60); t++) {
      health = await (await fetch(`${url}/health`)).json();
      const metrics = await (await fetch(`${url}/metrics`)).text();
      sessionsOpen = gauge(metrics, 'crucible_sessions_open');
      mcpOpen = gauge(metrics, 'crucible_mcp_sessions_open');
      if (health.queue.outstanding === 0 && health.sandbox.busySlots === 0 && sessionsOpen === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    return { health, sessionsOpen, mcpOpen };
  };
  // Warm-up: every kind once, uncounted (toolchains probed, harness and session slot pools made, the MCP SDK
  // loaded, the MCP caps filled), then idle: the server's starting memory.
  let k = 0;
  await Promise.all(Array.from({ length: WORKERS }, async () => {
    while (k < all.length) {
      const job = all[k++]!;
      await runOne(job, -1 - k, false);
    }
  }));
  await idle();
  /** The server's RSS after a full garbage collection, MiB. */
  const collectedRssMiB = async (): Promise<number> => {
    child.kill('SIGUSR2');
    await new Promise((r) => setTimeout(r, 2000));
    return Math.round(serverKiB(child.pid!, 'VmRSS') / 1024);
  };
  const startRssMiB = await collectedRssMiB();
  const rssSamples: number[] = [];
  const sampler = setInterval(() => rssSamples.push(Math.round(serverKiB(child.pid!, 'VmRSS') / 1024)), 30_000);
  let n = 0;
  const deadline = Date.now() + SECONDS * 1000;
  const worker = async (): Promise<void> => {
    while (Date.now() < deadline) {
      const i = n++;
      // The request's number as the job sees it: unique (strictly increasing in i) and, unlike i, alternating in
      // parity and cycling modulo 5 from one round of a kind to its next, so the variants a job picks by n % 2 or
      // n % 5 all run even when the number of kinds is even.
      await runOne(all[i % all.length]!, i + Math.floor(i / all.length), true);
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, worker));
  clearInterval(sampler);
  // Idle: every abandoned or running item gone, sessions left open evicted once their TTL passed; the server's own figures.
  const { health, sessionsOpen, mcpOpen } = await idle();
  const reserved = gauge(await (await fetch(`${url}/metrics`)).text(), 'crucible_session_memory_reserved_bytes');
  const peakRssMiB = Math.round(serverKiB(child.pid!, 'VmHWM') / 1024);
  const rssMiB = await collectedRssMiB();
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  await new Promise((r) => setTimeout(r, 1000));
  const afterStop = host();
  console.log(`bench:hostile — ${SECONDS} s, ${WORKERS} clients, ${n} requests against crucible serve (${health.sandbox.slots} slots)`);
  for (const [name, m] of counts) console.log(`  ${name.padEnd(26)} ${[...m].map(([k, v]) => `${k}: ${v}`).join(', ')}`);
  console.log(`correct programs judged correct: ${correctRight}/${correctTotal}`);
  console.log(`internal errors: ${internalErrors}`);
  console.log(`lookup-table policies that earned a reward (breaches): ${breaches}`);
  console.log(`after the stream, idle: busy slots ${health.sandbox.busySlots}, queue items held ${health.queue.outstanding}, health ${health.status}`);
  console.log(`sessions open once their TTL (${SESSION_TTL_S} s) passed: ${sessionsOpen}, host memory reserved for sessions: ${reserved} bytes; MCP sessions open: ${mcpOpen} (capped)`);
  console.log(`host disk free (${tmpdir()}): ${before.diskFreeMiB} MiB before, ${afterStop.diskFreeMiB} MiB after (${afterStop.diskFreeMiB - before.diskFreeMiB} MiB)`);
  console.log(`host memory available: ${before.memAvailableMiB} MiB before, ${afterStop.memAvailableMiB} MiB after (${afterStop.memAvailableMiB - before.memAvailableMiB} MiB)`);
  console.log(`server RSS: ${startRssMiB} MiB after the warm-up round (idle, after a full GC), every 30 s of the stream `
    + `${rssSamples.join(', ')} MiB, peak ${peakRssMiB} MiB, ${rssMiB} MiB at the end (idle, after a full GC)`);
  if (correctRight !== correctTotal || internalErrors > 0 || breaches > 0 || health.sandbox.busySlots !== 0 || health.queue.outstanding !== 0
    || sessionsOpen !== 0 || reserved !== 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

/**
 * Hostile clients of `crucible serve` (issue #23, items 5, 8, 9, 12), against the real server on 127.0.0.1:0 with
 * a real sandbox: four sessions whose steps wedge or sleep do not hold back `/v1/judge`, and a client that hangs up
 * while its step waits behind another leaves at once; an `initialize` flood on `/mcp` keeps at most the caps of
 * MCP sessions and evicts the flooder's own; every limit of every route, sent at 2^31 ms and beyond, is a 400 naming
 * the field (never a 500, never a timer overflow); a DNS-rebinding request (a foreign `Host`) is refused on a
 * tokenless server and by the dashboard, while IP addresses, localhost and allowed names are served.
 */
// crucible-test: alone — wedged and sleeping sessions are timed against /v1/judge calls answered meanwhile (test/run.ts runs it with no other file).
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { startDashboard } from '../../src/dashboard/server.js';
import { LIMIT_RANGES, MAX_TIMER_MS } from '../../src/limits.js';
import { Sandbox } from '../../src/sandbox/index.js';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { startServer, type ServerHandle } from '../../src/server/index.js';
import { createLogger } from '../../src/server/logging.js';
import { openResultStore } from '../../src/store/open.js';
import { httpCall, type Answer } from '../support/http.js';

const SUM = 'a, b = map(int, input().split())\nprint(a + b)\n';
const SUM_TESTS = [{ input: '1 2\n', output: '3\n' }, { input: '5 5\n', output: '10\n' }];
const BIG = 2 ** 31;

let sandbox: Sandbox;
let server: ServerHandle;
const post = (path: string, body?: unknown): Promise<Answer> => httpCall(server.url, 'POST', path, body ?? {});

before(async () => {
  sandbox = Sandbox.create({ slots: 2 });
  server = await startServer({ port: 0, logLevel: 'silent', maxMcpSessions: 8, maxMcpSessionsPerClient: 4, allowedHosts: ['crucible.test'] },
    { sandbox, logger: createLogger('silent') });
});

after(async () => {
  await server.shutdown(1000);
  sandbox.close();
});

/** One raw HTTP request (the `Host` header and the source address are ours to choose). */
function raw(method: string, path: string, options: { host?: string; from?: string; body?: unknown; headers?: Record<string, string> } = {}):
  Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: '127.0.0.1', port: server.port, method, path, ...(options.from === undefined ? {} : { localAddress: options.from }),
      headers: { ...(options.host === undefined ? {} : { host: options.host }), ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers },
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { text += chunk; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('sessions do not hold back judging (item 5)', () => {
  test('four sessions whose steps fake their end, kill their REPL or sleep: /v1/judge is served meanwhile', { timeout: 300_000 }, async () => {
    const forged = readFileSync(join(PROJECT_ROOT, 'test', 'hostile', 'programs', 'sessions', 'forged_report_kill.py'), 'utf8');
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const c = await post('/v1/sessions', { environment: 'python', limits: { cpuMs: 60_000, wallMs: 300_000 } });
      assert.equal(c.status, 201, c.text);
      ids.push(c.body.id as string);
    }
    // Each session: a step that fakes its end and kills its REPL, then one that sleeps to its 5-minute wall limit.
    for (const id of ids) {
      assert.equal((await post(`/v1/sessions/${id}/step`, { action: `delay_s = 0.001\n${forged}` })).status, 200);
      // The REPL that faked its end dies before this step (replaced first) or in it (this step says so): either way it answers.
      const probe = await post(`/v1/sessions/${id}/step`, { action: 'pass' });
      assert.ok(['ok', 'runtime_error'].includes(probe.body.observation.status), probe.text);
    }
    const hangUps = ids.map(() => new AbortController());
    const sleeping = ids.map((id, i) => fetch(`${server.url}/v1/sessions/${id}/step`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, signal: hangUps[i]!.signal,
      body: JSON.stringify({ action: 'import time\nwhile True:\n    time.sleep(1)' }),
    }).then((r) => r.status, (e: Error) => e.name));
    // A second step sent behind the sleeper, whose client hangs up while it waits for its turn.
    const behind = new AbortController();
    const queued = fetch(`${server.url}/v1/sessions/${ids[0]}/step`, { method: 'POST', headers: { 'content-type': 'application/json' },
      signal: behind.signal, body: JSON.stringify({ action: 'print("never")' }) }).then((r) => r.status, (e: Error) => e.name);
    await sleep(500);
    const judged = await post('/v1/judge', { code: SUM, tests: SUM_TESTS });
    assert.equal(judged.body.status, 'passed', judged.text);
    assert.equal(server.context.service.admission.running, 0, 'no judging place is held by a session step');
    behind.abort();
    assert.equal(await queued, 'AbortError');
    for (const h of hangUps) h.abort();
    assert.deepEqual(await Promise.all(sleeping), ['AbortError', 'AbortError', 'AbortError', 'AbortError']);
    // Every session goes on; the step that waited behind never ran.
    for (const id of ids) {
      const next = await post(`/v1/sessions/${id}/step`, { action: 'print("next")' });
      assert.equal(next.body.observation.stdout, 'next\n', next.text);
      assert.doesNotMatch(next.body.observation.stdout, /never/);
      assert.equal((await httpCall(server.url, 'DELETE', `/v1/sessions/${id}`)).status, 200);
    }
  });
});

describe('an initialize flood on /mcp (item 8)', () => {
  const initialize = (from: string): Promise<{ status: number; id: string | undefined }> => raw('POST', '/mcp', {
    from, headers: { accept: 'application/json, text/event-stream' },
    body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flood', version: '1' } } },
  }).then((r) => ({ status: r.status, id: r.headers['mcp-session-id'] as string | undefined }));
  const alive = (from: string, id: string): Promise<number> => raw('POST', '/mcp', {
    from, headers: { accept: 'application/json, text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' },
    body: { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
  }).then((r) => r.status);
  const openSessions = async (): Promise<number> => {
    const m = await httpCall(server.url, 'GET', '/metrics');
    return Number(/^crucible_mcp_sessions_open (\d+)$/m.exec(m.text)?.[1]);
  };

  test('one client\'s flood evicts its own oldest sessions; another client\'s session survives; the caps hold', { timeout: 120_000 }, async () => {
    const other = await initialize('127.0.0.2');
    assert.equal(other.status, 200);
    const flood: string[] = [];
    for (let i = 0; i < 40; i++) {
      const r = await initialize('127.0.0.1');
      assert.equal(r.status, 200);
      flood.push(r.id!);
      assert.ok(await openSessions() <= 8, 'at most maxMcpSessions open');
    }
    assert.equal(await openSessions(), 5, 'the flooder holds its 4, the other client its 1');
    assert.equal(await alive('127.0.0.2', other.id!), 200, 'the other client\'s session survived the flood');
    assert.equal(await alive('127.0.0.1', flood.at(-1)!), 200);
    assert.equal(await alive('127.0.0.1', flood[0]!), 404, 'the flooder\'s oldest session was closed');
    // More clients: the server-wide cap holds too.
    for (const from of ['127.0.0.3', '127.0.0.4']) for (let i = 0; i < 4; i++) assert.equal((await initialize(from)).status, 200);
    assert.ok(await openSessions() <= 8);
  });
});

describe('every limit of every route is range-checked at the edge (item 9)', () => {
  test('every time range of LIMIT_RANGES ends far below a Node timer\'s largest delay', () => {
    for (const [name, range] of Object.entries(LIMIT_RANGES)) {
      if (/Ms$/.test(name)) assert.ok(range.max < MAX_TIMER_MS / 1000, `${name} max ${range.max}`);
    }
  });

  const cases: [string, string, unknown, string][] = [
    ['/v1/judge timeLimitMs', '/v1/judge', { code: SUM, tests: SUM_TESTS, timeLimitMs: BIG }, 'timeLimitMs'],
    ['/v1/judge memoryLimitKiB', '/v1/judge', { code: SUM, tests: SUM_TESTS, memoryLimitKiB: BIG }, 'memoryLimitKiB'],
    ['/v1/rewards items[0].timeLimitMs', '/v1/rewards', { items: [{ id: 1, code: SUM, tests: SUM_TESTS, timeLimitMs: BIG }] }, 'items[0].timeLimitMs'],
    ['/run_code run_timeout', '/run_code', { language: 'python', code: SUM, run_timeout: BIG }, 'run_timeout'],
    ['/run_code compile_timeout', '/run_code', { language: 'python', code: SUM, compile_timeout: BIG }, 'compile_timeout'],
    ['/run_code memory_limit_MB', '/run_code', { language: 'python', code: SUM, memory_limit_MB: BIG }, 'memory_limit_MB'],
    ['Piston run_timeout', '/api/v2/execute', { language: 'python', version: '*', files: [{ content: SUM }], run_timeout: BIG }, 'run_timeout'],
    ['Piston run_timeout above the server maximum', '/api/v2/execute', { language: 'python', version: '*', files: [{ content: 'import time\ntime.sleep(90)' }], run_timeout: 90_000 }, 'run_timeout'],
    ['Piston run_cpu_time', '/api/v2/execute', { language: 'python', version: '*', files: [{ content: SUM }], run_cpu_time: BIG }, 'run_cpu_time'],
    ['Piston compile_timeout', '/api/v2/execute', { language: 'python', version: '*', files: [{ content: SUM }], compile_timeout: BIG }, 'compile_timeout'],
    ['Piston compile_cpu_time', '/api/v2/execute', { language: 'python', version: '*', files: [{ content: SUM }], compile_cpu_time: BIG }, 'compile_cpu_time'],
    ['Piston run_memory_limit', '/api/v2/execute', { language: 'python', version: '*', files: [{ content: SUM }], run_memory_limit: 2 ** 50 }, 'run_memory_limit'],
    ['Piston compile_memory_limit', '/api/v2/execute', { language: 'python', version: '*', files: [{ content: SUM }], compile_memory_limit: 2 ** 50 }, 'compile_memory_limit'],
    ['Piston contest run_timeout', '/api/v2/execute', { language: 'c++17', version: '*', files: [{ name: 'main.cpp', content: 'int main(){}' }, { name: 'input.txt', content: '' }], run_timeout: 70_000 }, 'run_timeout'],
    ['codeforces grader_config TIME_LIMIT', '/api/v2/execute', { language: 'c++17', version: '*', files: [{ name: 'main.cpp', content: 'int main(){}' },
      { name: 'input.txt', content: '' }, { name: 'grader_config', content: 'TIME_LIMIT=70\nMEMORY_LIMIT=256\n' }] }, 'files'],
    ['codeforces grader_config MEMORY_LIMIT', '/api/v2/execute', { language: 'c++17', version: '*', files: [{ name: 'main.cpp', content: 'int main(){}' },
      { name: 'input.txt', content: '' }, { name: 'grader_config', content: 'TIME_LIMIT=1\nMEMORY_LIMIT=1e12\n' }] }, 'files'],
    ['sessions limits.wallMs', '/v1/sessions', { environment: 'python', limits: { wallMs: BIG } }, 'limits.wallMs'],
    ['sessions limits.outputBytes', '/v1/sessions', { environment: 'python', limits: { outputBytes: 16 << 20 } }, 'limits.outputBytes'],
    ['sessions ttlSeconds', '/v1/sessions', { environment: 'python', ttlSeconds: BIG }, 'ttlSeconds'],
    ['sessions program task timeLimitMs', '/v1/sessions', { environment: 'program', task: { tests: SUM_TESTS, timeLimitMs: BIG } }, 'task.timeLimitMs'],
  ];
  for (const [name, path, body, field] of cases) {
    test(name, { timeout: 120_000 }, async () => {
      const r = await post(path, body);
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.error.code, 'invalid_body', r.text);
      assert.equal(r.body.error.field, field, r.text);
      assert.match(r.body.error.message, /outside the allowed range|at most/, r.text);
    });
  }

  test('none of it was counted as Crucible\'s failure', async () => {
    const m = await httpCall(server.url, 'GET', '/metrics');
    assert.doesNotMatch(m.text, /^crucible_internal_errors_total\{[^}]*\} [1-9]/m);
  });
});

describe('DNS rebinding: a foreign Host is refused without a token (item 12)', () => {
  test('serve: a rebinding Host is 403 on every route; IP addresses, localhost and allowed names are served', async () => {
    for (const path of ['/health', '/metrics', '/api/v2/runtimes']) {
      const r = await raw('GET', path, { host: `attacker.example:${server.port}` });
      assert.equal(r.status, 403, `${path}: ${r.text}`);
      assert.equal(JSON.parse(r.text).error.code, 'host_not_allowed');
    }
    const judged = await raw('POST', '/v1/judge', { host: 'rebind.attacker.example', body: { code: SUM, tests: SUM_TESTS } });
    assert.equal(judged.status, 403);
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`, `[::1]:${server.port}`, 'app.localhost', 'crucible.test', 'CRUCIBLE.TEST.:80']) {
      assert.equal((await raw('GET', '/health', { host })).status, 200, host);
    }
  });

  test('with a token the Host is not checked (the token authenticates)', async () => {
    const tokenSandbox = Sandbox.create({ slots: 1 });
    const withToken = await startServer({ port: 0, logLevel: 'silent', token: 'secret' }, { sandbox: tokenSandbox, logger: createLogger('silent') });
    try {
      const anyHost = await fetch(`${withToken.url}/api/v2/runtimes`, { headers: { authorization: 'Bearer secret' } });
      assert.equal(anyHost.status, 200);
      const r = await new Promise<number>((resolve, reject) => {
        httpRequest({ host: '127.0.0.1', port: withToken.port, path: '/api/v2/runtimes', headers: { host: 'attacker.example', authorization: 'Bearer secret' } },
          (res) => { res.resume(); resolve(res.statusCode ?? 0); }).on('error', reject).end();
      });
      assert.equal(r, 200);
    } finally {
      await withToken.shutdown(1000);
      tokenSandbox.close();
    }
  });

  test('the dashboard refuses a rebinding Host and serves loopback', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crucible-rebind-'));
    const store = await openResultStore(join(dir, 'crucible.db'));
    const dashboard = await startDashboard({ store });
    try {
      const get = (host: string): Promise<number> => new Promise((resolve, reject) => {
        httpRequest({ host: '127.0.0.1', port: dashboard.port, path: '/', headers: { host } }, (res) => { res.resume(); resolve(res.statusCode ?? 0); })
          .on('error', reject).end();
      });
      assert.equal(await get(`attacker.example:${dashboard.port}`), 403);
      assert.equal(await get(`127.0.0.1:${dashboard.port}`), 200);
      assert.equal(await get(`localhost:${dashboard.port}`), 200);
    } finally {
      await dashboard.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * `crucible serve` under the conditions of #10: clients that hang up (their work is cancelled on every
 * endpoint, processes killed, slots and queue places freed), a health check that runs real programs and
 * degrades when the sandbox cannot, Crucible's own failures counted per endpoint and answered with the status
 * each client retries, SandboxFusion's wall-clock `run_timeout`, deduplicated `/run_code`, and bad input.
 * The real server on 127.0.0.1:0 in this process, a real sandbox, real programs.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Sandbox } from '../../src/sandbox/index.js';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { startServer, type ServerHandle } from '../../src/server/index.js';
import { createLogger } from '../../src/server/logging.js';
import { httpCall, type Answer } from '../support/http.js';

const SUM_TESTS = [{ input: '1 2\n', output: '3\n' }, { input: '5 5\n', output: '10\n' }];
const SUM_PY = 'a, b = map(int, input().split())\nprint(a + b)\n';

const send = (server: ServerHandle, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> =>
  httpCall(server.url, method, path, body, headers);

const post = (s: ServerHandle, path: string, body: unknown, headers?: Record<string, string>): Promise<Answer> => send(s, 'POST', path, body, headers);

/** Poll `condition` every 50 ms until it holds; fail with `what` after `limitMs` (far beyond what it should take). */
async function until(condition: () => boolean, what: string, limitMs = 90_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > limitMs) assert.fail(`${what} did not happen`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The value of one Prometheus series in a /metrics text, 0 when absent. */
function metric(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

let sandbox: Sandbox;
let server: ServerHandle;

before(async () => {
  sandbox = Sandbox.create({ slots: 2 });
  // 2 slots x 1 in flight: two items run, the rest wait in the queue.
  server = await startServer({ port: 0, inFlightPerSlot: 1, queueCapacity: 16, logLevel: 'silent' },
    { sandbox, logger: createLogger('silent') });
});

after(async () => {
  await server.shutdown(1000);
  sandbox.close();
});

describe('a client that disconnects cancels its work (item 8)', () => {
  test('abandoned sleepers on every endpoint are killed or leave the queue; the next request is served', async () => {
    // Each sleeper would hold a slot for 60 s or more (its wall limit); distinct sources defeat dedup.
    const sleeper = (tag: string): string => `import time\ntime.sleep(150)\nprint(1)  # ${tag}\n`;
    const tests = [{ input: '', output: '1\n' }];
    const label = JSON.stringify({ tests, timeLimitMs: 60_000, language: 'python' });
    const requests: [string, unknown, Record<string, string>?][] = [
      ['/v1/judge', { code: sleeper('judge'), tests, timeLimitMs: 60_000 }],
      ['/v1/rewards', { items: [{ id: 1, code: sleeper('rewards'), tests, timeLimitMs: 60_000 }] }],
      ['/v1/rewards', { items: [{ id: 1, code: sleeper('ndjson'), tests, timeLimitMs: 60_000 }] }, { accept: 'application/x-ndjson' }],
      ['/run_code', { code: sleeper('fusion'), language: 'python', run_timeout: 60, compile_timeout: 10, files: {}, fetch_files: [] }],
      ['/get_reward', { query: [sleeper('openrlhf')], prompts: [''], labels: [label] }],
      // Piston's run_timeout is a wall limit of at most the server's maximum time limit (60 s): long enough here.
      ['/api/v2/execute', { language: 'python', version: '*', files: [{ content: sleeper('piston') }], run_cpu_time: 60_000, run_timeout: 60_000 }],
    ];
    const judge = server.context.judge;
    const admission = server.context.service.admission;
    const runsBefore = judge.stats().runs;
    const cancelledBefore = server.context.service.cancelledItems;
    const clients = requests.map(([path, body, headers]) => {
      const controller = new AbortController();
      const answer = fetch(server.url + path, {
        method: 'POST', signal: controller.signal,
        headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body),
      }).then((r) => r.text()).then(() => 'answered', (e: Error) => e.name);
      return { controller, answer };
    });
    // Every request admitted, two of them running in the sandbox.
    await until(() => admission.outstanding === requests.length && sandbox.busySlots === 2 && admission.running === 2, 'admission of all six');
    for (const c of clients) c.controller.abort();
    assert.deepEqual(await Promise.all(clients.map((c) => c.answer)), requests.map(() => 'AbortError'));
    // The two running sleepers are killed and their slots freed; the four waiting never start.
    await until(() => admission.outstanding === 0 && admission.running === 0 && sandbox.busySlots === 0, 'release of every slot and queue place');
    assert.equal(judge.stats().runs - runsBefore, 2, 'only the two items that had started ran');
    assert.equal(server.context.service.cancelledItems - cancelledBefore, requests.length);
    assert.equal(admission.stats.cancelledItems, requests.length - 2, 'four left the queue without starting');
    const metrics = await send(server, 'GET', '/metrics');
    assert.equal(metric(metrics.text, 'crucible_cancelled_items_total'), server.context.service.cancelledItems);
    // A fresh request is served at once by the freed slots.
    const fresh = await post(server, '/v1/judge', { code: SUM_PY, tests: SUM_TESTS });
    assert.equal(fresh.status, 200, fresh.text);
    assert.equal(fresh.body.status, 'passed');
  });
});

describe('SandboxFusion /run_code (items 12, 14)', () => {
  test('run_timeout is a wall-clock limit: sleep(4) under run_timeout 1 is TimeLimitExceeded, not Success', async () => {
    const r = await post(server, '/run_code', { code: 'import time\ntime.sleep(4)\nprint("done")', language: 'python', run_timeout: 1 });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.status, 'Failed');
    assert.equal(r.body.run_result.status, 'TimeLimitExceeded');
    assert.equal(r.body.run_result.stdout, '');
  });

  test('identical requests in flight and recently run execute once, each client gets the same answer', async () => {
    const body = { code: 'import time\ntime.sleep(0.5)\nprint(input()[::-1])', language: 'python', stdin: 'dedup-me', run_timeout: 5 };
    const runsBefore = server.context.judge.stats().runs;
    const dedupBefore = metric((await send(server, 'GET', '/metrics')).text, 'crucible_deduplicated_total');
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(server, '/run_code', body)));
    const again = await post(server, '/run_code', body);
    for (const a of [...answers, again]) {
      assert.equal(a.status, 200);
      assert.equal(a.body.status, 'Success');
      assert.equal(a.body.run_result.stdout, 'em-puded\n');
    }
    assert.equal(server.context.judge.stats().runs - runsBefore, 1, 'nine identical requests, one execution');
    const dedupAfter = metric((await send(server, 'GET', '/metrics')).text, 'crucible_deduplicated_total');
    assert.equal(dedupAfter - dedupBefore, 8);
    // Another stdin is another run.
    const other = await post(server, '/run_code', { ...body, stdin: 'other' });
    assert.equal(other.body.run_result.stdout, 'rehto\n');
  });
});

describe('bad input is a 400 naming the field and the range', () => {
  test('SandboxFusion memory_limit_MB 0 and -7; run_timeout out of range', async () => {
    for (const mb of [0, -7, 1, 10 ** 6]) {
      const r = await post(server, '/run_code', { code: 'print(1)', language: 'python', memory_limit_MB: mb });
      assert.equal(r.status, 400, `${mb}: ${r.text}`);
      assert.equal(r.body.error.code, 'invalid_body');
      assert.equal(r.body.error.field, 'memory_limit_MB');
      assert.match(r.body.error.message, /^memory_limit_MB: .* is outside the allowed range 16 MiB to \d+ MiB/);
    }
    const fine = await post(server, '/run_code', { code: 'print(1)', language: 'python', memory_limit_MB: -1 });
    assert.equal(fine.body.status, 'Success');
    const time = await post(server, '/run_code', { code: 'print(1)', language: 'python', run_timeout: 1000 });
    assert.equal(time.status, 400);
    assert.match(time.body.error.message, /^run_timeout: 1000 s is outside the allowed range 0.01 s to 60 s/);
  });

  test('Piston: invalid base64 or hex is refused, valid base64 runs; run_memory_limit out of range', async () => {
    const execute = (file: Record<string, string>, extra: Record<string, unknown> = {}): Promise<Answer> =>
      post(server, '/api/v2/execute', { language: 'python', version: '*', files: [file], ...extra });
    for (const file of [{ content: 'cHJpbnQoMSk!!!', encoding: 'base64' }, { content: 'cHJpbnQoMSk', encoding: 'base64' },
      { content: 'zz', encoding: 'hex' }, { content: '//79', encoding: 'base64' }]) {
      const r = await execute(file);
      assert.equal(r.status, 400, JSON.stringify(file));
      assert.equal(r.body.error.field, 'files[0].content');
    }
    const ok = await execute({ content: Buffer.from('print(6 * 7)').toString('base64'), encoding: 'base64' });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.run.stdout, '42\n');
    const memory = await execute({ content: 'print(1)' }, { run_memory_limit: 1024 });
    assert.equal(memory.status, 400);
    assert.equal(memory.body.error.field, 'run_memory_limit');
  });

  test('a body that is not declared JSON is invalid_json; /v1/judge memoryLimitKiB: 1 names the range', async () => {
    const text = await post(server, '/v1/judge', JSON.stringify({ code: SUM_PY, tests: SUM_TESTS }), { 'content-type': 'text/plain' });
    assert.equal(text.status, 400, text.text);
    assert.equal(text.body.error.code, 'invalid_json');
    const form = await post(server, '/run_code', 'code=print(1)', { 'content-type': 'application/x-www-form-urlencoded' });
    assert.equal(form.body.error.code, 'invalid_json');
    const memory = await post(server, '/v1/judge', { code: SUM_PY, tests: SUM_TESTS, memoryLimitKiB: 1 });
    assert.equal(memory.status, 400);
    assert.equal(memory.body.error.field, 'memoryLimitKiB');
    assert.match(memory.body.error.message, /16384 KiB to/);
  });
});

// Last: it closes the sandbox under the running server.
describe('/health tells the truth; Crucible\'s failures are counted and retryable (items 9, 13)', () => {
  test('ok after a real self-test; degraded 503 with the reason once the sandbox cannot run; failures are 5xx per endpoint', async () => {
    const healthy = await send(server, 'GET', '/health');
    assert.equal(healthy.status, 200, healthy.text);
    assert.equal(healthy.body.status, 'ok');
    assert.deepEqual(healthy.body.selfTest.checks.map((c: { name: string; ok: boolean }) => [c.name, c.ok]), [['sandbox', true], ['harness', true]]);

    sandbox.close(); // The sandbox can no longer run anything.
    const judged = await post(server, '/v1/judge', { code: SUM_PY + '# after close', tests: SUM_TESTS });
    assert.equal(judged.status, 500, judged.text);
    assert.equal(judged.body.error.code, 'internal_error');
    assert.equal(judged.body.verdict.status, 'internal_error');
    const fusion = await post(server, '/run_code', { code: 'print(2)', language: 'python' });
    assert.equal(fusion.status, 504, 'verl retries a 504');
    assert.equal(fusion.body.status, 'SandboxError');
    const piston = await post(server, '/api/v2/execute', { language: 'python', version: '*', files: [{ content: 'print(2)' }] });
    assert.equal(piston.status, 500, 'open-r1 retries any non-200');
    assert.equal(piston.body.run.status, 'XX');
    const openrlhf = await post(server, '/get_reward', { query: ['print(3)'], labels: [JSON.stringify({ tests: [{ input: '', output: '3' }] })] });
    assert.equal(openrlhf.status, 500, 'OpenRLHF retries a failed request');
    const rewards = await post(server, '/v1/rewards', { items: [{ id: 1, code: 'print(4)', tests: [{ input: '', output: '4' }] }] });
    assert.equal(rewards.body.items[0].status, 'internal_error');
    assert.equal(rewards.body.items[0].reward, null);

    const degraded = await send(server, 'GET', '/health');
    assert.equal(degraded.status, 503, degraded.text);
    assert.equal(degraded.body.status, 'degraded');
    assert.match(degraded.body.reason, /sandbox: .*closed/);
    assert.deepEqual(degraded.body.internalErrors, { '/v1/judge': 1, '/run_code': 1, '/api/v2/execute': 1, '/get_reward': 1, '/v1/rewards': 1 });
    // Crucible's Python client reads the degraded body instead of retrying the 503 as overload.
    const script = `import json, sys\nsys.path.insert(0, ${JSON.stringify(join(PROJECT_ROOT, 'clients', 'python'))})\n`
      + `import crucible_client as cc\nprint(json.dumps(cc.CrucibleClient(${JSON.stringify(server.url)}, max_retries=0).health()))\n`;
    const fromClient = JSON.parse(await new Promise<string>((resolve, reject) => {
      execFile('python3', ['-c', script], { timeout: 60_000 }, (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)));
    })) as { status: string; reason: string };
    assert.equal(fromClient.status, 'degraded');
    assert.match(fromClient.reason, /sandbox: /);
    const metrics = (await send(server, 'GET', '/metrics')).text;
    for (const route of ['/v1/judge', '/run_code', '/api/v2/execute', '/get_reward', '/v1/rewards']) {
      assert.equal(metric(metrics, `crucible_internal_errors_total{route="${route}"}`), 1, route);
    }
  });
});

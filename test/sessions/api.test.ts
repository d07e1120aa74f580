/**
 * The sessions HTTP API end to end: the real server on 127.0.0.1:0, real boxes, real programs. Round trips of
 * every environment, program submits judged through the server's judge with feedback and rewards, 400s naming
 * the field, 404 for unknown ids, 409 past maxSteps, and the metrics.
 */
// crucible-test: alone — steps are timed against their wall-clock limits (a 300 ms CPU / 3 s wall bash session, 20 ms waits) (test/run.ts runs it with no other file).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { IoProblem } from '../../src/formats/types.js';
import { Sandbox } from '../../src/sandbox/index.js';
import { startServer, type ServerHandle } from '../../src/server/index.js';
import { createLogger } from '../../src/server/logging.js';
import { httpCall, type Answer } from '../support/http.js';

const SUM: IoProblem = {
  kind: 'io', taskId: 'sum', comparator: { kind: 'tokens' },
  tests: [{ input: '1 2\n', output: '3\n' }, { input: '5 5\n', output: '10\n' }],
};

let sandbox: Sandbox;
let server: ServerHandle;
const post = (path: string, body?: unknown): Promise<Answer> => httpCall(server.url, 'POST', path, body ?? {});

before(async () => {
  sandbox = Sandbox.create({ slots: 2 });
  server = await startServer({ port: 0, logLevel: 'silent' }, { sandbox, problems: [SUM], logger: createLogger('silent') });
});

after(async () => {
  await server.shutdown(1000);
  sandbox.close();
});

/** Host pids of live (non-zombie) processes running as `uid`. */
function processesOf(uid: number): number[] {
  return livePids().filter((pid) => ownerOf(pid) === uid);
}

/** Host pids of live processes whose command line contains `text`. */
function processesWith(text: string): number[] {
  return livePids().filter((pid) => commandOf(pid).includes(text));
}

function livePids(): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (/^State:\s+Z/m.test(readFileSync(`/proc/${name}/status`, 'utf8'))) continue;
      out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function ownerOf(pid: number): number {
  try {
    return Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? -1);
  } catch {
    return -1;
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** Poll `probe` every 20 ms until it gives a value; fails after 30 s (a bound on correctness, far below the step's limits). */
async function waitFor<T>(probe: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 1500; i++) {
    const value = probe();
    if (value !== undefined) return value;
    await sleep(20);
  }
  assert.fail(`gave up waiting for ${what}`);
}

describe('round trips', () => {
  test('python: create, step, reset, delete, then 404', async () => {
    const c = await post('/v1/sessions', { environment: 'python', limits: { cpuMs: 1000 }, ttlSeconds: 60 });
    assert.equal(c.status, 201);
    assert.match(c.body.id, /^s_[A-Za-z0-9_-]{22}$/);
    assert.equal(c.body.observation.status, 'ok');
    assert.equal(c.body.info.limits.cpuMs, 1000);
    assert.equal(c.body.info.ttlSeconds, 60);
    const s = await post(`/v1/sessions/${c.body.id}/step`, { action: 'x = 6\nx * 7' });
    assert.equal(s.status, 200);
    assert.deepEqual([s.body.observation.stdout, s.body.observation.exitCode, s.body.observation.status, s.body.reward, s.body.done],
      ['42\n', 0, 'ok', null, false]);
    assert.equal(s.body.info.step, 1);
    const r = await post(`/v1/sessions/${c.body.id}/reset`);
    assert.equal(r.status, 200);
    assert.equal(r.body.info.step, 0);
    const after = await post(`/v1/sessions/${c.body.id}/step`, { action: 'x' });
    assert.equal(after.body.observation.status, 'runtime_error');
    assert.match(after.body.observation.stderr, /NameError/);
    const d = await httpCall(server.url, 'DELETE', `/v1/sessions/${c.body.id}`);
    assert.deepEqual([d.status, d.body], [200, { id: c.body.id, deleted: true }]);
    for (const path of [`/v1/sessions/${c.body.id}/step`, `/v1/sessions/${c.body.id}/reset`]) {
      const gone = await post(path, { action: 'x' });
      assert.equal(gone.status, 404);
      assert.equal(gone.body.error.code, 'unknown_session');
    }
    assert.equal((await httpCall(server.url, 'DELETE', `/v1/sessions/${c.body.id}`)).status, 404);
  });

  test('a step over its limit answers its verdict and the session goes on', async () => {
    const c = await post('/v1/sessions', { environment: 'bash', limits: { cpuMs: 300, wallMs: 3000 } });
    const loop = await post(`/v1/sessions/${c.body.id}/step`, { action: 'while :; do :; done' });
    assert.equal(loop.status, 200);
    assert.equal(loop.body.observation.status, 'time_limit_exceeded');
    assert.equal(loop.body.observation.restarted, true);
    const next = await post(`/v1/sessions/${c.body.id}/step`, { action: 'echo ok' });
    assert.equal(next.body.observation.stdout, 'ok\n');
    await httpCall(server.url, 'DELETE', `/v1/sessions/${c.body.id}`);
  });

  test('a client that hangs up cancels its running step: processes killed, no judging place held, the next step told', async () => {
    const c = await post('/v1/sessions', { environment: 'python', limits: { cpuMs: 60_000, wallMs: 300_000 } });
    const id = c.body.id as string;
    assert.equal((await post(`/v1/sessions/${id}/step`, { action: 'x = 5' })).body.observation.status, 'ok');
    // A sleeper that would hold its place up to its 300 s wall limit: the REPL sleeps in a loop, with a child
    // whose command line marks it (host pid and uid found from /proc).
    const marker = `600.${process.pid}${Date.now() % 100_000}`;
    const hangUp = new AbortController();
    const answered = fetch(`${server.url}/v1/sessions/${id}/step`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, signal: hangUp.signal,
      body: JSON.stringify({ action: `import subprocess, time\nchild = subprocess.Popen(["sleep", "${marker}"])\nwhile True:\n    time.sleep(0.05)` }),
    }).then(() => 'answered', (error: Error) => error.name);
    const sleeper = await waitFor(() => processesWith(marker)[0], 'the step\'s child to start');
    const uid = ownerOf(sleeper);
    const repl = processesOf(uid).filter((pid) => commandOf(pid).includes('crucible_session'));
    assert.equal(repl.length, 1, 'one REPL runs the step');
    // A box step runs in the session's own box: it holds no judging place, so /v1/judge is served meanwhile.
    assert.equal(server.context.service.admission.running, 0, 'the step holds no judging place');
    const judged = await post('/v1/judge', { problem: 'sum', code: 'a, b = map(int, input().split())\nprint(a + b)' });
    assert.equal(judged.body.status, 'passed');
    hangUp.abort();
    assert.equal(await answered, 'AbortError');
    // Cancelled long before its limits: the child and the REPL that ran the step are killed.
    await waitFor(() => processesWith(marker).length === 0 && !repl.some((pid) => processesOf(uid).includes(pid)) ? true : undefined,
      'the step\'s processes to be killed');
    // The session goes on in a fresh REPL, and its next step says what the cancelled one lost.
    const next = await post(`/v1/sessions/${id}/step`, { action: 'print("alive")\nx' });
    assert.equal(next.status, 200);
    assert.equal(next.body.observation.status, 'runtime_error');
    assert.equal(next.body.observation.stdout, 'alive\n');
    assert.match(next.body.observation.stderr, /NameError: name 'x' is not defined/);
    assert.equal(next.body.observation.restarted, true);
    assert.match(next.body.observation.notice, /previous step was cancelled .* REPL was restarted, variables, functions and imports of earlier steps are lost/);
    assert.equal(processesOf(uid).length, 3, 'bubblewrap, the agent and the fresh REPL: nothing of the cancelled step');
    const after = await post(`/v1/sessions/${id}/step`, { action: 'x = 1\nx' });
    assert.deepEqual([after.body.observation.stdout, after.body.observation.notice], ['1\n', undefined], 'told once');
    await httpCall(server.url, 'DELETE', `/v1/sessions/${id}`);
  });

  test('sqlite over HTTP', async () => {
    const c = await post('/v1/sessions', { environment: 'sqlite', task: { sql: 'CREATE TABLE t(v); INSERT INTO t VALUES (1), (2);' } });
    assert.equal(c.status, 201);
    const s = await post(`/v1/sessions/${c.body.id}/step`, { action: 'SELECT sum(v) AS total FROM t' });
    assert.deepEqual([s.body.observation.columns, s.body.observation.rows], [['total'], [[3]]]);
    await httpCall(server.url, 'DELETE', `/v1/sessions/${c.body.id}`);
  });

  test('program (tests marked visible): runs, a failing submit with feedback naming the input, a passing submit with reward 1', async () => {
    const c = await post('/v1/sessions', { environment: 'program', task: { problem: 'sum', visibleTests: 'all' }, limits: { feedbackChars: 500 } });
    assert.equal(c.status, 201);
    assert.match(c.body.observation.message, /problem sum/);
    const run = await post(`/v1/sessions/${c.body.id}/step`, { action: { kind: 'run', code: 'print(input()[::-1])', stdin: 'abc\n' } });
    assert.deepEqual([run.body.observation.stdout, run.body.observation.status, run.body.reward], ['cba\n', 'ok', null]);
    const wrong = await post(`/v1/sessions/${c.body.id}/step`,
      { action: { kind: 'submit', code: 'a, b = map(int, input().split())\nprint(a + b if a != 5 else 0)' } });
    assert.equal(wrong.body.observation.status, 'wrong_answer');
    assert.equal(wrong.body.reward, 0);
    assert.equal(wrong.body.done, false);
    assert.equal(wrong.body.observation.failingTest.index, 1);
    assert.match(wrong.body.observation.feedback, /Input:\n5 5\n/);
    assert.match(wrong.body.observation.feedback, /Expected:\n10\n/);
    assert.match(wrong.body.observation.feedback, /Got:\n0\n/);
    const right = await post(`/v1/sessions/${c.body.id}/step`, { action: { kind: 'submit', code: 'a, b = map(int, input().split())\nprint(a + b)' } });
    assert.deepEqual([right.body.observation.status, right.body.reward, right.body.done], ['passed', 1, true]);
    // A program that forges a pass on stdout is still judged on the tests.
    const forged = await post(`/v1/sessions/${c.body.id}/step`, { action: { kind: 'submit', code: 'print("passed")\nimport sys; sys.exit(0)' } });
    assert.equal(forged.body.reward, 0);
    const inline = await post('/v1/sessions', { environment: 'program', task: { tests: [{ input: '', output: 'hi\n' }] } });
    const ok = await post(`/v1/sessions/${inline.body.id}/step`, { action: { kind: 'submit', code: 'print("hi")' } });
    assert.equal(ok.body.reward, 1);
    await httpCall(server.url, 'DELETE', `/v1/sessions/${c.body.id}`);
    await httpCall(server.url, 'DELETE', `/v1/sessions/${inline.body.id}`);
  });

  test('program: a submit judged before (by /v1/judge, by an earlier submit) still gets its expected vs got feedback', async () => {
    const code = 'a, b = map(int, input().split())\nprint(a * b)';
    const judged = await post('/v1/judge', { problem: 'sum', code });
    assert.deepEqual([judged.status, judged.body.status], [200, 'wrong_answer']);
    const c = await post('/v1/sessions', { environment: 'program', task: { problem: 'sum', visibleTests: [0] } });
    for (const attempt of ['after /v1/judge', 'the same code again']) {
      const wrong = await post(`/v1/sessions/${c.body.id}/step`, { action: { kind: 'submit', code } });
      assert.equal(wrong.body.observation.status, 'wrong_answer', attempt);
      assert.equal(wrong.body.observation.failingTest.index, 0, attempt);
      assert.match(wrong.body.observation.feedback, /Input:\n1 2\n[^]*Expected:\n3\n[^]*Got:\n2\n/, attempt);
    }
    await httpCall(server.url, 'DELETE', `/v1/sessions/${c.body.id}`);
  });

  test('maxSteps: the last step is done, more are 409', async () => {
    const c = await post('/v1/sessions', { environment: 'python', limits: { maxSteps: 1 } });
    const s = await post(`/v1/sessions/${c.body.id}/step`, { action: 'pass' });
    assert.equal(s.body.done, true);
    const more = await post(`/v1/sessions/${c.body.id}/step`, { action: 'pass' });
    assert.deepEqual([more.status, more.body.error.code], [409, 'session_done']);
    await httpCall(server.url, 'DELETE', `/v1/sessions/${c.body.id}`);
  });
});

describe('bad input is a 400 naming the field', () => {
  const cases: [string, unknown, string][] = [
    ['unknown environment', { environment: 'perl' }, 'environment'],
    ['missing environment', {}, 'environment'],
    ['unknown field', { environment: 'python', colour: 'red' }, 'colour'],
    ['limit out of range', { environment: 'python', limits: { cpuMs: 5 } }, 'limits.cpuMs'],
    ['unknown limit', { environment: 'python', limits: { gpus: 1 } }, 'limits.gpus'],
    ['ttl not an integer', { environment: 'python', ttlSeconds: 1.5 }, 'ttlSeconds'],
    ['program without a task', { environment: 'program' }, 'task.problem'],
    ['unknown problem', { environment: 'program', task: { problem: 'nope' } }, 'task.problem'],
    ['problem and tests', { environment: 'program', task: { problem: 'sum', tests: [{ input: '', output: '' }] } }, 'task.problem'],
    ['unknown language', { environment: 'program', task: { problem: 'sum', language: 'cobol-85' } }, 'task.language'],
    ['sqlite task not SQL', { environment: 'sqlite', task: { sql: 3 } }, 'task.sql'],
  ];
  for (const [name, body, field] of cases) {
    test(`create: ${name}`, async () => {
      const r = await post('/v1/sessions', body);
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.error.code, 'invalid_body');
      assert.equal(r.body.error.field, field);
    });
  }

  test('step: a missing action, an object for python, a bad program action', async () => {
    const py = await post('/v1/sessions', { environment: 'python' });
    const prog = await post('/v1/sessions', { environment: 'program', task: { problem: 'sum' } });
    const checks: [string, unknown, string][] = [
      [py.body.id, {}, 'action'],
      [py.body.id, { action: { kind: 'run' } }, 'action'],
      [prog.body.id, { action: 'print(1)' }, 'action'],
      [prog.body.id, { action: { kind: 'debug', code: '' } }, 'action.kind'],
      [prog.body.id, { action: { kind: 'submit' } }, 'action.code'],
    ];
    for (const [id, body, field] of checks) {
      const r = await post(`/v1/sessions/${id}/step`, body);
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.error.field, field, r.text);
    }
    const notJson = await httpCall(server.url, 'POST', `/v1/sessions/${py.body.id}/step`, 'not json');
    assert.equal(notJson.status, 400);
    const unknown = await post('/v1/sessions/s_doesnotexist/step', { action: 'pass' });
    assert.deepEqual([unknown.status, unknown.body.error.code], [404, 'unknown_session']);
    await httpCall(server.url, 'DELETE', `/v1/sessions/${py.body.id}`);
    await httpCall(server.url, 'DELETE', `/v1/sessions/${prog.body.id}`);
  });
});

test('/metrics shows open sessions, steps and evictions', async () => {
  const c = await post('/v1/sessions', { environment: 'bash' });
  await post(`/v1/sessions/${c.body.id}/step`, { action: 'true' });
  const m = await httpCall(server.url, 'GET', '/metrics');
  assert.match(m.text, /^crucible_sessions_open 1$/m);
  assert.match(m.text, /^crucible_session_steps_total \d+$/m);
  assert.match(m.text, /^crucible_session_evictions_total 0$/m);
  await httpCall(server.url, 'DELETE', `/v1/sessions/${c.body.id}`);
  const after = await httpCall(server.url, 'GET', '/metrics');
  assert.match(after.text, /^crucible_sessions_open 0$/m);
});

/**
 * Crucible's MCP server driven by the official SDK's own `Client`, over both transports: stdio (the real
 * `crucible mcp` binary spawned by `StdioClientTransport`) and streamable HTTP (`crucible serve`'s `/mcp`, with
 * `StreamableHTTPClientTransport`). Every tool call runs a real program in the real sandbox.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readProblems } from '../../../src/formats/index.js';
import type { UnitTestProblem } from '../../../src/formats/types.js';
import { Sandbox } from '../../../src/sandbox/index.js';
import { PROJECT_ROOT } from '../../../src/sandbox/paths.js';
import { startServer, type ServerHandle } from '../../../src/server/index.js';
import { createLogger } from '../../../src/server/logging.js';
import { httpCall } from '../../support/http.js';
import { HUMANEVAL } from '../../support/data.js';

const TOKEN = 'mcp-test-token';
const SUM_PY = 'a, b = map(int, input().split())\nprint(a + b)\n';
const WRONG_PY = 'a, b = map(int, input().split())\nprint(a + b if a != 5 else 0)\n';
const SUM_TESTS = [{ input: '1 2\n', output: '3\n' }, { input: '5 5\n', output: '10\n' }, { input: '-1 1\n', output: '0\n' }];

/** The structured content of a tool result (the JSON the text block carries too). */
function structured(result: unknown): Record<string, any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const r = result as CallToolResult;
  assert.ok(r.structuredContent, 'the result has structured content');
  assert.deepEqual(JSON.parse((r.content[0] as { text: string }).text), r.structuredContent, 'text and structured content agree');
  return r.structuredContent as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

function errorText(result: unknown): string {
  const r = result as CallToolResult;
  assert.equal(r.isError, true, `expected a tool error, got ${JSON.stringify(r)}`);
  return (r.content[0] as { text: string }).text;
}

let canonical0 = '';
before(async () => {
  const [first] = await readProblems(HUMANEVAL);
  canonical0 = (first as UnitTestProblem).canonicalSolution!;
});

/** Tests both transports run: the same tools, the same answers. */
function toolSuite(client: () => Client): void {
  test('lists run_code and judge with their input schemas', async () => {
    const { tools } = await client().listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of ['run_code', 'judge', 'session_create', 'session_step', 'session_reset', 'session_close']) {
      assert.ok(byName.has(name), `tool ${name} listed`);
    }
    assert.deepEqual(byName.get('session_step')!.inputSchema.required, ['id', 'action']);
    const runCode = byName.get('run_code')!;
    assert.deepEqual([...(runCode.inputSchema.required ?? [])].sort(), ['code', 'language']);
    assert.ok(Object.keys(runCode.inputSchema.properties ?? {}).includes('stdin'));
    const judge = byName.get('judge')!;
    for (const field of ['code', 'response', 'problem', 'tests', 'failFast']) {
      assert.ok(Object.keys(judge.inputSchema.properties ?? {}).includes(field), `judge takes ${field}`);
    }
  });

  test('run_code runs Python on a stdin in the sandbox', async () => {
    const r = structured(await client().callTool({ name: 'run_code', arguments: { language: 'python', code: SUM_PY, stdin: '20 22\n' } }));
    assert.equal(r.status, 'ok');
    assert.equal(r.compile, null);
    assert.equal(r.run.stdout, '42\n');
    assert.equal(r.run.exitCode, 0);
    assert.ok(r.run.cpuMs >= 0 && r.run.wallMs > 0 && r.run.memoryKiB > 0);
  });

  test('run_code: the sandbox has no network and no host files', async () => {
    const code = 'import socket, os\n' +
      'print(os.path.exists("/root"), os.path.exists("/work/shared"))\n' +
      'try:\n  socket.create_connection(("1.1.1.1", 53), timeout=2)\n  print("net")\nexcept OSError:\n  print("no net")\n';
    const r = structured(await client().callTool({ name: 'run_code', arguments: { language: 'python', code } }));
    assert.equal(r.status, 'ok');
    assert.equal(r.run.stdout, 'False False\nno net\n');
  });

  test('run_code: C++ compile errors, run-time errors and time limits are verdicts', async () => {
    const bad = structured(await client().callTool({ name: 'run_code', arguments: { language: 'cpp', code: 'int main( { return 0; }' } }));
    assert.equal(bad.status, 'compile_error');
    assert.equal(bad.run, null);
    assert.match(bad.compile.stderr, /error/);
    const crash = structured(await client().callTool({ name: 'run_code', arguments: { language: 'python', code: 'raise ValueError("boom")' } }));
    assert.equal(crash.status, 'runtime_error');
    assert.match(crash.run.stderr, /ValueError: boom/);
    const spin = structured(await client().callTool({ name: 'run_code', arguments: { language: 'python', code: 'while True: pass', timeLimitMs: 200 } }));
    assert.equal(spin.status, 'time_limit_exceeded');
  });

  test('run_code: bad arguments are tool errors that say what is wrong', async () => {
    assert.match(errorText(await client().callTool({ name: 'run_code', arguments: { language: 'klingon', code: 'x' } })),
      /^unknown_language: language: unknown language "klingon"/);
    assert.match(errorText(await client().callTool({ name: 'run_code', arguments: { language: 'python', code: 'x', timeLimitMs: 1 } })),
      /Input validation error[\s\S]*1 is outside the allowed range 10 ms to 60000 ms at timeLimitMs/);
    assert.match(errorText(await client().callTool({ name: 'run_code', arguments: { language: 'python' } })), /code/);
  });

  test('judge: inline tests, passed and wrong_answer with the failing test', async () => {
    const ok = structured(await client().callTool({ name: 'judge', arguments: { code: SUM_PY, tests: SUM_TESTS } }));
    assert.equal(ok.status, 'passed');
    assert.equal(ok.passed, true);
    assert.equal(ok.testCount, 3);
    const wrong = structured(await client().callTool({ name: 'judge', arguments: { code: WRONG_PY, tests: SUM_TESTS } }));
    assert.equal(wrong.status, 'wrong_answer');
    assert.equal(wrong.tests[1].status, 'wrong_answer');
    assert.match(wrong.reason, /expected "10", got "0"/);
  });

  test('judge: a loaded HumanEval problem by id, from a raw model response', async () => {
    const good = structured(await client().callTool({ name: 'judge', arguments: { problem: 'HumanEval/0',
      response: `Here you go:\n\`\`\`python\n${canonical0}\`\`\`\n` } }));
    assert.equal(good.status, 'passed');
    assert.equal(good.extraction.kind, 'fenced');
    const bad = structured(await client().callTool({ name: 'judge', arguments: { problem: 'HumanEval/0', code: '    return True\n' } }));
    assert.equal(bad.status, 'wrong_answer');
  });

  test('judge: wrong combinations and unknown problems are tool errors naming the field', async () => {
    assert.match(errorText(await client().callTool({ name: 'judge', arguments: { code: SUM_PY } })),
      /^invalid_body: problem: give exactly one of "problem" and "tests"/);
    assert.match(errorText(await client().callTool({ name: 'judge', arguments: { code: SUM_PY, response: SUM_PY, tests: SUM_TESTS } })),
      /^invalid_body: response: give exactly one of "response" and "code"/);
    assert.match(errorText(await client().callTool({ name: 'judge', arguments: { code: SUM_PY, problem: 'HumanEval/9999' } })),
      /^unknown_problem: problem: no problem "HumanEval\/9999" is loaded/);
  });

  test('sessions: a python REPL keeps its state between steps, reset forgets it, close ends it', async () => {
    const created = structured(await client().callTool({ name: 'session_create', arguments: { environment: 'python' } }));
    const id = created.id as string;
    assert.match(id, /\S/);
    const step = (action: unknown) => client().callTool({ name: 'session_step', arguments: { id, action } });
    assert.equal(structured(await step('x = 20')).observation.status, 'ok');
    const answer = structured(await step('print(x + 22)'));
    assert.equal(answer.observation.stdout, '42\n');
    assert.equal(answer.info.step, 2);
    const crash = structured(await step('1/0'));
    assert.equal(crash.observation.status, 'runtime_error');
    assert.match(crash.observation.stderr, /ZeroDivisionError/);
    assert.equal(structured(await client().callTool({ name: 'session_reset', arguments: { id } })).info.step, 0);
    assert.match(structured(await step('print(x)')).observation.stderr, /NameError/);
    assert.deepEqual(structured(await client().callTool({ name: 'session_close', arguments: { id } })), { id, deleted: true });
    assert.match(errorText(await step('print(1)')), /^unknown_session: /);
  });

  test('sessions: a program task (tests marked visible) judges submissions with feedback naming the failing test, reward 1 on a pass', async () => {
    const created = structured(await client().callTool({ name: 'session_create', arguments: { environment: 'program', task: { tests: SUM_TESTS, visibleTests: 'all' } } }));
    const id = created.id as string;
    const submit = (code: string) => client().callTool({ name: 'session_step', arguments: { id, action: { kind: 'submit', code } } });
    // A program no earlier test judged: a judgement shared with an identical earlier request comes without the
    // program's output (the judge's memo keeps plain verdicts), and its feedback would have no "Got:".
    const wrong = structured(await submit('a, b = map(int, input().split())\nprint(a + b if a != 5 else 11)\n'));
    assert.equal(wrong.observation.status, 'wrong_answer');
    assert.equal(wrong.reward, 0);
    assert.equal(wrong.done, false);
    assert.match(wrong.observation.feedback, /Input:\n5 5\n[\s\S]*Expected:\n10\n[\s\S]*Got:\n11\n/);
    const ran = structured(await client().callTool({ name: 'session_step', arguments: { id, action: { kind: 'run', code: SUM_PY, stdin: '2 3\n' } } }));
    assert.equal(ran.observation.stdout, '5\n');
    const right = structured(await submit(SUM_PY));
    assert.equal(right.reward, 1);
    assert.equal(right.done, true);
    await client().callTool({ name: 'session_close', arguments: { id } });
  });

  test('sessions: bad arguments are tool errors naming the field', async () => {
    assert.match(errorText(await client().callTool({ name: 'session_create', arguments: { environment: 'python', limits: { cpuMs: 1 } } })),
      /cpuMs/);
    assert.match(errorText(await client().callTool({ name: 'session_create', arguments: { environment: 'program', task: {} } })),
      /task\.problem: give exactly one of "problem" and "tests"/);
    assert.match(errorText(await client().callTool({ name: 'session_step', arguments: { id: 'nope', action: 'print(1)' } })), /^unknown_session: /);
  });
}

describe('stdio: crucible mcp', () => {
  let client: Client;
  let cacheDir: string;
  before(async () => {
    cacheDir = mkdtempSync(join(tmpdir(), 'crucible-mcp-'));
    client = new Client({ name: 'crucible-test', version: '0.0.0' });
    await client.connect(new StdioClientTransport({
      command: process.execPath,
      args: [join(PROJECT_ROOT, 'bin', 'crucible'), 'mcp', '--slots', '1', '--problems', HUMANEVAL, '--cache-dir', cacheDir],
      stderr: 'ignore',
    }));
  });
  after(async () => {
    await client.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  test('the server introduces itself as crucible', () => {
    assert.equal(client.getServerVersion()?.name, 'crucible');
  });
  toolSuite(() => client);

  test('requests written before stdin closes are still answered, then the process exits 0', async () => {
    const child = spawn(process.execPath, [join(PROJECT_ROOT, 'bin', 'crucible'), 'mcp', '--slots', '1'], { stdio: ['pipe', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '0' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'run_code', arguments: { language: 'python', code: 'import time\ntime.sleep(0.3)\nprint(7)' } } },
    ];
    child.stdin.end(messages.map((m) => JSON.stringify(m) + '\n').join(''));
    assert.equal(await exited, 0);
    const answers = stdout.trim().split('\n').map((line) => JSON.parse(line) as { id: number; result: CallToolResult });
    const call = answers.find((a) => a.id === 2);
    assert.ok(call, `the tool call was answered: ${stdout}`);
    assert.equal(structured(call.result).run.stdout, '7\n');
  });
});

describe('streamable HTTP: crucible serve at /mcp', () => {
  let sandbox: Sandbox;
  let server: ServerHandle;
  let client: Client;
  before(async () => {
    sandbox = Sandbox.create({ slots: 2 });
    const humanEval = (await readProblems(HUMANEVAL)).slice(0, 2);
    server = await startServer({ port: 0, token: TOKEN, logLevel: 'silent' }, { sandbox, problems: humanEval, logger: createLogger('silent') });
    client = new Client({ name: 'crucible-test', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`),
      { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
  });
  after(async () => {
    await client.close();
    await server.shutdown(1000);
    sandbox.close();
  });

  toolSuite(() => client);

  test('without the bearer token /mcp is 401, like every route', async () => {
    const anonymous = new Client({ name: 'anonymous', version: '0.0.0' });
    await assert.rejects(anonymous.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`))), /unauthorized/);
  });

  test('without an MCP session id only initialize is accepted; a closed MCP session is 404', async () => {
    const auth = { authorization: `Bearer ${TOKEN}`, accept: 'application/json, text/event-stream' };
    assert.equal((await httpCall(server.url, 'GET', '/mcp', undefined, auth)).status, 400);
    const list = await httpCall(server.url, 'POST', '/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, auth);
    assert.equal(list.status, 400);
    assert.match(list.body.error.message, /initialize/);
    const other = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } });
    const second = new Client({ name: 'second', version: '0.0.0' });
    await second.connect(other);
    const id = other.sessionId!;
    assert.match(id, /^[0-9a-f-]{36}$/);
    await other.terminateSession();
    const after = await httpCall(server.url, 'POST', '/mcp', { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { ...auth, 'mcp-session-id': id });
    assert.equal(after.status, 404);
    await second.close();
  });

  test('a cancelled call leaves the sandbox at once (its program is killed, not left to its 62 s wall limit)', async () => {
    const controller = new AbortController();
    const call = client.callTool({ name: 'run_code', arguments: { language: 'python', code: 'import time\ntime.sleep(60)', timeLimitMs: 20_000 } },
      undefined, { signal: controller.signal });
    const started = Date.now() + 30_000;
    while (sandbox.busySlots === 0 && Date.now() < started) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(sandbox.busySlots, 1, 'the program is running');
    controller.abort();
    await assert.rejects(call, /AbortError/);
    // Bounded wait (the program itself would hold its slot for a minute): the slot is free well before that.
    const deadline = Date.now() + 30_000;
    while (sandbox.busySlots > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(sandbox.busySlots, 0);
  });

  test('a session made through /mcp is a session of the server: /v1/sessions steps and deletes it', async () => {
    const created = structured(await client.callTool({ name: 'session_create', arguments: { environment: 'bash' } }));
    const auth = { authorization: `Bearer ${TOKEN}` };
    const id = created.id as string;
    await client.callTool({ name: 'session_step', arguments: { id, action: 'export SHARED=yes' } });
    const step = await httpCall(server.url, 'POST', `/v1/sessions/${id}/step`, { action: 'echo $SHARED' }, auth);
    assert.equal(step.status, 200);
    assert.equal(step.body.observation.stdout, 'yes\n');
    assert.equal((await httpCall(server.url, 'DELETE', `/v1/sessions/${id}`, undefined, auth)).status, 200);
    assert.match(errorText(await client.callTool({ name: 'session_step', arguments: { id, action: 'echo' } })), /^unknown_session: /);
  });

  test('tool calls count in /metrics under route /mcp', async () => {
    const r = await httpCall(server.url, 'GET', '/metrics', undefined, { authorization: `Bearer ${TOKEN}` });
    assert.match(r.text, /crucible_http_requests_total\{route="\/mcp",status="200"\} [1-9]/);
  });
});

/**
 * Ordinary mistakes made with the real CLI (spawned as a user runs it) get one line saying what and where, exit 2,
 * never "internal error" with a stack: a samples file that is not there, a wrong run id or path in report/compare,
 * two runs with no shared problem. `store list | head` ends quietly. Ctrl-C in an eval brings the cursor back,
 * marks the store run interrupted and says how to resume. `serve --problems HumanEval HumanEvalPlus` loads both
 * (their task ids collide: each is named <file>:<task id>); a session reset or DELETE sent with
 * `Content-Type: application/json` and no body is not a 400; a sqlite session's `SELECT 1e999` is a valid query.
 */
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readProblems } from '../../src/formats/index.js';
import { PROJECT_ROOT } from '../../src/paths.js';
import { openResultStore } from '../../src/store/open.js';
import { newRun } from '../store/conformance.js';
import { HUMANEVAL, HUMANEVAL_PLUS } from '../support/data.js';
import { httpCall } from '../support/http.js';

const CRUCIBLE = join(PROJECT_ROOT, 'bin', 'crucible');
const dir = mkdtempSync(join(tmpdir(), 'crucible-mistakes-'));
const env = { ...process.env, CRUCIBLE_CACHE_DIR: join(dir, 'cache'), CRUCIBLE_STORE: join(dir, 'default.db') };
after(() => rmSync(dir, { recursive: true, force: true }));

interface Outcome { code: number; stdout: string; stderr: string }

function crucible(args: readonly string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(CRUCIBLE, args, { maxBuffer: 64 << 20, env }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

/** A user error: exit 2, one line on stderr matching `pattern`, no stack trace, no "internal error". */
function assertOneLine(outcome: Outcome, pattern: RegExp): void {
  assert.equal(outcome.code, 2, outcome.stderr);
  assert.match(outcome.stderr, pattern);
  assert.equal(outcome.stderr.trimEnd().split('\n').length, 1, outcome.stderr);
  assert.doesNotMatch(outcome.stderr, /internal error|\n\s+at /);
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** A run directory holding one passed sample of each task. */
function runDir(name: string, taskIds: readonly string[]): string {
  const path = join(dir, name);
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, 'verdicts.jsonl'), taskIds.map((taskId) => JSON.stringify({ taskId, sampleIndex: 0, programHash: 'x',
    status: 'passed', passed: true, tests: [], cpuMs: 1, wallMs: 1 })).join('\n') + '\n');
  return path;
}

describe('one line, exit 2, for a mistake', () => {
  it('eval --samples MISSING (and --problems MISSING)', async () => {
    assertOneLine(await crucible(['eval', '--problems', HUMANEVAL, '--samples', join(dir, 'missing.jsonl'), '--no-store']),
      /^crucible: --samples .*missing\.jsonl: no such file or directory$/m);
    assertOneLine(await crucible(['eval', '--problems', join(dir, 'nope.jsonl.gz'), '--samples', HUMANEVAL, '--no-store']),
      /^crucible: --problems .*nope\.jsonl\.gz: no such file or directory$/m);
  });

  it('report and compare with a wrong run id or path', async () => {
    const store = join(dir, 'empty.db');
    assertOneLine(await crucible(['report', join(dir, 'no-such-run'), '--store', store]), /no-such-run is neither a run directory nor a run of the store/);
    assertOneLine(await crucible(['report', '4242', '--store', store]), /^crucible: 4242 is neither a run directory nor a run of the store/);
    const a = runDir('run-a', ['HumanEval/0']);
    assertOneLine(await crucible(['compare', a, join(dir, 'elsewhere'), '--store', store]), /elsewhere is neither a run directory nor a run of the store/);
  });

  it('compare two runs that share no problem', async () => {
    const a = runDir('run-he', ['HumanEval/0', 'HumanEval/1']);
    const b = runDir('run-mbpp', ['Mbpp/2', 'Mbpp/3']);
    assertOneLine(await crucible(['compare', a, b]), /run-he and .*run-mbpp share no problem \(A has 2, e\.g\. "HumanEval\/0"; B has 2, e\.g\. "Mbpp\/2"\)/);
  });
});

describe('store list | head', () => {
  before(async () => {
    const store = await openResultStore(join(dir, 'many.db'));
    try {
      for (let i = 0; i < 1500; i++) await store.createRun(newRun({ name: `run-${i}-${'x'.repeat(60)}` }));
    } finally {
      await store.close();
    }
  });

  it('ends quietly with exit 0 when the reader stops reading (EPIPE), and prints no stack', async () => {
    const child = spawn(CRUCIBLE, ['store', 'list', '--store', join(dir, 'many.db')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    // Read the first chunk, then close the pipe as `head -1` does.
    await new Promise<void>((resolve) => child.stdout.once('data', () => { child.stdout.destroy(); resolve(); }));
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    assert.equal(stderr, '');
    assert.equal(code, 0);
  });
});

/** Wait until `check` is true, polling every 100 ms (at most `ms`). */
async function until(check: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('Ctrl-C in an eval', () => {
  it('cancels what is under way, marks the store run interrupted, brings the cursor back and says how to resume', async () => {
    const problems = file('sum.jsonl', JSON.stringify({ taskId: 'sum', tests: [{ input: '1 2\n', output: '3\n' }] }) + '\n');
    const samples = file('slow.jsonl', Array.from({ length: 40 }, (_, i) =>
      JSON.stringify({ task_id: 'sum', solution: `import time\ntime.sleep(0.5)\na, b = map(int, input().split())\nprint(a + b)  # ${i}\n` })).join('\n') + '\n');
    const out = join(dir, 'interrupted-run');
    const store = join(dir, 'interrupt.db');
    const args = ['eval', '--problems', problems, '--samples', samples, '--out', out, '--store', store, '--jobs', '2', '--k', '1'];
    // Under `script`, standard error is a terminal: the progress bar hides the cursor, as a user sees it.
    const command = [CRUCIBLE, ...args].map((a) => `'${a}'`).join(' ');
    const child: ChildProcess = spawn('script', ['-qefc', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (d: Buffer) => { output += d.toString(); });
    await until(() => existsSync(join(out, 'verdicts.jsonl')) && readFileSync(join(out, 'verdicts.jsonl'), 'utf8').trim() !== '', 60_000);
    child.stdin!.write('\x03'); // Ctrl-C at the terminal: SIGINT to the foreground process
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    assert.equal(code, 130, output);
    assert.match(output, /crucible: interrupted: \d+ of 40 samples are judged and kept in .*interrupted-run; to resume, run the same command with --out/);
    assert.ok(output.lastIndexOf('\x1b[?25h') > output.lastIndexOf('\x1b[?25l'), 'the cursor is shown again');
    const listed = JSON.parse((await crucible(['store', 'list', '--json', '--store', store])).stdout) as { status: string; doneSamples: number }[];
    assert.equal(listed[0]!.status, 'interrupted');
    const kept = readFileSync(join(out, 'verdicts.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { status: string });
    assert.ok(kept.every((r) => r.status === 'passed'), 'cancelled samples are not recorded as anything');
    // Resuming finishes the run.
    const resumed = await crucible([...args, '--no-progress', '--json']);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.deepEqual(JSON.parse(resumed.stdout).countsByStatus, { passed: 40 });
  });
});

describe('crucible serve', () => {
  let server: ChildProcess;
  let url = '';

  before(async () => {
    server = spawn(CRUCIBLE, ['serve', '--port', '0', '--no-store', '--slots', '2', '--problems', HUMANEVAL, HUMANEVAL_PLUS],
      { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    server.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
    await until(() => /listening on (http:\S+)/.test(stderr) || server.exitCode !== null, 120_000);
    assert.equal(server.exitCode, null, stderr);
    url = /listening on (http:\S+)/.exec(stderr)![1]!;
  });

  after(async () => {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('close', resolve));
  });

  it('--problems HumanEval HumanEvalPlus: both load, each problem is <file>:<task id>, a bare id in both is refused by name', async () => {
    const health = await httpCall(url, 'GET', '/health');
    assert.equal(health.body.problems, 328);
    const first = (await readProblems(HUMANEVAL))[0] as { prompt: string; canonicalSolution: string };
    const code = first.prompt + first.canonicalSolution;
    const bare = await httpCall(url, 'POST', '/v1/judge', { problem: 'HumanEval/0', code });
    assert.equal(bare.status, 400);
    assert.equal(bare.body.error.code, 'unknown_problem');
    assert.match(bare.body.error.message, /"HumanEval\/0" is in 2 loaded files: name it as "HumanEval:HumanEval\/0" or "HumanEvalPlus:HumanEval\/0"/);
    const base = await httpCall(url, 'POST', '/v1/judge', { problem: 'HumanEval:HumanEval/0', code });
    assert.deepEqual([base.status, base.body.status, base.body.plusStatus], [200, 'passed', undefined]);
    const plus = await httpCall(url, 'POST', '/v1/judge', { problem: 'HumanEvalPlus:HumanEval/0', code });
    assert.deepEqual([plus.status, plus.body.status, plus.body.plusStatus], [200, 'passed', 'passed']);
    // GET /v1/problems lists each of the 328 once, by the id a request must use (the bare one is ambiguous here).
    const listed = await httpCall(url, 'GET', '/v1/problems?limit=1000');
    assert.equal(listed.body.total, 328);
    const ids = (listed.body.problems as { id: string; qualifiedId: string; dataset: string }[]);
    assert.equal(new Set(ids.map((p) => p.id)).size, 328);
    assert.deepEqual(ids[0], { ...ids[0], id: 'HumanEval:HumanEval/0', qualifiedId: 'HumanEval:HumanEval/0', dataset: 'HumanEval' });
    assert.deepEqual(ids[164], { ...ids[164], id: 'HumanEvalPlus:HumanEval/0', qualifiedId: 'HumanEvalPlus:HumanEval/0', dataset: 'HumanEvalPlus' });
  });

  it('a session reset and DELETE with Content-Type: application/json and an empty body are answered, not 400', async () => {
    const created = await httpCall(url, 'POST', '/v1/sessions', { environment: 'python' });
    assert.equal(created.status, 201, created.text);
    const id = created.body.id as string;
    const empty = { 'content-type': 'application/json', 'content-length': '0' };
    const reset = await fetch(`${url}/v1/sessions/${id}/reset`, { method: 'POST', headers: empty, body: '' });
    assert.equal(reset.status, 200, await reset.text());
    const removed = await fetch(`${url}/v1/sessions/${id}`, { method: 'DELETE', headers: empty, body: '' });
    assert.ok(removed.status === 200 || removed.status === 204, `${removed.status} ${await removed.text()}`);
    // Without Content-Length at all (curl -X DELETE -H 'Content-Type: application/json'): no body either.
    const again = await httpCall(url, 'POST', '/v1/sessions', { environment: 'python' });
    const noLength = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(`${url}/v1/sessions/${again.body.id as string}`, { method: 'DELETE', headers: { 'content-type': 'application/json' } },
        (response) => { response.resume(); resolve(response.statusCode ?? 0); });
      request.on('error', reject);
      request.end();
    });
    assert.ok(noLength === 200 || noLength === 204, String(noLength));
    // A body that is there and is not JSON is still refused.
    const bad = await fetch(`${url}/v1/judge`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"code": ' });
    assert.equal(bad.status, 400);
  });

  it('a sqlite session answers SELECT 1e999 (a valid query whose value is Inf) as the sqlite3 shell does', async () => {
    const created = await httpCall(url, 'POST', '/v1/sessions', { environment: 'sqlite', task: { sql: 'CREATE TABLE t(v REAL);' } });
    assert.equal(created.status, 201, created.text);
    const step = await httpCall(url, 'POST', `/v1/sessions/${created.body.id}/step`, { action: 'SELECT 1e999 AS big, -1e999 AS small, 2.5 AS x' });
    assert.equal(step.body.observation.status, 'ok', JSON.stringify(step.body.observation));
    assert.equal(step.body.observation.stdout, 'big|small|x\nInf|-Inf|2.5\n');
    assert.deepEqual(step.body.observation.rows, [['Inf', '-Inf', 2.5]]);
    await httpCall(url, 'DELETE', `/v1/sessions/${created.body.id}`);
  });
});

/**
 * Conformance: a real `crucible serve` (the CLI, spawned on a free port) driven by the trainers' OWN client code
 * from ../shared/clients (verl's SandboxFusion reward utilities, SandboxFusion's SDK, OpenRLHF's remote reward
 * executor, open-r1's Piston client), each checked on a correct, a wrong, a time-limit, a runtime-error and a
 * compile-error program for the score or status that client derives.
 *
 * The client code is trusted test code (the trainers' own, run by the system Python on the host); the programs it
 * submits are judged by Crucible in the sandbox. The drivers are in test/conformance/python/*.py; the heavy
 * dependencies those client files import but never use on these paths (verl's and OpenRLHF's internal helpers,
 * transformers, datasets, async_lru, dotenv) are minimal stubs in test/conformance/python/stubs (see its README). requests, aiohttp, pydantic,
 * tenacity, aiofiles and pandas are the real Debian packages scripts/setup installs. open-r1's Codeforces and IOI
 * scorers run on the problems in test/fixtures/contest (written for these tests).
 */
import assert from 'node:assert/strict';
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';

const CLIENTS = join(PROJECT_ROOT, '..', 'shared', 'clients');
const DRIVERS = join(PROJECT_ROOT, 'test', 'conformance', 'python');
/** The system Python (the pyenv shim on PATH is slow, and the Debian packages belong to this one). */
const PYTHON = ['/usr/bin/python3.11', '/usr/bin/python3'].find((p) => existsSync(p)) ?? 'python3';
const PYTHONPATH = [join(DRIVERS, 'stubs'), join(CLIENTS, 'volcengine+verl'), join(CLIENTS, 'OpenRLHF+OpenRLHF'),
  join(CLIENTS, 'huggingface+open-r1', 'src'), join(CLIENTS, 'bytedance+SandboxFusion', 'scripts', 'client', 'src')].join(':');

let server: ChildProcess;
let url = '';

/** Start `crucible serve --port 0` and read its URL from the line it prints when listening. */
function startServe(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(join(PROJECT_ROOT, 'bin', 'crucible'), ['serve', '--port', '0', '--slots', '2', '--log-level', 'warn'],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    // The CLI says where it listens on stderr ("crucible serve: listening on URL"); logs go to stdout.
    let seen = '';
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`crucible serve did not say where it listens within 120 s:\n${seen}`));
    }, 120_000);
    const read = (chunk: Buffer): void => {
      seen += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]! });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`crucible serve exited (${code}) before listening:\n${seen}`));
    });
  });
}

/** Run one driver with the trainers' client code on the path; its stdout is one JSON object. */
function driver(name: string): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return new Promise((resolve, reject) => {
    execFile(PYTHON, [join(DRIVERS, name), url], { env: { ...process.env, PYTHONPATH }, timeout: 120_000, maxBuffer: 1 << 20 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`${name}: ${error.message}\n${stderr.slice(-3000)}`));
        try {
          resolve(JSON.parse(stdout) as Record<string, any>); // eslint-disable-line @typescript-eslint/no-explicit-any
        } catch {
          reject(new Error(`${name} printed no JSON:\n${stdout}\n${stderr.slice(-3000)}`));
        }
      });
  });
}

before(async () => {
  ({ child: server, url } = await startServe());
});

after(async () => {
  if (server.exitCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
});

describe('trainers\' own clients against crucible serve', () => {
  test('verl: sandbox_fusion compute_score / check_correctness', async () => {
    const out = await driver('verl_sandbox_fusion.py');
    assert.deepEqual(out.correct, { score: 1, statuses: ['success', 'success'] });
    assert.deepEqual(out.wrong, { score: 0, statuses: ['wrong_answer', 'wrong_answer'] });
    assert.deepEqual(out.time_limit, { score: 0, statuses: ['timeout', 'timeout'] });
    assert.deepEqual(out.sleeper, { score: 0, statuses: ['timeout', 'timeout'] }, 'run_timeout is wall-clock: a sleeper times out');
    assert.deepEqual(out.runtime_error, { score: 0, statuses: ['runtime_error', 'runtime_error'] });
    assert.deepEqual(out.compile_error, { results: [-4, -4], statuses: ['compile_error', 'compile_error'] });
    assert.deepEqual(out.cpp_correct, { results: [true, true], statuses: ['success', 'success'] });
  });

  test('SandboxFusion SDK: run_code', async () => {
    const out = await driver('sandbox_fusion_sdk.py');
    assert.deepEqual(out.correct, { status: 'Success', run: { status: 'Finished', return_code: 0, stdout: '42\n' }, compile: null });
    assert.deepEqual(out.wrong, { status: 'Success', run: { status: 'Finished', return_code: 0, stdout: '0\n' }, compile: null });
    assert.deepEqual(out.time_limit, { status: 'Failed', run: { status: 'TimeLimitExceeded', return_code: null, stdout: '' }, compile: null });
    assert.deepEqual(out.sleeper, { status: 'Failed', run: { status: 'TimeLimitExceeded', return_code: null, stdout: '' }, compile: null });
    assert.deepEqual(out.runtime_error, { status: 'Failed', run: { status: 'Finished', return_code: 3, stdout: '' }, compile: null });
    assert.equal(out.compile_error.status, 'Failed');
    assert.equal(out.compile_error.run, null);
    assert.equal(out.compile_error.compile.status, 'Finished');
    assert.notEqual(out.compile_error.compile.return_code, 0);
    assert.equal(out.pytest_pass.status, 'Success');
    assert.match(out.pytest_pass.run.stdout, /1 passed/);
    assert.equal(out.pytest_fail.status, 'Failed');
    assert.equal(out.pytest_fail.run.return_code, 1);
    assert.match(out.pytest_fail.run.stdout, /FAILED test_main\.py::test_add/);
    assert.match(out.pytest_fail.run.stdout, /1 failed, 1 passed/);
    assert.deepEqual(out.files, { status: 'Success', run: { status: 'Finished', return_code: 0, stdout: 'from a file\n' }, compile: null });
    assert.match(out.refused, /Faas api responded with code 400: .*\\"cuda\\" is not available on Crucible: it needs an NVIDIA GPU/);
  });

  test('OpenRLHF: SingleTurnAgentExecutor with remote_rm_url (queries end with <|im_end|>)', async () => {
    const out = await driver('openrlhf_remote_rm.py');
    const expected: Record<string, [number, string]> = {
      correct: [1, 'passed'], wrong: [0, 'wrong_answer'], time_limit: [0, 'time_limit_exceeded'],
      runtime_error: [0, 'runtime_error'], compile_error: [0, 'compile_error'], no_code: [0, 'no_code'],
    };
    for (const [name, [reward, status]] of Object.entries(expected)) {
      assert.deepEqual(out[name], { reward: [reward], scores: [reward], numeric_logs: true, status: [status] }, name);
    }
  });

  test('open-r1: PistonClient.send_execute', async () => {
    const out = await driver('open_r1_piston.py');
    assert.deepEqual(out.correct, { passed: true, code: 0, status: null, signal: null, compile_code: null });
    assert.deepEqual(out.wrong, { passed: false, code: 0, status: null, signal: null, compile_code: null });
    assert.deepEqual(out.time_limit, { passed: false, code: null, status: 'TO', signal: 'SIGKILL', compile_code: null });
    assert.deepEqual(out.runtime_error, { passed: false, code: 1, status: 'RE', signal: null, compile_code: null });
    assert.equal(out.compile_error.passed, false);
    assert.notEqual(out.compile_error.compile_code, 0);
    assert.deepEqual(out.cpp_correct, { passed: true, code: 0, status: null, signal: null, compile_code: 0 });
  });

  test('open-r1: Codeforces score_submission and IOI score_subtasks through the codeforces / cms_ioi packages', async () => {
    const out = await driver('open_r1_contest.py');
    // Codeforces 1352A with open-r1's checker convention (test/fixtures/contest/codeforces-1352A), pass_fail scoring.
    assert.equal(out.cf_correct_cpp, 1.0, 'a correct C++17 solution whose terms are in another order than the answer');
    assert.equal(out.cf_correct_python, 1.0, 'a correct Python solution (cf_python3)');
    assert.equal(out.cf_wrong_cpp, 0.0);
    assert.equal(out.cf_correct_weighted, 1.1, 'weighted_sum: 1 + 0.1 x passed fraction');
    assert.equal(out.cf_wrong_partial_all_batch, 0.0, 'partial, all tests at once: no test passed');
    assert.equal(out.cf_correct_without_checker, 0.0, 'without the checker the package compares text, and the order differs');
    assert.equal(out.cf_compile_error, -0.1, 'open-r1\'s no_compile_reward');
    assert.equal(out.cf_time_limit, 0.0);
    // IOI-style task with a grader and two subtasks (30 + 70 points), CMS GroupMin through open-r1's own sums.
    assert.deepEqual(out.ioi_correct, { total: 100, subtasks: [[1, 30, 'AC'], [1, 70, 'AC']] });
    // A CMS checker's "translate:wrong" is not a message open-r1 knows: it files the 0 as RE (upstream's mapping).
    assert.deepEqual(out.ioi_partial, { total: 30, subtasks: [[1, 30, 'AC'], [0, 0, 'RE']] });
    assert.deepEqual(out.ioi_wrong, { total: 0, subtasks: [[0, 0, 'RE'], [0, 0, 'RE']] });
    assert.deepEqual(out.ioi_correct_without_checker, { total: 100, subtasks: [[1, 30, 'AC'], [1, 70, 'AC']] });
    assert.deepEqual(out.ioi_partial_without_checker, { total: 30, subtasks: [[1, 30, 'AC'], [0, 0, 'WA']] });
    // Communication task: manager and contestant over FIFOs; the manager's score is the test's (min over 3 tests).
    assert.deepEqual(out.ioi_communication_correct, { total: 100, subtasks: [[1, 100, 'AC']] });
    assert.deepEqual(out.ioi_communication_partial, { total: 30, subtasks: [[0.3, 30, 'PA']] });
    assert.deepEqual(out.ioi_communication_wrong, { total: 0, subtasks: [[0, 0, 'WA']] });
  });
});

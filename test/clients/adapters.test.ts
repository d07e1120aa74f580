/**
 * The trainer adapters of clients/python (Gym-style CrucibleEnv, verl BaseTool, OpenRLHF agent) driven against a
 * running `crucible serve` (in this process, on a free loopback port, with a bearer token) by the system Python.
 * The adapters are trusted client code run on the host; every program they send runs in the sandbox. Neither verl
 * nor OpenRLHF is installed: their interfaces are contracts in test/conformance/contracts (verl-base-tool.json:
 * BaseTool's method signatures; openrlhf-agent.json: MultiTurnAgentExecutor's episode loop and AgentInstanceBase's
 * methods, each with the upstream commit it was read from). The verl driver checks that the adapter's fallback
 * base has exactly verl's signatures; the OpenRLHF driver runs the executor's loop as the contract states it.
 * The drivers in test/clients/python are ours and import only the standard library and clients/python.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { startServer, type ServerHandle } from '../../src/server/index.js';
import { createLogger } from '../../src/server/logging.js';

const CONTRACTS = join(PROJECT_ROOT, 'test', 'conformance', 'contracts');
const DRIVERS = join(PROJECT_ROOT, 'test', 'clients', 'python');
/** The system Python (the pyenv shim on PATH is slow). */
const PYTHON = ['/usr/bin/python3.11', '/usr/bin/python3'].find((p) => existsSync(p)) ?? 'python3';
const TOKEN = 'adapter-token';

let server: ServerHandle;

/** Run one driver; its stdout is one JSON object. */
function drive(name: string, args: readonly string[], pythonPath: readonly string[]): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const env = { ...process.env, PYTHONPATH: [join(PROJECT_ROOT, 'clients', 'python'), ...pythonPath].join(':') };
  return new Promise((resolve, reject) => {
    execFile(PYTHON, [join(DRIVERS, name), ...args], { env, timeout: 120_000, maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
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
  server = await startServer({ port: 0, slots: 2, token: TOKEN, logLevel: 'silent' }, { logger: createLogger('silent') });
});

after(async () => {
  await server.shutdown(1000);
});

describe('trainer adapters against crucible serve', () => {
  test('Gym-style CrucibleEnv: program, python and bash sessions; reset, step, close', async () => {
    const r = await drive('drive_gym.py', [server.url, TOKEN], []);
    assert.match(r.program_reset, /program session: inline tests \(2 tests, all visible\)/);
    assert.equal(r.program_wrong.status, 'wrong_answer');
    assert.equal(r.program_wrong.reward, 0);
    assert.equal(r.program_wrong.terminated, false);
    assert.match(r.program_wrong.obs, /First failing test: #1[\s\S]*Input:\n5 5\n[\s\S]*Expected:\n10\n[\s\S]*Got:\n12\n/);
    assert.equal(r.program_run.obs, 'cba');
    assert.equal(r.program_run.raw_reward, null);
    assert.deepEqual(r.program_right, { obs: r.program_right.obs, reward: 1, terminated: true, truncated: false });
    assert.deepEqual(r.python, ['', '42']);
    assert.deepEqual(r.python_last, { obs: '40', terminated: false, truncated: true });
    assert.match(r.python_after_reset, /NameError/);
    assert.equal(r.bash, 'persisted\nhello\n/tmp');
    assert.equal(r.closed, 'unknown_session');
  });

  test('verl BaseTool: create, execute, calc_reward, release on one session per trajectory', async () => {
    const r = await drive('drive_verl.py', [server.url, join(CONTRACTS, 'verl-base-tool.json'), TOKEN], []);
    assert.equal(r.verl_base, false, 'verl is not importable here: the fallback base is in use');
    assert.equal(r.signatures_match, true, `fallback ${JSON.stringify(r.base_signatures)} vs verl ${JSON.stringify(r.verl_signatures)}`);
    assert.equal(r.name, 'crucible');
    assert.match(r.created, /program session/);
    assert.equal(r.wrong.reward, 0);
    assert.equal(r.wrong.metrics.status, 'wrong_answer');
    assert.match(r.wrong.text, /Input:\n1 2\n[\s\S]*Expected:\n3\n[\s\S]*Got:\n2\n/);
    assert.deepEqual(r.run, { text: '5', reward: 0 });
    assert.equal(r.reward_before, 0);
    assert.equal(r.right.reward, 1);
    assert.match(r.right.text, /Verdict: passed/);
    assert.match(r.after_solved, /already solved/);
    assert.equal(r.reward, 1);
    assert.equal(r.released, 'unknown_session');
    assert.deepEqual(r.parallel, ['a', 'b']);
  });

  test('OpenRLHF agent: the multi-turn executor\'s loop runs two turns, feedback in between, reward 1', async () => {
    const r = await drive('drive_openrlhf.py', [server.url, TOKEN, join(CONTRACTS, 'openrlhf-agent.json')], []);
    assert.equal(r.agent_base, false, 'OpenRLHF is not importable here: the fallback base is in use');
    assert.equal(r.subclass, true, 'AgentInstance subclasses AgentInstanceBase, as the executor asserts');
    assert.equal(r.signatures_match, true, 'reset/step: coroutines with OpenRLHF\'s parameters');
    assert.deepEqual(r.unknown_keys, [], 'step answers only keys the executor reads');
    assert.equal(r.turns, 2);
    assert.equal(r.reward, 1);
    assert.equal(r.scores, 1);
    assert.match(r.second_prompt, /Execution feedback:\nVerdict: wrong_answer[\s\S]*Input:\n1 2\n[\s\S]*Expected:\n3\n[\s\S]*Got:\n-1\n/);
    assert.deepEqual(r.extra_logs, { turns: 2, passed: 1 });
  });
});

/**
 * Rewards on an EvalPlus problem through the real server (HumanEval+'s HumanEval/76 as published, read from
 * ../shared/data): a binary reward stops at the first failing input by default (a completion that loops on the plus
 * inputs costs one time-out, not one per input), counts base and plus inputs, and a judged item never has a null
 * reward (a completion whose base inputs pass and whose plus inputs fail is a 0 with the failing status).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readProblems } from '../../src/formats/index.js';
import type { CallProblem } from '../../src/formats/types.js';
import { Sandbox } from '../../src/sandbox/index.js';
import { startServer, type ServerHandle } from '../../src/server/index.js';
import { createLogger } from '../../src/server/logging.js';
import { HUMANEVAL_PLUS } from '../support/data.js';
import { httpCall, type Answer } from '../support/http.js';

const HEADER = 'def is_simple_power(x, n):\n';
/** Passes every base input; loops forever on the plus inputs with n == 1 and x > 1 (power stays 1). */
const LOOPING = `${HEADER}    power = 1\n    while power < x:\n        power = power * n\n    return power == x\n`;
/** Passes every base input (the only n == 1 one is (1, 1)); wrong on plus inputs such as (82, 1). */
const WRONG_ON_PLUS = `${HEADER}    if n == 1:\n        return True\n    power = 1\n    while power < x:\n        power = power * n\n    return power == x\n`;

const cacheDir = mkdtempSync(join(tmpdir(), 'crucible-rewards-evalplus-'));
let sandbox: Sandbox;
let server: ServerHandle;
let problem: CallProblem;

const post = (path: string, body: unknown): Promise<Answer> => httpCall(server.url, 'POST', path, body);

before(async () => {
  sandbox = Sandbox.create({ slots: 2 });
  problem = (await readProblems(HUMANEVAL_PLUS)).find((p) => p.taskId === 'HumanEval/76') as CallProblem;
  assert.equal(problem.kind, 'call');
  server = await startServer({ port: 0, logLevel: 'silent', cacheDir }, { sandbox, problems: [problem], logger: createLogger('silent') });
});

after(async () => {
  await server.shutdown(1000);
  sandbox.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

describe('/v1/rewards on HumanEval+ HumanEval/76', () => {
  test('the default binary reward stops a looping completion at its first time-out and counts base + plus: 0, never null', async () => {
    const r = await post('/v1/rewards', { items: [{ id: 'loop', problem: 'HumanEval/76', code: LOOPING }] });
    assert.equal(r.status, 200, r.text);
    const [item] = r.body.items;
    assert.equal(item.reward, 0);
    assert.equal(item.status, 'time_limit_exceeded', 'the status the reward counts: base and plus');
    assert.equal(item.details.baseStatus, 'passed');
    assert.equal(item.details.plusStatus, 'time_limit_exceeded');
    const timedOut = (item.details.tests as { status: string }[]).filter((t) => t.status === 'time_limit_exceeded');
    assert.equal(timedOut.length, 1, 'fail-fast: one time-out, not one per looping plus input');
    assert.ok(item.details.tests.length < problem.baseInputs.length + problem.plusInputs.length);
    assert.deepEqual(r.body.groups[0].complete, true);
  });

  test('with failFast set explicitly the same completion is a 0 with its failing status (was: passed, reward null)', async () => {
    const r = await post('/v1/rewards', { reward: { kind: 'binary', failFast: true },
      items: [{ id: 'loop', problem: 'HumanEval/76', code: LOOPING }, { id: 'wrong', problem: 'HumanEval/76', code: WRONG_ON_PLUS },
        { id: 'right', problem: 'HumanEval/76', code: `${HEADER}${problem.canonicalSolution}` }] });
    assert.equal(r.status, 200, r.text);
    const byId = new Map((r.body.items as { id: string; reward: number | null; status: string }[]).map((i) => [i.id, i]));
    assert.deepEqual([byId.get('loop')!.reward, byId.get('loop')!.status], [0, 'time_limit_exceeded']);
    assert.deepEqual([byId.get('wrong')!.reward, byId.get('wrong')!.status], [0, 'wrong_answer']);
    assert.deepEqual([byId.get('right')!.reward, byId.get('right')!.status], [1, 'passed']);
    assert.equal(r.body.summary.internalErrors, 0);
  });

  test('a fraction reward without fail-fast gives the wrong-on-plus completion its share of passing inputs', async () => {
    const r = await post('/v1/rewards', { reward: { kind: 'fraction' }, items: [{ id: 'wrong', problem: 'HumanEval/76', code: WRONG_ON_PLUS }] });
    assert.equal(r.status, 200, r.text);
    const [item] = r.body.items;
    assert.equal(item.status, 'wrong_answer');
    assert.ok(item.reward > 0.5 && item.reward < 1, String(item.reward));
  });

  test('OpenRLHF /get_reward: the looping completion is a 0 and logged with the status the reward counts', async () => {
    const r = await post('/get_reward', { query: [`\`\`\`python\n${LOOPING}\`\`\`<|im_end|>`], labels: ['HumanEval/76'] });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.rewards, [0]);
    assert.deepEqual(r.body.extra_logs.status_time_limit_exceeded, [1]);
    assert.deepEqual(r.body.extra_logs.passed, [0]);
  });
});

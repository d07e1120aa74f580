/**
 * `program` sessions against a policy that learns hidden tests from feedback (issue #23, item 4), through the real
 * server (`/v1/sessions`), its judge and the sandbox. The policy submits a lookup-table program
 * (test/hostile/programs/sessions/lookup_table.py) and grows the table from every feedback it reads. With every
 * test visible it reaches reward 1 (the attack is real); with the default (every test hidden) and with only some
 * tests visible, feedback never shows a hidden test's expected output, the reward stays 0, and the submit budget
 * ends the session.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { IoProblem } from '../../src/formats/types.js';
import { Sandbox } from '../../src/sandbox/index.js';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { startServer, type ServerHandle } from '../../src/server/index.js';
import { createLogger } from '../../src/server/logging.js';
import { httpCall, type Answer } from '../support/http.js';

/** Outputs no program can compute from its input without the secret: a keyed hash. */
const SECRET = 'kept-by-the-judge';
const expectedFor = (input: string): string => createHash('sha256').update(SECRET + input).digest('hex').slice(0, 12);
const INPUTS = ['3', '14', '15', '92', '65', '35'];
const PROBLEM: IoProblem = {
  kind: 'io', taskId: 'keyed', comparator: { kind: 'tokens' },
  tests: INPUTS.map((input) => ({ input: `${input}\n`, output: `${expectedFor(input)}\n` })),
};
const LOOKUP = readFileSync(join(PROJECT_ROOT, 'test', 'hostile', 'programs', 'sessions', 'lookup_table.py'), 'utf8');

let sandbox: Sandbox;
let server: ServerHandle;
const post = (path: string, body?: unknown): Promise<Answer> => httpCall(server.url, 'POST', path, body ?? {});

before(async () => {
  sandbox = Sandbox.create({ slots: 2 });
  server = await startServer({ port: 0, logLevel: 'silent' }, { sandbox, problems: [PROBLEM], logger: createLogger('silent') });
});

after(async () => {
  await server.shutdown(1000);
  sandbox.close();
});

interface Attack {
  readonly rewards: number[];
  readonly table: Map<string, string>;
  readonly feedback: string[];
  readonly last: Answer;
}

/** The policy: submit the lookup table, learn every input/expected pair the feedback shows, until done or refused. */
async function attack(task: Record<string, unknown>, maxSubmits: number): Promise<Attack> {
  const created = await post('/v1/sessions', { environment: 'program', task: { problem: 'keyed', ...task }, limits: { maxSubmits } });
  assert.equal(created.status, 201, created.text);
  const id = created.body.id as string;
  const table = new Map<string, string>();
  const rewards: number[] = [];
  const feedback: string[] = [];
  let last: Answer = created;
  for (let submit = 0; submit < maxSubmits + 2; submit++) {
    const code = `TABLE = ${JSON.stringify(Object.fromEntries(table))}\n${LOOKUP}`;
    last = await post(`/v1/sessions/${id}/step`, { action: { kind: 'submit', code } });
    if (last.status !== 200) break;
    rewards.push(last.body.reward as number);
    const text = String(last.body.observation.feedback);
    feedback.push(text, JSON.stringify(last.body.observation));
    const learned = /Input:\n([^]*?)\nExpected:\n([^]*?)(?:\nGot:|\n\[|$)/.exec(text);
    if (learned !== null) table.set(learned[1]!.trim(), learned[2]!.trim());
    if (last.body.done === true) {
      last = await post(`/v1/sessions/${id}/step`, { action: { kind: 'submit', code } });
      break;
    }
  }
  await httpCall(server.url, 'DELETE', `/v1/sessions/${id}`);
  return { rewards, table, feedback, last };
}

describe('a lookup table grown from feedback (item 4)', () => {
  test('with every test visible the attack works: reward 1 (so the attacker is real)', async () => {
    const r = await attack({ visibleTests: 'all' }, 10);
    assert.equal(r.rewards.at(-1), 1, `rewards ${r.rewards.join(',')}`);
    assert.equal(r.table.size, INPUTS.length);
  });

  test('by default (every test hidden) feedback names no expected output and the reward stays 0', async () => {
    const r = await attack({}, 8);
    assert.deepEqual(r.rewards, Array(8).fill(0));
    assert.equal(r.table.size, 0, 'the policy learned nothing');
    for (const input of INPUTS) {
      for (const text of r.feedback) assert.ok(!text.includes(expectedFor(input)), `a hidden expected output was shown: ${text}`);
    }
    assert.match(r.feedback[0]!, /First failing test: #0 \(wrong_answer\), a hidden test/);
    // The budget is spent: the last submit said done, one more is refused.
    assert.deepEqual([r.last.status, r.last.body.error.code], [409, 'session_done']);
    assert.match(r.last.body.error.message, /all its 8 submits/);
  });

  test('with two tests visible the policy learns those two, never a hidden one, and never passes', async () => {
    const r = await attack({ visibleTests: [1, 4] }, 8);
    assert.ok(r.rewards.every((x) => x === 0), `rewards ${r.rewards.join(',')}`);
    assert.deepEqual([...r.table.keys()].sort(), [INPUTS[1], INPUTS[4]].sort());
    const hidden = INPUTS.filter((_, i) => i !== 1 && i !== 4);
    for (const input of hidden) {
      for (const text of r.feedback) assert.ok(!text.includes(expectedFor(input)), `hidden test ${input}'s expected output was shown`);
    }
  });

  test('a reset does not give submits back; a visible index past the tests is a 400 naming it', async () => {
    const created = await post('/v1/sessions', { environment: 'program', task: { problem: 'keyed' }, limits: { maxSubmits: 1 } });
    const id = created.body.id as string;
    const first = await post(`/v1/sessions/${id}/step`, { action: { kind: 'submit', code: 'print(0)' } });
    assert.deepEqual([first.body.reward, first.body.done, first.body.observation.submitsLeft], [0, true, 0]);
    assert.equal((await post(`/v1/sessions/${id}/reset`)).status, 200);
    const again = await post(`/v1/sessions/${id}/step`, { action: { kind: 'submit', code: 'print(0)' } });
    assert.deepEqual([again.status, again.body.error.code], [409, 'session_done']);
    const run = await post(`/v1/sessions/${id}/step`, { action: { kind: 'run', code: 'print(7)' } });
    assert.equal(run.body.observation.stdout, '7\n', 'runs are still allowed');
    await httpCall(server.url, 'DELETE', `/v1/sessions/${id}`);
    const bad = await post('/v1/sessions', { environment: 'program', task: { problem: 'keyed', visibleTests: [0, 6] } });
    assert.deepEqual([bad.status, bad.body.error.field], [400, 'task.visibleTests[1]']);
  });
});

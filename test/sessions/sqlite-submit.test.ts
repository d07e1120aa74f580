/**
 * InterCode-SQL in the `sqlite` session: its reward rule (`intercode` comparator) on hand-computed cases, and a real
 * session over HTTP whose `submit` is judged by the sql kind in the sandbox against the task's gold query on the
 * pristine database, with reset rebuilding the database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { intercodeReward, kendallTauB, pyRound2, pyRowStr } from '../../src/kinds/sql/intercode.js';
import { int, real, text } from '../../src/kinds/sql/values.js';
import { Sandbox } from '../../src/sandbox/index.js';
import { startServer, type ServerHandle } from '../../src/server/index.js';
import { createLogger } from '../../src/server/logging.js';
import { httpCall, type Answer } from '../support/http.js';

const rows = (...vs: number[]) => vs.map((v) => [int(v)]);

describe('InterCode-SQL reward (sql_env.py get_reward)', () => {
  test('rows keyed as Python str(tuple)', () => {
    assert.equal(pyRowStr([int(1)]), '(1,)');
    assert.equal(pyRowStr([int(1), text('a'), null, real(1)]), "(1, 'a', None, 1.0)");
    assert.equal(pyRowStr([text("it's")]), '("it\'s",)');
  });
  test('IoU scaled by Kendall tau-b, rounded half to even', () => {
    assert.equal(intercodeReward([], []), 1);
    assert.equal(intercodeReward(rows(1, 2, 3), rows(1, 2, 3)), 1);
    assert.equal(intercodeReward(rows(1, 2, 3), rows(3, 2, 1)), -1);
    assert.equal(intercodeReward(rows(1, 2, 3), rows(1, 2)), 0.67);
    assert.equal(intercodeReward(rows(1), rows(5)), 0);
    // One common row: tau is NaN, the IoU stays unscaled and unrounded.
    assert.equal(intercodeReward(rows(1), rows(1, 9, 9)), 1 / 3);
    assert.ok(Number.isNaN(kendallTauB(['a', 'a'], ['a', 'a'])));
    assert.equal(pyRound2(0.125), 0.12);
    assert.equal(pyRound2(0.375), 0.38);
  });
});

let sandbox: Sandbox;
let server: ServerHandle;
const post = (path: string, body?: unknown): Promise<Answer> => httpCall(server.url, 'POST', path, body ?? {});

before(async () => {
  sandbox = Sandbox.create({ slots: 2 });
  server = await startServer({ port: 0, logLevel: 'silent' }, { sandbox, problems: [], logger: createLogger('silent') });
});

after(async () => {
  await server.shutdown(1000);
  sandbox.close();
});

describe('sqlite session submit over HTTP', () => {
  const task = { sql: 'CREATE TABLE t(v); INSERT INTO t VALUES (1), (2), (3);', gold: 'SELECT v FROM t ORDER BY v' };

  test('"submit" judges the last query; a submit runs on the pristine database; reset rebuilds it', async () => {
    const c = await post('/v1/sessions', { environment: 'sqlite', task });
    assert.equal(c.status, 201, JSON.stringify(c.body));
    const id = c.body.id as string;
    const partial = await post(`/v1/sessions/${id}/step`, { action: 'SELECT v FROM t WHERE v < 3' });
    assert.deepEqual(partial.body.observation.rows, [[1], [2]]);
    const s1 = await post(`/v1/sessions/${id}/step`, { action: 'submit' });
    assert.equal(s1.status, 200, JSON.stringify(s1.body));
    assert.deepEqual([s1.body.observation.status, s1.body.observation.submitted, s1.body.reward, s1.body.done],
      ['wrong_answer', 'SELECT v FROM t WHERE v < 3', 0.67, true]);
    // The agent empties the table in its session; the submit is still judged on the task's database.
    await post(`/v1/sessions/${id}/step`, { action: 'DELETE FROM t' });
    const empty = await post(`/v1/sessions/${id}/step`, { action: 'SELECT count(*) FROM t' });
    assert.deepEqual(empty.body.observation.rows, [[0]]);
    const s2 = await post(`/v1/sessions/${id}/step`, { action: { kind: 'submit', query: 'SELECT v FROM t' } });
    assert.deepEqual([s2.body.observation.status, s2.body.reward], ['passed', 1]);
    const reset = await post(`/v1/sessions/${id}/reset`);
    assert.equal(reset.status, 200);
    const restored = await post(`/v1/sessions/${id}/step`, { action: 'SELECT count(*) FROM t' });
    assert.deepEqual(restored.body.observation.rows, [[3]]);
    await httpCall(server.url, 'DELETE', `/v1/sessions/${id}`);
  });

  test('a task without gold has no submit; a bad submit names the action', async () => {
    const c = await post('/v1/sessions', { environment: 'sqlite', task: { sql: task.sql } });
    const s = await post(`/v1/sessions/${c.body.id}/step`, { action: { kind: 'submit', query: 'SELECT 1' } });
    assert.equal(s.status, 400);
    assert.match(JSON.stringify(s.body), /no gold query/);
    await httpCall(server.url, 'DELETE', `/v1/sessions/${c.body.id}`);
    const g = await post('/v1/sessions', { environment: 'sqlite', task });
    const first = await post(`/v1/sessions/${g.body.id}/step`, { action: 'submit' });
    assert.equal(first.status, 400);
    assert.match(JSON.stringify(first.body), /none has/);
    await httpCall(server.url, 'DELETE', `/v1/sessions/${g.body.id}`);
  });
});

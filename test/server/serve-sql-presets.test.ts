/**
 * SQL-R1's and SkyRL-SQL's rewards as `sql_preset` specs on `/v1/rewards` and OpenRLHF's `/get_reward`, through the
 * real HTTP server with real judgements in the sandbox, on a Spider question of the official
 * `student_transcripts_tracking` database read in place from ../shared/data (gold `SELECT count(*) FROM Courses`).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readSpider } from '../../src/formats/spider.js';
import type { Problem } from '../../src/formats/types.js';
import { Sandbox } from '../../src/sandbox/index.js';
import { startServer, type ServerHandle } from '../../src/server/index.js';
import { createLogger } from '../../src/server/logging.js';
import { SHARED_DATA } from '../support/data.js';
import { httpCall, type Answer } from '../support/http.js';

let sandbox: Sandbox;
let server: ServerHandle;
let task = '';

before(async () => {
  sandbox = Sandbox.create({ slots: 2 });
  const spider = await readSpider(join(SHARED_DATA, 'spider', 'spider', 'evaluation_examples', 'examples', 'dev.json'), { missingDatabases: 'skip' });
  const sql = spider.find((p) => p.gold === 'SELECT count(*) FROM Courses')!;
  task = sql.taskId;
  const io: Problem = { kind: 'io', taskId: 'echo', tests: [{ input: '1\n', output: '1\n' }], comparator: { kind: 'tokens' } };
  server = await startServer({ port: 0, logLevel: 'silent' }, { sandbox, problems: [sql, io], logger: createLogger('silent') });
});

after(async () => {
  await server.shutdown(1000);
  sandbox.close();
});

const post = (path: string, body: unknown): Promise<Answer> => httpCall(server.url, 'POST', path, body, {});

/** An SQL-R1 style response: its think text and a fenced answer. */
function r1(think: string, sql: string): string {
  return `Assistant: <think>${think}</think>\n<answer>\`\`\`sql\n${sql}\n\`\`\`</answer>`;
}

type Item = { id: string; reward: number | null; status: string; details: { preset?: { formatOk: boolean; execution?: string } } };

describe('SQL reward presets on the reward routes', () => {
  test('sql-r1: format ±1, executable ±2, result ±3 plus the length term, judged in the sandbox', async () => {
    const rightSql = 'SELECT DISTINCT count(*)   FROM Courses';
    const r = await post('/v1/rewards', { reward: { kind: 'sql_preset', preset: 'sql-r1' }, items: [
      { id: 'right', problem: task, response: r1('count the courses', rightSql) },
      { id: 'wrong', problem: task, response: r1('count', 'SELECT count(*) + 1 FROM Courses') },
      { id: 'broken', problem: task, response: r1('count', 'SELECT count(*) FROM NoSuchTable') },
      { id: 'unformatted', problem: task, response: `\`\`\`sql\n${rightSql}\n\`\`\`` },
      { id: 'two-answers', problem: task, response: `${r1('x', rightSql)}<answer>again</answer>` },
    ] });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const items = Object.fromEntries((r.body.items as Item[]).map((i) => [i.id, i]));
    // SQL-R1: the answer's text stripped, the SQL with runs of whitespace collapsed; length = |think| + |answer|.
    const answer = `\`\`\`sql\n${rightSql}\n\`\`\``;
    const sql = 'SELECT DISTINCT count(*) FROM Courses';
    const expected = 1 + 2 + 3 + sql.length / answer.length + (('count the courses'.length + answer.length) / 2048) * 0.5;
    assert.equal(items.right!.status, 'passed', JSON.stringify(items.right));
    assert.ok(Math.abs(items.right!.reward! - expected) < 1e-12, `${items.right!.reward} vs ${expected}`);
    assert.deepEqual(items.right!.details.preset, { name: 'sql-r1', formatOk: true, execution: 'match' });
    assert.equal(items.wrong!.status, 'wrong_answer');
    assert.equal(items.wrong!.reward, 0);
    assert.equal(items.broken!.status, 'runtime_error');
    assert.equal(items.broken!.reward, -1);
    assert.deepEqual(items.broken!.details.preset, { name: 'sql-r1', formatOk: true, execution: 'unexecutable' });
    assert.equal(items.unformatted!.status, 'no_code');
    assert.equal(items.unformatted!.reward, -1);
    assert.equal(items['two-answers']!.reward, -1);
  });

  test('skyrl-sql: -1 bad format, 0 unexecutable or wrong, 1 right (bird-ex sets)', async () => {
    const sky = (sql: string): string => `<think>I count.</think>\n<solution>${sql}</solution>`;
    const r = await post('/v1/rewards', { reward: { kind: 'sql_preset', preset: 'skyrl-sql' }, items: [
      { id: 'right', problem: task, response: sky('SELECT count(*) FROM Courses') },
      { id: 'set-equal', problem: task, response: sky('SELECT count(*) FROM Courses UNION ALL SELECT count(*) FROM Courses') },
      { id: 'wrong', problem: task, response: sky('SELECT 0') },
      { id: 'broken', problem: task, response: sky('SELEC count(*) FROM Courses') },
      { id: 'no-think', problem: task, response: '<solution>SELECT count(*) FROM Courses</solution>' },
      { id: 'tag-inside', problem: task, response: sky('<sql>SELECT count(*) FROM Courses</sql>') },
    ] });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const rewards = Object.fromEntries((r.body.items as Item[]).map((i) => [i.id, i.reward]));
    assert.deepEqual(rewards, { right: 1, 'set-equal': 1, wrong: 0, broken: 0, 'no-think': -1, 'tag-inside': -1 });
  });

  test('OpenRLHF /get_reward takes the preset in the label', async () => {
    const prompt = 'How many courses? ';
    const label = JSON.stringify({ problem: task, reward: { kind: 'sql_preset', preset: 'skyrl-sql' } });
    const r = await post('/get_reward', {
      query: [`${prompt}<think>ok</think><solution>SELECT count(*) FROM Courses</solution>`, `${prompt}SELECT count(*) FROM Courses`],
      prompts: [prompt, prompt], labels: [label, label],
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.rewards, [1, -1]);
  });

  test('a preset needs a raw response to a loaded sql problem', async () => {
    const spec = { kind: 'sql_preset', preset: 'sql-r1' };
    const code = await post('/v1/rewards', { reward: spec, items: [{ id: 0, problem: task, code: 'SELECT 1' }] });
    assert.equal(code.status, 400);
    assert.equal((code.body.error as { field: string }).field, 'items[0].response');
    const io = await post('/v1/rewards', { reward: spec, items: [{ id: 0, problem: 'echo', response: r1('x', 'SELECT 1') }] });
    assert.equal(io.status, 400);
    assert.match((io.body.error as { message: string }).message, /sql problems/);
    const unknown = await post('/v1/rewards', { reward: { kind: 'sql_preset', preset: 'sql-r2' }, items: [] });
    assert.equal(unknown.status, 400);
  });
});

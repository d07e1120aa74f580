/**
 * The `sql` and `verilog` kinds reached through the server: `POST /v1/judge` (code, and a response with a fenced
 * block) and `POST /v1/rewards` (a binary reward per rollout), on a Spider question of the official
 * `student_transcripts_tracking` database and a VerilogEval problem, read in place from ../shared/data.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readSpider } from '../../src/formats/spider.js';
import type { Problem } from '../../src/formats/types.js';
import { readVerilogEval } from '../../src/formats/verilog.js';
import { Sandbox } from '../../src/sandbox/index.js';
import { startServer, type ServerHandle } from '../../src/server/index.js';
import { createLogger } from '../../src/server/logging.js';
import { SHARED_DATA } from '../support/data.js';
import { httpCall, type Answer } from '../support/http.js';

let sandbox: Sandbox;
let server: ServerHandle;
let sqlTask = '';
let verilogTask = '';

before(async () => {
  sandbox = Sandbox.create({ slots: 2 });
  const spider = await readSpider(join(SHARED_DATA, 'spider', 'spider', 'evaluation_examples', 'examples', 'dev.json'), { missingDatabases: 'skip' });
  const sql = spider.find((p) => p.gold === 'SELECT count(*) FROM Courses')!;
  const ve = (await readVerilogEval(join(SHARED_DATA, 'verilog-eval', 'dataset_spec-to-rtl'))).find((p) => p.taskId.startsWith('Prob031'))!;
  sqlTask = sql.taskId;
  verilogTask = ve.taskId;
  const problems: Problem[] = [sql, ve];
  server = await startServer({ port: 0, logLevel: 'silent' }, { sandbox, problems, logger: createLogger('silent') });
});

after(async () => {
  await server.shutdown(1000);
  sandbox.close();
});

const post = (path: string, body: unknown): Promise<Answer> => httpCall(server.url, 'POST', path, body, {});

const DFF = 'module TopModule(input clk, input d, output reg q);\n  always @(posedge clk) q <= d;\nendmodule\n';

describe('/v1/judge and /v1/rewards for the sql and verilog kinds', () => {
  test('a SQL query as code and as a response; the language defaults to the kind\'s', async () => {
    const right = await post('/v1/judge', { problem: sqlTask, code: 'SELECT COUNT(*) FROM courses' });
    assert.equal(right.status, 200);
    assert.equal(right.body.status, 'passed', JSON.stringify(right.body));
    const response = await post('/v1/judge', { problem: sqlTask, response: 'The count:\n```sql\nSELECT count(*) + 1 FROM Courses\n```' });
    assert.equal(response.body.status, 'wrong_answer');
    const hostile = await post('/v1/judge', { problem: sqlTask, code: 'DROP TABLE Courses' });
    assert.equal(hostile.body.status, 'runtime_error');
  });

  test('a Verilog design as a response, and a forgery', async () => {
    const right = await post('/v1/judge', { problem: verilogTask, response: `Here it is:\n\`\`\`verilog\n${DFF}\`\`\`\n` });
    assert.equal(right.body.status, 'passed', JSON.stringify(right.body));
    const forged = await post('/v1/judge', { problem: verilogTask, code: 'module TopModule(input clk, input d, output reg q);\n  initial $finish;\nendmodule\n' });
    assert.equal(forged.body.status, 'invalid_submission');
  });

  test('rewards for a batch of rollouts of both kinds', async () => {
    const r = await post('/v1/rewards', { items: [
      { id: 'a', problem: sqlTask, code: 'SELECT count(*) FROM Courses' },
      { id: 'b', problem: sqlTask, code: 'SELECT 0' },
      { id: 'c', problem: verilogTask, code: DFF },
      { id: 'd', problem: verilogTask, code: 'module TopModule(input clk, input d, output reg q);\n  always @(posedge clk) q <= ~d;\nendmodule\n' },
    ] });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const rewards = Object.fromEntries((r.body.items as { id: string; reward: number }[]).map((i) => [i.id, i.reward]));
    assert.deepEqual(rewards, { a: 1, b: 0, c: 1, d: 0 });
  });

  test('formal: the check beside the verdict, a synthesis reward term, and 400s on other kinds', async () => {
    const proven = await post('/v1/judge', { problem: verilogTask, code: DFF, formal: true });
    assert.equal(proven.body.status, 'passed', JSON.stringify(proven.body));
    assert.deepEqual(proven.body.formal, { result: 'proven' });
    const wrong = await post('/v1/judge', { problem: verilogTask, formal: true,
      code: 'module TopModule(input clk, input d, output reg q);\n  always @(posedge clk) q <= ~d;\nendmodule\n' });
    assert.equal(wrong.body.status, 'wrong_answer');
    assert.equal((wrong.body.formal as { result: string }).result, 'refuted');
    const plain = await post('/v1/judge', { problem: verilogTask, code: DFF });
    assert.equal(plain.body.formal, undefined, 'no check unless asked');
    const r = await post('/v1/rewards', { reward: { kind: 'binary', synthesis: { weight: 0.5 } }, items: [{ id: 'a', problem: verilogTask, code: DFF }] });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const item = (r.body.items as { reward: number; details: { formal: { synthesis: { design: { cells: number } } } } }[])[0]!;
    assert.equal(item.reward, 1.5, 'the same design as the reference: ratio 1');
    assert.ok(item.details.formal.synthesis.design.cells > 0);
    const sqlFormal = await post('/v1/judge', { problem: sqlTask, code: 'SELECT 1', formal: true });
    assert.equal(sqlFormal.status, 400);
    assert.match(JSON.stringify(sqlFormal.body), /formal/);
  });
});

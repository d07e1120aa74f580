/**
 * `program` sessions on `verilog` and `sql` problems over the real HTTP session API (issue #26 item 4): the session
 * takes the kind's language, its first observation carries the statement (VerilogEval's spec; Spider's question),
 * a submit is judged by the kind in the sandbox, and the observation gives the trusted side's summary (the
 * testbench's mismatch count; the comparator's verdict) with the formal check when the task asks for it, never
 * the reference, the testbench text, the gold query or the gold result rows. Problems read in place from
 * ../shared/data, as test/server/serve-sql-verilog.test.ts does.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { readSpider } from '../../src/formats/spider.js';
import type { SqlProblem, VerilogProblem } from '../../src/formats/types.js';
import { readVerilogEval } from '../../src/formats/verilog.js';
import { Sandbox } from '../../src/sandbox/index.js';
import { startServer, type ServerHandle } from '../../src/server/index.js';
import { createLogger } from '../../src/server/logging.js';
import { SHARED_DATA } from '../support/data.js';
import { httpCall, type Answer } from '../support/http.js';

let sandbox: Sandbox;
let server: ServerHandle;
let sql: SqlProblem;
let verilog: VerilogProblem;

before(async () => {
  sandbox = Sandbox.create({ slots: 2 });
  const spider = await readSpider(join(SHARED_DATA, 'spider', 'spider', 'evaluation_examples', 'examples', 'dev.json'), { missingDatabases: 'skip' });
  sql = spider.find((p) => p.gold === 'SELECT count(*) FROM Courses')!;
  verilog = (await readVerilogEval(join(SHARED_DATA, 'verilog-eval', 'dataset_spec-to-rtl'))).find((p) => p.taskId.startsWith('Prob031'))!;
  server = await startServer({ port: 0, logLevel: 'silent' }, { sandbox, problems: [sql, verilog], logger: createLogger('silent') });
});

after(async () => {
  await server.shutdown(1000);
  sandbox.close();
});

const post = (path: string, body?: unknown): Promise<Answer> => httpCall(server.url, 'POST', path, body ?? {});
const design = (body: string): string => `module TopModule(input clk, input d, output reg q);\n  ${body}\nendmodule\n`;

describe('program sessions on verilog and sql problems', () => {
  test('verilog: the design language, the spec, the mismatch count and the formal check; never the testbench', async () => {
    const refused = await post('/v1/sessions', { environment: 'program', task: { problem: verilog.taskId, visibleTests: 'all' } });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.match(JSON.stringify(refused.body), /visibleTests/);
    const c = await post('/v1/sessions', { environment: 'program', task: { problem: verilog.taskId, formal: true } });
    assert.equal(c.status, 201, JSON.stringify(c.body));
    const id = c.body.id as string;
    assert.match(c.body.observation.message, /language verilog/);
    assert.ok((c.body.observation.message as string).includes(verilog.prompt.trim().slice(0, 60)), 'the spec is shown');
    const wrong = await post(`/v1/sessions/${id}/step`, { action: { kind: 'submit', code: design('always @(posedge clk) q <= ~d;') } });
    assert.equal(wrong.status, 200, JSON.stringify(wrong.body));
    const o = wrong.body.observation;
    assert.deepEqual([o.status, wrong.body.reward, o.verdict.formal.result], ['wrong_answer', 0, 'refuted']);
    assert.match(o.reason, /^Mismatches: [1-9]\d* in \d+ samples$/);
    assert.ok((o.feedback as string).includes(o.reason as string), 'the summary ends the feedback');
    const shown = JSON.stringify(wrong.body);
    for (const secret of ['RefModule', 'stimulus_gen', verilog.reference.trim().split('\n')[1]!.trim()]) {
      assert.ok(!shown.includes(secret), `the observation shows ${secret}`);
    }
    const right = await post(`/v1/sessions/${id}/step`, { action: { kind: 'submit', code: design('always @(posedge clk) q <= d;') } });
    assert.deepEqual([right.body.observation.status, right.body.reward, right.body.done, right.body.observation.verdict.formal],
      ['passed', 1, true, { result: 'proven' }]);
    await httpCall(server.url, 'DELETE', `/v1/sessions/${id}`);
  });

  test('sql: the query language, the question, the comparator\'s verdict; never the gold query or its rows', async () => {
    const db = new Database((sql.databases[0] as { path: string }).path, { readonly: true, fileMustExist: true });
    const goldCount = (db.prepare('SELECT count(*) AS n FROM Courses').get() as { n: number }).n;
    db.close();
    const c = await post('/v1/sessions', { environment: 'program', task: { problem: sql.taskId } });
    assert.equal(c.status, 201, JSON.stringify(c.body));
    const id = c.body.id as string;
    assert.match(c.body.observation.message, /language sql/);
    assert.ok((c.body.observation.message as string).includes(sql.question!), 'the question is shown');
    assert.ok(!(c.body.observation.message as string).includes(sql.gold));
    const wrong = await post(`/v1/sessions/${id}/step`, { action: { kind: 'submit', code: 'SELECT count(*) + 1 FROM courses' } });
    assert.equal(wrong.status, 200, JSON.stringify(wrong.body));
    assert.deepEqual([wrong.body.observation.status, wrong.body.reward], ['wrong_answer', 0]);
    assert.match(wrong.body.observation.reason, /^spider-testsuite: wrong result/);
    const shown = JSON.stringify(wrong.body);
    assert.ok(!shown.includes(sql.gold), 'the gold query is not shown');
    assert.ok(!new RegExp(`\\b(${goldCount}|${goldCount + 1})\\b`).test(shown.replace(/"(cpuMs|wallMs|submitsLeft|testCount|passedTests)":\d+/g, '')),
      'neither result row is shown');
    const bad = await post(`/v1/sessions/${id}/step`, { action: { kind: 'submit', code: 'SELECT nope FROM courses' } });
    assert.equal(bad.body.observation.status, 'runtime_error', JSON.stringify(bad.body));
    assert.match(bad.body.observation.reason, /nope/, 'the query\'s own error is its summary');
    const right = await post(`/v1/sessions/${id}/step`, { action: { kind: 'submit', code: 'SELECT COUNT(*) FROM courses' } });
    assert.deepEqual([right.body.observation.status, right.body.reward, right.body.done], ['passed', 1, true]);
    await httpCall(server.url, 'DELETE', `/v1/sessions/${id}`);
  });
});

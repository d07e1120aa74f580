/**
 * The `sql` and `verilog` kinds through the queue (`--queue`): a problem sent inline and one from a shipped dataset
 * cross the wire's field-by-field schema, a worker on a real Redis judges them in its sandbox, and the caller gets
 * the real verdicts (a right query and design pass, wrong ones fail, a refused design is `invalid_submission`).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SqlProblem, VerilogProblem } from '../../src/formats/types.js';
import { defaultSubmissionContext } from '../../src/kinds/index.js';
import { queueLocation } from '../../src/queue/connection.js';
import { QueueJudge } from '../../src/queue/queue-judge.js';
import { startWorker, type RunningWorker } from '../../src/queue/worker.js';
import { startRedis, type RedisServer } from '../support/redis.js';
import { adderTestbench } from '../support/verilog.js';

const sql: SqlProblem = {
  kind: 'sql', taskId: 'queue/sql', dbId: 'toy', engine: 'sqlite', comparators: ['spider-testsuite', 'bird-ex'],
  databases: [{ sql: "CREATE TABLE t (a INTEGER, b TEXT); INSERT INTO t VALUES (1, 'x'), (2, 'y'), (3, 'y');" }],
  gold: 'SELECT b FROM t WHERE a >= 2', timeLimitMs: 1000,
};
const TB = adderTestbench('tb');
const adder = (expr: string): string => `module adder(input [3:0] a, input [3:0] b, output [4:0] s);\n  assign s = ${expr};\nendmodule\n`;
const verilog: VerilogProblem = {
  kind: 'verilog', taskId: 'queue/verilog', preset: 'rtllm', prompt: 'a 4-bit adder', topModule: 'adder',
  reference: adder('a + b'), testbench: TB, timeLimitMs: 2000,
};
const HASH = 'c'.repeat(64);

describe('the sql and verilog kinds through the queue', () => {
  let redis: RedisServer;
  let worker: RunningWorker;
  let judge: QueueJudge;

  before(async () => {
    redis = await startRedis();
    const location = queueLocation(redis.url);
    const context = defaultSubmissionContext();
    worker = await startWorker({ location, name: 'kinds', crucibleVersion: 'test',
      judge: { slots: 2, cacheDir: null, languages: context.languages, modes: context.modes } });
    judge = await QueueJudge.connect(location);
    judge.catalog.add(HASH, [sql, verilog]);
  });
  after(async () => {
    await judge.close();
    await worker.drain();
    await redis.stop();
  });

  it('judges SQL queries, inline and from a shipped dataset', async () => {
    const query = (source: string) => ({ language: 'sql', source });
    const [inline, shipped, wrong] = await Promise.all([
      judge.judge({ problem: { inline: sql }, program: query('SELECT b FROM t WHERE a > 1') }),
      judge.judge({ problem: { datasetHash: HASH, taskId: sql.taskId }, program: query('SELECT b FROM t WHERE a <> 1') }),
      judge.judge({ problem: { datasetHash: HASH, taskId: sql.taskId }, program: query('SELECT b FROM t') }),
    ]);
    assert.equal(inline.status, 'passed', inline.reason);
    assert.equal(shipped.status, 'passed', shipped.reason);
    assert.equal(wrong.status, 'wrong_answer', wrong.reason);
    assert.equal(inline.judgedBy?.worker, 'kinds');
  });

  it('judges Verilog designs, and a design the check refuses is invalid_submission', async () => {
    const design = (source: string) => ({ language: 'verilog', source });
    const [right, wrong, printing] = await Promise.all([
      judge.judge({ problem: { datasetHash: HASH, taskId: verilog.taskId }, program: design(adder('a + b')) }),
      judge.judge({ problem: { inline: verilog }, program: design(adder('a - b')) }),
      judge.judge({ problem: { inline: verilog }, program: design(adder('0').replace('endmodule', '  initial $display("Pass");\nendmodule')) }),
    ]);
    assert.equal(right.status, 'passed', right.reason);
    assert.equal(wrong.status, 'wrong_answer', wrong.reason);
    assert.equal(printing.status, 'invalid_submission', printing.reason);
  });
});

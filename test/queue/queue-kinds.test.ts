/**
 * The `sql`, `verilog` and `proof` kinds through the queue (`--queue`): a problem sent inline and one from a shipped
 * dataset cross the wire's field-by-field schema, a worker on a real Redis judges them in its sandbox, and the caller
 * gets the real verdicts (a right query, design and proof pass, wrong ones fail, a refused design is
 * `invalid_submission`, a cheating proof is `cheated`). A request's `analysis` option crosses the wire too: the
 * worker runs the analysers in its sandbox and the verdict comes back with their findings.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { IoProblem, SmtProofProblem, SqlProblem, VerilogProblem } from '../../src/formats/types.js';
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
const smt: SmtProofProblem = {
  kind: 'proof', checker: 'smt', taskId: 'queue/smt', expected: 'sat', solver: 'z3',
  statement: '(declare-const p Int)\n(declare-const q Int)\n(assert (> p 1))\n(assert (> q 1))\n(assert (= (* p q) 391))\n',
};
const echo: IoProblem = { kind: 'io', taskId: 'queue/echo', comparator: { kind: 'tokens' }, tests: [{ input: '7\n', output: '7\n' }] };
const HASH = 'c'.repeat(64);

describe('the sql, verilog and proof kinds through the queue', () => {
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
    judge.catalog.add(HASH, [sql, verilog, smt]);
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

  it('judges SMT-LIB proofs: a proof passes (its model re-checked on the worker), an added assertion is cheated', async () => {
    const script = (extra: string) => ({ language: 'z3', source: `${smt.statement!}${extra}(check-sat)\n` });
    const [inline, shipped, cheat, wrong] = await Promise.all([
      judge.judge({ problem: { inline: smt }, program: script('(assert (= p 17))\n') }),
      judge.judge({ problem: { datasetHash: HASH, taskId: smt.taskId }, program: script('') }),
      judge.judge({ problem: { inline: { ...smt, expected: 'unsat' } as SmtProofProblem }, program: script('(assert false)\n') }),
      judge.judge({ problem: { datasetHash: HASH, taskId: smt.taskId }, program: script('(assert (= p 2))\n') }),
    ]);
    assert.equal(inline.status, 'passed', inline.reason);
    assert.equal(shipped.status, 'passed', shipped.reason);
    assert.equal(cheat.status, 'wrong_answer');
    assert.match(cheat.reason ?? '', /^cheated: /);
    assert.match(wrong.reason ?? '', /^failed: the solver answered unsat/);
    assert.equal(shipped.judgedBy?.worker, 'kinds');
  });

  it('runs a request\'s static analysis on the worker and returns its findings with the verdict', async () => {
    const program = { language: 'python', source: 'import os\nprint(input())\n' };
    const [analysed, plain] = await Promise.all([
      judge.judge({ problem: { inline: echo }, program, analysis: ['pyflakes'] }),
      judge.judge({ problem: { inline: echo }, program }),
    ]);
    assert.equal(analysed.status, 'passed', analysed.reason);
    assert.equal(plain.analysis, undefined, 'no analysis unless asked');
    const outcomes = analysed.analysis?.outcomes ?? [];
    assert.deepEqual(outcomes.map((o) => [o.tool, o.status]), [['pyflakes', 'ok']], JSON.stringify(analysed.analysis));
    const findings = outcomes[0]!.status === 'ok' ? outcomes[0]!.findings : [];
    assert.deepEqual(findings.map((f) => [f.rule, f.line]), [['UnusedImport', 1]]);
    assert.equal(analysed.analysis?.lines, 2);
  });
});

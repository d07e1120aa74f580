/**
 * Problems of the published formats travel through the queue's wire schema unchanged (a dataset is shipped to
 * Redis as JSON and validated by `problemSchema` on the worker): MBPP (`python_script`), LiveCodeBench
 * (`expected_call`, `io` with its comparator and release date), APPS and CodeContests, open-r1 IOI (`ioi`), Spider
 * (`sql`: databases by path, as the worker finds them, or as SQL text), VerilogEval (`verilog`) and the proof data
 * (`proof`: coq-art, DafnyBench, SMT-LIB); a SQL, Verilog or proof problem of the wrong shape is refused with the
 * field's path.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readProblems } from '../../src/formats/index.js';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { problemSchema, zodMessage } from '../../src/queue/wire.js';
import { readSpider } from '../../src/formats/spider.js';
import { readVerilogEval } from '../../src/formats/verilog.js';
import { COQ_ART, DAFNYBENCH, SHARED_DATA, SMT_LIB } from '../support/data.js';
import { CONTESTS_DIR, LCB_FIXTURE } from '../formats/helpers.js';
import { MBPP_PATH } from '../support/mbpp.js';

describe('wire schema: problems of the published formats', () => {
  it('round-trip through JSON and problemSchema unchanged', async () => {
    const problems = [
      ...(await readProblems(MBPP_PATH)).slice(365, 368),
      ...await readProblems(LCB_FIXTURE),
      ...await readProblems(join(CONTESTS_DIR, 'apps.jsonl')),
      ...await readProblems(join(CONTESTS_DIR, 'code_contests.jsonl')),
    ];
    assert.deepEqual(new Set(problems.map((p) => p.kind)), new Set(['python_script', 'expected_call', 'io']));
    for (const p of problems) assert.deepEqual(problemSchema.parse(JSON.parse(JSON.stringify(p))), p, p.taskId);
  });

  it('open-r1 IOI tasks (graders, subtasks, named tests) round-trip too', async () => {
    const problems = await readProblems(join(PROJECT_ROOT, 'test', 'fixtures', 'contest', 'open-r1-ioi.jsonl'));
    assert.deepEqual(problems.map((p) => p.kind), ['ioi', 'ioi']);
    for (const p of problems) assert.deepEqual(problemSchema.parse(JSON.parse(JSON.stringify(p))), p, p.taskId);
  });

  it('Spider (sql) and VerilogEval (verilog) problems round-trip; a wrong shape is refused by field', async () => {
    const spider = await readSpider(join(SHARED_DATA, 'spider', 'spider', 'evaluation_examples', 'examples', 'dev.json'), { missingDatabases: 'skip' });
    const verilog = (await readVerilogEval(join(SHARED_DATA, 'verilog-eval', 'dataset_spec-to-rtl'))).slice(0, 5);
    const inlineSql = { ...spider[0]!, taskId: 'inline', databases: [{ sql: 'CREATE TABLE t (a INTEGER);' }], floatDecimals: 4, keepDistinct: true };
    const codev = { kind: 'verilog', taskId: 'codev', preset: 'codev', prompt: '', topModule: 'm', reference: 'module m; endmodule',
      codev: { sequences: 2, steps: 3, seed: 1 } };
    const problems = [...spider.slice(0, 5), inlineSql, ...verilog, codev];
    assert.ok(spider.length > 0 && verilog.length === 5);
    for (const p of problems) assert.deepEqual(problemSchema.parse(JSON.parse(JSON.stringify(p))), p, p.taskId);
    const bad = problemSchema.safeParse({ ...spider[0]!, comparators: ['exact'] });
    assert.equal(bad.success, false);
    assert.match(bad.success ? '' : zodMessage(bad.error), /^comparators\.0: /, 'the refusal names the field');
    assert.equal(problemSchema.safeParse({ ...verilog[0]!, preset: 'vcs' }).success, false);
    assert.equal(problemSchema.safeParse({ ...spider[0]!, databases: [{ path: '/x', sql: 'y' }] }).success, false);
  });

  it('proof problems (coq-art, DafnyBench, SMT-LIB, and a Lean problem) round-trip; a wrong shape is refused by field', async () => {
    const problems = [
      ...(await readProblems(COQ_ART)).slice(0, 3), ...(await readProblems(DAFNYBENCH)).slice(0, 3), ...(await readProblems(SMT_LIB)).slice(0, 3),
      { kind: 'proof', checker: 'lean', taskId: 'lean/one', statement: 'theorem one : 1 = 1 := sorry', theorems: ['one'], allowedAxioms: ['propext'] },
      { kind: 'proof', checker: 'smt', taskId: 'smt/cvc5', expected: 'unsat', solver: 'cvc5', prompt: 'prove it' },
    ];
    assert.deepEqual(new Set(problems.map((p) => (p as { checker: string }).checker)), new Set(['coq', 'dafny', 'smt', 'lean']));
    for (const p of problems) assert.deepEqual(problemSchema.parse(JSON.parse(JSON.stringify(p))), p, p.taskId);
    const bad = problemSchema.safeParse({ kind: 'proof', checker: 'smt', taskId: 'x', expected: 'sat', solver: 'yices' });
    assert.equal(bad.success, false);
    assert.match(bad.success ? '' : zodMessage(bad.error), /^solver: /, 'the refusal names the field');
    assert.equal(problemSchema.safeParse({ kind: 'proof', checker: 'coq', taskId: 'x', statement: 1, theorems: [] }).success, false);
  });
});

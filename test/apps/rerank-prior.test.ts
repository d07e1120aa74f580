/**
 * `priorVerdictsOf`: which records of an earlier run a rerank may reuse (`crucible rerank --verdicts-from`), and
 * which runs it refuses. The end-to-end reuse on real data is in test/acceptance/codet-rerank.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { priorKey, PriorVerdictsError, priorVerdictsOf } from '../../src/apps/rerank-prior.js';
import type { SampleRecord } from '../../src/store/records.js';

const HASH = 'a'.repeat(64);
const RULE = { factor: 4, floorMs: 200 };
const summary = { datasetHash: HASH, limits: { cpuMsPerProgramOrTest: 1000, timeLimitRule: RULE } };

function record(taskId: string, programHash: string, status: SampleRecord['status'], sampleIndex = 0): SampleRecord {
  return { taskId, sampleIndex, programHash, status, passed: status === 'passed', tests: [{ index: 0, status }], cpuMs: 3, wallMs: 4 };
}

describe('reusing the real-test verdicts of an earlier run', () => {
  it('indexes verdicts by task and program, one per distinct program', () => {
    const prior = priorVerdictsOf({ dir: 'run', summary, records: [
      record('HumanEval/0', 'p1', 'passed', 0), record('HumanEval/0', 'p1', 'passed', 1), record('HumanEval/0', 'p2', 'wrong_answer', 2),
      record('HumanEval/1', 'p1', 'runtime_error'),
    ] }, HASH, 1000, RULE);
    assert.equal(prior.byProgram.size, 3);
    assert.equal(prior.byProgram.get(priorKey('HumanEval/0', 'p1'))?.passed, true);
    const wrong = prior.byProgram.get(priorKey('HumanEval/0', 'p2'));
    assert.equal(wrong?.status, 'wrong_answer');
    assert.equal(wrong?.testCount, 1);
    assert.equal(prior.byProgram.get(priorKey('HumanEval/1', 'p1'))?.status, 'runtime_error');
    assert.equal(prior.conflicting, 0);
  });

  it('never reuses Crucible\'s own failure, nor a program whose records disagree', () => {
    const prior = priorVerdictsOf({ dir: 'run', summary, records: [
      record('HumanEval/0', 'p1', 'internal_error'),
      record('HumanEval/0', 'p2', 'passed', 1), record('HumanEval/0', 'p2', 'time_limit_exceeded', 2), record('HumanEval/0', 'p2', 'passed', 3),
    ] }, HASH, 1000, RULE);
    assert.equal(prior.byProgram.has(priorKey('HumanEval/0', 'p1')), false);
    assert.equal(prior.byProgram.has(priorKey('HumanEval/0', 'p2')), false);
    assert.equal(prior.conflicting, 1);
  });

  it('refuses a run of other problems, of another CPU limit, or one that does not say', () => {
    const records = [record('HumanEval/0', 'p1', 'passed')];
    assert.throws(() => priorVerdictsOf({ dir: 'r', summary, records }, 'b'.repeat(64), 1000, RULE), (e: unknown) =>
      e instanceof PriorVerdictsError && /judged other problems/.test(e.message));
    assert.throws(() => priorVerdictsOf({ dir: 'r', summary, records }, HASH, 3000, RULE), (e: unknown) =>
      e instanceof PriorVerdictsError && /CPU limit of 1000 ms, this rerank uses 3000 ms/.test(e.message));
    assert.throws(() => priorVerdictsOf({ dir: 'r', summary: { datasetHash: HASH }, records }, HASH, 1000, RULE), PriorVerdictsError);
    assert.throws(() => priorVerdictsOf({ dir: 'r', summary: undefined, records }, HASH, 1000, RULE), /does not name the problems/);
    assert.throws(() => priorVerdictsOf({ dir: 'r', summary, records }, HASH, 1000, null), (e: unknown) =>
      e instanceof PriorVerdictsError && /time-limit rule \{"factor":4,"floorMs":200\}, this rerank uses fixed/.test(e.message));
    // A summary written before time-limit rules existed was judged with fixed limits.
    const old = { datasetHash: HASH, limits: { cpuMsPerProgramOrTest: 1000 } };
    assert.equal(priorVerdictsOf({ dir: 'r', summary: old, records }, HASH, 1000, null).byProgram.size, 1);
    assert.throws(() => priorVerdictsOf({ dir: 'r', summary: old, records }, HASH, 1000, RULE), /rule fixed/);
  });
});

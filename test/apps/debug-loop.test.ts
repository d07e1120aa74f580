/**
 * The self-debug replay on real programs in the sandbox: an io problem (one test per case: feedback names the
 * failing case, shows expected vs got, a traceback for a crash), and real CodeGen-16B HumanEval samples.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { readProblems, readSamples } from '../../src/formats/index.js';
import type { IoProblem, Sample } from '../../src/formats/types.js';
import type { Judge } from '../../src/judge/judge.js';
import { defaultSubmissionContext } from '../../src/kinds/index.js';
import { replayFirstAttempts } from '../../src/apps/debug-loop.js';
import { createJudge } from '../../src/engine/factory.js';
import { CODET_PROBLEMS, CODET_SOLUTIONS } from '../support/data.js';


const SUM: IoProblem = {
  kind: 'io', taskId: 'sum', comparator: { kind: 'tokens' }, language: 'python',
  tests: [{ input: '1 2\n', output: '3\n' }, { input: '5 5\n', output: '10\n' }, { input: '7 0\n', output: '7\n' }],
} as IoProblem;

const context = defaultSubmissionContext();
let judge: Judge;
before(() => {
  judge = createJudge({ slots: 2, languages: context.languages, modes: context.modes, cacheDir: null });
});
after(async () => {
  await judge.close();
});

describe('debug-loop replay', () => {
  test('io problem: each kind of failure gets the feedback it should, duplicates counted per sample', async () => {
    judge.catalog.add('io-sum', [SUM]);
    const sample = (index: number, solution: string): Sample => ({ taskId: 'sum', index, solution, language: 'python' });
    const right = 'a, b = map(int, input().split())\nprint(a + b)\n';
    const wrong = 'a, b = map(int, input().split())\nprint(a + b if a != 5 else 0)\n';
    const crash = 'a, b = map(int, input().split())\nprint(a + b if b else a // b)\n';
    const spin = 'while True:\n    pass\n';
    const { report, records } = await replayFirstAttempts({ judge, context, datasetHash: 'io-sum', problems: [SUM],
      samples: [sample(0, right), sample(1, wrong), sample(2, wrong), sample(3, crash), sample(4, spin)] });
    assert.equal(report.samples, 5);
    assert.equal(report.distinctPrograms, 4);
    assert.equal(report.passed, 1);
    assert.equal(report.failing, 4);
    assert.deepEqual(report.byStatus, { passed: 1, wrong_answer: 2, runtime_error: 1, time_limit_exceeded: 1 });
    assert.deepEqual(report.wrongAnswers, { total: 2, withExpectedAndGot: 2, namesFailingCase: 2 });
    assert.equal(report.runtimeErrors.total, 1);
    assert.equal(report.timeouts.total, 1);
    const wa = records.find((r) => r.status === 'wrong_answer')!;
    assert.deepEqual(wa.samples, [1, 2]);
    assert.match(wa.feedback.text, /First failing test: #1/);
    assert.match(wa.feedback.text, /Input:\n5 5\n/);
    assert.match(wa.feedback.text, /Expected:\n10\n/);
    assert.match(wa.feedback.text, /Got:\n0\n/);
    const re = records.find((r) => r.status === 'runtime_error')!;
    assert.match(re.feedback.text, /ZeroDivisionError/);
    assert.equal(re.quality.traceback, true, re.feedback.text);
    assert.equal(re.quality.namesFailingCase, true);
  });

  test('CodeGen-16B HumanEval samples: counts add up and every failing sample has feedback', async () => {
    const problems = await readProblems(CODET_PROBLEMS);
    judge.catalog.add('codet-humaneval', problems);
    const keep = new Set(problems.slice(0, 4).map((p) => p.taskId));
    const samples = (await readSamples(CODET_SOLUTIONS, { problems })).filter((s) => keep.has(s.taskId) && s.index < 6);
    const { report, records } = await replayFirstAttempts({ judge, context, datasetHash: 'codet-humaneval', problems, samples, budgetChars: 1000 });
    assert.equal(report.samples, 24);
    assert.equal(report.tasks, 4);
    assert.equal(report.internalErrors, 0);
    assert.equal(report.passed + report.failing, 24);
    assert.ok(report.failing > 0, 'some CodeGen samples fail');
    assert.equal(records.reduce((k, r) => k + r.samples.length, 0), report.failing);
    for (const r of records) {
      assert.ok(r.feedback.text.length <= 1000);
      assert.match(r.feedback.text, /^Verdict: /);
    }
    assert.equal(Object.values(report.byStatus).reduce((a, b) => a + b, 0), 24);
    // A HumanEval failure inside check() names its failing line: the assertion that failed, or whose call raised.
    for (const r of records.filter((x) => x.status === 'wrong_answer' || /candidate raised/.test(x.feedback.failingTest?.reason ?? ''))) {
      assert.match(r.feedback.text, /\nFailing line \d+:\nassert /, r.feedback.text);
      assert.equal(r.quality.namesFailingCase, true);
    }
    assert.equal(report.wrongAnswers.namesFailingCase, report.wrongAnswers.total);
  });
});

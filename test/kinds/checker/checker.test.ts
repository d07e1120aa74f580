/**
 * The `checker` judging mode end to end through a real judge and sandbox: Codeforces 1352A with open-r1's
 * checker convention (test/fixtures/contest/codeforces-1352A), a testlib checker with partial points and IOI
 * subtasks (GroupMin), and a failing checker reported as `internal_error`, never as a wrong answer.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { CheckerProblem } from '../../../src/formats/types.js';
import { createJudge } from '../../../src/engine/factory.js';
import { PROJECT_ROOT } from '../../../src/sandbox/paths.js';
import type { Verdict } from '../../../src/verdict/index.js';

const FIXTURES = join(PROJECT_ROOT, 'test', 'fixtures', 'contest');
const read = (...parts: string[]): string => readFileSync(join(FIXTURES, ...parts), 'utf8');

const judge = createJudge({ slots: 2, cacheDir: null });
after(() => judge.close());

const judged = (problem: CheckerProblem, language: string, source: string): Promise<Verdict> =>
  judge.judge({ problem: { inline: problem }, program: { language, source } });

describe('checker mode', () => {
  const cf: CheckerProblem = {
    kind: 'checker', taskId: 'codeforces/1352A', tests: JSON.parse(read('codeforces-1352A', 'tests.json')),
    checker: { kind: 'python', source: read('codeforces-1352A', 'checker.py') }, timeLimitMs: 1000, memoryLimitKiB: 256 * 1024,
  };

  test('Codeforces 1352A: a correct answer in another order passes, a wrong one fails', async () => {
    const ok = await judged(cf, 'cpp', read('codeforces-1352A', 'solutions', 'correct.cpp'));
    assert.deepEqual([ok.status, ok.passed, ok.score], ['passed', true, 1], ok.reason);
    const py = await judged(cf, 'python', read('codeforces-1352A', 'solutions', 'correct.py'));
    assert.equal(py.status, 'passed', py.reason);
    const wrong = await judged(cf, 'cpp', read('codeforces-1352A', 'solutions', 'wrong.cpp'));
    assert.deepEqual([wrong.status, wrong.score], ['wrong_answer', 0]);
  });

  const double: CheckerProblem = {
    kind: 'checker', taskId: 'double', tests: [{ input: '21\n', output: '42\n' }, { input: '5\n', output: '10\n' }],
    checker: { kind: 'testlib', source: read('checkers', 'double-testlib.cpp') },
    subtasks: [{ name: 'first', points: 40, tests: [0] }, { name: 'both', points: 60, tests: [0, 1] }],
  };

  test('testlib checker: points are a partial score; subtasks sum as GroupMin', async () => {
    const ok = await judged(double, 'python', 'print(2 * int(input()))\n');
    assert.deepEqual([ok.status, ok.score], ['passed', 1], ok.reason);
    const close = await judged(double, 'python', 'print(2 * int(input()) + 1)\n');
    assert.deepEqual([close.status, close.score], ['wrong_answer', 0.5], 'every test 0.5: 40 x 0.5 + 60 x 0.5 of 100');
    assert.deepEqual(close.tests.map((t) => t.score), [0.5, 0.5]);
    const first = await judged(double, 'python', 'n = int(input())\nprint(42 if n == 21 else 0)\n');
    assert.deepEqual([first.status, first.score], ['wrong_answer', 0.4], 'only the first subtask: 40 of 100');
    const pe = await judged(double, 'python', 'print("many")\n');
    assert.deepEqual([pe.status, pe.score], ['wrong_answer', 0]);
  });

  test('a checker that fails is internal_error, not a wrong answer', async () => {
    const broken: CheckerProblem = { ...double, taskId: 'double/broken', subtasks: undefined,
      checker: { kind: 'python', source: 'import sys\nsys.exit(5)\n' } };
    const v = await judged(broken, 'python', 'print(2 * int(input()))\n');
    assert.equal(v.status, 'internal_error');
    assert.equal(v.passed, false);
    assert.equal(v.score, undefined);
    assert.match(v.reason ?? '', /checker failed/);
  });
});

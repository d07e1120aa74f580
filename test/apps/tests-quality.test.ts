/**
 * `testsQuality` on real programs in the sandbox (issue #28, item 4): an io problem with labelled Python solutions
 * and a C++ reference whose mutants the tests kill or miss; HumanEval/0 with Python mutants of its canonical
 * solution; the mutation operators on hand-written code (strings and comments untouched).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { readProblems } from '../../src/formats/index.js';
import type { IoProblem, Sample } from '../../src/formats/types.js';
import type { Judge } from '../../src/judge/judge.js';
import { defaultSubmissionContext } from '../../src/kinds/index.js';
import { createJudge } from '../../src/engine/factory.js';
import { firstPerProblem, testsQuality } from '../../src/apps/tests-quality/index.js';
import { mutantsOf, mutationPlaces } from '../../src/apps/tests-quality/mutants.js';
import { HUMANEVAL, HUMANEVAL_PLUS } from '../support/data.js';

const MAX_CPP = `#include <cstdio>
int main() {
  long a, b;
  if (scanf("%ld %ld", &a, &b) != 2) return 1;
  long m = a;
  if (b > a) m = b;
  printf("%ld\\n", m + 0);
  return 0;
}
`;
const MAX: IoProblem = {
  kind: 'io', taskId: 'max', comparator: { kind: 'tokens' }, language: 'cpp', referenceSolution: { language: 'cpp', code: MAX_CPP },
  // Test 2 is the only one with equal numbers; test 1 repeats test 0's direction, so it is redundant.
  tests: [{ input: '1 2\n', output: '2\n' }, { input: '3 4\n', output: '4\n' }, { input: '5 5\n', output: '5\n' }, { input: '9 2\n', output: '9\n' }],
} as IoProblem;

const context = defaultSubmissionContext();
let judge: Judge;
before(() => {
  judge = createJudge({ slots: 2, languages: context.languages, modes: context.modes, cacheDir: null });
});
after(async () => {
  await judge.close();
});

const py = (index: number, solution: string): Sample => ({ taskId: 'max', index, solution, language: 'python' });

describe('tests-quality on real programs', () => {
  test('io problem: TPR/TNR, which tests catch which wrong solution, redundancy, minimal subset, C++ mutants', async () => {
    const correct = [py(0, 'a, b = map(int, input().split())\nprint(max(a, b))\n'), py(1, 'a, b = map(int, input().split())\nprint(a if a >= b else b)\n')];
    const incorrect = [
      py(0, 'a, b = map(int, input().split())\nprint(b)\n'), // caught by test 3 only
      py(1, 'a, b = map(int, input().split())\nprint(a)\n'), // caught by tests 0 and 1
      py(2, 'a, b = map(int, input().split())\nprint(a + 1 if a == b else max(a, b))\n'), // caught by test 2 only
      py(3, 'print(9)\n'), // caught by tests 0, 1, 2
    ];
    const report = await testsQuality({ judge, problems: [MAX], datasetHash: 'tq-max', correct, incorrect, mutantsPerProblem: 40, submission: context });
    const [q] = report.problems;
    assert.deepEqual([q!.tpr, q!.tnr, q!.undetected], [1, 1, []]);
    assert.deepEqual(q!.tests.map((t) => t.catches), [[1, 3], [1, 3], [2, 3], [0]]);
    assert.deepEqual(q!.redundant, [0, 1]);
    assert.deepEqual([q!.minimalSubset, q!.minimalSubsetExact], [[0, 2, 3], true]);
    const m = q!.mutation!;
    assert.equal(m.language, 'cpp');
    assert.ok(m.generated >= 5, String(m.generated));
    // `b > a` -> `b >= a` gives the same output on every input (an equivalent mutant): it must survive.
    assert.ok(m.survivors.some((s) => s.from === '>' && s.to === '>='), JSON.stringify(m.survivors));
    assert.ok(m.killed > 0 && m.score !== null && m.score < 1, `score ${m.score}`);
    assert.equal(report.overall.tnr, 1);
  });

  test('HumanEval/0: Python mutants of the canonical solution, judged through the harness', async () => {
    const [problem] = await readProblems(HUMANEVAL);
    const canonical = (problem as { canonicalSolution: string }).canonicalSolution;
    const report = await testsQuality({ judge, problems: [problem!], datasetHash: 'tq-he0', mutantsPerProblem: 10, submission: context,
      correct: [{ taskId: problem!.taskId, index: 0, completion: canonical }],
      incorrect: [{ taskId: problem!.taskId, index: 0, completion: '    return False\n' }] });
    const [q] = report.problems;
    assert.deepEqual([q!.testCount, q!.tpr, q!.tnr], [1, 1, 1]);
    const m = q!.mutation!;
    assert.equal(m.language, 'python');
    // Its canonical solution has five places: idx != idx2, elem - elem2, distance < threshold, True, False.
    assert.equal(m.generated, 5);
    assert.equal(m.stillborn, 0);
    // Only distance < threshold -> <= survives HumanEval's check (no test has a pair exactly `threshold` apart).
    assert.equal(m.killed, 4, JSON.stringify(m));
    assert.deepEqual(m.survivors.map((s) => `${s.from}->${s.to}`), ['<-><=']);
  });

  test('HumanEval+/0: a program that never ends is stopped after its first time-out; its other inputs are not run, and counted', async () => {
    const [problem] = await readProblems(HUMANEVAL_PLUS);
    const canonical = (problem as { canonicalSolution: string }).canonicalSolution;
    const id = problem!.taskId;
    const report = await testsQuality({ judge, problems: [problem!], datasetHash: 'tq-hep0', mutantsPerProblem: 0, submission: context,
      correct: [{ taskId: id, index: 0, completion: canonical }],
      incorrect: [{ taskId: id, index: 0, completion: '    while True:\n        pass\n' }, { taskId: id, index: 1, completion: '    return False\n' }] });
    const [q] = report.problems;
    assert.ok(q!.testCount > 100, String(q!.testCount));
    assert.deepEqual([q!.tpr, q!.tnr, q!.undetected], [1, 1, []]);
    // The looping program failed input 0 (its time-out) and ran nothing else: caught by test 0 alone.
    assert.equal(q!.notRunCells, q!.testCount - 1);
    assert.ok(q!.tests[0]!.catches.includes(0));
    assert.ok(q!.tests.slice(1).every((t) => !t.catches.includes(0)));
    // `return False` ran every input: caught wherever True is expected.
    assert.ok(q!.tests.filter((t) => t.catches.includes(1)).length > 1);
    assert.deepEqual([report.overall.stopAfterTimeouts, report.overall.notRunCells, report.overall.stoppedSolutions], [1, q!.testCount - 1, 1]);
  });
});

test('mutation places skip strings and comments; each mutant changes one place', () => {
  const source = 'x = a + b  # a + b\ns = "a < b"\nif x <= 10 and not y:\n    return True\n';
  const places = mutationPlaces(source, 'python');
  assert.deepEqual(places.map((p) => `${p.from}->${p.to}`), ['+->-', '<=-><', '10->11', 'and->or', 'True->False']);
  const mutants = mutantsOf(source, 'python');
  assert.equal(mutants[0]!.source, 'x = a - b  # a + b\ns = "a < b"\nif x <= 10 and not y:\n    return True\n');
  assert.equal(mutants[3]!.line, 3);
  const cpp = mutationPlaces('// x < y\nif (a < b && c == 1) { s = "a+b"; i++; }\n', 'cpp');
  assert.deepEqual(cpp.map((p) => `${p.from}->${p.to}`), ['<-><=', '&&->||', '==->!=', '1->0', '++->--']);
  assert.equal(mutantsOf('a+b+c+d+e', 'python', 2).length, 2);
});

test('firstPerProblem keeps the first n samples of each problem, in file order', () => {
  const s = (taskId: string, index: number): Sample => ({ taskId, index, completion: '' });
  const samples = [s('a', 0), s('b', 0), s('a', 1), s('a', 2), s('b', 1), s('c', 0), s('b', 2)];
  assert.deepEqual(firstPerProblem(samples, 2).map((x) => `${x.taskId}#${x.index}`), ['a#0', 'b#0', 'a#1', 'b#1', 'c#0']);
  assert.deepEqual(firstPerProblem(samples, 1).map((x) => `${x.taskId}#${x.index}`), ['a#0', 'b#0', 'c#0']);
  assert.equal(firstPerProblem(samples, 5).length, samples.length);
});

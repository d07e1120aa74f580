/**
 * Verdict detail and test descriptions through the Judge seam, with real programs in the real sandbox: a call
 * that asks for detail gets what its failing tests printed or returned, their stderr and the peak memory (io,
 * call, unit_test, assertions; the compiler's stderr for a compile error), also when an identical request was
 * judged in flight, before, or before without detail; a plain call gets the plain verdict; `describeTests`
 * gives each test's input and expected output (EvalPlus expected values from the canonical solution).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { AssertionsProblem, CallProblem, IoProblem, UnitTestProblem } from '../../src/formats/types.js';
import { createJudge } from '../../src/engine/factory.js';
import { plainVerdict } from '../../src/verdict/index.js';

const judge = createJudge({ slots: 2, cacheDir: null });
after(() => judge.close());

const DOUBLE: IoProblem = { kind: 'io', taskId: 'double', comparator: { kind: 'tokens' },
  tests: [{ input: '1\n', output: '2\n' }, { input: '5\n', output: '10\n' }, { input: '7\n', output: '14\n' }] };
/** Right on the first test, wrong on the others, with a line of stderr each. */
const OFF_BY_ONE = 'import sys\nn = int(input())\nprint(2 * n if n == 1 else 2 * n + 1)\nprint("saw", n, file=sys.stderr)\n';

const ADD_ONE: CallProblem = { kind: 'call', taskId: 'add_one', language: 'python', prompt: 'def add_one(x):\n',
  entryPoint: 'add_one', canonicalSolution: '    return x + 1\n', baseInputs: [[{ i: '1' }], [{ i: '41' }]], plusInputs: [[{ i: '-1' }]],
  atol: 0, evalplusDataset: 'humaneval' };

const UNIT: UnitTestProblem = { kind: 'unit_test', taskId: 'unit', language: 'python', prompt: 'def inc(x):\n', entryPoint: 'inc',
  test: 'def check(candidate):\n    assert candidate(1) == 2, "inc(1) should be 2"\n' };

const ASSERTS: AssertionsProblem = { kind: 'assertions', taskId: 'asserts', language: 'python', prompt: 'def inc(x):\n', entryPoint: 'inc',
  assertions: ['assert inc(1) == 2', 'assert inc(2) == 3'] };

describe('verdict detail through the judge', () => {
  it('gives an io program\'s failing output and stderr to every call that asks, judged once for them, and the plain verdict to the others', async () => {
    const request = { problem: { inline: DOUBLE }, program: { language: 'python', source: OFF_BY_ONE } };
    const executions = judge.stats().executions;
    const [first, joined, plain] = await Promise.all([judge.judge(request, { detail: true }), judge.judge(request, { detail: true }), judge.judge(request)]);
    assert.equal(first.status, 'wrong_answer');
    assert.deepEqual(first.detail?.failures?.map((f) => [f.index, f.actual, f.stderr]),
      [[1, '11\n', 'saw 5\n'], [2, '15\n', 'saw 7\n']], 'every test runs: detail needs no fail-fast here');
    assert.ok((first.detail?.memoryKiB ?? 0) > 0, 'peak memory is measured');
    assert.deepEqual(joined, first, 'joined in flight: the same detailed verdict');
    assert.equal(plain.detail, undefined, 'a call that did not ask gets the plain verdict');
    assert.deepEqual(plain, plainVerdict(first));
    const remembered = await judge.judge(request, { detail: true });
    assert.deepEqual(remembered, first, 'answered from memory: the same detailed verdict');
    assert.equal(judge.stats().executions - executions, 3, 'one judgement (one run per test) for all four calls');
    const unasked = await judge.judge({ ...request, program: { language: 'python', source: `${OFF_BY_ONE}# other\n` } });
    assert.equal(unasked.detail, undefined, 'detail only when asked');
    assert.equal(unasked.status, 'wrong_answer');
  });

  it('judges again for detail a failing program whose verdict was remembered without it (a passing one needs none)', async () => {
    const source = `${OFF_BY_ONE}# judged plain first\n`;
    const request = { problem: { inline: DOUBLE }, program: { language: 'python', source } };
    const plain = await judge.judge(request);
    assert.equal(plain.detail, undefined);
    const detailed = await judge.judge(request, { detail: true });
    const outcome = (v: typeof plain): unknown => [v.status, v.passed, v.reason, v.tests?.map((t) => [t.status, t.reason])];
    assert.deepEqual(outcome(detailed), outcome(plain), 'the same verdict (judged again: its own times)');
    assert.deepEqual(detailed.detail?.failures?.map((f) => [f.index, f.actual]), [[1, '11\n'], [2, '15\n']]);
    const right = { problem: { inline: DOUBLE }, program: { language: 'python', source: 'print(2 * int(input()))\n' } };
    assert.equal((await judge.judge(right)).status, 'passed');
    const executions = judge.stats().executions;
    const passed = await judge.judge(right, { detail: true });
    assert.equal(passed.status, 'passed');
    assert.equal(judge.stats().executions, executions, 'a pass is answered from memory, not judged again');
  });

  it('gives the compiler\'s stderr when compilation stopped the program', async () => {
    const verdict = await judge.judge({ problem: { inline: DOUBLE }, program: { language: 'c', source: 'int main(void) { return x; }\n' } },
      { detail: true });
    assert.equal(verdict.status, 'compile_error');
    assert.deepEqual(verdict.detail?.failures, []);
    assert.match(verdict.detail?.stderr ?? '', /error/);
  });

  it('gives what an EvalPlus call returned on each failing input, with the stderr once', async () => {
    const source = 'import sys\ndef add_one(x):\n    print("called", x, file=sys.stderr)\n    return x + 2 if x > 0 else x + 1\n';
    const verdict = await judge.judge({ problem: { inline: ADD_ONE }, program: { language: 'python', source } }, { detail: true });
    assert.equal(verdict.status, 'wrong_answer');
    const failures = verdict.detail?.failures ?? [];
    assert.deepEqual(failures.map((f) => [f.index, f.actual]), [[0, '3'], [1, '43']]);
    assert.match(failures[0]!.stderr ?? '', /called 1/);
    assert.equal(failures[1]!.stderr, undefined, 'one process answered every input: its stderr goes with the first failure');
    const tests = await judge.describeTests({ inline: ADD_ONE });
    assert.deepEqual(tests.map((t) => [t.index, t.input, t.expected]),
      [[0, 'add_one(1)', '2'], [1, 'add_one(41)', '42'], [2, 'add_one(-1)', '0']]);
  });

  it('gives the tester\'s report of a failing unit test, and describes the test', async () => {
    const verdict = await judge.judge({ problem: { inline: UNIT }, program: { language: 'python', source: 'def inc(x):\n    return x\n' } },
      { detail: true });
    assert.equal(verdict.status, 'wrong_answer');
    assert.equal(verdict.detail?.failures?.length, 1);
    assert.match(verdict.detail!.failures![0]!.actual ?? '', /inc\(1\) should be 2/);
    const [test] = await judge.describeTests({ inline: UNIT });
    assert.match(test?.input ?? '', /def check\(candidate\)[\s\S]*check\(inc\)$/);
  });

  it('gives each failing assertion\'s failure, and describes the assertions', async () => {
    const verdict = await judge.judge({ problem: { inline: ASSERTS },
      program: { language: 'python', source: 'def inc(x):\n    return 2 if x == 1 else 0\n' } }, { detail: true });
    assert.equal(verdict.status, 'wrong_answer');
    assert.deepEqual(verdict.detail?.failures?.map((f) => f.index), [1]);
    const tests = await judge.describeTests({ inline: ASSERTS });
    assert.deepEqual(tests.map((t) => t.input), ASSERTS.assertions);
  });
});

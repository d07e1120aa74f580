/**
 * The `python_script` mode (MBPP's judging) in the real sandbox: the program and its setup run in the candidate's
 * process, the asserts in the trusted tester, which asks the program only for the values of the calls into it; so
 * asserts may still use the program's classes and pass the type `int`, and a program may call its own function
 * `check`; a failed assert is a wrong answer naming the assert; a program that exits early or prints a success
 * line does not pass; an assert with the program on both sides of its comparison never passes. The attacks on the
 * trusted side (patching code objects, builtins, equality from threads) are in test/hostile/battery/.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { PythonScriptProblem } from '../../../src/formats/types.js';
import { LanguageRegistry } from '../../../src/languages/registry.js';
import { createJudge } from '../../../src/engine/factory.js';
import { assemblePythonScript } from '../../../src/kinds/python/python-script.js';

const judge = createJudge({ languages: LanguageRegistry.load(), cacheDir: null });
after(() => judge.close());

/** MBPP-like: a class the setup uses, a type passed as an argument, a function named `check`. */
const PROBLEM: PythonScriptProblem = {
  kind: 'python_script', taskId: 'toy/1', language: 'python', statement: 'toy',
  setup: 'root = Node(3)\r\nroot.left = Node(4)',
  tests: ['assert depth(root) == 2', 'assert convert("7", int) == 7', 'assert check([1, 2]) == True\n'],
};
const GOOD = [
  'class Node:', '    def __init__(self, v):', '        self.v, self.left, self.right = v, None, None',
  'def depth(n):', '    return 0 if n is None else 1 + max(depth(n.left), depth(n.right))',
  'def convert(s, t):', '    return t(s)',
  'def check(xs):', '    return xs == sorted(xs)', '',
].join('\n');

function judgeSource(source: string, problem: PythonScriptProblem = PROBLEM) {
  return judge.judge({ problem: { inline: problem }, program: { language: 'python', source } });
}

function withTests(tests: string[], setup = ''): PythonScriptProblem {
  return { ...PROBLEM, taskId: `toy/${tests.join('|')}`, setup, tests };
}

describe('python_script mode (MBPP as published)', () => {
  it('passes a program whose asserts use its own class, the type int and its own check()', async () => {
    const v = await judgeSource(GOOD);
    assert.equal(v.status, 'passed', JSON.stringify(v));
  });

  it('a failed assert is a wrong answer naming that assert', async () => {
    const v = await judgeSource(GOOD.replace('return t(s)', 'return s'));
    assert.equal(v.status, 'wrong_answer', JSON.stringify(v));
    assert.match(v.reason ?? '', /test 1 failed: assert convert\("7", int\) == 7/);
  });

  it('an exception in the program is a runtime error; a missing name in the setup too', async () => {
    const v = await judgeSource(GOOD.replace('return t(s)', 'return 1 // 0'));
    assert.equal(v.status, 'runtime_error', JSON.stringify(v));
    const noNode = await judgeSource(GOOD.replace('class Node:', 'class Nod:'));
    assert.equal(noNode.status, 'runtime_error');
    assert.match(noNode.reason ?? '', /Node/);
  });

  it('exit(0), a printed success line, or a program defining a function named like the old test function do not pass', async () => {
    for (const source of [
      'import sys\nsys.exit(0)\n',
      'import os\nprint("passed")\nos._exit(0)\n',
      `${GOOD.replace('return t(s)', 'return s')}\ndef __crucible_script_tests__():\n    return ["done", 3]\n`,
    ]) {
      const v = await judgeSource(source);
      assert.notEqual(v.status, 'passed', `${source}: ${JSON.stringify(v)}`);
      assert.notEqual(v.status, 'internal_error', `${source}: ${JSON.stringify(v)}`);
    }
  });

  it('the expected side is the tester\'s: set() around a call, a standard module the program imports (MBPP 596), a builtin the program shadows on the called side (MBPP 126)', async () => {
    const problem = withTests(['assert set(common([3, 4, 5], [5, 4])) == set((4, 5))', 'assert size((1, "a")) == sys.getsizeof((1, "a"))',
      'assert sum(10, 15) == 6']);
    const program = 'import sys\ndef common(a, b):\n    return [x for x in a if x in b]\ndef size(t):\n    return sys.getsizeof(t)\n' +
      'def sum(a, b):\n    return 6\n';
    const v = await judgeSource(program, problem);
    assert.equal(v.status, 'passed', JSON.stringify(v));
    // `sys` rebound to a module of another name is the program's: the assert then has the program on both sides.
    const other = await judgeSource(program.replace('import sys', 'import os as sys'), problem);
    assert.equal(other.status, 'wrong_answer', JSON.stringify(other));
    assert.match(other.reason ?? '', /test 1 cannot be judged without trusting the program: both sides/);
  });

  it('an assert whose expected side uses a name the program binds (a shadowed builtin) or a comprehension over the program never passes', async () => {
    const problem = withTests(['assert common([3, 4], [4]) == set((4,))']);
    const shadow = await judgeSource('def common(a, b):\n    return 1\ndef set(x):\n    return 1\n', problem);
    assert.equal(shadow.status, 'wrong_answer', JSON.stringify(shadow));
    assert.match(shadow.reason ?? '', /no expected value of its own/);
    const comprehension = await judgeSource('def f(i):\n    return i\n', withTests(['assert [f(i) for i in range(3)] == [0, 1, 2]']));
    assert.equal(comprehension.status, 'wrong_answer', JSON.stringify(comprehension));
    assert.match(comprehension.reason ?? '', /inside a comprehension/);
  });

  it('a test line with several indented asserts judges each; a value that is not data cannot be compared', async () => {
    const two = withTests(['  assert f(1) == 1\n  assert f(2) == 3']);
    assert.equal((await judgeSource('def f(x):\n    return x\n', two)).status, 'wrong_answer');
    assert.equal((await judgeSource('def f(x):\n    return 2 * x - 1\n', two)).status, 'passed');
    const rigged = await judgeSource('class Yes:\n    def __eq__(self, other):\n        return True\ndef f(x):\n    return Yes()\n', two);
    assert.equal(rigged.status, 'wrong_answer', JSON.stringify(rigged));
  });

  it('assembles program then setup, line ends normalised', () => {
    assert.equal(assemblePythonScript('x = 1', 'y = 2\r\n'), 'x = 1\ny = 2\n');
    assert.equal(assemblePythonScript('x = 1\n\n', ''), 'x = 1\n');
  });
});

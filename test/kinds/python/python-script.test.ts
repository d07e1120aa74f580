/**
 * The `python_script` mode (MBPP's judging) in the real sandbox: the program, its setup and its asserts run in
 * one process, so asserts may use the program's classes and pass the type `int`, and a program may call its own
 * function `check`; a failed assert is a wrong answer naming the assert; a program that exits early, prints a
 * success line or defines the test function itself does not pass.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { PythonScriptProblem } from '../../../src/formats/types.js';
import { LanguageRegistry } from '../../../src/languages/registry.js';
import { createJudge } from '../../../src/engine/factory.js';
import { assemblePythonScript, PYTHON_SCRIPT_ENTRY } from '../../../src/kinds/python/python-script.js';

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

function judgeSource(source: string) {
  return judge.judge({ problem: { inline: PROBLEM }, program: { language: 'python', source } });
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

  it('exit(0), a printed success line, or a program defining the test function itself do not pass', async () => {
    for (const source of [
      'import sys\nsys.exit(0)\n',
      'import os\nprint("passed")\nos._exit(0)\n',
      `${GOOD.replace('return t(s)', 'return s')}\ndef ${PYTHON_SCRIPT_ENTRY}():\n    return ["done", 3]\n`,
    ]) {
      const v = await judgeSource(source);
      assert.notEqual(v.status, 'passed', `${source}: ${JSON.stringify(v)}`);
      assert.notEqual(v.status, 'internal_error', `${source}: ${JSON.stringify(v)}`);
    }
  });

  it('assembles program, setup (line ends normalised) and the indented asserts in order', () => {
    const text = assemblePythonScript('x = 1', 'y = 2\r\n', ['assert x == 1', 'assert y == 2\n']);
    assert.match(text, /^x = 1\ny = 2\ndef __crucible_script_tests__\(\):\n/);
    assert.match(text, /        __crucible_at__ = 1\n        assert y == 2\n    except AssertionError:/);
    // A test written with leading indentation is dedented (it would otherwise be an unexpected indent).
    assert.match(assemblePythonScript('', '', ['  assert f(1)\n  assert f(2)']), /        assert f\(1\)\n        assert f\(2\)\n/);
  });
});

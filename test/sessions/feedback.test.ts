/** The feedback formatter: verdict + detail -> text within a budget, naming the failing input (pure, by hand). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatFeedback } from '../../src/sessions/feedback.js';
import type { DetailedVerdict } from '../../src/verdict/index.js';

const wrong: DetailedVerdict = {
  status: 'wrong_answer', passed: false, testCount: 3, cpuMs: 5, wallMs: 9,
  tests: [{ index: 0, status: 'passed' }, { index: 1, status: 'wrong_answer', reason: 'tokens differ' }, { index: 2, status: 'passed' }],
  detail: { failures: [{ index: 1, input: '2 3\n', expected: '5\n', actual: '6\n', stderr: '' }] },
};

test('a failing verdict names the first failing test, its input, expected and got', () => {
  const f = formatFeedback(wrong);
  assert.equal(f.namesInput, true);
  assert.equal(f.cut, false);
  assert.equal(f.failingTest?.index, 1);
  assert.equal(f.text, 'Verdict: wrong_answer (2 of 3 tests passed).\nFirst failing test: #1 (wrong_answer: tokens differ)'
    + '\nInput:\n2 3\n\nExpected:\n5\n\nGot:\n6\n');
});

test('the budget holds, short texts keep all of themselves, long ones say they were cut', () => {
  const long: DetailedVerdict = { ...wrong, detail: { failures: [{ index: 1, input: '7 8\n', expected: '15\n', actual: 'x'.repeat(10_000) }] } };
  const f = formatFeedback(long, { budgetChars: 300 });
  assert.ok(f.text.length <= 300, `${f.text.length} characters`);
  assert.equal(f.cut, true);
  assert.match(f.text, /Input:\n7 8\n/);
  assert.match(f.text, /Expected:\n15\n/);
  assert.match(f.text, /\[\.\.\. cut: 10000 characters in all\]/);
});

test('without detail the described tests give the input and expected output', () => {
  const plain: DetailedVerdict = { ...wrong, detail: undefined };
  const f = formatFeedback(plain, { tests: [{ index: 1, input: 'in-1', expected: 'out-1' }] });
  assert.equal(f.namesInput, true);
  assert.match(f.text, /Input:\nin-1\nExpected:\nout-1$/);
});

test('a pass and a compile error read as such', () => {
  const passed: DetailedVerdict = { status: 'passed', passed: true, testCount: 2, cpuMs: 1, wallMs: 1,
    tests: [{ index: 0, status: 'passed' }, { index: 1, status: 'passed' }] };
  assert.equal(formatFeedback(passed).text, 'Verdict: passed (all 2 tests passed).');
  const compile: DetailedVerdict = { status: 'compile_error', passed: false, testCount: 2, cpuMs: 1, wallMs: 1, tests: [],
    reason: 'compilation failed', detail: { stderr: "main.c:1: error: expected ';'" } };
  const f = formatFeedback(compile);
  assert.equal(f.failingTest, null);
  assert.match(f.text, /^Verdict: compile_error \(0 of 2 tests passed\)\. compilation failed\nCompiler output:\nmain\.c:1/);
});

test('a unit-test failure shows the failing line of the test code', () => {
  const unit: DetailedVerdict = { status: 'wrong_answer', passed: false, testCount: 1, cpuMs: 1, wallMs: 1,
    tests: [{ index: 0, status: 'wrong_answer', reason: 'assertion failed (test line 3)' }],
    detail: { failures: [{ index: 0, actual: 'assertion failed (test line 3)' }] } };
  const test = 'def check(candidate):\n    assert candidate(1) == 2\n    assert candidate([1.0, 2.8], 0.3) == True\n';
  const f = formatFeedback(unit, { tests: [{ index: 0, input: `${test}\ncheck(f)`, expected: 'check(f) returns without raising' }] });
  assert.equal(f.namesInput, true);
  assert.match(f.text, /\nFailing line 3:\nassert candidate\(\[1\.0, 2\.8\], 0\.3\) == True\n/);
});

test('a hidden failing test is named by index and status only; the first failing visible test is shown after it', () => {
  const two: DetailedVerdict = {
    status: 'wrong_answer', passed: false, testCount: 3, cpuMs: 5, wallMs: 9,
    tests: [{ index: 0, status: 'wrong_answer', reason: 'token 1: expected 41, got 6' }, { index: 1, status: 'passed' },
      { index: 2, status: 'wrong_answer', reason: 'token 1: expected 9, got 6' }],
    detail: { failures: [{ index: 0, input: '40 1\n', expected: '41\n', actual: '6\n', stderr: 'hidden stderr' },
      { index: 2, input: '4 5\n', expected: '9\n', actual: '6\n' }] },
  };
  const f = formatFeedback(two, { visible: (i) => i === 2, tests: [{ index: 0, input: '40 1\n', expected: '41\n' }] });
  assert.deepEqual(f.failingTest, { index: 0, status: 'wrong_answer', hidden: true });
  assert.equal(f.text, 'Verdict: wrong_answer (1 of 3 tests passed).\nFirst failing test: #0 (wrong_answer), a hidden test: its input, '
    + 'expected output and what the program did on it are not shown.\nFirst failing visible test: #2 (wrong_answer: token 1: expected 9, got 6)'
    + '\nInput:\n4 5\n\nExpected:\n9\n\nGot:\n6\n');
  const none = formatFeedback(two, { visible: () => false });
  assert.doesNotMatch(none.text, /41|40 1|hidden stderr|expected 9/);
  assert.equal(none.namesInput, false);
  assert.match(none.text, /^Verdict: wrong_answer \(1 of 3 tests passed\)\.\nFirst failing test: #0 \(wrong_answer\), a hidden test/);
});

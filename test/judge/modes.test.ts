/**
 * Adding a problem kind is one module plus its registration: two toy kinds are defined here, registered with
 * `defaultModes().with(...)`, and judged end to end by a real judge in the real sandbox.
 * - `palindrome`: the program reads each test's input and must print a palindrome; a partial `score`.
 * - `checked_sum`: a checker program (Python, run through the tools the executor hands the mode) reads the
 *   input, the program's output and the answer from files and says whether they agree, the way testlib
 *   checkers are run.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { ProblemBase } from '../../src/formats/types.js';
import { JudgeRequestError } from '../../src/judge/judge.js';
import { defaultModes, defineMode, type JudgingMode } from '../../src/kinds/index.js';
import { prepareSubmission } from '../../src/judge/submission.js';
import { LanguageRegistry } from '../../src/languages/registry.js';
import { JUDGE_DEFAULTS } from '../../src/limits.js';
import { createJudge } from '../../src/engine/factory.js';
import { aggregateTests, type TestResult, type Verdict } from '../../src/verdict/index.js';
import { toyKind } from '../support/toy-kind.js';

interface PalindromeProblem extends ProblemBase {
  readonly kind: 'palindrome';
  readonly inputs: readonly string[];
}

// Both toy kinds take whole programs in any language (Python by default): `toyKind`.

/** The whole toy kind: one object. */
const palindrome: JudgingMode<PalindromeProblem, 'program_runs', null> = {
  ...toyKind<PalindromeProblem>('palindrome', 'toy: print a palindrome for each input', (problem) => problem.inputs.length),
  plan: (problem, program, { limits, failFast }) => ({
    kind: 'program_runs', program, runs: problem.inputs.map((stdin) => ({ stdin, check: null })), limits, failFast,
  }),
  judgeRun: (_problem, _run, index, result): TestResult => {
    const out = result.stdout.trim();
    const ok = result.status === 'ok' && out.length > 0 && out === [...out].reverse().join('');
    return { index, status: result.status !== 'ok' ? 'runtime_error' : ok ? 'passed' : 'wrong_answer', cpuMs: result.cpuMs,
      ...(ok ? {} : { reason: `not a palindrome: ${JSON.stringify(out.slice(0, 40))}` }) };
  },
  verdict: (problem, outcome): Verdict => {
    const { status, reason } = aggregateTests(outcome.tests, problem.inputs.length);
    const passed = outcome.tests.filter((t) => t.status === 'passed').length;
    return { status, passed: status === 'passed', tests: outcome.tests, testCount: problem.inputs.length,
      cpuMs: outcome.runs.reduce((s, r) => s + r.cpuMs, 0), wallMs: outcome.runs.reduce((s, r) => s + r.wallMs, 0),
      score: passed / problem.inputs.length, ...(reason === undefined ? {} : { reason }) };
  },
};

interface CheckedSumProblem extends ProblemBase {
  readonly kind: 'checked_sum';
  readonly tests: readonly { readonly input: string; readonly answer: string }[];
}

/** A checker in Python: accepts any output whose integer equals the answer's (e.g. "+3" or "3.0" for 3). */
const CHECKER = 'import sys\nout = open("output.txt").read().split()\nans = open("answer.txt").read().split()\n'
  + 'ok = len(out) == 1 and float(out[0]) == float(ans[0])\nprint("ok" if ok else "wrong")\n';

const checkedSum: JudgingMode<CheckedSumProblem, 'program_runs', string> = {
  ...toyKind<CheckedSumProblem>('checked_sum', 'toy: a checker program judges each output', (problem) => problem.tests.length),
  plan: (problem, program, { limits, failFast }) => ({
    kind: 'program_runs', program, runs: problem.tests.map((t) => ({ stdin: t.input, check: t.answer })), limits, failFast,
  }),
  judgeRun: async (_problem, run, index, result, tools): Promise<TestResult> => {
    if (result.status !== 'ok') return { index, status: 'runtime_error', reason: result.reason ?? result.status };
    const checker = await tools.runProgram({ language: 'python', source: CHECKER }, '', JUDGE_DEFAULTS,
      { 'input.txt': run.stdin, 'output.txt': result.stdout, 'answer.txt': run.check });
    const ok = checker.status === 'ok' && checker.stdout.trim() === 'ok';
    return { index, status: ok ? 'passed' : 'wrong_answer', ...(ok ? {} : { reason: `checker: ${checker.stdout.trim() || checker.status}` }) };
  },
  verdict: (problem, outcome): Verdict => {
    const { status, reason } = aggregateTests(outcome.tests, problem.tests.length);
    return { status, passed: status === 'passed', tests: outcome.tests, testCount: problem.tests.length, cpuMs: 0, wallMs: 0,
      ...(reason === undefined ? {} : { reason }) };
  },
};

const modes = defaultModes().with(defineMode(palindrome), defineMode(checkedSum));
const languages = LanguageRegistry.load();
const judge = createJudge({ slots: 2, modes, languages, cacheDir: null });
after(() => judge.close());

const PAL: PalindromeProblem = { kind: 'palindrome', taskId: 'pal/0', inputs: ['abc\n', 'xy\n', 'q\n'] };

async function judgePalindrome(code: string, failFast = false): Promise<Verdict> {
  const prepared = prepareSubmission(PAL, { code }, { languages, modes });
  assert.equal(prepared.kind, 'program');
  if (prepared.kind !== 'program') throw new Error('unreachable');
  judge.catalog.add('toy-dataset', [PAL]);
  return judge.judge({ problem: { datasetHash: 'toy-dataset', taskId: PAL.taskId }, program: prepared.program, failFast });
}

describe('a problem kind registered from outside (one module + registration)', () => {
  it('judges a correct program: every output a palindrome, score 1', async () => {
    const v = await judgePalindrome('s = input()\nprint(s + s[::-1])\n');
    assert.equal(v.status, 'passed', JSON.stringify(v));
    assert.equal(v.score, 1);
    assert.equal(v.tests.length, 3);
  });

  it('gives partial credit and the first failure\'s reason; fail-fast stops at it', async () => {
    const v = await judgePalindrome('s = input()\nprint(s + s[::-1] if s != "xy" else s)\n');
    assert.equal(v.status, 'wrong_answer');
    assert.equal(v.score, 2 / 3);
    assert.match(v.reason ?? '', /not a palindrome: "xy"/);
    const fast = await judgePalindrome('s = input()\nprint(s + s[::-1] if s != "xy" else s)\n', true);
    assert.deepEqual(fast.tests.map((t) => t.status), ['passed', 'wrong_answer']);
  });

  it('works in any configured language the mode allows: C, compiled once for all runs and judgements', async () => {
    const source = '#include <stdio.h>\n#include <string.h>\nint main(void){char s[64];if(scanf("%63s",s)!=1)return 1;'
      + 'int n=strlen(s);printf("%s",s);for(int i=n-1;i>=0;i--)putchar(s[i]);putchar(10);return 0;}\n';
    const prepared = prepareSubmission(PAL, { code: source, language: 'c' }, { languages, modes });
    if (prepared.kind !== 'program') throw new Error('expected a program');
    assert.equal(prepared.program.language, 'c');
    const before = judge.stats();
    const v = await judge.judge({ problem: { inline: PAL }, program: prepared.program });
    assert.equal(v.status, 'passed', JSON.stringify(v));
    const again = await judge.judge({ problem: { inline: { ...PAL, taskId: 'pal/1' } }, program: prepared.program });
    assert.equal(again.status, 'passed');
    const after = judge.stats();
    assert.equal(after.compilations - before.compilations, 1);
    assert.equal(after.runs - before.runs, 6);
  });

  it('runs a checker program through the tools the executor hands the mode', async () => {
    const problem: CheckedSumProblem = { kind: 'checked_sum', taskId: 'sum/0',
      tests: [{ input: '1 2\n', answer: '3\n' }, { input: '-4 4\n', answer: '0\n' }] };
    const ok = await judge.judge({ problem: { inline: problem }, program: { language: 'python', source: 'a, b = map(int, input().split())\nprint(f"{a + b}.0")\n' } });
    assert.equal(ok.status, 'passed', JSON.stringify(ok));
    const wrong = await judge.judge({ problem: { inline: problem }, program: { language: 'python', source: 'print(3)\n' } });
    assert.equal(wrong.status, 'wrong_answer');
    assert.match(wrong.tests[1]!.reason ?? '', /checker: wrong/);
  });

  it('refuses a second mode for a kind, and a problem of a kind no mode judges', async () => {
    assert.throws(() => modes.with(defineMode(palindrome)), /two judging modes for problem kind "palindrome"/);
    await assert.rejects(judge.judge({ problem: { inline: { kind: 'riddle', taskId: 'r/0' } }, program: { language: 'python', source: '' } }),
      (e: Error) => e instanceof JudgeRequestError && /kind "riddle", which no judging mode judges/.test(e.message));
  });
});

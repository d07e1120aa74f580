/**
 * `checker` problems (`CheckerProblem`: Codeforces/Polygon, CodeContests-style and IOI data with a checker): the
 * program, in any configured language, is compiled once and run on each test's input; then the problem's checker
 * judges its output, IN THE SANDBOX (a checker is problem-supplied code), compiled once per distinct checker
 * through the same compile cache: testlib checkers as C++ with testlib.h inlined (the compile box takes one
 * source file), run as `checker input.txt output.txt answer.txt`; open-r1 Python checkers as
 * `checker.py input.txt answer.txt output.txt`; CMS comparators as `checker input.txt answer.txt output.txt`.
 * Verdicts by src/kinds/checker/checker-verdicts.ts: ok passes the test, wrong answer / presentation error fail it, points
 * fail it with the checker's score, and a checker failure makes the test (and the sample) `internal_error`:
 * Crucible could not judge it, which is never a wrong answer.
 * Score: with `subtasks`, CMS GroupMin (src/kinds/checker/subtasks.ts) over the total points, as a fraction; without,
 * the mean test score. Only when every test ran (a fail-fast stop leaves it out).
 */
import type { CheckerProblem } from '../../formats/types.js';
import {
  cmsCheckerVerdict, defaultTestlibHeader, pythonCheckerVerdict, testlibVerdict, type CheckerSpec, type CheckerVerdict,
} from './checker-verdicts.js';
import { groupMinScore } from './subtasks.js';
import {
  aggregateTests, reasonWithStderr, runStatus, shortReason, type TestResult, type Verdict,
} from '../../verdict/index.js';
import type { Program } from '../../judge/judge.js';
import { compileFailure, stdinStdoutDetailing } from '../io/io.js';
import { defineMode, type JudgingMode } from '../../judge/mode.js';

/** Limits of one checker run: 10 s of CPU (the codeforces package's `timeout 10`), 1 GiB, 1 MiB of output. */
const CHECKER_JUDGE_LIMITS = { cpuMs: 10_000, memoryKiB: 1024 * 1024, outputBytes: 1024 * 1024 };

const INCLUDE_TESTLIB = /^[ \t]*#[ \t]*include[ \t]*[<"]testlib\.h[>"][^\n]*$/m;

/**
 * The checker as a Crucible program: Python as it is; C++ with its `#include "testlib.h"` replaced by the
 * problem's testlib.h or `defaultTestlibHeader()` (CRUCIBLE_TESTLIB, else Crucible's checker library), so the
 * one-file compile box builds it.
 */
export function checkerProgram(spec: CheckerSpec): Program {
  if (spec.kind === 'python') return { language: 'python', source: spec.source };
  if (!INCLUDE_TESTLIB.test(spec.source)) return { language: 'cpp', source: spec.source };
  const header = spec.testlibHeader ?? defaultTestlibHeader();
  const at = INCLUDE_TESTLIB.exec(spec.source)!.index;
  const nextLine = spec.source.slice(0, at).split('\n').length + 1;
  // `#line` keeps the compiler's messages about the checker on the checker's own line numbers.
  return { language: 'cpp', source: spec.source.replace(INCLUDE_TESTLIB, () => `${header}\n#line ${nextLine} "checker.cpp"`) };
}

/** A test's result from the checker's verdict. */
function testFromChecker(index: number, verdict: CheckerVerdict, cpuMs: number, wallMs: number): TestResult {
  const base = { index, cpuMs, wallMs };
  switch (verdict.verdict) {
    case 'ok': return { ...base, status: 'passed', score: 1 };
    case 'points':
      return verdict.score >= 1 ? { ...base, status: 'passed', score: 1 }
        : { ...base, status: 'wrong_answer', score: verdict.score, reason: shortReason(`partial score ${verdict.score}: ${verdict.message}`) };
    case 'fail': return { ...base, status: 'internal_error', reason: shortReason(`checker failed: ${verdict.message}`) };
    default: return { ...base, status: 'wrong_answer', score: 0, reason: shortReason(verdict.message || verdict.verdict) };
  }
}

/** The sample's score in [0, 1]: GroupMin over the subtasks' points, else the mean test score. */
function scoreOf(problem: CheckerProblem, tests: readonly TestResult[]): number {
  const scores = tests.map((t) => t.score ?? (t.status === 'passed' ? 1 : 0));
  if (!problem.subtasks || problem.subtasks.length === 0) return scores.reduce((a, b) => a + b, 0) / Math.max(1, scores.length);
  const total = problem.subtasks.reduce((sum, s) => sum + s.points, 0);
  if (total <= 0) return 0;
  const points = groupMinScore(problem.subtasks.map((s) => ({ points: s.points, testScores: s.tests.map((i) => scores[i] ?? 0) })), 6);
  return Math.min(1, points / total);
}

const checker: JudgingMode<CheckerProblem, 'program_runs', number> = {
  kind: 'checker',
  description: 'stdin/stdout tests judged by the problem\'s checker (testlib, open-r1 checker.py, CMS) in the sandbox; IOI subtasks',
  language: (problem, requested) => requested ?? problem.language ?? 'python',
  assemble: (_problem, code) => code,
  testCount: (problem) => problem.tests.length,
  plan: (problem, program, context) => ({
    kind: 'program_runs',
    program,
    runs: problem.tests.map((t, i) => ({ stdin: t.input, check: i })),
    limits: {
      cpuMs: problem.timeLimitMs ?? context.limits.cpuMs,
      memoryKiB: problem.memoryLimitKiB ?? context.limits.memoryKiB,
      outputBytes: Math.max(context.limits.outputBytes, ...problem.tests.map((t) => t.output.length * 2 + 1024)),
    },
    failFast: context.failFast,
  }),
  judgeRun: async (problem, run, index, result, tools): Promise<TestResult> => {
    if (result.status !== 'ok') {
      return { index, status: runStatus(result), cpuMs: result.cpuMs, wallMs: result.wallMs, score: 0,
        reason: shortReason(reasonWithStderr(result.reason, result.stderr)) };
    }
    const test = problem.tests[run.check]!;
    const spec = problem.checker;
    const files = { 'input.txt': test.input, 'output.txt': result.stdout, 'answer.txt': test.output };
    const args = spec.kind === 'testlib' ? ['input.txt', 'output.txt', 'answer.txt'] : ['input.txt', 'answer.txt', 'output.txt'];
    const checked = await tools.runProgram(checkerProgram(spec), '', CHECKER_JUDGE_LIMITS, files, args);
    if (checked.status === 'compile_error') {
      return { index, status: 'internal_error', cpuMs: result.cpuMs, wallMs: result.wallMs,
        reason: shortReason(`the checker did not compile: ${checked.stderr.slice(0, 200)}`) };
    }
    const verdict = spec.kind === 'testlib' ? testlibVerdict(checked) : spec.kind === 'python' ? pythonCheckerVerdict(checked) : cmsCheckerVerdict(checked);
    return testFromChecker(index, verdict, result.cpuMs, result.wallMs);
  },
  verdict: (problem, outcome, context): Verdict => {
    if (!outcome.compiled) return compileFailure(problem, outcome);
    const testCount = problem.tests.length;
    const aggregate = aggregateTests(outcome.tests, testCount);
    const judgeError = outcome.tests.find((t) => t.status === 'internal_error');
    const complete = outcome.tests.length === testCount;
    const stoppedEarly = context.failFast && aggregate.status !== 'passed';
    const status = judgeError ? 'internal_error' : stoppedEarly || complete ? aggregate.status : 'internal_error';
    return {
      status,
      passed: status === 'passed',
      tests: outcome.tests,
      cpuMs: outcome.runs.reduce((s, r) => s + r.cpuMs, 0),
      wallMs: outcome.runs.reduce((s, r) => s + r.wallMs, 0),
      testCount,
      reason: shortReason(judgeError?.reason ?? aggregate.reason),
      ...(complete && !judgeError ? { score: scoreOf(problem, outcome.tests) } : {}),
    };
  },
  ...stdinStdoutDetailing,
};

/** The `checker` judging mode. */
export const checkerMode = defineMode(checker);

/**
 * `ioi` problems (`IoiProblem`: open-r1/ioi tasks, IOI-style tasks with graders): the C++ solution is judged as
 * open-r1's `ioi_code_reward` has guipenedo/piston's `cms_ioi` package judge it, natively: one `cms_ioi` job per
 * test (`src/engine/contest/cms-ioi-package.ts`, through the plan executor's `ContestBox`), so the solution is compiled
 * TOGETHER with the task's grader files (`g++ -DEVAL -std=gnu++17 -O2`) once per distinct solution, Batch tasks run
 * on each input with the task's CPU time and memory limits and are judged by the task's checker (boxed) or
 * `diff -b`, and Communication tasks run with their manager in one box. Every program, grader, manager and checker
 * runs in the sandbox; the expected output is never in the solution's box (the checker's box has it).
 *
 * The code is the sample's code after open-r1's `add_includes` (open-r1 `utils/competitive_programming/
 * ioi_utils.py`: `#include <bits/stdc++.h>`, the task's header, `using namespace std;` when the code names neither
 * it nor `std::`), as `ioi_code_reward` sends it.
 * A test's score is the package's stdout (a fraction in [0, 1]); its status is how the program ended (time or
 * memory limit, runtime error), else `passed` at 1 and `wrong_answer` below; a checker that fails, or a score that
 * is not a number in [0, 1], makes the test `internal_error` (Crucible could not judge it).
 * Score: CMS GroupMin (`src/kinds/checker/subtasks.ts`, each subtask rounded to the task's `score_precision` as
 * open-r1's `SubtaskResult.weighted_score`) over the subtasks' total points, as a fraction; only when every test
 * ran. `passed` only at the full score.
 */
import type { IoiProblem } from '../../formats/types.js';
import { groupMinScore } from '../checker/subtasks.js';
import {
  aggregateTests, failedTestDetail, shortReason, type SampleStatus, type TestResult, type Verdict,
} from '../../verdict/index.js';
import type { CmsIoiJobsOutcome, PackageOutcome } from '../../judge/plan.js';
import { defineMode, type JudgingMode } from '../../judge/mode.js';

/**
 * open-r1's `add_includes(code, problem_id)` (`ioi_utils.py`): prepend `#include <bits/stdc++.h>`, then
 * `#include "<id>.h"` unless the code has that exact line, then `using namespace std;` unless the code has it or
 * uses `std::`. Empty code stays empty.
 */
export function addIoiIncludes(code: string, problemId: string): string {
  if (code === '') return code;
  let header = '#include <bits/stdc++.h>\n';
  const include = `#include "${problemId}.h"`;
  if (!code.includes(include)) header += `${include}\n`;
  if (!code.includes('using namespace std;') && !code.includes('std::')) header += '\nusing namespace std;\n\n';
  return header + code;
}

/** The cms_ioi job's files for one test, as open-r1's `ioi_scoring.run_submission` builds them. */
export function ioiJobFiles(problem: IoiProblem, solution: string, test: { readonly input: string; readonly output: string }):
  { readonly name: string; readonly content: string }[] {
  return [
    { name: `graders/${problem.problemId.toLowerCase()}.cpp`, content: solution },
    { name: 'input.txt', content: test.input },
    ...test.output === '' ? [] : [{ name: 'correct_output.txt', content: test.output }],
    ...problem.graderFiles.filter((f) => f.content !== ''),
  ];
}

/** A test's result from its job. */
function testFromJob(index: number, result: CmsIoiJobsOutcome['results'][number]): TestResult {
  if ('error' in result) return { index, status: 'internal_error', cpuMs: 0, wallMs: 0, reason: shortReason(result.error) };
  const run = result.outcome.run!;
  const base = { index, cpuMs: run.cpuMs, wallMs: run.wallMs };
  const said = run.stderr.trim();
  if (run.status === 'XX') return { ...base, status: 'internal_error', reason: shortReason(`checker failed: ${run.message ?? said}`) };
  const program = result.outcome.programStatus ?? 'ok';
  if (program !== 'ok') {
    const status: SampleStatus = program === 'runtime_error' || program === 'time_limit_exceeded' || program === 'memory_limit_exceeded'
      || program === 'output_limit_exceeded' ? program : 'internal_error';
    return { ...base, status, score: 0, reason: shortReason(said.split('\n').slice(-3).join('\n')) };
  }
  const token = run.stdout.trim();
  const score = /^[0-9.eE+-]+$/.test(token) ? Number(token) : Number.NaN;
  if (!(score >= 0 && score <= 1)) {
    return { ...base, status: 'internal_error', reason: shortReason(`the task's judge printed no score in [0, 1]: ${JSON.stringify(token.slice(0, 100))}`) };
  }
  if (score === 1) return { ...base, status: 'passed', score: 1 };
  return { ...base, status: 'wrong_answer', score, reason: shortReason(said.split('\n').slice(-3).join('\n') || `score ${score}`) };
}

/** The sample's score in [0, 1]: GroupMin over the subtasks' points at the task's precision, over their total. */
export function ioiScore(problem: IoiProblem, testScores: readonly number[]): number {
  const total = problem.subtasks.reduce((sum, s) => sum + s.points, 0);
  if (total <= 0) return 0;
  const points = groupMinScore(problem.subtasks.map((s) => ({ points: s.points, testScores: s.tests.map((i) => testScores[i] ?? 0) })),
    problem.scorePrecision);
  return Math.min(1, points / total);
}

function compileFailed(problem: IoiProblem, outcome: PackageOutcome): Verdict {
  const c = outcome.compile;
  return { status: 'compile_error', passed: false, tests: [], cpuMs: c.cpuMs, wallMs: c.wallMs, testCount: problem.tests.length,
    reason: shortReason(`compilation failed: ${c.stderr.slice(0, 500)}`), score: 0 };
}

const ioi: JudgingMode<IoiProblem, 'cms_ioi_jobs'> = {
  kind: 'ioi',
  description: 'IOI tasks with graders (open-r1/ioi): solution + graders compiled once, Batch/Communication as cms_ioi, checker boxed, CMS GroupMin subtasks',
  language: (_problem, requested) => requested ?? 'cpp',
  acceptsLanguage: (_problem, languageId) => languageId === 'cpp',
  assemble: (problem, code) => addIoiIncludes(code, problem.problemId),
  testCount: (problem) => problem.tests.length,
  plan: (problem, program, context) => ({
    kind: 'cms_ioi_jobs',
    jobs: problem.tests.map((test) => ({
      files: ioiJobFiles(problem, program.source, test),
      runCpuMs: problem.timeLimitMs,
      memoryKiB: problem.memoryLimitKiB,
    })),
    failFast: context.failFast,
  }),
  verdict: (problem, outcome, context): Verdict => {
    const results = outcome.results;
    const first = results[0];
    if (first !== undefined && 'outcome' in first && first.outcome.run === null) return compileFailed(problem, first.outcome);
    const tests = results.map((r, i) => testFromJob(i, r));
    const testCount = problem.tests.length;
    const aggregate = aggregateTests(tests, testCount);
    const judgeError = tests.find((t) => t.status === 'internal_error');
    const complete = tests.length === testCount;
    const stoppedEarly = context.failFast && aggregate.status !== 'passed';
    const score = complete && !judgeError ? ioiScore(problem, tests.map((t) => t.score ?? 0)) : undefined;
    const status = judgeError ? 'internal_error' : stoppedEarly || complete ? aggregate.status : 'internal_error';
    return {
      status: status === 'passed' && score !== 1 ? 'wrong_answer' : status,
      passed: status === 'passed' && score === 1,
      tests,
      cpuMs: tests.reduce((s, t) => s + (t.cpuMs ?? 0), 0),
      wallMs: tests.reduce((s, t) => s + (t.wallMs ?? 0), 0),
      testCount,
      reason: shortReason(judgeError?.reason ?? aggregate.reason ?? (status === 'passed' && score !== 1 ? 'tests outside every subtask' : undefined)),
      ...(score === undefined ? {} : { score }),
    };
  },
  describeTest: (problem, index) => {
    const test = problem.tests[index];
    return failedTestDetail(index, { input: test?.input, expected: test?.output });
  },
};

/** The `ioi` judging mode. */
export const ioiMode = defineMode(ioi);

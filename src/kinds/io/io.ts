/**
 * `io` problems (Crucible-native stdin/stdout, contest data): the program, in any configured language, is
 * compiled once and run on each test's input; its stdout is compared outside the box with the problem's
 * comparator (`./comparators.ts`). Limits per test: the problem's own, else the request's.
 */
import type { IoProblem, IoTestCase } from '../../formats/types.js';
import { compareOutput } from './comparators.js';
import {
  aggregateTests, detailText, failedTestDetail, MAX_DETAILED_FAILURES, reasonWithStderr, runStatus, shortReason,
  type FailedTestDetail, type TestResult, type Verdict, type VerdictDetail,
} from '../../verdict/index.js';
import type { ProgramRunsOutcome } from '../../judge/plan.js';
import { defineMode, type JudgingMode } from '../../judge/mode.js';

/** Output kept per stream for a test: the request's, but at least twice the expected output plus 1 KiB. */
function outputBytesFor(problem: IoProblem, requested: number): number {
  let most = requested;
  for (const t of problem.tests) most = Math.max(most, t.output.length * 2 + 1024);
  return most;
}

/** The verdict of a stdin/stdout program that did not compile (`compile_error`, or the host's `internal_error`). */
export function compileFailure(problem: { readonly tests: readonly unknown[] }, outcome: ProgramRunsOutcome): Verdict {
  const r = outcome.compile!;
  return { status: r.status === 'internal_error' ? 'internal_error' : 'compile_error', passed: false, tests: [],
    cpuMs: r.cpuMs, wallMs: r.wallMs, testCount: problem.tests.length,
    reason: shortReason(`${r.reason ?? ''}: ${r.stderr.slice(0, 500)}`) };
}

/**
 * What the failing tests printed (stdout as `actual`, stderr), the first `MAX_DETAILED_FAILURES`; the compiler's
 * stderr when compilation stopped the program; peak memory of the runs (or of the compilation), KiB.
 */
export function ioDetail(outcome: ProgramRunsOutcome): VerdictDetail {
  if (!outcome.compiled) {
    const compile = outcome.compile!;
    return { failures: [], ...(compile.stderr === '' ? {} : { stderr: detailText(compile.stderr) }), memoryKiB: compile.memoryKiB };
  }
  // tests[i] judges runs[i] (the executor runs in order and judges each run as it ends).
  const failures = outcome.tests.flatMap((t, i) => t.status === 'passed' ? [] : [{ test: t, run: outcome.runs[i] }])
    .slice(0, MAX_DETAILED_FAILURES)
    .map(({ test, run }) => failedTestDetail(test.index, { actual: run?.stdout, stderr: run?.stderr || undefined }));
  return { failures, memoryKiB: outcome.runs.reduce((m, r) => Math.max(m, r.memoryKiB), 0) };
}

/**
 * The `detail` and `describeTest` of a mode whose problems are stdin/stdout tests judged by program runs (`io`,
 * `checker`): the failing runs' output (`ioDetail`), and a test as its input and expected output.
 */
export const stdinStdoutDetailing: {
  readonly detail: (problem: unknown, outcome: ProgramRunsOutcome) => VerdictDetail;
  readonly describeTest: (problem: { readonly tests: readonly IoTestCase[] }, index: number) => FailedTestDetail;
} = {
    detail: (_problem, outcome) => ioDetail(outcome),
    describeTest: (problem, index) => {
      const test = problem.tests[index];
      return failedTestDetail(index, { input: test?.input, expected: test?.output });
    },
};

const io: JudgingMode<IoProblem, 'program_runs', string> = {
  kind: 'io',
  description: 'stdin/stdout tests in any configured language, stdout compared outside the box',
  language: (problem, requested) => requested ?? problem.language ?? 'python',
  assemble: (_problem, code) => code,
  testCount: (problem) => problem.tests.length,
  plan: (problem, program, context) => ({
    kind: 'program_runs',
    program,
    runs: problem.tests.map((t) => ({ stdin: t.input, check: t.output })),
    limits: {
      cpuMs: problem.timeLimitMs ?? context.limits.cpuMs,
      memoryKiB: problem.memoryLimitKiB ?? context.limits.memoryKiB,
      outputBytes: outputBytesFor(problem, context.limits.outputBytes),
    },
    failFast: context.failFast,
  }),
  judgeRun: (problem, run, index, result): TestResult => {
    if (result.status !== 'ok') {
      return { index, status: runStatus(result), cpuMs: result.cpuMs, wallMs: result.wallMs,
        reason: shortReason(reasonWithStderr(result.reason, result.stderr)) };
    }
    const comparison = compareOutput(result.stdout, run.check, problem.comparator);
    return { index, status: comparison.ok ? 'passed' : 'wrong_answer', cpuMs: result.cpuMs, wallMs: result.wallMs,
      ...(comparison.ok ? {} : { reason: shortReason(comparison.reason) }) };
  },
  verdict: (problem, outcome, context): Verdict => {
    if (!outcome.compiled) return compileFailure(problem, outcome);
    const testCount = problem.tests.length;
    const aggregate = aggregateTests(outcome.tests, testCount);
    const stoppedEarly = context.failFast && aggregate.status !== 'passed';
    return {
      status: stoppedEarly || outcome.tests.length === testCount ? aggregate.status : 'internal_error',
      passed: aggregate.status === 'passed',
      tests: outcome.tests,
      cpuMs: outcome.runs.reduce((s, r) => s + r.cpuMs, 0),
      wallMs: outcome.runs.reduce((s, r) => s + r.wallMs, 0),
      testCount,
      reason: shortReason(aggregate.reason),
    };
  },
  ...stdinStdoutDetailing,
};

/** The `io` judging mode. */
export const ioMode = defineMode(io);

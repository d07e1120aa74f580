/**
 * `assertions` problems: `prompt + completion` is loaded once in the harness, then each assertion runs as a
 * test of its own under its own CPU limit (harness `assertions` mode, the way CodeT runs generated tests). A
 * program that does not load fails every assertion with the load error.
 */
import type { AssertionsProblem } from '../../formats/types.js';
import { wallMsFor } from '../../limits.js';
import { aggregateTests, failedTestDetail, shortReason, type TestResult, type Verdict } from '../../verdict/index.js';
import { assemblePython, harnessDetail, harnessStatus, PYTHON_ONLY, pythonEntryPoint } from './python.js';
import { defineMode, type JudgingMode } from '../../judge/mode.js';

const assertions: JudgingMode<AssertionsProblem, 'harness'> = {
  kind: 'assertions',
  description: 'Python prompt + completion, each assertion a test of its own in the harness',
  ...PYTHON_ONLY,
  entryPoint: pythonEntryPoint,
  assemble: (problem, code, shape) => assemblePython(problem.prompt, problem.entryPoint, code, shape),
  testCount: (problem) => problem.assertions.length,
  plan: (problem, program, { limits }) => ({
    kind: 'harness',
    job: {
      mode: 'assertions', program: program.source, prelude: problem.prompt, entryPoint: problem.entryPoint,
      assertions: problem.assertions, cpuMs: limits.cpuMs, wallMs: wallMsFor(limits.cpuMs), memoryKiB: limits.memoryKiB,
      outputBytes: limits.outputBytes,
    },
  }),
  verdict: (problem, outcome): Verdict => {
    const r = outcome.response;
    const testCount = problem.assertions.length;
    const results = r.results ?? [];
    if (r.status !== 'ok' || results.length !== testCount) {
      const status = r.status === 'ok' ? 'internal_error' : harnessStatus(r.status);
      const why = r.status === 'ok' ? `the harness answered ${results.length} of ${testCount} assertions` : r.reason;
      return { status, passed: false, tests: [], testCount, cpuMs: r.cpuMs, wallMs: r.wallMs, reason: shortReason(why) };
    }
    const tests: TestResult[] = results.map((x, index) => ({ index, status: harnessStatus(x.status),
      ...(x.cpuMs === undefined ? {} : { cpuMs: x.cpuMs }), ...(x.reason === undefined ? {} : { reason: shortReason(x.reason) }) }));
    const aggregate = aggregateTests(tests, testCount);
    return { status: aggregate.status, passed: aggregate.status === 'passed', tests, testCount, cpuMs: r.cpuMs, wallMs: r.wallMs,
      ...(aggregate.reason === undefined ? {} : { reason: shortReason(aggregate.reason) }) };
  },
  // Each failing assertion's failure as the harness reported it (uncut); a job that failed as a whole has no test.
  detail: (_problem, outcome, verdict) => {
    const r = outcome.response;
    return harnessDetail(verdict, r, (t) => r.results?.[t.index]?.reason ?? t.reason ?? t.status);
  },
  describeTest: (problem, index) => failedTestDetail(index, {
    input: problem.assertions[index],
    expected: problem.assertions[index] === undefined ? undefined : 'the assertion holds',
  }),
};

/** The `assertions` judging mode. */
export const assertionsMode = defineMode(assertions);

/**
 * `call` problems (EvalPlus HumanEval+ / MBPP+): the harness calls the entry point on each argument list (base
 * inputs, then plus inputs) and returns the values as PyValues; they are compared outside the box with the
 * canonical solution's, by EvalPlus' rules and per-task oracles (`./special-oracles.ts`).
 *
 * Ground truth (the reference): the canonical solution run once on every input in the box with 20x the CPU
 * limit (`REFERENCE_CPU_FACTOR`), cached on disk under the dataset hash. The per-input limit of a submission is
 * max(limit, 4 x the reference's slowest input) (EvalPlus, `gt_time_limit_factor`); here the slowest input sets
 * it for the whole job. `status` is the base verdict; `plusStatus` the base-and-plus one.
 *
 * With fail-fast (only the verdict is needed) the plan is staged (`stagedCallPlan`): the base inputs, then the plus
 * inputs only for a program whose every base answer the trusted side judged correct. Without it, one job runs
 * every input (full per-test results), unless the request sets `stopAfterTimeouts` k: the job then stops after the
 * k-th input that hit the time limit (a program that never ends costs k per-input limits instead of ~1,000), and the
 * verdict counts the inputs left unrun in `notRun`.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { CallProblem } from '../../formats/types.js';
import { EVALPLUS_TIME_FACTOR, REFERENCE_CPU_FACTOR, wallMsFor, type JudgeLimits } from '../../limits.js';
import {
  aggregateTests, failedTestDetail, pyValueSchema, REASON_CHARS, shortReason, TEST_DETAIL_CHARS, type PyValue, type SampleStatus, type TestResult,
  type Verdict,
} from '../../verdict/index.js';
import { show } from './compare-pyvalue.js';
import type { HarnessJob, HarnessResponse } from '../../judge/harness/protocol.js';
import type { HarnessPlan } from '../../judge/plan.js';
import { judgeEvalPlusOutput } from './special-oracles.js';
import { assemblePython, harnessDetail, harnessStatus, PYTHON_ONLY, pythonEntryPoint } from './python.js';
import { defineMode, defineReference, GroundTruthError, type JudgingMode, type ReferenceLimit } from '../../judge/mode.js';

/** One expected return value of a call problem, and the CPU time the reference took on that input (ms). */
export interface ExpectedOutput {
  readonly value: PyValue;
  readonly referenceCpuMs: number;
}

const expectedSchema: z.ZodType<readonly ExpectedOutput[], z.ZodTypeDef, unknown> =
  z.array(z.object({ value: pyValueSchema, referenceCpuMs: z.number().finite().nonnegative() }));

function inputsOf(problem: CallProblem): readonly (readonly PyValue[])[] {
  return [...problem.baseInputs, ...problem.plusInputs];
}

function callJob(problem: CallProblem, program: string, inputs: readonly (readonly PyValue[])[], cpuMs: number,
  memoryKiB: number, outputBytes: number, failFast: boolean, stopAfterTimeouts: number | null = null): HarnessJob {
  return { mode: 'call', program, entryPoint: problem.entryPoint, inputs, cpuMs, wallMs: wallMsFor(cpuMs), memoryKiB, outputBytes, failFast,
    ...(failFast || stopAfterTimeouts === null ? {} : { stopAfterTimeouts }) };
}

function callPlan(problem: CallProblem, program: string, cpuMs: number, memoryKiB: number, outputBytes: number,
  failFast: boolean, stopAfterTimeouts: number | null = null): HarnessPlan {
  return { kind: 'harness', job: callJob(problem, program, inputsOf(problem), cpuMs, memoryKiB, outputBytes, failFast, stopAfterTimeouts) };
}

/**
 * The fail-fast plan: the base inputs in one job, then the plus inputs in a second job (a fresh candidate process,
 * as EvalPlus runs base and plus) only when every base input passed, judged here on the trusted side; a program
 * that fails base (most do) never runs the ~750 plus inputs, whose results could not change its verdicts.
 */
function stagedCallPlan(problem: CallProblem, program: string, cpuMs: number, limits: JudgeLimits,
  expected: readonly ExpectedOutput[]): HarnessPlan {
  const job = (inputs: readonly (readonly PyValue[])[]): HarnessJob =>
    callJob(problem, program, inputs, cpuMs, limits.memoryKiB, limits.outputBytes, true);
  return {
    kind: 'harness', job: job(problem.baseInputs), then: [job(problem.plusInputs)],
    proceed: (base) => base.status === 'ok' && base.results?.length === problem.baseInputs.length
      && inputTests(problem, base, expected).every((t) => t.status === 'passed'),
  };
}

/** The judging limit a harness status says was hit, if any (`GroundTruthError.limit`). */
function limitOf(status: HarnessResponse['status']): ReferenceLimit | undefined {
  switch (status) {
    case 'memory_limit_exceeded': return 'memoryKiB';
    case 'time_limit_exceeded': return 'cpuMs';
    case 'output_limit_exceeded': return 'outputBytes';
    default: return undefined;
  }
}

/** Expected outputs from the canonical solution's answers. @throws GroundTruthError when it did not answer every input. */
function parseReference(problem: CallProblem, response: HarnessResponse): readonly ExpectedOutput[] {
  const total = problem.baseInputs.length + problem.plusInputs.length;
  const results = response.results ?? [];
  if (results.length !== total) {
    throw new GroundTruthError(`canonical solution of ${problem.taskId} answered ${results.length} of ${total} inputs: ${response.status} ${response.reason ?? ''}`,
      response.status === 'internal_error', limitOf(response.status));
  }
  return results.map((x, i) => {
    if (x.status !== 'ok') {
      throw new GroundTruthError(`canonical solution of ${problem.taskId} failed on input ${i}: ${harnessStatus(x.status)} ${x.reason ?? ''}`,
        x.status === 'internal_error', limitOf(x.status));
    }
    const value = pyValueSchema.safeParse(x.value);
    if (!value.success) throw new GroundTruthError(`canonical solution of ${problem.taskId} returned an invalid value on input ${i}`);
    return { value: value.data, referenceCpuMs: x.cpuMs ?? 0 };
  });
}

/** Each answered input as a test: the harness's status, or the oracle's comparison with the expected value. */
function inputTests(problem: CallProblem, response: HarnessResponse, expected: readonly ExpectedOutput[]): TestResult[] {
  const inputs = inputsOf(problem);
  return (response.results ?? []).slice(0, inputs.length).map((r, index): TestResult => {
    const cpu = r.cpuMs === undefined ? {} : { cpuMs: r.cpuMs };
    if (r.status !== 'ok') return { index, status: harnessStatus(r.status), ...cpu, ...reasonField(r.reason) };
    const value = pyValueSchema.safeParse(r.value);
    if (!value.success) return { index, status: 'wrong_answer', ...cpu, reason: 'the program returned an invalid value' };
    const comparison = judgeEvalPlusOutput({ dataset: problem.evalplusDataset, entryPoint: problem.entryPoint,
      input: inputs[index]!, actual: value.data, expected: expected[index]!.value, atol: problem.atol });
    return { index, status: comparison.ok ? 'passed' : 'wrong_answer', ...cpu, ...(comparison.ok ? {} : reasonField(comparison.reason)) };
  });
}

function reasonField(reason: string | undefined): { reason?: string } {
  const short = shortReason(reason);
  return short === undefined ? {} : { reason: short };
}

/** Base and plus verdicts from the per-input tests (EvalPlus: plus counts only when base passed). */
function baseAndPlus(problem: CallProblem, response: HarnessResponse, tests: TestResult[]): Verdict {
  // A harness-level failure with no per-input result (e.g. the program did not load) fails every input.
  if (tests.length === 0 && response.status !== 'ok' && response.status !== 'passed') {
    tests.push({ index: 0, status: harnessStatus(response.status), ...reasonField(response.reason) });
  }
  const baseCount = problem.baseInputs.length;
  const baseTests = tests.filter((t) => t.index < baseCount);
  const base = aggregateTests(baseTests, baseCount);
  const baseStatus: SampleStatus = baseTests.length > 0 && baseTests.length < baseCount && base.status === 'passed'
    ? harnessStatus(response.status) : base.status;
  const plusTests = tests.filter((t) => t.index >= baseCount).map((t) => ({ ...t, index: t.index - baseCount }));
  const plus = aggregateTests(plusTests, problem.plusInputs.length);
  const basePassed = baseStatus === 'passed';
  const plusStatus: SampleStatus = !basePassed ? baseStatus : problem.plusInputs.length === 0 ? 'passed' : plus.status;
  const reason = shortReason(baseStatus !== 'passed' ? base.reason ?? response.reason : plus.reason);
  return {
    status: baseStatus, passed: basePassed, plusStatus, plusPassed: basePassed && plusStatus === 'passed',
    tests, cpuMs: response.cpuMs, wallMs: response.wallMs, testCount: baseCount + problem.plusInputs.length,
    ...(reason === undefined ? {} : { reason }),
  };
}

/** What a failing input returned (Python syntax, rendered past `TEST_DETAIL_CHARS` so a cut is recorded), or how it failed. */
function actualOf(response: HarnessResponse, test: TestResult): string {
  const result = response.results?.[test.index];
  if (result === undefined) return response.reason ?? test.reason ?? test.status;
  if (result.status !== 'ok') return result.reason ?? test.reason ?? test.status;
  const value = pyValueSchema.safeParse(result.value);
  return value.success ? show(value.data, TEST_DETAIL_CHARS + 1) : test.reason ?? test.status;
}

const call: JudgingMode<CallProblem, 'harness', unknown, readonly ExpectedOutput[]> = {
  kind: 'call',
  description: 'Python entry point called on each input in the harness, return values compared outside the box (EvalPlus)',
  ...PYTHON_ONLY,
  entryPoint: pythonEntryPoint,
  assemble: (problem, code, shape) => assemblePython(problem.prompt, problem.entryPoint, code, shape),
  testCount: (problem) => problem.baseInputs.length + problem.plusInputs.length,
  reference: defineReference({
    version: 1,
    fingerprint: (problem) => createHash('sha256')
      .update(JSON.stringify([problem.prompt, problem.canonicalSolution, problem.entryPoint, problem.baseInputs, problem.plusInputs]))
      .digest('hex'),
    plan: (problem, limits) => callPlan(problem, problem.prompt + problem.canonicalSolution, limits.cpuMs * REFERENCE_CPU_FACTOR,
      limits.memoryKiB, limits.outputBytes, false),
    parse: (problem, outcome) => parseReference(problem, outcome.response),
    schema: expectedSchema,
  }),
  plan: (problem, program, { limits, failFast, stopAfterTimeouts, reference }) => {
    const slowestReferenceMs = reference.reduce((m, e) => Math.max(m, e.referenceCpuMs), 0);
    const perInputMs = Math.max(limits.cpuMs, EVALPLUS_TIME_FACTOR * slowestReferenceMs);
    if (failFast && problem.baseInputs.length > 0 && problem.plusInputs.length > 0) {
      return stagedCallPlan(problem, program.source, perInputMs, limits, reference);
    }
    return callPlan(problem, program.source, perInputMs, limits.memoryKiB, limits.outputBytes, failFast, stopAfterTimeouts);
  },
  verdict: (problem, outcome, { reference }): Verdict => {
    const response = outcome.response;
    if (response.status === 'internal_error') {
      return { status: 'internal_error', passed: false, tests: [], cpuMs: response.cpuMs, wallMs: response.wallMs,
        testCount: problem.baseInputs.length + problem.plusInputs.length, ...reasonField(response.reason) };
    }
    const verdict = baseAndPlus(problem, response, inputTests(problem, response, reference));
    const notRun = verdict.testCount - verdict.tests.length;
    if (response.stoppedAfterTimeouts === undefined || notRun <= 0) return verdict;
    const k = response.stoppedAfterTimeouts;
    const note = ` (stopped after ${k} time-out${k === 1 ? '' : 's'}: ${notRun} of ${verdict.testCount} inputs not run)`;
    return { ...verdict, notRun, reason: (verdict.reason ?? 'time limit exceeded').slice(0, REASON_CHARS - note.length) + note };
  },
  detail: (_problem, outcome, verdict) => {
    return harnessDetail(verdict, outcome.response, (t) => actualOf(outcome.response, t));
  },
  // The call in Python syntax and the canonical solution's return value.
  describeTest: (problem, index, reference) => {
    const args = inputsOf(problem)[index];
    const expected = reference?.[index]?.value;
    return failedTestDetail(index, {
      input: args === undefined ? undefined : `${problem.entryPoint}(${args.map((a) => show(a, TEST_DETAIL_CHARS + 1)).join(', ')})`,
      expected: expected === undefined ? undefined : show(expected, TEST_DETAIL_CHARS + 1),
    });
  },
};

/** The `call` judging mode. */
export const callMode = defineMode(call);

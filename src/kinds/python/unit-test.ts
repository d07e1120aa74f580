/**
 * `unit_test` problems (HumanEval, MBPP as released): `prompt + completion`, then the problem's `test` code
 * (defining `check(candidate)`) calls `check(entry_point)`, all in the Python harness's warm tester
 * (openai/human-eval `execution.py`). A pass is proven by the tester's report, never by the program's exit.
 * One test per problem; the CPU limit is per program.
 *
 * Calibrated time limit (issue #32, `calibratedCpuMs` in `src/limits.ts`, EvalPlus' rule): a problem with a
 * canonical solution has a reference, that solution judged once like a sample (under the request's limit) and its
 * CPU time kept, cached on disk with the ground truth (`src/engine/ground-truth.ts`). A program of the problem then
 * gets min(limit, factor × that time + floor). The reference only sets a limit, never a verdict: when the canonical
 * solution does not pass its own test (or runs out of a limit) the problem keeps the fixed limit
 * (`referenceCpuMs` null); only Crucible's own failure (`internal_error`) is retried.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { UnitTestProblem } from '../../formats/types.js';
import { calibratedCpuMs, type JudgeLimits, wallMsFor } from '../../limits.js';
import { failedTestDetail, type Verdict } from '../../verdict/index.js';
import type { HarnessPlan } from '../../judge/plan.js';
import { assemblePython, oneTestHarnessDetail, oneTestHarnessVerdict, PYTHON_ONLY, pythonEntryPoint } from './python.js';
import { defineMode, defineReference, GroundTruthError, type JudgingMode } from '../../judge/mode.js';

/**
 * What a unit_test problem's reference keeps: the canonical solution's CPU time when it passed its own test (ms,
 * as the harness measures a candidate: the candidate's processes, from fork to report), else null with the status
 * it got instead.
 */
export interface UnitTestReference {
  readonly referenceCpuMs: number | null;
  readonly status: string;
}

const referenceSchema: z.ZodType<UnitTestReference, z.ZodTypeDef, unknown> =
  z.object({ referenceCpuMs: z.number().finite().nonnegative().nullable(), status: z.string() });

function unitTestPlan(problem: UnitTestProblem, source: string, cpuMs: number, limits: JudgeLimits): HarnessPlan {
  return {
    kind: 'harness',
    job: {
      mode: 'unit_test', program: source, prelude: problem.prompt, test: problem.test, entryPoint: problem.entryPoint,
      cpuMs, wallMs: wallMsFor(cpuMs), memoryKiB: limits.memoryKiB, outputBytes: limits.outputBytes,
    },
  };
}

/**
 * The CPU limit of a program of `problem` (ms): calibrated from the reference when there is one that passed,
 * else the request's. Exported for tests.
 */
export function unitTestCpuMs(reference: UnitTestReference | undefined, limits: JudgeLimits,
  calibration: Parameters<typeof calibratedCpuMs>[2]): number {
  const referenceCpuMs = reference?.referenceCpuMs;
  return referenceCpuMs === undefined || referenceCpuMs === null ? limits.cpuMs : calibratedCpuMs(referenceCpuMs, limits.cpuMs, calibration);
}

const unitTest: JudgingMode<UnitTestProblem, 'harness', unknown, UnitTestReference | undefined> = {
  kind: 'unit_test',
  description: 'Python prompt + completion judged by the problem\'s check(candidate) in the harness',
  ...PYTHON_ONLY,
  entryPoint: pythonEntryPoint,
  assemble: (problem, code, shape) => assemblePython(problem.prompt, problem.entryPoint, code, shape),
  testCount: () => 1,
  reference: defineReference<UnitTestProblem, UnitTestReference | undefined, 'harness'>({
    version: 1,
    applies: (problem) => problem.canonicalSolution !== undefined && problem.canonicalSolution.trim() !== '',
    fingerprint: (problem) => createHash('sha256')
      .update(JSON.stringify([problem.prompt, problem.canonicalSolution, problem.entryPoint, problem.test])).digest('hex'),
    plan: (problem, limits) => unitTestPlan(problem, problem.prompt + (problem.canonicalSolution ?? ''), limits.cpuMs, limits),
    parse: (problem, outcome) => {
      const r = outcome.response;
      if (r.status === 'internal_error') {
        throw new GroundTruthError(`canonical solution of ${problem.taskId}: ${r.reason ?? 'internal error'}`, true);
      }
      return { referenceCpuMs: r.status === 'passed' ? r.cpuMs : null, status: r.status };
    },
    schema: referenceSchema,
  }),
  plan: (problem, program, { limits, reference, calibration }) =>
    unitTestPlan(problem, program.source, unitTestCpuMs(reference, limits, calibration), limits),
  verdict: (_problem, outcome): Verdict => oneTestHarnessVerdict(outcome),
  // The one test's failure as the tester reported it (the assertion or exception, uncut), with the stderr.
  detail: (_problem, outcome, verdict) => oneTestHarnessDetail(outcome, verdict),
  describeTest: (problem, index) => failedTestDetail(index, {
    input: `${problem.test}\ncheck(${problem.entryPoint})`,
    expected: `check(${problem.entryPoint}) returns without raising`,
  }),
};

/** The `unit_test` judging mode. */
export const unitTestMode = defineMode(unitTest);

/**
 * `unit_test` problems (HumanEval, MBPP as released): `prompt + completion`, then the problem's `test` code
 * (defining `check(candidate)`) calls `check(entry_point)`, all in the Python harness's warm tester
 * (openai/human-eval `execution.py`). A pass is proven by the tester's report, never by the program's exit.
 * One test per problem; the CPU limit is per program.
 */
import type { UnitTestProblem } from '../../formats/types.js';
import { wallMsFor } from '../../limits.js';
import { failedTestDetail, type Verdict } from '../../verdict/index.js';
import { assemblePython, oneTestHarnessDetail, oneTestHarnessVerdict, PYTHON_ONLY, pythonEntryPoint } from './python.js';
import { defineMode, type JudgingMode } from '../../judge/mode.js';

const unitTest: JudgingMode<UnitTestProblem, 'harness'> = {
  kind: 'unit_test',
  description: 'Python prompt + completion judged by the problem\'s check(candidate) in the harness',
  ...PYTHON_ONLY,
  entryPoint: pythonEntryPoint,
  assemble: (problem, code, shape) => assemblePython(problem.prompt, problem.entryPoint, code, shape),
  testCount: () => 1,
  plan: (problem, program, { limits }) => ({
    kind: 'harness',
    job: {
      mode: 'unit_test', program: program.source, prelude: problem.prompt, test: problem.test, entryPoint: problem.entryPoint,
      cpuMs: limits.cpuMs, wallMs: wallMsFor(limits.cpuMs), memoryKiB: limits.memoryKiB, outputBytes: limits.outputBytes,
    },
  }),
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

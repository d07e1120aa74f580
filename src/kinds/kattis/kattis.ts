/**
 * `kattis` problems (`KattisProblem`: Kattis/problemtools problem packages, `src/formats/kattis.ts`): the program,
 * in any configured language, is compiled once and run on each test case's input in order (CPU limit: the
 * package's time limit, else the run's; memory and output: the package's); its output is judged by the package's
 * output validator: problemtools' default validator (`./default-validator.ts`, here) or the package's own program
 * (`./validator.ts`, in the sandbox). The tests' results are graded over the package's test data groups as
 * problemtools grades them (`./grading.ts`).
 *
 * Verdict: the root group's. Accepted is `passed` (a scoring problem: at its best score, when the score range is
 * bounded); accepted below the best score is `wrong_answer` with that score; WA `wrong_answer`, TLE
 * `time_limit_exceeded`, RTE the test's own status (`runtime_error`, `memory_limit_exceeded`), OLE
 * `output_limit_exceeded`, a judge error (the validator failed) `internal_error`. `score`: a scoring problem's root
 * score over its best (bounded ranges only), a pass-fail problem's 1 or 0; left out after a fail-fast stop.
 */
import type { KattisProblem } from '../../formats/types.js';
import type { ExecutionResult } from '../../sandbox/types.js';
import { failedTestDetail, reasonWithStderr, runStatus, shortReason, type SampleStatus, type TestResult, type Verdict } from '../../verdict/index.js';
import type { ExecutionTools } from '../../judge/plan.js';
import { defineMode, type JudgingMode } from '../../judge/mode.js';
import { compileFailure, stdinStdoutDetailing } from '../io/io.js';
import { defaultValidate } from './default-validator.js';
import { bestScore, gradeGroup, type KattisTestOutcome, type KattisVerdict } from './grading.js';
import { runCustomValidator } from './validator.js';

/** A Crucible test status as problemtools' verdict (memory is a run-time error there, as the program crashes). */
export function kattisVerdictOf(status: SampleStatus): KattisVerdict {
  switch (status) {
    case 'passed': return 'AC';
    case 'wrong_answer': return 'WA';
    case 'time_limit_exceeded': return 'TLE';
    case 'runtime_error': case 'memory_limit_exceeded': return 'RTE';
    case 'output_limit_exceeded': return 'OLE';
    default: return 'JE';
  }
}

/** What a validator said as a test result (the validator's own score as the test's `points`: it is not a fraction). */
async function validate(problem: KattisProblem, index: number, result: ExecutionResult, tools: ExecutionTools): Promise<TestResult> {
  const base = { index, cpuMs: result.cpuMs, wallMs: result.wallMs };
  const test = problem.tests[index]!;
  if (problem.validator.kind === 'default') {
    const judged = defaultValidate(test.answer, result.stdout, test.validatorArgs);
    if (judged.verdict === 'AC') return { ...base, status: 'passed' };
    return { ...base, status: judged.verdict === 'WA' ? 'wrong_answer' : 'internal_error', reason: shortReason(`${test.name}: ${judged.message}`) };
  }
  const judged = await runCustomValidator({ ...problem, validator: problem.validator }, test, result.stdout, tools);
  const status = judged.verdict === 'AC' ? 'passed' : judged.verdict === 'WA' ? 'wrong_answer' : 'internal_error';
  return { ...base, status, ...(judged.message === '' ? {} : { reason: shortReason(`${test.name}: ${judged.message}`) }),
    ...(judged.score === undefined ? {} : { points: judged.score }) };
}

/** The problemtools outcome of each test case (undefined: did not run) from Crucible's test results. */
export function kattisOutcomes(problem: KattisProblem, results: readonly TestResult[]): (KattisTestOutcome | undefined)[] {
  const tests: (KattisTestOutcome | undefined)[] = problem.tests.map(() => undefined);
  for (const t of results) {
    tests[t.index] = { verdict: kattisVerdictOf(t.status), runtimeMs: t.cpuMs ?? 0, ...(t.points === undefined ? {} : { score: t.points }) };
  }
  return tests;
}

const kattis: JudgingMode<KattisProblem, 'program_runs', null> = {
  kind: 'kattis',
  description: 'Kattis/problemtools problem packages: test data groups, the default or the package\'s output validator (sandboxed), scoring',
  language: (problem, requested) => requested ?? problem.language ?? 'python',
  assemble: (_problem, code) => code,
  testCount: (problem) => problem.tests.length,
  plan: (problem, program, context) => ({
    kind: 'program_runs',
    program,
    runs: problem.tests.map((t) => ({ stdin: t.input, check: null })),
    limits: {
      cpuMs: problem.timeLimitMs ?? context.limits.cpuMs,
      memoryKiB: problem.memoryLimitKiB,
      outputBytes: problem.outputLimitBytes,
    },
    failFast: context.failFast,
  }),
  judgeRun: async (problem, _run, index, result, tools): Promise<TestResult> => {
    if (result.status !== 'ok') {
      return { index, status: runStatus(result), cpuMs: result.cpuMs, wallMs: result.wallMs,
        reason: shortReason(`${problem.tests[index]!.name}: ${reasonWithStderr(result.reason, result.stderr) ?? result.status}`) };
    }
    return validate(problem, index, result, tools);
  },
  verdict: (problem, outcome): Verdict => {
    if (!outcome.compiled) return compileFailure(problem, outcome);
    const graded = gradeGroup(problem.root, kattisOutcomes(problem, outcome.tests));
    const complete = outcome.tests.length === problem.tests.length;
    const cpuMs = outcome.runs.reduce((s, r) => s + r.cpuMs, 0);
    const wallMs = outcome.runs.reduce((s, r) => s + r.wallMs, 0);
    const base = { tests: outcome.tests, testCount: problem.tests.length, cpuMs, wallMs };
    if (graded === undefined) return { ...base, status: 'internal_error', passed: false, reason: 'no test case ran' };
    const best = bestScore(problem.root);
    const full = !problem.scoring || best === undefined || graded.score >= best;
    const fraction = !problem.scoring ? (graded.verdict === 'AC' ? 1 : 0) : best !== undefined && best > 0 ? Math.min(1, Math.max(0, graded.score / best)) : undefined;
    const scored = complete && fraction !== undefined ? { score: fraction } : {};
    if (graded.verdict === 'AC') {
      if (full) return { ...base, ...scored, status: 'passed', passed: true };
      return { ...base, ...scored, status: 'wrong_answer', passed: false, reason: `partially accepted: score ${graded.score} of ${best}` };
    }
    const decisive = outcome.tests.find((t) => kattisVerdictOf(t.status) === graded.verdict);
    const status: SampleStatus = decisive?.status ?? (graded.verdict === 'JE' ? 'internal_error' : 'wrong_answer');
    return { ...base, ...scored, status, passed: false, reason: shortReason(decisive?.reason ?? `${graded.verdict} (grader)`) };
  },
  detail: stdinStdoutDetailing.detail,
  describeTest: (problem, index) => {
    const test = problem.tests[index];
    return failedTestDetail(index, { input: test?.input, expected: test?.answer });
  },
};

/** The `kattis` judging mode. */
export const kattisMode = defineMode(kattis);

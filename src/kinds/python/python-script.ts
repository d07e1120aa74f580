/**
 * `python_script` problems (MBPP original and sanitized): the whole program, then the problem's setup, then its
 * assert lines, in the program's own process, as the published MBPP evaluations run them (bigcode-evaluation-harness
 * `tasks/mbpp.py` + `custom_metrics/execute.py`: `program + "\n" + tests` executed in one namespace). MBPP's asserts
 * need that: they use names the program defines (`Node`, `Pair`, its imports) and pass non-data arguments (the
 * type `int`), which no call proxy can carry.
 *
 * Through the Python harness's `unit_test` job: the candidate process C loads `program + setup + a trusted test
 * function` (`PYTHON_SCRIPT_ENTRY`, defined after the program so the program cannot replace it), whose body is the
 * asserts in order; it returns `["done", n]` after the n-th assert, or `["assertion", i]` when assert i failed
 * (any other exception propagates and is reported as the candidate's). The tester T calls it once and asserts
 * `["done", n]`, so a pass still needs T's report (C's exit status, an early `exit(0)`, or printed text never
 * count), the CPU and memory limits are the harness's, and a failure names the assert.
 * What same-process asserts cannot stop (as in MBPP's own harness): a program whose values rig `__eq__`, or that
 * patches the interpreter (trace hooks) before the asserts run. docs/SECURITY.md, "Unforgeable pass", says so.
 */
import type { PythonScriptProblem } from '../../formats/types.js';
import { wallMsFor } from '../../limits.js';
import { failedTestDetail, type Verdict } from '../../verdict/index.js';
import { oneTestHarnessDetail, oneTestHarnessVerdict, PYTHON_ONLY } from './python.js';
import { defineMode, type JudgingMode } from '../../judge/mode.js';

/** Name of the trusted test function appended to the program. */
export const PYTHON_SCRIPT_ENTRY = '__crucible_script_tests__';

/** A test as statements inside the test function: `\r\n` as `\n`, dedented, every line indented by `indent`. */
function indented(source: string, indent: string): string {
  const lines = source.replace(/\r\n?/g, '\n').replace(/\n+$/, '').split('\n');
  const common = Math.min(...lines.filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)![0].length));
  return lines.map((l) => indent + l.slice(Number.isFinite(common) ? common : 0)).join('\n');
}

/**
 * The program C loads: `program`, the setup, and the test function (see the module comment). The setup runs at
 * module level, as in MBPP, so the names it binds (`root = Node(1)`) are globals the asserts read.
 */
export function assemblePythonScript(program: string, setup: string, tests: readonly string[]): string {
  const body = tests.flatMap((t, i) => [`        __crucible_at__ = ${i}`, indented(t, '        ')]);
  const head = program.replace(/\n*$/, '\n') + (setup === '' ? '' : setup.replace(/\r\n?/g, '\n').replace(/\n*$/, '\n'));
  return head + [
    `def ${PYTHON_SCRIPT_ENTRY}():`,
    '    __crucible_at__ = 0',
    '    try:',
    ...body,
    '    except AssertionError:',
    '        return ["assertion", __crucible_at__]',
    `    return ["done", ${tests.length}]`,
    '',
  ].join('\n');
}

/** The tester's test: call the test function once and demand that every assert ran (names the failing one). */
function testerTest(tests: readonly string[]): string {
  return [
    `TESTS = ${JSON.stringify(tests.map((t) => t.trim()))}`,
    'def check(candidate):',
    '    outcome = candidate()',
    `    if outcome != ["done", ${tests.length}]:`,
    '        at = outcome[1] if isinstance(outcome, list) and len(outcome) == 2 and outcome[1] in range(len(TESTS)) else None',
    '        assert False, "test %d failed: %s" % (at, TESTS[at]) if at is not None else "the tests did not run to the end"',
    '    assert True',
    '',
  ].join('\n');
}

function timeLimits(cpuMs: number): { cpuMs: number; wallMs: number } {
  return { cpuMs, wallMs: wallMsFor(cpuMs) };
}

const pythonScript: JudgingMode<PythonScriptProblem, 'harness'> = {
  kind: 'python_script',
  description: 'whole Python program + setup + assert lines in one process (MBPP as published), pass reported by the harness',
  ...PYTHON_ONLY,
  assemble: (_problem, code) => code,
  testCount: () => 1,
  plan: (problem, program, { limits }) => ({
    kind: 'harness',
    job: {
      ...timeLimits(problem.timeLimitMs ?? limits.cpuMs),
      mode: 'unit_test', program: assemblePythonScript(program.source, problem.setup, problem.tests), prelude: '',
      test: testerTest(problem.tests), entryPoint: PYTHON_SCRIPT_ENTRY,
      memoryKiB: limits.memoryKiB, outputBytes: limits.outputBytes,
    },
  }),
  verdict: (_problem, outcome): Verdict => oneTestHarnessVerdict(outcome),
  detail: (_problem, outcome, verdict) => oneTestHarnessDetail(outcome, verdict),
  describeTest: (problem, index) => failedTestDetail(index, {
    input: [problem.setup, ...problem.tests].filter((s) => s !== '').join('\n'),
    expected: 'every assert holds',
  }),
};

/** The `python_script` judging mode. */
export const pythonScriptMode = defineMode(pythonScript);

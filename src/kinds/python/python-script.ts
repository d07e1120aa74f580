/**
 * `python_script` problems (MBPP original and sanitized): the whole program, then the problem's setup, judged by
 * the problem's assert lines, as the published MBPP evaluations judge them (bigcode-evaluation-harness
 * `tasks/mbpp.py` + `custom_metrics/execute.py`: `program + "\n" + tests` executed in one namespace) — except that
 * here the asserts never run in the program's process.
 *
 * Through the Python harness's `script` job: the candidate process C loads `program + setup` (the setup builds
 * inputs such as `root = Node(1)`, at module level as in MBPP) and reports the names its globals bind; the
 * trusted tester T parses each assert line (Python's `ast`) and evaluates it itself, asking C only for the values
 * of the calls into the program (`f(x)`, `max_chain_length([Pair(5, 24)], 4)`: the program's names and classes
 * and non-data arguments such as the type `int` stay in C), which come back as PyValue data and are compared in
 * T with Python's semantics (`harness/python/crucible_harness/split_asserts.py`). No test code and no expected
 * value is ever in C, so a program that patches anything in its own process (a thread rewriting a test
 * function's `__code__`, builtins, `__eq__`) changes only the values it claims. An assert whose comparison has
 * the program on both sides (no expected value of the test's own: e.g. the program shadows a builtin the
 * expected side uses) or that needs the program inside a lambda or comprehension is refused: it fails with a
 * reason saying so, never passes. A pass is T's report that every assert held (C's exit status, an early
 * `exit(0)` or printed text never count); the CPU and memory limits are the harness's; a failure names the assert.
 * docs/SECURITY.md, "MBPP", says what remains possible.
 */
import type { PythonScriptProblem } from '../../formats/types.js';
import { wallMsFor } from '../../limits.js';
import { failedTestDetail, type Verdict } from '../../verdict/index.js';
import { oneTestHarnessDetail, oneTestHarnessVerdict, PYTHON_ONLY } from './python.js';
import { defineMode, type JudgingMode } from '../../judge/mode.js';

/**
 * The program C loads: `program`, then the setup (line ends normalised), each ending with a newline. The setup
 * runs at module level, as in MBPP, so the names it binds (`root = Node(1)`) are globals the asserts read.
 */
export function assemblePythonScript(program: string, setup: string): string {
  return program.replace(/\n*$/, '\n') + (setup === '' ? '' : setup.replace(/\r\n?/g, '\n').replace(/\n*$/, '\n'));
}

function timeLimits(cpuMs: number): { cpuMs: number; wallMs: number } {
  return { cpuMs, wallMs: wallMsFor(cpuMs) };
}

const pythonScript: JudgingMode<PythonScriptProblem, 'harness'> = {
  kind: 'python_script',
  description: 'whole Python program + setup judged by assert lines (MBPP), each evaluated by the harness\'s tester on the program\'s values',
  ...PYTHON_ONLY,
  assemble: (_problem, code) => code,
  testCount: () => 1,
  plan: (problem, program, { limits }) => ({
    kind: 'harness',
    job: {
      ...timeLimits(problem.timeLimitMs ?? limits.cpuMs),
      mode: 'script', program: assemblePythonScript(program.source, problem.setup), asserts: problem.tests,
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

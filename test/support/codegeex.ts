/**
 * CodeGeeX's own HumanEval-X C++ rule, reproduced to measure Crucible's agreement with it (never Crucible's
 * judging): the program CodeGeeX assembles and the verdict its harness gives, with the program run in Crucible's
 * sandbox through a plain run instead of on the host.
 *
 * Facts followed (THUDM/CodeGeeX at 2838420, read, not copied): `codegeex/benchmark/humaneval-x/
 * evaluate_humaneval_x.py` `process_humaneval_test` builds a C++ program as the include lines of
 * `IMPORT_HELPER["cpp"]` (`codegeex/benchmark/utils.py`) that the prompt does not contain, one per line, then
 * `"\n" + prompt + generation + "\n" + test`; `codegeex/benchmark/execution.py` compiles it with
 * `/usr/bin/g++ -std=c++11 test.cpp` (`-lcrypto -lssl` added for task 162), runs `./a.out`, and counts exit
 * status 0 as passed, anything else (a compile error, a non-zero exit, a signal, its time-out) as failed.
 * The compile command is the language `codegeex-cpp11` (`CODEGEEX_CPP11`, added by `withCodegeexCpp` to a registry
 * for measurement only; Crucible's own `cpp11` traps missing returns, which CodeGeeX does not). Differences of this
 * reproduction, none of which changes the generated code: `-pipe -o main`, `-lcrypto -lssl` for every program
 * (Debian's linker drops unused libraries), and a CPU limit of `CPU_LIMIT_MS` (CodeGeeX's default time-out is
 * 500 s of wall time). The program runs in the sandbox, whose environment is not the host's: where a verdict
 * depends on undefined behaviour (a stack address left in a register), it can differ from a run on the host.
 */
import type { ScriptProblem } from '../../src/formats/types.js';
import type { Judge } from '../../src/judge/judge.js';
import { LanguageRegistry, parseLanguageFile } from '../../src/languages/registry.js';

/** CodeGeeX's C++ compile command as a language (module comment). */
export const CODEGEEX_CPP11 = parseLanguageFile('test/support/codegeex.ts', [
  'id: codegeex-cpp11',
  'name: C++11 exactly as CodeGeeX compiles HumanEval-X (measurement only)',
  'sourceFile: main.cpp',
  'compile:',
  '  argv: [/usr/bin/g++, -std=c++11, -pipe, -o, main, main.cpp, -lcrypto, -lssl]',
  'run: [/artifact/main]',
  'version: [/usr/bin/g++, --version]',
  'packages: [g++, libboost-dev, libssl-dev]',
].join('\n'));

/** `base` with `codegeex-cpp11` added. */
export function withCodegeexCpp(base: LanguageRegistry): LanguageRegistry {
  const support = new Map<string, string>();
  for (const language of base.languages) {
    for (const [name, text] of Object.entries(base.compileFiles(language))) support.set(name, text);
  }
  return new LanguageRegistry([...base.languages, CODEGEEX_CPP11], support);
}

/** `IMPORT_HELPER["cpp"]` of CodeGeeX's `codegeex/benchmark/utils.py`, in its order. */
const IMPORT_HELPER_CPP = [
  '#include<stdlib.h>', '#include<algorithm>', '#include<math.h>', '#include<stdio.h>', '#include<vector>',
  '#include<string>', '#include<climits>', '#include<cstring>', '#include<iostream>',
];

/** CPU limit of one reproduced run, ms (no HumanEval-X C++ test needs more than a fraction of a second). */
const CPU_LIMIT_MS = 20_000;

/** The C++ program CodeGeeX's `process_humaneval_test` builds from a problem and a generation (module comment). */
export function codegeexCppProgram(problem: ScriptProblem, generation: string): string {
  const setUp = IMPORT_HELPER_CPP.filter((line) => !problem.prompt.includes(line)).map((line) => `${line}\n`).join('');
  return `${setUp}\n${problem.prompt}${generation}\n${problem.test}`;
}

/**
 * CodeGeeX's verdict on one generation: `passed`, or `failed: <why>` (compile error, exit status, signal). `judge`
 * must know `codegeex-cpp11` (`withCodegeexCpp`). @throws Error when the sandbox failed.
 */
export async function codegeexCppVerdict(judge: Judge, problem: ScriptProblem, generation: string): Promise<string> {
  const outcome = await judge.runPlain({
    program: { language: CODEGEEX_CPP11.id, source: codegeexCppProgram(problem, generation) },
    stdin: '', limits: { cpuMs: CPU_LIMIT_MS, memoryKiB: 1024 * 1024 },
  });
  if (outcome.run === null) return `failed: compilation error (${outcome.compile?.status ?? 'no compile result'})`;
  const run = outcome.run;
  if (run.status === 'internal_error') throw new Error(`${problem.taskId}: the sandbox failed: ${run.reason ?? ''}`);
  if (run.status === 'ok' && run.exitCode === 0) return 'passed';
  return `failed: ${run.status}${run.exitCode !== null ? ` exit ${run.exitCode}` : ''}${run.signal ? ` ${run.signal}` : ''}`;
}

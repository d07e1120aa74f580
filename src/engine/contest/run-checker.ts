/**
 * Running a problem's checker in the sandbox (the verdict rules are the checker kind's,
 * `src/kinds/checker/checker-verdicts.ts`): C++ checkers (testlib, cms) built once per distinct source through the
 * executor's compile cache, Python checkers run as they are.
 */
import { ARTIFACT_DIR, type BuildOutcome, type Executor } from '../executor.js';
import { DEFAULT_COMPILE_LIMITS } from '../../limits.js';
import { GXX } from './package-job.js';
import {
  CHECKER_LIMITS, cmsCheckerVerdict, failed, pythonCheckerVerdict, testlibVerdict, defaultTestlibHeader,
  type CheckerInput, type CheckerSpec, type CheckerVerdict,
} from '../../kinds/checker/checker-verdicts.js';
import type { ExecutionResult } from '../../sandbox/types.js';

const PYTHON = '/usr/bin/python3.11';

/** The g++ command line a C++ checker (and an IOI manager) is built with (cms_ioi `compile`). */
export const CHECKER_COMPILE_ARGV: readonly string[] = [GXX, '-x', 'c++', '-std=gnu++17', '-O2', '-pipe', '-o', 'checker', 'checker.cpp'];

/** Build a C++ checker (testlib or cms) once per distinct source; the artifact holds `checker`. */
export function buildChecker(executor: Executor, spec: CheckerSpec): Promise<BuildOutcome> {
  const files: Record<string, string> = { 'checker.cpp': spec.source };
  if (spec.kind === 'testlib' || spec.testlibHeader !== undefined) files['testlib.h'] = spec.testlibHeader ?? defaultTestlibHeader();
  return executor.build({ argv: CHECKER_COMPILE_ARGV, files, limits: DEFAULT_COMPILE_LIMITS });
}

/**
 * Run `spec` on one test in the sandbox and return its verdict. A checker that does not compile is `fail`
 * (the problem's fault, said in the message). Never throws for what the checker does.
 */
export async function runChecker(executor: Executor, spec: CheckerSpec, texts: CheckerInput, signal?: AbortSignal): Promise<CheckerVerdict> {
  const files = { 'input.txt': texts.input, 'output.txt': texts.output, 'answer.txt': texts.answer };
  if (spec.kind === 'python') {
    const { result } = await executor.sandbox.run({ argv: [PYTHON, '-B', 'checker.py', 'input.txt', 'answer.txt', 'output.txt'],
      files: { ...files, 'checker.py': spec.source }, stdin: '', limits: CHECKER_LIMITS, signal });
    return pythonCheckerVerdict(result);
  }
  const built = await buildChecker(executor, spec);
  if (!built.ok) return failed(`checker did not compile (${built.result.status}): ${built.result.stderr.slice(0, 1500)}`, built.result);
  const checker = `${ARTIFACT_DIR}/checker`;
  const run = (argv: string[]): Promise<ExecutionResult> => executor.runArtifact(built, argv, { files, limits: CHECKER_LIMITS, signal });
  // testlib's argument order: input, the contestant's output, the jury's answer.
  if (spec.kind === 'testlib') return testlibVerdict(await run([checker, 'input.txt', 'output.txt', 'answer.txt']));
  // CMS's order: input, the correct output, the contestant's output.
  return cmsCheckerVerdict(await run([checker, 'input.txt', 'answer.txt', 'output.txt']));
}

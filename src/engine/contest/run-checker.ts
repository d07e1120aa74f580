/**
 * Running a problem's checker in the sandbox (the verdict rules are the checker kind's,
 * `src/kinds/checker/checker-verdicts.ts`): C++ checkers (testlib, cms) built once per distinct source through the
 * contest box's compile cache, Python checkers run as they are.
 */
import { ARTIFACT_DIR, GXX, type Built, type ContestBox } from './box.js';
import {
  CHECKER_LIMITS, cmsCheckerVerdict, failed, pythonCheckerVerdict, testlibVerdict, defaultTestlibHeader,
  type CheckerInput, type CheckerSpec, type CheckerVerdict,
} from '../../kinds/checker/checker-verdicts.js';

const PYTHON = '/usr/bin/python3.11';

/** The g++ command line a C++ checker (and an IOI manager) is built with (cms_ioi `compile`). */
export const CHECKER_COMPILE_ARGV: readonly string[] = [GXX, '-x', 'c++', '-std=gnu++17', '-O2', '-pipe', '-o', 'checker', 'checker.cpp'];

/** Build a C++ checker (testlib or cms) once per distinct source; the artifact holds `checker`. */
export function buildChecker(box: ContestBox, spec: CheckerSpec): Promise<Built> {
  const files: Record<string, string> = { 'checker.cpp': spec.source };
  if (spec.kind === 'testlib' || spec.testlibHeader !== undefined) files['testlib.h'] = spec.testlibHeader ?? defaultTestlibHeader();
  return box.build(CHECKER_COMPILE_ARGV, files);
}

/**
 * Run `spec` on one test in the sandbox and return its verdict. A checker that does not compile is `fail`
 * (the problem's fault, said in the message). Never throws for what the checker does.
 */
export async function runChecker(box: ContestBox, spec: CheckerSpec, texts: CheckerInput, signal?: AbortSignal): Promise<CheckerVerdict> {
  const files = { 'input.txt': texts.input, 'output.txt': texts.output, 'answer.txt': texts.answer };
  if (spec.kind === 'python') {
    const run = await box.runPlain([PYTHON, '-B', 'checker.py', 'input.txt', 'answer.txt', 'output.txt'],
      { files: { ...files, 'checker.py': spec.source }, limits: CHECKER_LIMITS, signal });
    return pythonCheckerVerdict(run);
  }
  const built = await buildChecker(box, spec);
  if (!built.ok) return failed(`checker did not compile (${built.result.status}): ${built.result.stderr.slice(0, 1500)}`, built.result);
  const checker = `${ARTIFACT_DIR}/checker`;
  if (spec.kind === 'testlib') {
    // testlib's argument order: input, the contestant's output, the jury's answer.
    return testlibVerdict(await box.runBuilt(built, [checker, 'input.txt', 'output.txt', 'answer.txt'], { files, limits: CHECKER_LIMITS, signal }));
  }
  // CMS's order: input, the correct output, the contestant's output.
  return cmsCheckerVerdict(await box.runBuilt(built, [checker, 'input.txt', 'answer.txt', 'output.txt'], { files, limits: CHECKER_LIMITS, signal }));
}

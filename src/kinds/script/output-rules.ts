/**
 * A benchmark's own rules on a script's output, shared by every way a `script` problem is judged (one program,
 * split, replay): CodeGeeX's JavaScript and MultiPL-E's Racket, Scala and Clojure fail a program that wrote to
 * stderr (`ScriptProblem.stderrFails`); CodeGeeX's JavaScript fails one that printed anything of its own on stdout
 * (`ScriptProblem.stdoutFails`). Lines Crucible's own drivers print (markers, value or call lines) are not the
 * program's output.
 */
import type { ScriptProblem } from '../../formats/types.js';
import { shortReason, type SampleStatus } from '../../verdict/index.js';

/** Why a run that ended `ok` still fails by the benchmark's output rules, or undefined. */
export interface OutputRuleFailure {
  readonly status: SampleStatus;
  readonly reason: string;
}

/** The stderr rule: a non-empty stderr fails where the benchmark says so (`runtime_error`). */
export function stderrRuleFailure(problem: ScriptProblem, stderr: string): OutputRuleFailure | undefined {
  if (problem.stderrFails !== true || stderr === '') return undefined;
  return { status: 'runtime_error',
    reason: shortReason(`exited 0 but wrote to stderr, which this benchmark counts as a failure: ${stderr.slice(0, 300)}`)! };
}

/** The stdout rule: any non-empty stdout line that `ownLine` does not claim fails where the benchmark says so (`wrong_answer`). */
export function stdoutRuleFailure(problem: ScriptProblem, stdout: string, ownLine: (line: string) => boolean): OutputRuleFailure | undefined {
  if (problem.stdoutFails !== true) return undefined;
  const other = stdout.split('\n').map((line) => line.replace(/\r$/, '')).filter((line) => line !== '' && !ownLine(line)).join('\n');
  if (other === '') return undefined;
  return { status: 'wrong_answer', reason: shortReason(`printed to stdout, which this benchmark counts as a failure: ${other.slice(0, 300)}`)! };
}

/**
 * MBPP (google-research, original or sanitized), as bigcode-evaluation-harness prompts it
 * (`bigcode_eval/tasks/mbpp.py` at 8fc5bae, after InCoder): a docstring holding the task's description and
 * its first test, `"""\n{text}\n{test_list[0]}\n"""\n`, continued by the model; stop sequences `\nclass`,
 * `\nassert`, `\n"""`, `\nprint`, `\nif`, `\n<|/`, "\n```"; the program judged is the prompt followed by the
 * generation cut at the first stop sequence. With a chat model: EvalPlus' instruction prompt over the same
 * docstring (it is exactly the `prompt` field of EvalPlus' MBPP+).
 */
import type { PythonScriptProblem } from '../../formats/types.js';
import { evalPlusInstructPrompt } from './humaneval.js';
import { PromptError, type BuiltPrompt, type PromptApi } from './types.js';

/** bigcode-evaluation-harness MBPP stop sequences. */
export const BIGCODE_MBPP_STOP: readonly string[] = ['\nclass', '\nassert', '\n"""', '\nprint', '\nif', '\n<|/', '\n```'];

/** bigcode's MBPP docstring prompt of a problem. @throws PromptError when the problem has no test to show. */
export function mbppDocstring(problem: PythonScriptProblem): string {
  const first = problem.tests[0];
  if (first === undefined) throw new PromptError(problem.taskId, 'an MBPP prompt shows the first test, and this task has none');
  return `"""\n${problem.statement}\n${first}\n"""\n`;
}

/** An MBPP problem for `api` (see the module comment). */
export function mbppPrompt(problem: PythonScriptProblem, api: PromptApi): BuiltPrompt {
  const prompt = mbppDocstring(problem);
  if (api === 'chat') return { ...evalPlusInstructPrompt(problem.taskId, prompt) };
  return {
    taskId: problem.taskId, style: 'bigcode-mbpp', language: 'python',
    input: { api: 'completions', prompt }, stop: BIGCODE_MBPP_STOP, output: { kind: 'prefixed', prefix: prompt },
  };
}

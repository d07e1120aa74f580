/**
 * MultiPL-E and HumanEval-X script problems (prompt + completion + tests in one program, any language).
 *
 * - `multipl-e` (completions): nuprl/MultiPL-E `multipl_e/completions.py` at 3d11fa3 with `automodel.py` /
 *   `automodel_vllm.py`: the row's `prompt`, stripped of surrounding white space, continued by the model; the
 *   row's own `stop_tokens` as stop sequences; the completion is cut at the first of them and judged after the
 *   row's unstripped prompt (MultiPL-E's evaluation runs `prompt + completion + tests`).
 * - `humaneval-x` (completions): CodeGeeX's HumanEval-X prompt as Crucible reads it (for Go without its
 *   import block, which Crucible puts before the prompt as CodeGeeX does), continued by the model; stop
 *   sequences of bigcode-evaluation-harness's HumanEvalPack for Python and Go (`bigcode_eval/tasks/
 *   humanevalpack.py` at 8fc5bae, `LANGUAGE_TO_STOP_WORDS`), none for the others (bigcode cuts those by brace
 *   matching, which is not reproduced: the generation runs to its end or `max_tokens`).
 * - `complete-program` (chat, both): one user message asking for the whole program in a fenced block. This is
 *   Crucible's own wording: MultiPL-E's chat script (`chat_completions.py`) builds its prompt with DSPy's
 *   adapter, which cannot be reproduced as a fixed template. The answer is a whole program (prompt included).
 */
import type { ScriptProblem } from '../../formats/types.js';
import type { BuiltPrompt, PromptApi } from './types.js';

/** HumanEvalPack stop sequences (bigcode) by Crucible language id; other languages have none. */
export const HUMANEVALPACK_STOP: Readonly<Record<string, readonly string[]>> = {
  python: ['\nclass', '\ndef', '\n#', '\n@', '\nprint', '\nif', '\nassert'],
  go: ['\n//', '\nfunc main(', 'struct', '\nfunc'],
};

/** The chat instruction of `complete-program` (Crucible's wording; see the module comment). */
export function completeProgramMessage(language: string, prefix: string): string {
  return `Complete the following ${language} program. Keep the given code as it is, complete the unfinished function, ` +
    'and do not add tests or example usage. Answer with the whole program in one fenced code block.\n\n' +
    `\`\`\`${language}\n${prefix.trim()}\n\`\`\``;
}

/** A script problem for `api` (see the module comment). */
export function scriptPrompt(problem: ScriptProblem, api: PromptApi): BuiltPrompt {
  if (api === 'chat') {
    return {
      taskId: problem.taskId, style: 'complete-program', language: problem.language,
      input: { api: 'chat', messages: [{ role: 'user', content: completeProgramMessage(problem.language, problem.prompt) }] },
      stop: [], output: { kind: 'response' },
    };
  }
  if (problem.dialect === 'multipl-e') {
    return {
      taskId: problem.taskId, style: 'multipl-e', language: problem.language,
      input: { api: 'completions', prompt: problem.prompt.trim() }, stop: problem.stopTokens ?? [], output: { kind: 'completion' },
    };
  }
  return {
    taskId: problem.taskId, style: 'humaneval-x', language: problem.language,
    input: { api: 'completions', prompt: problem.prompt }, stop: HUMANEVALPACK_STOP[problem.language] ?? [], output: { kind: 'completion' },
  };
}

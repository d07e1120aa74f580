/**
 * HumanEval-style Python function completion, as three published harnesses prompt it:
 *
 * - `bigcode-humaneval` (completions): bigcode-evaluation-harness `bigcode_eval/tasks/humaneval.py` at
 *   8fc5bae (task `humaneval`): the prompt is the problem's `prompt` stripped of surrounding white space; stop
 *   sequences `\nclass`, `\ndef`, `\n#`, `\n@`, `\nprint`, `\nif`, "\n```", `<file_sep>`; the program judged is
 *   the stripped prompt followed by the generation cut at the first stop sequence (`postprocess_generation`).
 * - `evalplus-completion` (completions): evalplus/evalplus at 26d6d00, `evalplus/codegen.py` sends
 *   `prompt.strip() + "\n"` to a model without a chat template, stopping at `EOS` plus the dataset's extra
 *   sequences (`evalplus/provider/utility.py`: `<|endoftext|>`, `<|endofmask|>`, `</s>`, `\nif __name__`,
 *   `\ndef main(`, `\nprint(`; HumanEval adds `\ndef `, `\nclass `, `\nimport `, `\nfrom `, `\nassert `;
 *   MBPP adds `\n"""`, `\nassert`); the solution is the prompt as sent plus the output.
 * - `evalplus-instruct` (chat): EvalPlus' OpenAI chat decoder (`evalplus/provider/openai.py`) sends one user
 *   message, its instruction prefix (`codegen.py`) then the stripped prompt in a ```` ```python ```` fence; the
 *   answer is a whole program, extracted from the response. No stop sequences.
 */
import type { CallProblem, UnitTestProblem } from '../../formats/types.js';
import type { BuiltPrompt, PromptApi } from './types.js';

/** bigcode-evaluation-harness HumanEval stop sequences (see the module comment). */
export const BIGCODE_HUMANEVAL_STOP: readonly string[] = ['\nclass', '\ndef', '\n#', '\n@', '\nprint', '\nif', '\n```', '<file_sep>'];

/** EvalPlus' `EOS` (evalplus/provider/utility.py). */
export const EVALPLUS_EOS: readonly string[] = ['<|endoftext|>', '<|endofmask|>', '</s>', '\nif __name__', '\ndef main(', '\nprint('];

/** EvalPlus' `extra_eos_for_direct_completion` per dataset. */
export const EVALPLUS_EXTRA_EOS: Readonly<Record<'humaneval' | 'mbpp', readonly string[]>> = {
  humaneval: ['\ndef ', '\nclass ', '\nimport ', '\nfrom ', '\nassert '],
  mbpp: ['\n"""', '\nassert'],
};

/** EvalPlus' instruction prefix for chat models (`evalplus/codegen.py`, `run_codegen`). */
export const EVALPLUS_INSTRUCTION_PREFIX =
  'Please provide a self-contained Python script that solves the following problem in a markdown code block:';

/** bigcode's HumanEval prompt: the stripped prompt, continued by the model. */
export function bigcodeHumanEvalPrompt(problem: UnitTestProblem): BuiltPrompt {
  const prompt = problem.prompt.trim();
  return {
    taskId: problem.taskId, style: 'bigcode-humaneval', language: 'python',
    input: { api: 'completions', prompt }, stop: BIGCODE_HUMANEVAL_STOP, output: { kind: 'prefixed', prefix: prompt },
  };
}

/** EvalPlus' direct-completion prompt of `prompt` (HumanEval+ or MBPP+). */
export function evalPlusCompletionPrompt(taskId: string, prompt: string, dataset: 'humaneval' | 'mbpp'): BuiltPrompt {
  const sent = prompt.trim() + '\n';
  return {
    taskId, style: 'evalplus-completion', language: 'python',
    input: { api: 'completions', prompt: sent }, stop: [...EVALPLUS_EOS, ...EVALPLUS_EXTRA_EOS[dataset]],
    output: { kind: 'prefixed', prefix: sent },
  };
}

/** EvalPlus' instruction prompt of `prompt` for a chat model. */
export function evalPlusInstructPrompt(taskId: string, prompt: string): BuiltPrompt {
  // codegen.py strips the task prompt and adds "\n"; the chat decoder strips it again inside the fence.
  const content = `${EVALPLUS_INSTRUCTION_PREFIX}\n\`\`\`python\n${(prompt.trim() + '\n').trim()}\n\`\`\``;
  return {
    taskId, style: 'evalplus-instruct', language: 'python',
    input: { api: 'chat', messages: [{ role: 'user', content }] }, stop: [], output: { kind: 'response' },
  };
}

/** A HumanEval problem (openai/human-eval data) for `api`: bigcode's completion prompt, or EvalPlus' instruction. */
export function humanEvalPrompt(problem: UnitTestProblem, api: PromptApi): BuiltPrompt {
  return api === 'completions' ? bigcodeHumanEvalPrompt(problem) : evalPlusInstructPrompt(problem.taskId, problem.prompt);
}

/** An EvalPlus problem (HumanEval+ / MBPP+) for `api`, as EvalPlus prompts it. */
export function evalPlusPrompt(problem: CallProblem, api: PromptApi): BuiltPrompt {
  return api === 'completions'
    ? evalPlusCompletionPrompt(problem.taskId, problem.prompt, problem.evalplusDataset)
    : evalPlusInstructPrompt(problem.taskId, problem.prompt);
}

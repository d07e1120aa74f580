/**
 * LiveCodeBench code generation, as its runner prompts an OpenAI-style chat model (LiveCodeBench/LiveCodeBench
 * `lcb_runner/prompts/code_generation.py` at 28fef95, `format_prompt_generation` for `LMStyle.OpenAIChat`):
 * a system message (`PromptConstants.SYSTEM_MESSAGE_GENERIC`) and a user message built by
 * `get_generic_question_template_answer`: `### Question:` and the problem text; then `### Format:` with the
 * starter code in a ```` ```python ```` fence (functional problems) or the stdin/stdout instruction and an empty
 * `# YOUR CODE HERE` fence (stdin problems); then `### Answer: (use the provided format with backticks)`.
 * No stop sequences (its OpenAI runner sends none). The answer's code is extracted from the response; for
 * LiveCodeBench's own evaluator, as its `extract_code` does (`lcb_runner/utils/extraction_utils.py`: the lines
 * between the last two lines holding "```"), see `extractLiveCodeBenchCode`.
 *
 * Its base-model prompt (`get_base_model_question_template_answer`) needs its few-shot example files, which are
 * not part of Crucible: LiveCodeBench problems are prompted through the chat API only.
 */
import type { ExpectedCallProblem, IoProblem } from '../../formats/types.js';
import { PromptError, type BuiltPrompt, type PromptApi } from './types.js';

/** LiveCodeBench's generic system message. */
export const LCB_SYSTEM_MESSAGE = 'You are an expert Python programmer. You will be given a question (problem specification) and will ' +
  'generate a correct Python program that matches the specification and passes all tests.';

/** LiveCodeBench's format line for problems with starter code. */
export const LCB_FORMAT_WITH_STARTER = 'You will use the following starter code to write the solution to the problem and enclose your code ' +
  'within delimiters.';

/** LiveCodeBench's format line for stdin/stdout problems. */
export const LCB_FORMAT_STDIN = 'Read the inputs from stdin solve the problem and write the answer to stdout (do not directly test on ' +
  'the sample inputs). Enclose your code within delimiters as follows. Ensure that when the python program runs, it reads the ' +
  'inputs, runs the algorithm and writes output to STDOUT.';

/** The user message of LiveCodeBench's generic template for a question and its starter code ('' for none). */
export function liveCodeBenchQuestion(question: string, starterCode: string): string {
  const format = starterCode !== ''
    ? `### Format: ${LCB_FORMAT_WITH_STARTER}\n\`\`\`python\n${starterCode}\n\`\`\`\n\n`
    : `### Format: ${LCB_FORMAT_STDIN}\n\`\`\`python\n# YOUR CODE HERE\n\`\`\`\n\n`;
  return `### Question:\n${question}\n\n${format}### Answer: (use the provided format with backticks)\n\n`;
}

/** A LiveCodeBench problem (stdin `io` or functional `expected_call`). @throws PromptError for the completions API or no text. */
export function liveCodeBenchPrompt(problem: IoProblem | ExpectedCallProblem, api: PromptApi): BuiltPrompt {
  if (api === 'completions') {
    throw new PromptError(problem.taskId, 'LiveCodeBench\'s base-model prompt needs its few-shot example files: use the chat API (--chat)');
  }
  if (problem.statement === undefined) throw new PromptError(problem.taskId, 'no question_content to show the model');
  const starter = problem.kind === 'expected_call' ? problem.prompt : '';
  return {
    taskId: problem.taskId, style: 'livecodebench', language: 'python',
    input: { api: 'chat', messages: [
      { role: 'system', content: LCB_SYSTEM_MESSAGE },
      { role: 'user', content: liveCodeBenchQuestion(problem.statement, starter) },
    ] },
    stop: [], output: { kind: 'response' },
  };
}

/**
 * The code LiveCodeBench's evaluator takes from a response (`extract_code` for chat styles): the lines between
 * the last two lines that contain "```", or '' when fewer than two lines do.
 */
export function extractLiveCodeBenchCode(response: string): string {
  const lines = response.split('\n');
  const fences = lines.flatMap((line, i) => (line.includes('```') ? [i] : []));
  if (fences.length < 2) return '';
  return lines.slice(fences[fences.length - 2]! + 1, fences[fences.length - 1]!).join('\n');
}

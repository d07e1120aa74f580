/**
 * What a prompt builder produces: the request's prompt (chat messages or a completion prompt), the stop
 * sequences of the benchmark's harness, and how the model's text becomes a Crucible sample.
 */

/** The two OpenAI-compatible APIs: `/chat/completions` and `/completions`. */
export type PromptApi = 'chat' | 'completions';

/** One chat message. */
export interface ChatMessage {
  readonly role: 'system' | 'user';
  readonly content: string;
}

/** The prompt part of a request body. */
export type PromptInput =
  | { readonly api: 'chat'; readonly messages: readonly ChatMessage[] }
  | { readonly api: 'completions'; readonly prompt: string };

/**
 * How the model's text becomes a sample (`src/formats/types.ts` `Sample`):
 * - `completion`: it continues the problem's own prompt; the judge assembles `problem prompt + completion`
 *   (human-eval, MultiPL-E).
 * - `prefixed`: the harness judges `prefix + completion` as a whole program (the prompt as sent, e.g. bigcode's
 *   stripped HumanEval prompt, its MBPP docstring, EvalPlus' direct completion): the sample is that `solution`
 *   (the completion is kept too).
 * - `response`: raw model text (a chat answer): the code is extracted from it (fences, `<think>`).
 */
export type OutputShape =
  | { readonly kind: 'completion' }
  | { readonly kind: 'prefixed'; readonly prefix: string }
  | { readonly kind: 'response' };

/** A prompt ready to send, for one task. */
export interface BuiltPrompt {
  readonly taskId: string;
  /** Which published harness's prompt this is (`bigcode-humaneval`, `evalplus-instruct`, ...; docs/GENERATE.md). */
  readonly style: string;
  readonly input: PromptInput;
  /** Stop sequences: sent as `stop`, and applied to the text here too (a server may ignore or refuse them). */
  readonly stop: readonly string[];
  readonly output: OutputShape;
  /** Language of the code asked for (Crucible language id), for extraction from responses. */
  readonly language: string;
}

/** Thrown when a task cannot be prompted as asked (no text to show, no template for that API). */
export class PromptError extends Error {
  constructor(readonly taskId: string, message: string) {
    super(`task ${taskId}: ${message}`);
    this.name = 'PromptError';
  }
}

/**
 * The prefix of `text` that ends at the first occurrence of any stop sequence (bigcode-evaluation-harness
 * `Task._stop_at_stop_token`, bigcode_eval/base.py at 8fc5bae; MultiPL-E `stop_at_stop_token`,
 * multipl_e/completions.py at 3d11fa3). `text` must not include the prompt.
 */
export function cutAtStop(text: string, stop: readonly string[]): string {
  let end = text.length;
  for (const s of stop) {
    if (s === '') continue;
    const at = text.indexOf(s);
    if (at !== -1 && at < end) end = at;
  }
  return text.slice(0, end);
}

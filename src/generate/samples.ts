/**
 * A generated sample as Crucible judges it. The text is cut at the prompt's stop sequences (as the harnesses cut
 * it, whether or not the server applied them); then, by the prompt's output shape (`prompts/types.ts`):
 * `completion` -> `{completion}`, `prefixed` -> `{completion, solution: prefix + completion}`, `response` ->
 * `{response}` (the code is extracted when judged). A sample the server returned without text is not an empty
 * program: it is decided `no_code` with the finish reason in the verdict's reason.
 */
import type { Sample } from '../formats/types.js';
import type { GeneratedSample } from './generator.js';
import { cutAtStop, type BuiltPrompt } from './prompts/index.js';

/** The model's text as the benchmark uses it: cut at stop sequences for completion prompts; null when none came. */
export function usedText(prompt: BuiltPrompt, generated: GeneratedSample): string | null {
  if (generated.content === null) return null;
  return prompt.output.kind === 'response' ? generated.content : cutAtStop(generated.content, prompt.stop);
}

/** The sample fields of a text (see the module comment). */
export function sampleFields(prompt: BuiltPrompt, text: string): { completion?: string; solution?: string; response?: string } {
  switch (prompt.output.kind) {
    case 'completion': return { completion: text };
    case 'prefixed': return { completion: text, solution: prompt.output.prefix + text };
    case 'response': return { response: text };
  }
}

/** A verdict decided without judging (`crucible eval --endpoint`). */
export interface DecidedSample {
  readonly status: 'no_code' | 'internal_error';
  readonly reason: string;
}

/** A generated sample as `evaluate` takes it: the sample, or a verdict decided for it when no text came. */
export function judgeableSample(prompt: BuiltPrompt, generated: GeneratedSample): { sample: Sample; decided?: DecidedSample } {
  const text = usedText(prompt, generated);
  if (text === null) {
    const why = generated.reasoning === null ? '' : `, after ${generated.reasoning.length} characters of reasoning`;
    return { sample: { taskId: generated.taskId, index: generated.index, response: '' },
      decided: { status: 'no_code', reason: `the model returned no text (finish_reason ${generated.finishReason ?? 'null'}${why})` } };
  }
  return { sample: { taskId: generated.taskId, index: generated.index, ...sampleFields(prompt, text) } };
}

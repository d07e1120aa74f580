/**
 * Sample files in the formats the harnesses read, from a run's samples (tasks in problem order, samples in index
 * order; a sample whose request failed is left out, and the run reports it). Every writer is a pure function of
 * its entries, so the same samples always give the same bytes (a resumed run writes what an uninterrupted run
 * writes); files are written whole and renamed into place.
 *
 * - Crucible samples JSONL (`crucible eval --samples`, docs/FORMATS.md): one line per sample, `task_id`,
 *   `sample_index`, the judged fields (`completion` / `solution` / `response`, null when the server sent no
 *   text), `finish_reason`, `reasoning` when any, `raw` when stop sequences cut the text, `usage` (the request's
 *   `prompt_tokens` and `completion_tokens`, over its `choices`) and `request` (the sampling fields the request
 *   carried: the effective parameters).
 * - EvalPlus (`evalplus.evaluate --samples`): `{task_id, solution}`; a completion is prefixed with the prompt
 *   as sent (evalplus/codegen.py: `solution = prompt + impl`), a chat answer's code is extracted as Crucible
 *   extracts it (EvalPlus' own `sanitize` does the same job); no text: `""`.
 * - bigcode-evaluation-harness `generations.json` (`--load_generations_path`): one list per task of whole
 *   programs, prompt as sent + completion (its `postprocess_generation`), in problem order.
 * - LiveCodeBench custom evaluator input (`lcb_runner/runner/custom_evaluator.py --custom_output_file`): a list
 *   of `{question_id, code_list, output_list}`; `code_list` as LiveCodeBench's `extract_code` takes it,
 *   `output_list` the raw answers (which `crucible eval` reads back).
 */
import { renameSync, writeFileSync } from 'node:fs';
import { extractCode } from '../extract/index.js';
import { LanguageRegistry } from '../languages/registry.js';
import type { GeneratedSample } from './generator.js';
import { extractLiveCodeBenchCode, type BuiltPrompt } from './prompts/index.js';
import { sampleFields, usedText } from './samples.js';

/** One task's samples for the writers. */
export interface WriterEntry {
  readonly prompt: BuiltPrompt;
  /** Samples that came back, in index order. */
  readonly samples: readonly GeneratedSample[];
}

/** The Crucible samples JSONL text. */
export function crucibleSamplesJsonl(entries: readonly WriterEntry[]): string {
  const lines: string[] = [];
  for (const { prompt, samples } of entries) {
    for (const sample of samples) {
      const text = usedText(prompt, sample);
      const fields = text === null ? { [prompt.output.kind === 'response' ? 'response' : 'completion']: null } : sampleFields(prompt, text);
      lines.push(JSON.stringify({
        task_id: prompt.taskId, sample_index: sample.index, ...fields, finish_reason: sample.finishReason,
        ...(sample.reasoning === null ? {} : { reasoning: sample.reasoning }),
        ...(text !== null && sample.content !== null && text !== sample.content ? { raw: sample.content } : {}),
        ...(sample.usage === null ? {} : { usage: { prompt_tokens: sample.usage.promptTokens, completion_tokens: sample.usage.completionTokens,
          choices: sample.usage.choices } }),
        request: sample.request,
      }));
    }
  }
  return lines.map((l) => l + '\n').join('');
}

let registry: LanguageRegistry | undefined;

/**
 * The fence tags that name a prompt's language (`LanguageRegistry.fenceTags`: the language file's id, aliases and
 * fenceTags), as `crucible eval` extracts with them; a language without a file is named by its id alone. The
 * language files are read once per process.
 */
function fenceTagsOf(language: string): ReadonlySet<string> {
  registry ??= LanguageRegistry.load();
  return registry.has(language) ? registry.fenceTags(registry.get(language)) : new Set([language.toLowerCase()]);
}

/** The whole program a sample is, for harnesses that take programs ('' when the server sent no text). */
export function programOf(prompt: BuiltPrompt, sample: GeneratedSample): string {
  const text = usedText(prompt, sample);
  if (text === null) return '';
  switch (prompt.output.kind) {
    case 'prefixed': return prompt.output.prefix + text;
    case 'completion': return (prompt.input.api === 'completions' ? prompt.input.prompt : '') + text;
    case 'response': {
      const extracted = extractCode(text, { fenceTags: fenceTagsOf(prompt.language), pick: 'last', stripThink: true });
      return extracted.kind === 'no_code' ? '' : extracted.code;
    }
  }
}

/** EvalPlus `{task_id, solution}` JSONL text. */
export function evalPlusJsonl(entries: readonly WriterEntry[]): string {
  return entries.flatMap(({ prompt, samples }) => samples.map((s) => JSON.stringify({ task_id: prompt.taskId, solution: programOf(prompt, s) }) + '\n'))
    .join('');
}

/** bigcode-evaluation-harness `generations.json` text. */
export function bigcodeGenerationsJson(entries: readonly WriterEntry[]): string {
  return JSON.stringify(entries.map(({ prompt, samples }) => samples.map((s) => programOf(prompt, s)))) + '\n';
}

/** LiveCodeBench custom-evaluator input text. */
export function liveCodeBenchJson(entries: readonly WriterEntry[]): string {
  return JSON.stringify(entries.map(({ prompt, samples }) => ({
    question_id: prompt.taskId,
    code_list: samples.map((s) => extractLiveCodeBenchCode(s.content ?? '')),
    output_list: samples.map((s) => s.content ?? ''),
  })), null, 2) + '\n';
}

/** Write `text` to `path` whole: a temporary file renamed into place (a crash leaves the old file or the new one). */
export function writeWhole(path: string, text: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

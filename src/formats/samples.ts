/**
 * Model samples -> `Sample[]`.
 *
 * Accepted files (JSONL, optionally gzipped; the kind is decided by the first record):
 * - `{task_id, completion}` (openai/human-eval `evaluate_functional_correctness` input),
 *   `{task_id, generation}` (CodeGeeX HumanEval-X samples, read as a completion),
 *   `{task_id, solution}` (EvalPlus `evalplus.evaluate --samples`, a whole program) or `{task_id, response}`
 *   (raw model text, e.g. a chat model's answer with fences and `<think>`), with an optional `language`. All
 *   present fields are kept; `solution` wins, then `completion`, then `response` (EvalPlus judges `solution`
 *   when both it and `completion` exist, `evalplus/evaluate.py`). Extra fields are ignored.
 *   `crucible generate` writes these records with `completion` or `response` null when the server returned no
 *   text: such a sample is read as an empty response, which is judged `no_code`.
 * - MultiPL-E completion files `{name, ..., completions: [string]}` and results files `{name, ..., results:
 *   [{program}]}` (or a directory of them; see `multipl-e.ts`).
 * - CodeT's `{prompt, samples: [string]}` rows (see `codet.ts`), which need the problems to match prompts.
 * - Whole-file JSON lists (`sample-lists.ts`): bigcode-evaluation-harness generations (lists of strings in problem
 *   order; need the problems) and LiveCodeBench outputs (`question_id`, `output_list` of raw responses).
 * `index` is the 0-based position of a sample among its task's samples in file order.
 * Errors: `DatasetError` naming file, line and field; a CodeT file without problems to match against.
 */
import { z } from 'zod';
import { readCodetSamples } from './codet.js';
import { DatasetError } from './errors.js';
import { readDecompressedText, readJsonl, readLines } from './jsonl.js';
import { firstMultiplEFile, readMultiplESamples } from './multipl-e.js';
import { bigcodeSamples, liveCodeBenchSamples, wholeFileSampleFormat } from './sample-lists.js';
import type { Problem, Sample } from './types.js';

export const SampleRecordSchema = z
  .object({
    // MBPP's ids are numbers (`"task_id": 11`): read as their decimal string, as the MBPP reader names problems.
    task_id: z.preprocess((v) => (Number.isSafeInteger(v) && (v as number) >= 0 ? String(v) : v), z.string().min(1)),
    // null: `crucible generate` recorded that the server returned no text (read as an empty response: `no_code`).
    completion: z.string().nullable().optional(),
    generation: z.string().optional(),
    solution: z.string().optional(),
    response: z.string().nullable().optional(),
    language: z.string().min(1).optional(),
  })
  .superRefine((r, ctx) => {
    if (r.completion === undefined && r.generation === undefined && r.solution === undefined && r.response === undefined) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['completion'],
        message: 'expected string in "completion", "generation", "solution" or "response", all are missing',
      });
    }
  });

/** Sample file kinds. */
export type SampleFormat = 'jsonl' | 'codet' | 'bigcode' | 'livecodebench' | 'multipl-e';

/** A whole-file JSON document (a file whose first line starts with `[`). @throws DatasetError when not JSON. */
async function wholeDocument(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readDecompressedText(path));
  } catch (err) {
    if (err instanceof DatasetError) throw err;
    throw new DatasetError(path, undefined, undefined, `invalid JSON: ${(err as Error).message}`);
  }
}

/**
 * Decide a sample file's kind from its first record (or, for a whole-file JSON list, its first element); `given` may
 * be a directory of MultiPL-E completion/results files, judged by its first file.
 */
export async function detectSampleFormat(given: string): Promise<SampleFormat> {
  const path = await firstMultiplEFile(given);
  for await (const { line, text } of readLines(path)) {
    if (text.trimStart().startsWith('[')) {
      const format = wholeFileSampleFormat(await wholeDocument(path));
      if (format === undefined) {
        throw new DatasetError(path, undefined, undefined,
          'a JSON list that is neither bigcode generations (lists of strings) nor LiveCodeBench outputs (question_id, output_list)');
      }
      return format;
    }
    let first: unknown;
    try {
      first = JSON.parse(text);
    } catch (err) {
      throw new DatasetError(path, line, undefined, `invalid JSON: ${(err as Error).message}`);
    }
    if (typeof first === 'object' && first !== null && 'samples' in first && 'prompt' in first) return 'codet';
    if (typeof first === 'object' && first !== null && 'name' in first && ('completions' in first || 'results' in first)) return 'multipl-e';
    return 'jsonl';
  }
  throw new DatasetError(path, undefined, undefined, 'no samples: the file is empty');
}

/** Read a `{task_id, completion | solution}` JSONL(.gz) file. */
export async function readSampleJsonl(path: string): Promise<Sample[]> {
  const next = new Map<string, number>();
  const out: Sample[] = [];
  for await (const { line, value: r } of readJsonl(path, SampleRecordSchema)) {
    const index = next.get(r.task_id) ?? 0;
    next.set(r.task_id, index + 1);
    const noText = r.completion === null || r.response === null;
    const completion = r.completion === null ? undefined : r.completion ?? r.generation;
    out.push({
      taskId: r.task_id,
      index,
      // CodeGeeX's `generation` is a completion (it continues the prompt); `completion` wins when both exist.
      ...(completion === undefined ? {} : { completion }),
      ...(r.solution === undefined ? {} : { solution: r.solution }),
      ...(noText ? { response: '' } : r.response === undefined || r.response === null ? {} : { response: r.response }),
      ...(r.language === undefined ? {} : { language: r.language }),
      line,
    });
  }
  return out;
}

export interface ReadSamplesOptions {
  /** Problems whose prompts CodeT rows are matched against (required for CodeT files). */
  readonly problems?: readonly Problem[];
}

/** Read any supported sample file (kind detected from the first record). */
export async function readSamples(path: string, options: ReadSamplesOptions = {}): Promise<Sample[]> {
  const format = await detectSampleFormat(path);
  if (format === 'jsonl') return readSampleJsonl(path);
  if (format === 'livecodebench') return liveCodeBenchSamples(path, await wholeDocument(path));
  if (format === 'multipl-e') return readMultiplESamples(path);
  if (options.problems === undefined) {
    throw new DatasetError(path, undefined, undefined, format === 'codet'
      ? 'CodeT {prompt, samples} file: problems are needed to match prompts'
      : 'bigcode generations: problems are needed (the lists follow the problems file\'s order)');
  }
  if (format === 'bigcode') return bigcodeSamples(path, await wholeDocument(path), options.problems);
  return readCodetSamples(path, options.problems);
}

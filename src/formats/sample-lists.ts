/**
 * Whole-file JSON sample formats (one JSON document, not JSONL) -> `Sample[]`:
 * - bigcode-evaluation-harness generations: a JSON list of lists of strings, recognised here and matched to
 *   problems by `bigcode.ts`.
 * - LiveCodeBench outputs (lcb_runner `runner/main.py` saves `CodeGenerationProblem.insert_output` dicts, and the
 *   `_eval_all.json` file the same with grades): a JSON list of objects with `question_id` and `output_list` (the
 *   model's raw responses; `code_list` is LiveCodeBench's own extraction and is not used). Each raw response is a
 *   `response`, from which Crucible extracts the code (`src/extract/`).
 * Errors: `DatasetError` naming the file and the element path (`[3][1]`, `[0].output_list`).
 */
import { z } from 'zod';
import { datasetErrorFromZod } from './errors.js';
import type { Sample } from './types.js';

const LiveCodeBenchOutputSchema = z.array(z.object({
  question_id: z.union([z.string().min(1), z.number().int().transform(String)]),
  output_list: z.array(z.string()),
}).passthrough());

/** Which whole-file sample format a parsed document is, or undefined. */
export function wholeFileSampleFormat(doc: unknown): 'bigcode' | 'livecodebench' | undefined {
  if (!Array.isArray(doc) || doc.length === 0) return undefined;
  const first: unknown = doc[0];
  if (Array.isArray(first)) return 'bigcode';
  if (typeof first === 'object' && first !== null && 'question_id' in first && 'output_list' in first) return 'livecodebench';
  return undefined;
}

/** LiveCodeBench outputs: each `output_list` entry a raw response of `question_id`. */
export function liveCodeBenchSamples(path: string, doc: unknown): Sample[] {
  const parsed = LiveCodeBenchOutputSchema.safeParse(doc);
  if (!parsed.success) throw datasetErrorFromZod(path, undefined, parsed.error);
  const next = new Map<string, number>();
  return parsed.data.flatMap((row) => row.output_list.map((response) => {
    const index = next.get(row.question_id) ?? 0;
    next.set(row.question_id, index + 1);
    return { taskId: row.question_id, index, response };
  }));
}

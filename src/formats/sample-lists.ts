/**
 * Whole-file JSON sample formats (one JSON document, not JSONL) -> `Sample[]`:
 * - bigcode-evaluation-harness generations (`--save_generations`, `generations.json`; bigcode-project/
 *   bigcode-evaluation-harness `main.py` writes `json.dump(generations, f)`): a JSON list with one list of strings per
 *   problem, in the problems file's order (it may be shorter: `--limit`). Each string is the whole program the
 *   harness judges (bigcode's `postprocess_generation` returns prompt + generation for HumanEval, the code for
 *   MBPP), so it is read as a `solution`.
 * - LiveCodeBench outputs (lcb_runner `runner/main.py` saves `CodeGenerationProblem.insert_output` dicts, and the
 *   `_eval_all.json` file the same with grades): a JSON list of objects with `question_id` and `output_list` (the
 *   model's raw responses; `code_list` is LiveCodeBench's own extraction and is not used). Each raw response is a
 *   `response`, from which Crucible extracts the code (`src/extract/`).
 * Errors: `DatasetError` naming the file and the element path (`[3][1]`, `[0].output_list`).
 */
import { z } from 'zod';
import { DatasetError, datasetErrorFromZod } from './errors.js';
import type { Problem, Sample } from './types.js';

const BigcodeSchema = z.array(z.array(z.string(), { invalid_type_error: 'expected a list of generations (strings)' }),
  { invalid_type_error: 'expected a list of lists of strings' });

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

/** bigcode generations: list i holds the samples of `problems[i]`. */
export function bigcodeSamples(path: string, doc: unknown, problems: readonly Problem[]): Sample[] {
  const parsed = BigcodeSchema.safeParse(doc);
  if (!parsed.success) throw datasetErrorFromZod(path, undefined, parsed.error);
  if (parsed.data.length > problems.length) {
    throw new DatasetError(path, undefined, undefined,
      `bigcode generations: ${parsed.data.length} problems' lists, but the problems file has ${problems.length} (lists follow the problems file's order)`);
  }
  return parsed.data.flatMap((generations, i) =>
    generations.map((solution, index) => ({ taskId: problems[i]!.taskId, index, solution })));
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

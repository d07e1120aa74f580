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
 *   [{program}]}`, pretty-printed or one line (or a directory of them; see `multipl-e.ts`).
 * - patches for repository instances (`swe-predictions.ts`): SWE-bench predictions `{instance_id,
 *   model_name_or_path, model_patch}`, raw `{instance_id, response}`, Multi-SWE-bench `{org, repo, number, fix_patch}`.
 * - CodeT's `{prompt, samples: [string]}` rows (see `codet.ts`), which need the problems to match prompts.
 * - Whole-file JSON lists (`sample-lists.ts`): bigcode-evaluation-harness generations (lists of strings without task
 *   ids, matched to the problems by the harness's prompts or its split's order: `bigcode.ts`; need the problems) and
 *   LiveCodeBench outputs (`question_id`, `output_list` of raw responses).
 * - Spider's one-SQL-per-line and BIRD's `{question_id: SQL}` prediction files, given the question file the problems
 *   came from (`options.sqlQuestions`; `sql-predictions.ts`).
 * - EvalPlus sample directories, `<task>/<n>.py` whole programs as `evalplus.codegen` writes them (`evalplus-samples.ts`).
 * `index` is the 0-based position of a sample among its task's samples in file order.
 * Errors: `DatasetError` naming file, line and field; a CodeT file without problems to match against.
 */
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { readCodetSamples } from './codet.js';
import { DatasetError } from './errors.js';
import { readDecompressedText, readJsonl, readLines } from './jsonl.js';
import { firstMultiplEFile, readMultiplESamples } from './multipl-e.js';
import { isEvalPlusSampleDir, readEvalPlusSampleDir } from './evalplus-samples.js';
import { alignBigcode, type BigcodeAlignment } from './bigcode.js';
import { liveCodeBenchSamples, wholeFileSampleFormat } from './sample-lists.js';
import { predictionsKind, readPredictions } from './swe-predictions.js';
import { readSqlPredictionFile, type SqlPredictionFormat, type SqlQuestionFile } from './sql-predictions.js';
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
export type SampleFormat = 'jsonl' | 'codet' | 'bigcode' | 'livecodebench' | 'multipl-e' | 'evalplus-dir' | 'predictions' | SqlPredictionFormat;

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
  if ((await stat(given).catch(() => undefined))?.isDirectory() === true && await isEvalPlusSampleDir(given)) return 'evalplus-dir';
  const path = await firstMultiplEFile(given);
  if ((await stat(path)).isDirectory()) {
    throw new DatasetError(path, undefined, undefined, 'a directory of samples holds MultiPL-E .jsonl files or EvalPlus <task>/<n>.py folders; this one has neither');
  }
  for await (const { line, text } of readLines(path)) {
    if (text.trimStart().startsWith('[')) {
      const document = await wholeDocument(path);
      const head = Array.isArray(document) ? document[0] as unknown : undefined;
      if (typeof head === 'object' && head !== null && !Array.isArray(head) && predictionsKind(new Set(Object.keys(head))) !== undefined) {
        return 'predictions';
      }
      const format = wholeFileSampleFormat(document);
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
      // Not one record per line: a pretty-printed document (MultiPL-E's completion files are written with indent=2).
      if (isMultiplESamples(await wholeDocument(path).catch(() => undefined))) return 'multipl-e';
      throw new DatasetError(path, line, undefined, `invalid JSON: ${(err as Error).message}`);
    }
    if (typeof first === 'object' && first !== null && 'samples' in first && 'prompt' in first) return 'codet';
    if (typeof first === 'object' && first !== null && 'name' in first && ('completions' in first || 'results' in first)) return 'multipl-e';
    if (typeof first === 'object' && first !== null && predictionsKind(new Set(Object.keys(first))) !== undefined) return 'predictions';
    return 'jsonl';
  }
  throw new DatasetError(path, undefined, undefined, 'no samples: the file is empty');
}

/** Whether a whole JSON document is a MultiPL-E completion or results file (`name` and `completions` or `results`). */
function isMultiplESamples(document: unknown): boolean {
  return typeof document === 'object' && document !== null && !Array.isArray(document) && 'name' in document
    && ('completions' in document || 'results' in document);
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
  /** Problems whose prompts CodeT rows are matched against, and bigcode lists are matched to (required for those files). */
  readonly problems?: readonly Problem[];
  /** bigcode generations shorter than their split: the harness's `--limit_start` they were made with (`bigcode.ts`). */
  readonly bigcodeStart?: number;
  /** The Spider / BIRD question file the problems were read from: its prediction files are read too (`sql-predictions.ts`). */
  readonly sqlQuestions?: SqlQuestionFile;
}

/** A read samples file: its samples, its detected kind, and for bigcode files how their lists were matched. */
export interface SampleFile {
  readonly samples: Sample[];
  readonly format: SampleFormat;
  readonly bigcode?: Omit<BigcodeAlignment, 'samples'>;
}

/**
 * Read any supported sample file (kind detected from the first record), saying what kind it was.
 * @throws DatasetError for a missing, unreadable or malformed file, a CodeT or bigcode file without `problems`,
 *   and a bigcode file that cannot be matched to them unambiguously.
 */
export async function readSampleFile(path: string, options: ReadSamplesOptions = {}): Promise<SampleFile> {
  if (options.sqlQuestions !== undefined && (await stat(path).catch(() => undefined))?.isFile() === true) {
    const sql = await readSqlPredictionFile(path, options.sqlQuestions, options.problems);
    if (sql !== undefined) return sql;
  }
  const format = await detectSampleFormat(path);
  if (format === 'jsonl') return { samples: await readSampleJsonl(path), format };
  if (format === 'livecodebench') return { samples: liveCodeBenchSamples(path, await wholeDocument(path)), format };
  if (format === 'multipl-e') return { samples: await readMultiplESamples(path), format };
  if (format === 'predictions') return { samples: await readPredictions(path), format };
  if (format === 'evalplus-dir') return { samples: await readEvalPlusSampleDir(path, options.problems), format };
  if (options.problems === undefined) {
    throw new DatasetError(path, undefined, undefined, format === 'codet'
      ? 'CodeT {prompt, samples} file: problems are needed to match prompts'
      : 'bigcode generations: problems are needed (the lists carry no task ids)');
  }
  if (format === 'bigcode') {
    const { samples, ...bigcode } = alignBigcode(path, await wholeDocument(path), options.problems,
      options.bigcodeStart === undefined ? {} : { start: options.bigcodeStart });
    return { samples, format, bigcode };
  }
  return { samples: await readCodetSamples(path, options.problems), format };
}

/** Read any supported sample file (kind detected from the first record); `readSampleFile` without the kind. */
export async function readSamples(path: string, options: ReadSamplesOptions = {}): Promise<Sample[]> {
  return (await readSampleFile(path, options)).samples;
}

/**
 * Patches for repository instances -> `Sample[]` (the sample's `solution` is the patch; a raw response is kept as
 * `response`, its fenced diff extracted when judged).
 *
 * Accepted (JSONL or a whole JSON list, optionally gzipped; the kind decided by the first record):
 * - SWE-bench predictions `{instance_id, model_name_or_path, model_patch}` (princeton-nlp/SWE-bench
 *   `run_evaluation --predictions_path`); `model_patch` null or "" is the empty patch, judged as such;
 * - raw model output `{instance_id, response}` (or SWE-bench inference's `full_output` when there is no
 *   `model_patch`): the last fenced diff is judged;
 * - Multi-SWE-bench patches `{org, repo, number, fix_patch}` (multi-swe-bench's patch files), whose instance id
 *   is `<org>__<repo>-<number>` as its instances name them.
 * `index` counts a task's samples in file order. `model_name_or_path` of the first record is the run's model
 * name (`readPredictionsModel`). Errors: `DatasetError` naming file, line and field.
 */
import { z } from 'zod';
import { DatasetError, datasetErrorFromZod } from './errors.js';
import { readDecompressedText, readLines } from './jsonl.js';
import type { Sample } from './types.js';

const SweBenchPredictionSchema = z.object({
  instance_id: z.string().min(1),
  model_name_or_path: z.string().optional(),
  model_patch: z.string().nullable().optional(),
  response: z.string().optional(),
  full_output: z.string().optional(),
}).superRefine((r, ctx) => {
  if (r.model_patch === undefined && r.response === undefined && r.full_output === undefined) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['model_patch'], message: 'expected "model_patch" (or "response"), both are missing' });
  }
});

const MultiSweBenchPatchSchema = z.object({
  org: z.string().min(1),
  repo: z.string().min(1),
  number: z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/)]).transform(String),
  fix_patch: z.string().nullable(),
});

/** Which patch-file kind a first record is, or undefined when it is neither. */
export function predictionsKind(keys: ReadonlySet<string>): 'swe-bench' | 'multi-swe-bench' | undefined {
  if (keys.has('instance_id') && (keys.has('model_patch') || keys.has('response') || keys.has('full_output'))) return 'swe-bench';
  if (keys.has('org') && keys.has('repo') && keys.has('number') && keys.has('fix_patch')) return 'multi-swe-bench';
  return undefined;
}

/** Every record of a JSONL or whole-JSON-list file, with its line (JSONL only). @throws DatasetError */
async function records(path: string): Promise<{ line: number | undefined; raw: unknown }[]> {
  const out: { line: number | undefined; raw: unknown }[] = [];
  for await (const { line, text } of readLines(path)) {
    if (out.length === 0 && text.trimStart().startsWith('[')) {
      let list: unknown;
      try {
        list = JSON.parse(await readDecompressedText(path));
      } catch (error) {
        throw new DatasetError(path, undefined, undefined, `invalid JSON: ${(error as Error).message}`);
      }
      if (!Array.isArray(list)) throw new DatasetError(path, undefined, undefined, 'expected a JSON list of predictions');
      return list.map((raw) => ({ line: undefined, raw }));
    }
    try {
      out.push({ line, raw: JSON.parse(text) as unknown });
    } catch (error) {
      throw new DatasetError(path, line, undefined, `invalid JSON: ${(error as Error).message}`);
    }
  }
  return out;
}

function parsed<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, path: string, line: number | undefined, index: number, raw: unknown): T {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const error = datasetErrorFromZod(path, line, result.error);
  throw line === undefined ? new DatasetError(path, undefined, `[${index}]${error.field === undefined ? '' : `.${error.field}`}`, error.detail) : error;
}

/**
 * Read a predictions file (see the module comment).
 * @throws DatasetError naming file, line and field; for an empty file or records of neither kind.
 */
export async function readPredictions(path: string): Promise<Sample[]> {
  const all = await records(path);
  if (all.length === 0) throw new DatasetError(path, undefined, undefined, 'no predictions: the file is empty');
  const first = all[0]!.raw;
  const kind = typeof first === 'object' && first !== null ? predictionsKind(new Set(Object.keys(first))) : undefined;
  if (kind === undefined) {
    throw new DatasetError(path, all[0]!.line, undefined,
      'neither SWE-bench predictions {instance_id, model_patch} nor Multi-SWE-bench patches {org, repo, number, fix_patch}');
  }
  const next = new Map<string, number>();
  const indexOf = (taskId: string): number => {
    const index = next.get(taskId) ?? 0;
    next.set(taskId, index + 1);
    return index;
  };
  return all.map(({ line, raw }, i): Sample => {
    const where = line === undefined ? {} : { line };
    if (kind === 'multi-swe-bench') {
      const r = parsed(MultiSweBenchPatchSchema, path, line, i, raw);
      const taskId = `${r.org}__${r.repo}-${r.number}`;
      return { taskId, index: indexOf(taskId), solution: r.fix_patch ?? '', ...where };
    }
    const r = parsed(SweBenchPredictionSchema, path, line, i, raw);
    const response = r.response ?? r.full_output;
    if (r.model_patch !== undefined) return { taskId: r.instance_id, index: indexOf(r.instance_id), solution: r.model_patch ?? '', ...where };
    return { taskId: r.instance_id, index: indexOf(r.instance_id), response: response!, ...where };
  });
}

/** The `model_name_or_path` of a SWE-bench predictions file's first record, or undefined. Never throws. */
export async function readPredictionsModel(path: string): Promise<string | undefined> {
  try {
    for await (const { text } of readLines(path)) {
      const value = JSON.parse(text.trimStart().startsWith('[') ? await readDecompressedText(path) : text) as unknown;
      const first = Array.isArray(value) ? value[0] : value;
      const name = (first as { model_name_or_path?: unknown } | undefined)?.model_name_or_path;
      return typeof name === 'string' ? name : undefined;
    }
  } catch {
    return undefined;
  }
  return undefined;
}

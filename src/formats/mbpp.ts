/**
 * MBPP problems, original and sanitized -> `PythonScriptProblem`.
 *
 * Source formats (google-research/google-research `mbpp/`, CC-BY-4.0; Austin et al. 2021, "Program Synthesis
 * with Large Language Models"):
 * - original `mbpp.jsonl`: one JSON object per line with `task_id` (int), `text` (the description), `code` (the
 *   reference solution), `test_list` (assert lines), `test_setup_code` (code the asserts need, e.g. building
 *   `Node` trees; usually empty), `challenge_test_list` (harder asserts, usually empty);
 * - sanitized `sanitized-mbpp.json` (a JSON array, also redistributed as JSONL): `source_file`, `task_id`,
 *   `prompt` (the description), `code`, `test_imports` (import lines the asserts need), `test_list`.
 * The program judged is the whole program, then the setup, then the asserts, in one process (the paper's
 * evaluation; bigcode-evaluation-harness `tasks/mbpp.py` runs `generation + "\n" + "\n".join(test_list)`), so
 * asserts may use the program's own names. `challenge_test_list` is kept out of the judged tests, as in the
 * paper's results; `--format mbpp-challenge` judges `test_list` and `challenge_test_list` together.
 * `task_id` becomes the string of the number (`"11"`), which sample files match (a numeric `task_id` in a
 * sample file reads as that string). Windows line ends in the published fields are kept (Python accepts them).
 * Each problem's time limit is `MBPP_TIME_LIMIT_MS`.
 * Errors: `DatasetError` (file, line, field); a whole-document JSON array names the element index as the field.
 */
import { z } from 'zod';
import { DatasetError, datasetErrorFromZod } from './errors.js';
import { readDecompressedText, readJsonl } from './jsonl.js';
import type { PythonScriptProblem } from './types.js';

/** MBPP numbers its tasks; a string id (a converted file) is kept as it is. */
const taskId = z.preprocess((v) => (Number.isSafeInteger(v) && (v as number) >= 0 ? String(v) : v), z.string().min(1));
const testList = z.array(z.string().min(1, 'an empty test line'), { invalid_type_error: 'expected array of assert lines' })
  .min(1, 'no tests');

/** One MBPP row, original (`text`, `test_setup_code`, `challenge_test_list`) or sanitized (`prompt`, `test_imports`). */
export const MbppRecordSchema = z.object({
  task_id: taskId,
  text: z.string().optional(),
  prompt: z.string().optional(),
  code: z.string(),
  test_list: testList,
  test_setup_code: z.string().optional(),
  test_imports: z.array(z.string()).optional(),
  challenge_test_list: z.array(z.string().min(1)).nullable().optional(),
}).superRefine((r, ctx) => {
  if (r.text === undefined && r.prompt === undefined) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['text'], message: 'expected string in "text" (original) or "prompt" (sanitized), both are missing' });
  }
});
type MbppRecord = z.infer<typeof MbppRecordSchema>;

/**
 * CPU time per program, ms: the time-out of the published MBPP evaluation (bigcode-evaluation-harness
 * `tasks/mbpp.py` passes `timeout=3.0` s to `compute_code_eval`). Task 123's reference needs ~2.5 s.
 */
export const MBPP_TIME_LIMIT_MS = 3000;

/** Options: whether `challenge_test_list` is judged too. */
export interface MbppOptions {
  readonly challenge?: boolean;
}

function toProblem(r: MbppRecord, options: MbppOptions): PythonScriptProblem {
  const setup = [r.test_setup_code ?? '', ...(r.test_imports ?? [])].filter((s) => s.trim() !== '').join('\n');
  const tests = options.challenge === true ? [...r.test_list, ...(r.challenge_test_list ?? [])] : r.test_list;
  return {
    kind: 'python_script', taskId: String(r.task_id), language: 'python', statement: r.text ?? r.prompt ?? '',
    setup, tests, canonicalSolution: r.code, timeLimitMs: MBPP_TIME_LIMIT_MS,
  };
}

function addUnique(path: string, line: number | undefined, field: string | undefined, seen: Set<string>, id: string): void {
  if (seen.has(id)) throw new DatasetError(path, line, field, `duplicate task_id "${id}"`);
  seen.add(id);
}

/**
 * Read MBPP (original or sanitized) as JSONL(.gz), or the sanitized release's whole-file JSON array.
 * Duplicate `task_id`s are an error.
 */
export async function readMbpp(path: string, options: MbppOptions = {}): Promise<PythonScriptProblem[]> {
  const out: PythonScriptProblem[] = [];
  const seen = new Set<string>();
  const text = await readDecompressedText(path);
  if (text.trimStart().startsWith('[')) {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (err) {
      throw new DatasetError(path, undefined, undefined, `invalid JSON: ${(err as Error).message}`);
    }
    const parsed = z.array(MbppRecordSchema).safeParse(doc);
    if (!parsed.success) throw datasetErrorFromZod(path, undefined, parsed.error);
    parsed.data.forEach((r, i) => {
      addUnique(path, undefined, `[${i}].task_id`, seen, String(r.task_id));
      out.push(toProblem(r, options));
    });
    return out;
  }
  for await (const { line, value } of readJsonl(path, MbppRecordSchema)) {
    addUnique(path, line, 'task_id', seen, String(value.task_id));
    out.push(toProblem(value, options));
  }
  return out;
}

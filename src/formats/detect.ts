/**
 * `--format auto`: decide a problem file's format from the fields of its first record, then read it.
 * Rules, in order: `base_input` -> `evalplus`; `task_id` + `test` + `entry_point` -> `humaneval`;
 * `tests` array -> `crucible`; a whole-file JSON document with a `problems` array -> `crucible`.
 * Anything else -> `DatasetError` naming the file and the fields seen.
 */
import { DatasetError } from './errors.js';
import { readCrucibleProblems } from './crucible.js';
import { readEvalPlus } from './evalplus.js';
import { readHumanEval } from './humaneval.js';
import { readDecompressedText, readLines } from './jsonl.js';
import { JsonObject, parsePyJson } from './pyjson.js';
import type { Problem } from './types.js';

export type ProblemFormat = 'humaneval' | 'evalplus' | 'crucible';
export const PROBLEM_FORMATS: readonly ProblemFormat[] = ['humaneval', 'evalplus', 'crucible'];

function classify(keys: ReadonlySet<string>, tests: unknown): ProblemFormat | undefined {
  if (keys.has('base_input')) return 'evalplus';
  if (keys.has('task_id') && keys.has('test') && keys.has('entry_point')) return 'humaneval';
  if (keys.has('tests') && Array.isArray(tests)) return 'crucible';
  if (keys.has('problems')) return 'crucible';
  return undefined;
}

export async function detectProblemFormat(path: string): Promise<ProblemFormat> {
  let firstLine: string | undefined;
  for await (const { text } of readLines(path)) {
    firstLine = text;
    break;
  }
  if (firstLine === undefined) throw new DatasetError(path, undefined, undefined, 'no problems: the file is empty');
  let first: unknown;
  try {
    first = parsePyJson(firstLine);
  } catch {
    // Not one JSON value per line: maybe a pretty-printed `{"problems": [...]}` document.
    try {
      first = parsePyJson(await readDecompressedText(path));
    } catch (err) {
      throw new DatasetError(path, 1, undefined, `cannot detect format: not JSON or JSONL (${(err as Error).message})`);
    }
  }
  if (!(first instanceof JsonObject)) {
    throw new DatasetError(path, undefined, undefined, 'cannot detect format: first record is not a JSON object');
  }
  const keys = new Set(first.entries.map((e) => e[0]));
  const format = classify(keys, first.get('tests'));
  if (format === undefined) {
    throw new DatasetError(path, undefined, undefined, `cannot detect format from fields: ${[...keys].join(', ')}`);
  }
  return format;
}

/** Read problems in the given format (`auto` detects it). */
export async function readProblems(path: string, format: ProblemFormat | 'auto' = 'auto'): Promise<Problem[]> {
  const resolved = format === 'auto' ? await detectProblemFormat(path) : format;
  switch (resolved) {
    case 'humaneval':
      return readHumanEval(path);
    case 'evalplus':
      return readEvalPlus(path);
    case 'crucible':
      return readCrucibleProblems(path);
  }
}

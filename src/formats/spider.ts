/**
 * Spider (Yu et al. 2018; taoyds/spider, taoyds/test-suite-sql-eval) -> `SqlProblem`, and Spider's prediction
 * files -> `Sample`.
 *
 * Problems: `dev.json` (a JSON list of `{db_id, question, query, ...}`) with the databases in
 * `<databaseDir>/<db_id>/` (default `databaseDir`: `database/` beside `dev.json`, the layout of the official zip).
 * Every file of that folder whose name contains `.sqlite` is an instance of the database, as the test-suite
 * evaluator takes them (`exec_eval.eval_exec_match`: the original `<db_id>.sqlite`, first here, plus the
 * distilled test-suite variants when present). Questions have no ids: problem `i` (0-based, in file order) has
 * task id `String(i)`. Judged by `spider-testsuite` unless `comparators` says otherwise.
 * A question whose database folder is missing is an error naming the missing `db_id`s, or skipped with
 * `missingDatabases: 'skip'` (the public Spider release ships only some databases).
 *
 * Predictions (`readSpiderPredictions`): one SQL per line, line i for question i, read as the official
 * `evaluation.py` reads them: each line stripped, cut at its first tab, and every `value` replaced by `1` (the
 * evaluator's placeholder rule, applied to the whole text: a column named `value` is rewritten too). An empty
 * line would be a session break for the evaluator, so it is an error here, as is a line count that differs from
 * the problems'. JSONL predictions (`{task_id, response | completion | solution}`) are read by `readSamples`.
 */
import { readdir, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { datasetErrorFromZod, DatasetError } from './errors.js';
import { readDecompressedText } from './jsonl.js';
import type { Sample, SqlComparatorName, SqlProblem } from './types.js';
import { SQL_COMPARATOR_NAMES } from './types.js';

const SpiderQuestionSchema = z.object({
  db_id: z.string().min(1),
  question: z.string(),
  query: z.string().min(1),
}).passthrough();

/** Options of `readSpider`. */
export interface SpiderOptions {
  /** Folder holding `<db_id>/<db_id>.sqlite`; default `database/` beside `dev.json`. */
  readonly databaseDir?: string;
  /** What to do with questions whose database folder is absent (default `error`). */
  readonly missingDatabases?: 'error' | 'skip';
  /** Comparators, the first deciding (default `['spider-testsuite']`). */
  readonly comparators?: readonly SqlComparatorName[];
}

/** A whole JSON document. @throws DatasetError when it is not JSON. */
export async function readJsonDocument(path: string): Promise<unknown> {
  const text = await readDecompressedText(path);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new DatasetError(path, undefined, undefined, `invalid JSON: ${(error as Error).message}`);
  }
}

/** The instances of a database folder (names containing `.sqlite`), `<db_id>.sqlite` first; [] when absent. */
export async function databaseInstances(folder: string, dbId: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const name of names.filter((n) => n.includes('.sqlite')).sort()) {
    const s = await stat(join(folder, name)).catch(() => undefined);
    if (s?.isFile()) files.push(name);
  }
  const main = `${dbId}.sqlite`;
  files.sort((a, b) => (a === main ? -1 : b === main ? 1 : 0));
  return files.map((f) => resolve(folder, f));
}

/** Check a comparator list (non-empty, known names). @throws DatasetError. */
export function checkComparators(path: string, comparators: readonly string[]): readonly SqlComparatorName[] {
  if (comparators.length === 0) throw new DatasetError(path, undefined, 'comparators', 'at least one comparator is needed');
  for (const c of comparators) {
    if (!(SQL_COMPARATOR_NAMES as readonly string[]).includes(c)) {
      throw new DatasetError(path, undefined, 'comparators', `unknown comparator "${c}" (known: ${SQL_COMPARATOR_NAMES.join(', ')})`);
    }
  }
  return comparators as readonly SqlComparatorName[];
}

/** Read Spider's `dev.json` (module comment). @throws DatasetError naming the file, index and field. */
export async function readSpider(path: string, options: SpiderOptions = {}): Promise<SqlProblem[]> {
  const doc = await readJsonDocument(path);
  if (!Array.isArray(doc)) throw new DatasetError(path, undefined, undefined, 'expected a JSON list of questions');
  const comparators = checkComparators(path, options.comparators ?? ['spider-testsuite']);
  const databaseDir = options.databaseDir ?? await nearestDatabaseDir(path);
  const instances = new Map<string, string[]>();
  const missing = new Set<string>();
  const out: SqlProblem[] = [];
  for (let i = 0; i < doc.length; i++) {
    const parsed = SpiderQuestionSchema.safeParse(doc[i]);
    if (!parsed.success) {
      const e = datasetErrorFromZod(path, undefined, parsed.error);
      throw new DatasetError(path, undefined, `[${i}]${e.field === undefined ? '' : `.${e.field}`}`, e.detail);
    }
    const q = parsed.data;
    let files = instances.get(q.db_id);
    if (files === undefined) {
      files = await databaseInstances(join(databaseDir, q.db_id), q.db_id);
      instances.set(q.db_id, files);
    }
    if (files.length === 0) {
      missing.add(q.db_id);
      continue;
    }
    out.push({
      kind: 'sql', taskId: String(i), dbId: q.db_id, question: q.question, engine: 'sqlite',
      databases: files.map((p) => ({ path: p })), gold: q.query, comparators,
    });
  }
  if (missing.size > 0 && (options.missingDatabases ?? 'error') === 'error') {
    throw new DatasetError(path, undefined, undefined,
      `no database for ${missing.size} db_id(s) under ${databaseDir}: ${[...missing].sort().join(', ')} (missingDatabases: 'skip' judges the others)`);
  }
  return out;
}

/**
 * The default database folder of a question file: `database/` beside it (the official zip's layout), else the
 * nearest `database/` folder of an ancestor (a repository keeping `dev.json` deeper than its databases, as
 * `data/spider/` does); `database/` beside the file when there is none.
 */
export async function nearestDatabaseDir(path: string): Promise<string> {
  let dir = dirname(resolve(path));
  for (;;) {
    const candidate = join(dir, 'database');
    try {
      if ((await stat(candidate)).isDirectory()) return candidate;
    } catch {
      // absent: look further up
    }
    const up = dirname(dir);
    if (up === dir) return join(dirname(path), 'database');
    dir = up;
  }
}

/** Python's `str.strip()` whitespace. */
const PY_STRIP = /^[\s\x1c-\x1f\x85]+|[\s\x1c-\x1f\x85]+$/gu;

/**
 * Read a Spider prediction file (module comment): sample `i` answers question `i` (task id `String(i)`).
 * `questions` is the number of questions of the dev file (all of them, also those skipped for a missing database),
 * or their `db_id`s in file order: then a line's optional tab-separated `db_id` (the form the test-suite evaluator's
 * prediction files take) must be its question's, so a shifted file is an error rather than scored against the wrong
 * questions.
 * @throws DatasetError on an empty line, a line count other than the questions', a `db_id` other than its question's.
 */
export async function readSpiderPredictions(path: string, questions: number | readonly string[]): Promise<Sample[]> {
  const questionCount = typeof questions === 'number' ? questions : questions.length;
  const text = await readDecompressedText(path);
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const out: Sample[] = [];
  for (let i = 0; i < lines.length; i++) {
    const stripped = lines[i]!.replace(PY_STRIP, '');
    if (stripped === '') {
      throw new DatasetError(path, i + 1, undefined,
        'empty line: Spider\'s evaluator reads it as a session break, misaligning every later prediction');
    }
    const [query, given] = stripped.split('\t');
    const dbId = typeof questions === 'number' ? undefined : questions[out.length];
    const named = given?.replace(PY_STRIP, '');
    if (dbId !== undefined && named !== undefined && named !== '' && named !== dbId) {
      throw new DatasetError(path, i + 1, 'db_id',
        `line ${i + 1} names database "${named}", question ${out.length} of the dev file is on "${dbId}": Spider pairs predictions with questions by line`);
    }
    out.push({ taskId: String(out.length), index: 0, solution: query!.replaceAll('value', '1'), line: i + 1 });
  }
  if (out.length !== questionCount) {
    throw new DatasetError(path, undefined, undefined,
      `${out.length} predictions for ${questionCount} questions: Spider pairs them by line, so the counts must be equal`);
  }
  return out;
}

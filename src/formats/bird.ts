/**
 * BIRD (Li et al. 2023, "Can LLM Already Serve as A Database Interface?"; AlibabaResearch/DAMO-ConvAI `bird/`,
 * bird-bench/mini_dev) -> `SqlProblem`, and BIRD's prediction files -> `Sample`.
 *
 * Problems: `dev.json` / `mini_dev_sqlite.json` (a JSON list of `{question_id, db_id, question, evidence, SQL,
 * difficulty}`) with the databases at `<databaseDir>/<db_id>/<db_id>.sqlite` (default `databaseDir`:
 * `dev_databases/` beside the JSON file, the layout of the official download). Task id: `String(question_id)`.
 * Judged by `bird-ex` unless `comparators` says otherwise.
 *
 * Predictions (`readBirdPredictions`): the JSON object BIRD's scripts write (`predict_dev.json`:
 * `{"<question_id>": "<SQL>\t----- bird -----\t<db_id>"}`), matched to questions BY KEY. BIRD's own
 * `package_sqls` pairs predictions with gold lines by position (the object's order), so a file written in
 * another order is silently scored against the wrong questions (measured: 0.13% on a reordered mini-dev file);
 * here a key that names no question, or a `db_id` that is not the question's, is an error. As in `package_sqls`,
 * a value without the separator is the whole (stripped) text, and a value that is not a string is an empty
 * prediction.
 */
import { join, dirname, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { datasetErrorFromZod, DatasetError } from './errors.js';
import { checkComparators, readJsonDocument } from './spider.js';
import type { Sample, SqlComparatorName, SqlProblem } from './types.js';

const BirdQuestionSchema = z.object({
  question_id: z.number().int().nonnegative(),
  db_id: z.string().min(1),
  question: z.string(),
  evidence: z.string().optional(),
  SQL: z.string().min(1),
  difficulty: z.string().optional(),
}).passthrough();

/** The separator BIRD's prediction values put between the SQL and the db_id. */
export const BIRD_SEPARATOR = '\t----- bird -----\t';

/** Options of `readBird`. */
export interface BirdOptions {
  /** Folder holding `<db_id>/<db_id>.sqlite`; default `dev_databases/` beside the JSON file. */
  readonly databaseDir?: string;
  /** Comparators, the first deciding (default `['bird-ex']`). */
  readonly comparators?: readonly SqlComparatorName[];
  /** What to do with questions whose database file is absent (default `error`). */
  readonly missingDatabases?: 'error' | 'skip';
}

/** Read BIRD's question file (module comment). @throws DatasetError naming the file, index and field. */
export async function readBird(path: string, options: BirdOptions = {}): Promise<SqlProblem[]> {
  const doc = await readJsonDocument(path);
  if (!Array.isArray(doc)) throw new DatasetError(path, undefined, undefined, 'expected a JSON list of questions');
  const comparators = checkComparators(path, options.comparators ?? ['bird-ex']);
  const databaseDir = options.databaseDir ?? join(dirname(path), 'dev_databases');
  const seen = new Set<number>();
  const missing = new Set<string>();
  const out: SqlProblem[] = [];
  for (let i = 0; i < doc.length; i++) {
    const parsed = BirdQuestionSchema.safeParse(doc[i]);
    if (!parsed.success) {
      const e = datasetErrorFromZod(path, undefined, parsed.error);
      throw new DatasetError(path, undefined, `[${i}]${e.field === undefined ? '' : `.${e.field}`}`, e.detail);
    }
    const q = parsed.data;
    if (seen.has(q.question_id)) throw new DatasetError(path, undefined, `[${i}].question_id`, `duplicate question_id ${q.question_id}`);
    seen.add(q.question_id);
    const file = resolve(databaseDir, q.db_id, `${q.db_id}.sqlite`);
    if (!existsSync(file)) {
      missing.add(q.db_id);
      continue;
    }
    out.push({
      kind: 'sql', taskId: String(q.question_id), dbId: q.db_id, question: q.question,
      ...(q.evidence === undefined ? {} : { evidence: q.evidence }),
      ...(q.difficulty === undefined ? {} : { difficulty: q.difficulty }),
      engine: 'sqlite', databases: [{ path: file }], gold: q.SQL, comparators,
    });
  }
  if (missing.size > 0 && (options.missingDatabases ?? 'error') === 'error') {
    throw new DatasetError(path, undefined, undefined,
      `no database for ${missing.size} db_id(s) under ${databaseDir}: ${[...missing].sort().join(', ')}`);
  }
  return out;
}

/**
 * Read a BIRD prediction object (module comment) against the questions it answers (`dbIds`: question id -> db_id,
 * every question of the file, including any skipped for a missing database).
 * @throws DatasetError for a key that is no question id, or a db_id other than the question's.
 */
export async function readBirdPredictions(path: string, dbIds: ReadonlyMap<string, string>): Promise<Sample[]> {
  const doc = await readJsonDocument(path);
  const parsed = z.record(z.unknown()).safeParse(doc);
  if (!parsed.success || Array.isArray(doc)) {
    if (!parsed.success) throw datasetErrorFromZod(path, undefined, parsed.error);
    throw new DatasetError(path, undefined, undefined, 'expected a JSON object keyed by question_id');
  }
  const out: Sample[] = [];
  for (const [key, value] of Object.entries(parsed.data)) {
    const dbId = dbIds.get(key);
    if (dbId === undefined) {
      throw new DatasetError(path, undefined, key, `no question has question_id ${JSON.stringify(key)}: predictions are matched by key, not by position`);
    }
    let sql = '';
    if (typeof value === 'string') {
      const at = value.indexOf(BIRD_SEPARATOR);
      if (at >= 0 && value.indexOf(BIRD_SEPARATOR, at + 1) < 0) {
        sql = value.slice(0, at);
        const given = value.slice(at + BIRD_SEPARATOR.length);
        if (given !== dbId) {
          throw new DatasetError(path, undefined, key, `prediction names database "${given}", question ${key} is on "${dbId}"`);
        }
      } else {
        sql = value.trim();
      }
    }
    out.push({ taskId: key, index: 0, solution: sql });
  }
  return out;
}

/**
 * Text-to-SQL prediction files as the benchmarks' own evaluators read them, for `--samples` next to JSONL:
 * - Spider (`spider`, `spider-available`): one SQL per line, line `i` for question `i` of `dev.json`, optionally
 *   followed by a tab and the question's `db_id` (`readSpiderPredictions`: the official `evaluation.py` reading,
 *   line count equal to the dev file's question count, a named `db_id` checked against the question's). A file is
 *   one when its first character that is not whitespace is neither `{` nor `[` (JSON records start with those).
 * - BIRD (`bird`, `bird-f1`): the JSON object its scripts write, `{"<question_id>": "<SQL>\t----- bird -----\t<db_id>"}`
 *   (`readBirdPredictions`), matched to the questions by `question_id`, never by position. A file is one when the
 *   whole text is one JSON object without a `task_id` field whose keys are all decimal integers.
 * Predictions of questions skipped for an absent database (`spider-available`) are dropped with them; every other
 * prediction must name a question of the file.
 */
import { DatasetError } from './errors.js';
import { readBirdPredictions } from './bird.js';
import { readDecompressedText } from './jsonl.js';
import { readJsonDocument, readSpiderPredictions } from './spider.js';
import type { Problem, Sample } from './types.js';

/** The question file a prediction file answers: its dialect and path. */
export interface SqlQuestionFile {
  readonly dialect: 'spider' | 'bird';
  readonly path: string;
}

/** The question file of a problem format, when the format is Spider's or BIRD's. */
export function sqlQuestionFile(format: string, problemsPath: string): SqlQuestionFile | undefined {
  if (format === 'spider' || format === 'spider-available') return { dialect: 'spider', path: problemsPath };
  if (format === 'bird' || format === 'bird-f1') return { dialect: 'bird', path: problemsPath };
  return undefined;
}

/** The prediction-file kinds this module reads. */
export type SqlPredictionFormat = 'spider-lines' | 'bird-predictions';

/** `field` of every element of a question list (the readers validated the file already). */
async function questionFields(path: string, field: 'db_id' | 'question_id'): Promise<unknown[][]> {
  const doc = await readJsonDocument(path);
  if (!Array.isArray(doc)) throw new DatasetError(path, undefined, undefined, 'expected a JSON list of questions');
  return doc.map((q: unknown) => {
    const record = (typeof q === 'object' && q !== null ? q : {}) as Record<string, unknown>;
    return [record[field], record.db_id];
  });
}

/** Whether a text is BIRD's prediction object (module comment). */
function isBirdObject(text: string): boolean {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return false;
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc) || 'task_id' in doc) return false;
  const keys = Object.keys(doc);
  return keys.length > 0 && keys.every((k) => /^\d+$/.test(k));
}

/**
 * Read `path` as the prediction file of `questions` when it is one (module comment), else undefined (the caller
 * reads it as any sample file). `problems`: the problems read from the question file, which keep their samples.
 * @throws DatasetError as `readSpiderPredictions` / `readBirdPredictions` do.
 */
export async function readSqlPredictionFile(path: string, questions: SqlQuestionFile, problems: readonly Problem[] | undefined):
  Promise<{ samples: Sample[]; format: SqlPredictionFormat } | undefined> {
  const text = await readDecompressedText(path);
  const first = text.trimStart()[0];
  let read: { samples: Sample[]; format: SqlPredictionFormat } | undefined;
  if (questions.dialect === 'spider' && first !== undefined && first !== '{' && first !== '[') {
    const dbIds = (await questionFields(questions.path, 'db_id')).map(([dbId]) => String(dbId));
    read = { samples: await readSpiderPredictions(path, dbIds), format: 'spider-lines' };
  } else if (questions.dialect === 'bird' && first === '{' && isBirdObject(text)) {
    const ids = new Map((await questionFields(questions.path, 'question_id')).map(([id, dbId]) => [String(id), String(dbId)]));
    read = { samples: await readBirdPredictions(path, ids), format: 'bird-predictions' };
  }
  if (read === undefined || problems === undefined) return read;
  const kept = new Set(problems.map((p) => p.taskId));
  return { ...read, samples: read.samples.filter((s) => kept.has(s.taskId)) };
}

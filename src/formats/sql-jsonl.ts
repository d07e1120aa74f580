/**
 * Crucible's own text-to-SQL problems (`--format sql-jsonl`): one JSONL row per problem, for problems that are not
 * Spider's or BIRD's layout, and the only file form of PostgreSQL problems (whose instances are SQL texts):
 *   {task_id, db_id?, question?, engine?: "sqlite" | "postgres", databases: [{sql: "CREATE TABLE …; INSERT …"} |
 *    {path: "file.sqlite"}], gold, comparators?: [...], keep_distinct?, float_decimals?, time_limit_ms?}
 * `engine` defaults to `sqlite`; a PostgreSQL instance must be SQL text (a `path` is refused, naming the line);
 * a relative `path` is relative to the file; `comparators` default to `["spider-testsuite"]` (the first decides;
 * `docs/FORMATS.md` lists them and their sources). Errors: `DatasetError` naming the file, line and field.
 */
import { dirname, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { DatasetError } from './errors.js';
import { readJsonl } from './jsonl.js';
import { SQL_COMPARATOR_NAMES, type SqlDatabase, type SqlProblem } from './types.js';

const RowSchema = z.object({
  task_id: z.union([z.string().min(1), z.number().int()]).transform(String),
  db_id: z.string().min(1).optional(),
  question: z.string().optional(),
  engine: z.enum(['sqlite', 'postgres']).default('sqlite'),
  databases: z.array(z.union([z.object({ sql: z.string() }).strict(), z.object({ path: z.string().min(1) }).strict()])).min(1),
  gold: z.string().min(1),
  comparators: z.array(z.enum(SQL_COMPARATOR_NAMES)).min(1).default(['spider-testsuite']),
  keep_distinct: z.boolean().optional(),
  float_decimals: z.number().int().min(0).max(15).optional(),
  time_limit_ms: z.number().int().min(1).max(600_000).optional(),
}).passthrough();

/** Read a `sql-jsonl` problem file (module comment). @throws DatasetError naming the file, line and field. */
export async function readSqlJsonl(path: string): Promise<SqlProblem[]> {
  const out: SqlProblem[] = [];
  for await (const { value, line } of readJsonl(path, RowSchema)) {
    const databases: SqlDatabase[] = value.databases.map((d) => ('sql' in d ? { sql: d.sql } : { path: isAbsolute(d.path) ? d.path : resolve(dirname(path), d.path) }));
    if (value.engine === 'postgres' && databases.some((d) => 'path' in d)) {
      throw new DatasetError(path, line, 'databases', 'a postgres instance is SQL text ({sql}), not a SQLite file ({path})');
    }
    out.push({
      kind: 'sql', taskId: value.task_id, dbId: value.db_id ?? value.task_id, engine: value.engine, databases, gold: value.gold,
      comparators: value.comparators, ...(value.question === undefined ? {} : { question: value.question }),
      ...(value.keep_distinct === undefined ? {} : { keepDistinct: value.keep_distinct }),
      ...(value.float_decimals === undefined ? {} : { floatDecimals: value.float_decimals }),
      ...(value.time_limit_ms === undefined ? {} : { timeLimitMs: value.time_limit_ms }),
    });
  }
  return out;
}

/**
 * `sqlite`: a database loaded from the task (`{sql: "CREATE TABLE ...; INSERT ..."}`, run once in a fresh box,
 * and again at reset), SQL statements as actions, result sets as observations: `stdout` shows each result set
 * as `col|col` lines under a header row (the sqlite3 shell's list mode); `columns`, `rows` and `rowsTruncated`
 * carry the last one (at most 1000 rows and 60 kB). Python's sqlite3 module inside the box, autocommit, on /box/task.db.
 * A value JSON has no number for (SQLite's infinities, `SELECT 1e999`) is the string `Inf` / `-Inf`, as the sqlite3
 * shell prints it (harness/python/crucible_session/repl.py `cell`).
 */
import { z } from 'zod';
import { SessionError } from '../types.js';
import type { BoxEnvironmentSpec } from './box-environment.js';

const TaskSchema = z.object({ sql: z.string().max(16 << 20).describe('SQL that builds the database.') }).strict();

interface ResultSet {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly unknown[])[];
  readonly truncated: boolean;
}

export const SQLITE_ENVIRONMENT: BoxEnvironmentSpec = {
  kind: 'sqlite',
  actionName: 'SQL',
  stateName: 'open transactions and temporary tables',
  setup: (task) => {
    if (task === undefined) return null;
    const parsed = TaskSchema.safeParse(task);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = ['task', ...issue.path].join('.');
      throw new SessionError('invalid_task', `${field}: ${issue.message}`, field);
    }
    return parsed.data.sql;
  },
  observe: (extra) => {
    if (extra === null || typeof extra !== 'object') return {};
    const set = extra as ResultSet;
    return { columns: set.columns, rows: set.rows, rowsTruncated: set.truncated };
  },
};

/**
 * What the SQL kind puts in a box: the in-box runner's source (`harness/sql/crucible_sql.py`), each database
 * instance as a file (`db<i>.sqlite` copied from its path, or `db<i>.sql` holding the SQL that builds it), and the
 * runner's job as stdin. The box gets copies: a query can never change the file a problem names (Spider's
 * `exec_eval` opens it read-write, and a predicted `DROP TABLE` destroyed a table for good; data/spider/README.md).
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SqlDatabase } from '../../formats/types.js';
import { HARNESS_DIR } from '../../paths.js';
import type { SqlRunnerJob } from './runner-protocol.js';

let runnerSource: string | undefined;

/** The runner's source text, read once. @throws when the harness file is missing (an installation fault). */
export function sqlRunnerSource(): string {
  runnerSource ??= readFileSync(join(HARNESS_DIR, 'sql', 'crucible_sql.py'), 'utf8');
  return runnerSource;
}

/** Most bytes of database files kept in memory between judgements (the last files read). */
const CACHE_BYTES = 256 << 20;
const cache = new Map<string, { readonly mtimeMs: number; readonly bytes: Uint8Array }>();

/** A database file's bytes, cached by path and modification time. @throws when it cannot be read. */
function databaseBytes(path: string): Uint8Array {
  const mtimeMs = statSync(path).mtimeMs;
  const hit = cache.get(path);
  if (hit !== undefined && hit.mtimeMs === mtimeMs) {
    cache.delete(path);
    cache.set(path, hit);
    return hit.bytes;
  }
  const bytes = new Uint8Array(readFileSync(path));
  cache.set(path, { mtimeMs, bytes });
  let total = [...cache.values()].reduce((s, e) => s + e.bytes.length, 0);
  for (const [key, entry] of cache) {
    if (total <= CACHE_BYTES || key === path) break;
    cache.delete(key);
    total -= entry.bytes.length;
  }
  return bytes;
}

/** The box files of a problem's database instances, by name under `/box`, in instance order. */
export function databaseFiles(databases: readonly SqlDatabase[]): { names: string[]; files: Record<string, string | Uint8Array> } {
  const names: string[] = [];
  const files: Record<string, string | Uint8Array> = {};
  databases.forEach((db, i) => {
    const name = 'path' in db ? `db${i}.sqlite` : `db${i}.sql`;
    names.push(name);
    files[name] = 'path' in db ? databaseBytes(db.path) : db.sql;
  });
  return { names, files };
}

/**
 * What identifies the instances' contents for a cached reference: each file's path, size and modification time
 * (a database rebuilt in place makes the gold results again), or the SQL text.
 */
export function databaseIdentity(databases: readonly SqlDatabase[]): unknown[] {
  return databases.map((db) => {
    if (!('path' in db)) return db.sql;
    const s = statSync(db.path);
    return [db.path, s.size, s.mtimeMs];
  });
}

/** The runner's job (stdin) for `queries` on the instances `names` (files under `/box`). */
export function runnerJob(names: readonly string[], queries: readonly string[], timeLimitMs: number, maxRows: number, maxBytes: number): SqlRunnerJob {
  return { databases: names.map((n) => `/box/${n}`), queries: [...queries], timeLimitMs, maxRows, maxBytes };
}

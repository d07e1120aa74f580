/**
 * The few SQL operations the result store needs, behind one interface so the store's logic (`sql-store.ts`) is
 * written once and each backend is a thin adapter: `sqlite-driver.ts` (better-sqlite3, one file, no server) and
 * `postgres-driver.ts` (node-postgres). The store never imports an adapter; `open.ts` picks one.
 *
 * SQL is written once with `?` placeholders (the PostgreSQL adapter numbers them `$1…`), standard types that
 * both engines accept (TEXT, INTEGER, BIGINT, SMALLINT, DOUBLE PRECISION) and `ON CONFLICT DO NOTHING`. Result
 * columns are given camelCase names with quoted aliases, which both engines keep as written. Integers come
 * back as JavaScript numbers from both (the PostgreSQL adapter parses BIGINT and NUMERIC).
 */

/** A value bound to a placeholder or read from a column. Booleans are stored as 0/1 SMALLINT; blobs are Buffers. */
export type SqlValue = string | number | null | Buffer;

/** The engines the store runs on. */
export type SqlDialect = 'sqlite' | 'postgres';

/** A connection (or pool) to one database. Every method rejects with the engine's error on failure. */
export interface SqlDriver {
  readonly dialect: SqlDialect;
  /** Rows of a query, each an object keyed by column alias. */
  all<T extends object>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** First row of a query, or undefined. */
  get<T extends object>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  /** Run a statement; resolves to the number of rows it changed. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
  /**
   * Insert many rows into `table` (`columns` in order); `ignoreConflicts` skips rows whose key exists
   * (`ON CONFLICT DO NOTHING`). Rows are sent in batches (SQLite: one prepared statement; PostgreSQL:
   * multi-row VALUES under the 65,535-parameter limit).
   */
  insertMany(table: string, columns: readonly string[], rows: readonly (readonly SqlValue[])[], ignoreConflicts: boolean): Promise<void>;
  /** Run a script of `;`-separated statements without parameters (schema creation). */
  exec(script: string): Promise<void>;
  /** Run `fn` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: SqlDriver) => Promise<T>): Promise<T>;
  /** Release the connection(s). */
  close(): Promise<void>;
}

/** Largest number of bound parameters per statement the adapters send (PostgreSQL allows 65,535). */
export const MAX_PARAMETERS = 30_000;

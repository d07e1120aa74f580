/**
 * SQLite adapter of `SqlDriver` over better-sqlite3 (synchronous; each call resolves at once). WAL journal so
 * a dashboard reads while `crucible eval` writes from another process; `busy_timeout` so two processes wait
 * for each other's locks instead of failing.
 *
 * Within one process every store object of one file shares one connection and one transaction queue: a
 * transaction's function may `await`, and a second connection of the same thread asking for the write lock
 * meanwhile would block the thread that holds it until the busy timeout. (That is the one process-wide table
 * here; it exists because SQLite locks are per connection, and closes each connection with its last user.)
 */
import Database from 'better-sqlite3';
import type { SqlDriver, SqlValue } from './driver.js';

type Statement = Database.Statement<unknown[], unknown>;

/** One open file and its queue, shared by the drivers of this process. */
class Connection {
  readonly statements = new Map<string, Statement>();
  queue: Promise<unknown> = Promise.resolve();
  inTransaction = false;
  users = 0;

  constructor(readonly db: Database.Database) {}

  statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

const connections = new Map<string, Connection>();

/** Open (creating if needed) the SQLite database file at `path` (`:memory:` for a private in-memory one). */
export function openSqlite(path: string): SqlDriver {
  let connection = path === ':memory:' ? undefined : connections.get(path);
  if (connection === undefined) {
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 10000');
    connection = new Connection(db);
    if (path !== ':memory:') connections.set(path, connection);
  }
  connection.users++;
  return new SqliteDriver(connection, path);
}

class SqliteDriver implements SqlDriver {
  readonly dialect = 'sqlite' as const;
  private closed = false;

  constructor(private readonly connection: Connection, private readonly path: string) {}

  async all<T extends object>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return this.connection.statement(sql).all(...params) as T[];
  }

  async get<T extends object>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    return this.connection.statement(sql).get(...params) as T | undefined;
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
    return this.connection.statement(sql).run(...params).changes;
  }

  async insertMany(table: string, columns: readonly string[], rows: readonly (readonly SqlValue[])[], ignoreConflicts: boolean): Promise<void> {
    if (rows.length === 0) return;
    const sql = `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})` +
      (ignoreConflicts ? ' ON CONFLICT DO NOTHING' : '');
    const statement = this.connection.statement(sql);
    const insert = (): void => { for (const row of rows) statement.run(...row); };
    if (this.connection.inTransaction) insert();
    else this.connection.db.transaction(insert)();
  }

  async exec(script: string): Promise<void> {
    this.connection.db.exec(script);
  }

  transaction<T>(fn: (tx: SqlDriver) => Promise<T>): Promise<T> {
    const { connection } = this;
    const next = connection.queue.then(async () => {
      connection.db.exec('BEGIN IMMEDIATE');
      connection.inTransaction = true;
      try {
        const result = await fn(this);
        connection.db.exec('COMMIT');
        return result;
      } catch (error) {
        if (connection.db.inTransaction) connection.db.exec('ROLLBACK');
        throw error;
      } finally {
        connection.inTransaction = false;
      }
    });
    connection.queue = next.catch(() => undefined);
    return next;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.connection.queue;
    if (--this.connection.users > 0) return;
    if (connections.get(this.path) === this.connection) connections.delete(this.path);
    this.connection.db.close();
  }
}

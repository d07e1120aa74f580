/**
 * PostgreSQL adapter of `SqlDriver` over node-postgres (`pg`): a small pool; BIGINT (int8) and NUMERIC come
 * back as JavaScript numbers (the store's integers are counts and epoch milliseconds, far below 2^53);
 * `?` placeholders are numbered `$1…` (the store's SQL has no `?` inside string literals).
 */
import pg from 'pg';
import { MAX_PARAMETERS, type SqlDriver, type SqlValue } from './driver.js';

const INT8_OID = 20;
const NUMERIC_OID = 1700;

const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary'): (value: string) => unknown {
    if (oid === INT8_OID) return (value: string) => Number.parseInt(value, 10);
    if (oid === NUMERIC_OID) return (value: string) => Number.parseFloat(value);
    return pg.types.getTypeParser(oid, format ?? 'text') as (value: string) => unknown;
  },
};

/** `?` placeholders to `$1, $2, …`. */
export function numberPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** Connect to `url` (postgres://user@host:port/db); resolves once a connection works. */
export async function openPostgres(url: string): Promise<SqlDriver> {
  const pool = new pg.Pool({ connectionString: url, max: 4, types });
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end();
    throw error;
  }
  return new PostgresDriver(pool, pool);
}

type Queryable = pg.Pool | pg.PoolClient;

class PostgresDriver implements SqlDriver {
  readonly dialect = 'postgres' as const;

  constructor(private readonly pool: pg.Pool, private readonly target: Queryable) {}

  async all<T extends object>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    const result = await this.target.query(numberPlaceholders(sql), params as SqlValue[]);
    return result.rows as T[];
  }

  async get<T extends object>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
    const result = await this.target.query(numberPlaceholders(sql), params as SqlValue[]);
    return result.rowCount ?? 0;
  }

  async insertMany(table: string, columns: readonly string[], rows: readonly (readonly SqlValue[])[], ignoreConflicts: boolean): Promise<void> {
    const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
    for (let start = 0; start < rows.length; start += perStatement) {
      const batch = rows.slice(start, start + perStatement);
      const tuple = `(${columns.map(() => '?').join(', ')})`;
      const sql = `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${batch.map(() => tuple).join(', ')}` +
        (ignoreConflicts ? ' ON CONFLICT DO NOTHING' : '');
      await this.target.query(numberPlaceholders(sql), batch.flat() as SqlValue[]);
    }
  }

  async exec(script: string): Promise<void> {
    await this.target.query(script);
  }

  async transaction<T>(fn: (tx: SqlDriver) => Promise<T>): Promise<T> {
    if (this.target !== this.pool) return fn(this);
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn(new PostgresDriver(this.pool, client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    if (this.target === this.pool) await this.pool.end();
  }
}

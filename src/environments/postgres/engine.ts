/**
 * The `postgres` SQL engine (`src/judge/sql-engine.ts`) on a server Crucible started (`./server.ts`). Per job:
 * - each instance's SQL text is built once into a template database (`crucible_t_<sha256>`), by the
 *   non-superuser `crucible_loader` (a problem's SQL cannot use superuser features: `COPY ... PROGRAM`, server
 *   files), which then grants SELECT on its tables to the group `crucible_readers`; the template then refuses
 *   connections. A text that does not build is the problem's fault (`cause: 'database'`).
 * - the judgement gets a throw-away copy of each template (`CREATE DATABASE ... TEMPLATE`) and a fresh login role
 *   of its own in `crucible_readers` (no superuser, no CREATEDB/CREATEROLE; CONNECT on its copies only, PUBLIC's
 *   CONNECT and TEMP revoked), so a query sees no other judgement's queries (`pg_stat_activity` hides another
 *   role's text) and cannot signal their backends; both are dropped after the job (`DROP DATABASE ... WITH (FORCE)`).
 * - each query is refused unless it is one statement by the trusted lexer (`src/kinds/sql/sqlparse-lexer.ts`; the
 *   SQLite runner's message), then run as `DECLARE ... CURSOR FOR <query>` through the extended protocol (which
 *   itself refuses a second statement, and makes anything but a query a syntax error: no COPY, SET, DDL) inside
 *   `BEGIN TRANSACTION READ ONLY` ... `ROLLBACK`, on a connection with `default_transaction_read_only=on` and
 *   `statement_timeout` = the time limit; rows are fetched in batches and counted against `maxRows` and
 *   `maxBytes` (the JSON text of the kept cells), past which the answer is `tooLarge` (`output_limit_exceeded`).
 * - the hard kill from outside: at the time limit the admin connection cancels the backend
 *   (`pg_cancel_backend`), and terminates it (`pg_terminate_backend`) `KILL_GRACE_MS` later if it still runs;
 *   the query is then `timeout`.
 * Values are converted by `./values.ts`; answers are the SQL runner's protocol lines (`src/kinds/sql/runner-protocol.ts`).
 */
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import type { SqlEngine, SqlEngineJob, SqlEngineResult } from '../../judge/sql-engine.js';
import { firstStatementTokens } from '../../kinds/sql/sqlparse-lexer.js';
import type { PostgresLogin, PostgresServer } from './server.js';
import { postgresRow } from './values.js';

/** Cells come back as the server's text; `./values.ts` converts them by type. */
const RAW_TYPES = { getTypeParser: () => (value: string): string => value };

/** Rows per FETCH. */
const FETCH_ROWS = 2000;
/** After the cancel at the time limit, how long before the backend is terminated (ms). */
export const KILL_GRACE_MS = 100;
/** A template's SQL text must load within this (ms). */
const LOAD_TIMEOUT_MS = 120_000;

/** An instance's SQL text does not build (the problem's fault). */
class DatabaseBuildError extends Error {}

/** One line of the runner protocol (without `q`, `db`). */
type Answer = { rows: unknown[][] } | { error: string } | { timeout: true } | { tooLarge: string };

/** The SQLite runner's answer to more than one statement (`harness/sql/crucible_sql.py`: sqlite3's own rule). */
const ONE_STATEMENT = 'ProgrammingError: You can only execute one statement at a time.';

/** Whether `sql` holds exactly one statement by the trusted lexer (what follows the first is blank, comments or `;`). */
export function isOneStatement(sql: string): boolean {
  const first = firstStatementTokens(sql);
  if (first === undefined) return false;
  const rest = sql.slice(first.reduce((n, t) => n + t.value.length, 0));
  const tail = firstStatementTokens(rest);
  return tail === undefined || tail.every((t) => t.type !== 'other' && t.type !== 'keyword' && t.type !== 'ddl' && !(t.type === 'punctuation' && t.value !== ';'));
}

const secret = (): string => randomBytes(18).toString('hex');

/** A database error of the server (it has a SQLSTATE `code`). */
function sqlState(error: unknown): string | undefined {
  return error instanceof pg.DatabaseError ? error.code : undefined;
}

/** One judgement's connection to one of its databases, opened on first use and again after a kill. */
class Connection {
  private client: pg.Client | undefined;
  private pid = 0;

  constructor(private readonly config: pg.ClientConfig) {}

  async open(): Promise<{ client: pg.Client; pid: number }> {
    if (this.client === undefined) {
      const client = new pg.Client(this.config);
      client.on('error', () => { /* a terminated backend: the query's own error reports it */ });
      await client.connect();
      this.pid = Number((await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid);
      this.client = client;
    }
    return { client: this.client, pid: this.pid };
  }

  /** Forget a connection whose backend was terminated (or that failed). */
  async drop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}

/** The PostgreSQL engine (module comment). */
export class PostgresEngine implements SqlEngine {
  readonly name = 'postgres';
  private readonly admin: pg.Pool;
  private readonly templates = new Map<string, Promise<string>>();
  private seq = 0;
  private closed = false;

  constructor(private readonly server: PostgresServer) {
    this.admin = new pg.Pool({ ...server.connection(server.admin, 'postgres'), max: 4 });
    this.admin.on('error', () => { /* an idle admin connection lost: the next query reconnects */ });
  }

  /** Close the engine's connections (the server is its owner's to stop); closing again does nothing. */
  async close(): Promise<void> {
    // Idempotent: the judge closes its engines (LocalJudge.close) and the engine's owner may close it too.
    if (this.closed) return;
    this.closed = true;
    await this.admin.end();
  }

  /** Run a job (module comment). @throws the signal's reason when aborted. */
  async run(job: SqlEngineJob, signal?: AbortSignal): Promise<SqlEngineResult> {
    const started = performance.now();
    let templates: string[];
    try {
      templates = await Promise.all(job.databases.map((sql) => this.template(sql)));
    } catch (error) {
      return { error: `a database instance could not be built: ${(error as Error).message}`, cause: error instanceof DatabaseBuildError ? 'database' : 'engine' };
    }
    const id = `${process.pid}_${++this.seq}_${randomBytes(4).toString('hex')}`;
    const role: PostgresLogin = { user: `crucible_q_${id}`, password: secret() };
    const databases = templates.map((_, i) => `crucible_j_${id}_${i}`);
    const connections: Connection[] = [];
    try {
      await this.admin.query(`CREATE ROLE ${role.user} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE INHERIT CONNECTION LIMIT ${databases.length + 1} `
        + `IN ROLE crucible_readers PASSWORD '${role.password}'`);
      for (const [i, db] of databases.entries()) {
        await this.admin.query(`CREATE DATABASE ${db} TEMPLATE ${templates[i]!} OWNER crucible_loader`);
        await this.admin.query(`REVOKE ALL ON DATABASE ${db} FROM PUBLIC`);
        await this.admin.query(`GRANT CONNECT ON DATABASE ${db} TO ${role.user}`);
        connections.push(new Connection({ ...this.server.connection(role, db),
          options: `-c default_transaction_read_only=on -c statement_timeout=${Math.max(1, Math.ceil(job.timeLimitMs))} -c lock_timeout=${Math.max(1, Math.ceil(job.timeLimitMs))}` }));
      }
      const lines: string[] = [];
      for (const [q, text] of job.queries.entries()) {
        for (const [db, connection] of connections.entries()) {
          signal?.throwIfAborted();
          const answer = isOneStatement(text) ? await this.query(connection, text, job) : { error: ONE_STATEMENT };
          lines.push(JSON.stringify({ q, db, ...answer }));
        }
      }
      lines.push('{"done": true}');
      return { stdout: `${lines.join('\n')}\n`, wallMs: Math.round(performance.now() - started) };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      return { error: `the PostgreSQL server failed: ${(error as Error).message}`, cause: 'engine' };
    } finally {
      await Promise.all(connections.map((c) => c.drop()));
      for (const db of databases) await this.admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`).catch(() => undefined);
      await this.admin.query(`DROP ROLE IF EXISTS ${role.user}`).catch(() => undefined);
    }
  }

  /** The template database of an instance's SQL text, built once (module comment). */
  private template(sql: string): Promise<string> {
    const name = `crucible_t_${createHash('sha256').update(sql).digest('hex').slice(0, 40)}`;
    let built = this.templates.get(name);
    if (built === undefined) {
      built = this.buildTemplate(name, sql).then(() => name);
      this.templates.set(name, built);
      // Crucible's own failures are tried again by the next job; a text that does not build stays refused.
      built.catch((error: unknown) => { if (!(error instanceof DatabaseBuildError)) this.templates.delete(name); });
    }
    return built;
  }

  private async buildTemplate(name: string, sql: string): Promise<void> {
    await this.admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await this.admin.query(`CREATE DATABASE ${name} OWNER crucible_loader`);
    await this.admin.query(`REVOKE ALL ON DATABASE ${name} FROM PUBLIC`);
    const loader = new pg.Client({ ...this.server.connection(this.server.loader, name), options: `-c statement_timeout=${LOAD_TIMEOUT_MS}` });
    loader.on('error', () => undefined);
    await loader.connect();
    try {
      try {
        await loader.query(sql);
      } catch (error) {
        if (sqlState(error) !== undefined) throw new DatabaseBuildError((error as Error).message);
        throw error;
      }
      await loader.query(`DO $$ DECLARE s name; BEGIN
        FOR s IN SELECT nspname FROM pg_namespace WHERE nspowner = current_user::regrole OR nspname = 'public' LOOP
          EXECUTE format('GRANT USAGE ON SCHEMA %I TO crucible_readers', s);
          EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA %I TO crucible_readers', s);
        END LOOP; END $$`);
    } finally {
      await loader.end().catch(() => undefined);
    }
    await this.admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
  }

  /** One query on one database (module comment). @throws Error when the server failed (not the query). */
  private async query(connection: Connection, text: string, job: SqlEngineJob): Promise<Answer> {
    const { client, pid } = await connection.open();
    let killed = false;
    const cancel = setTimeout(() => {
      killed = true;
      this.admin.query('SELECT pg_cancel_backend($1)', [pid]).catch(() => undefined);
    }, job.timeLimitMs);
    const terminate = setTimeout(() => {
      this.admin.query('SELECT pg_terminate_backend($1)', [pid]).catch(() => undefined);
    }, job.timeLimitMs + KILL_GRACE_MS);
    let broken = false;
    try {
      await client.query('BEGIN TRANSACTION READ ONLY');
      await client.query({ text: `DECLARE crucible_result NO SCROLL CURSOR FOR ${text}`, queryMode: 'extended' } as pg.QueryConfig);
      const rows: unknown[][] = [];
      let bytes = 0;
      for (;;) {
        const batch = await client.query<unknown[]>({ text: `FETCH ${FETCH_ROWS} FROM crucible_result`, rowMode: 'array', types: RAW_TYPES });
        const oids = batch.fields.map((f) => f.dataTypeID);
        for (const row of batch.rows) {
          const wire = postgresRow(oids, row as (string | null)[]);
          bytes += JSON.stringify(wire).length;
          rows.push(wire);
          if (rows.length > job.maxRows) return { tooLarge: `more than ${job.maxRows} rows` };
          if (bytes > job.maxBytes) return { tooLarge: `more than ${job.maxBytes} bytes of results` };
        }
        if (batch.rows.length < FETCH_ROWS) break;
      }
      return { rows };
    } catch (error) {
      const state = sqlState(error);
      if (killed || state === '57014') return { timeout: true };
      if (state !== undefined && !state.startsWith('57') && !state.startsWith('08')) {
        return { error: `${(error as pg.DatabaseError).severity ?? 'ERROR'} ${state}: ${(error as Error).message}` };
      }
      broken = true;
      if (state === undefined && !killed) throw error;
      return { error: `the query's connection ended (${state}): ${(error as Error).message}` };
    } finally {
      clearTimeout(cancel);
      clearTimeout(terminate);
      if (killed || broken) await connection.drop();
      else await client.query('ROLLBACK').catch(() => connection.drop());
    }
  }
}

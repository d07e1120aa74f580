/**
 * The PostgreSQL engine of front ends (`crucible eval`, `serve`, `worker`, `rerank`, …): a `SqlEngine` named
 * `postgres` that starts its server (`startPostgresServer`) on the first job that needs it, so a judge made for any
 * problem set can judge PostgreSQL problems and one that never meets them starts nothing.
 *
 * A server that cannot start (no binaries, initdb failing) answers every job with `cause: 'engine'`, i.e. the
 * sample's `internal_error` with the reason: Crucible's missing part, never the candidate's failure. The failure is
 * kept (the next job does not try again). `close()` stops the server with the judge (`LocalJudge.close`).
 */
import type { SqlEngine, SqlEngineJob, SqlEngineResult } from '../../judge/sql-engine.js';
import { PostgresEngine } from './engine.js';
import { startPostgresServer, type PostgresServer, type PostgresServerOptions } from './server.js';

/** A PostgreSQL engine whose server starts on first use (see the module comment). */
export class OnDemandPostgres implements SqlEngine {
  readonly name = 'postgres';
  private started: Promise<{ server: PostgresServer; engine: PostgresEngine }> | undefined;
  private closed = false;

  constructor(private readonly options: PostgresServerOptions = {}) {}

  private start(): Promise<{ server: PostgresServer; engine: PostgresEngine }> {
    this.started ??= startPostgresServer(this.options).then((server) => ({ server, engine: new PostgresEngine(server) }));
    return this.started;
  }

  /** Run `job` on the server, starting it first if this is the first job. @throws the signal's reason when aborted. */
  async run(job: SqlEngineJob, signal?: AbortSignal): Promise<SqlEngineResult> {
    if (this.closed) return { error: 'the PostgreSQL engine was closed', cause: 'engine' };
    let started: { server: PostgresServer; engine: PostgresEngine };
    try {
      started = await this.start();
    } catch (error) {
      return { error: `PostgreSQL could not start on this judge: ${(error as Error).message}`, cause: 'engine' };
    }
    return started.engine.run(job, signal);
  }

  /** Stop the server if it started. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    const started = await this.started?.catch(() => undefined);
    if (started === undefined) return;
    await started.engine.close().catch(() => undefined);
    started.server.stop();
  }
}

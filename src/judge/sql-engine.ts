/**
 * SQL database servers, as the seam sees them: a plan of kind `sql_engine` (`./plan.ts`) names an engine and a job
 * as data (database instances as SQL texts, query texts, limits), and the executor hands the job to the
 * `SqlEngine` of that name, which runs every query on a throw-away copy of every instance and answers in the SQL
 * kind's runner protocol (`src/kinds/sql/runner-protocol.ts`: one JSON line per query and instance, then
 * `{"done": true}`). Engines are made above the engine layer (`src/environments/postgres/`) and handed to the judge
 * (`createJudge({sqlEngines})`), so modes stay pure: no candidate code runs on the host, the query text crosses
 * to the server as data.
 */

/** One job: every query on every instance, each query under `timeLimitMs` (wall) and the row and byte caps. */
export interface SqlEngineJob {
  /** The instances: SQL texts that build each (the problem's data, loaded by the engine as a non-superuser). */
  readonly databases: readonly string[];
  /** The query texts, each one statement (the engine refuses more). */
  readonly queries: readonly string[];
  readonly timeLimitMs: number;
  readonly maxRows: number;
  readonly maxBytes: number;
}

/**
 * What an engine answered: the runner-protocol lines (`stdout`) and the wall time of the whole job (ms); or why it
 * could not run the job: `database` when an instance's SQL text does not build (the problem's fault), `engine`
 * when the server failed (Crucible's).
 */
export type SqlEngineResult =
  | { readonly stdout: string; readonly wallMs: number }
  | { readonly error: string; readonly cause: 'database' | 'engine' };

/** A SQL server that judges jobs (see the module comment). */
export interface SqlEngine {
  /** The name plans use (`SqlEnginePlan.engine`). */
  readonly name: string;
  /** Run `job`; never rejects for what a query does (that is a line of the answer). @throws the signal's reason when aborted. */
  run(job: SqlEngineJob, signal?: AbortSignal): Promise<SqlEngineResult>;
  /** Release what the engine holds (connections, a server it started); called by the judge's `close`. */
  close?(): Promise<void>;
}

/**
 * `sqlite`: a database loaded from the task (`{sql: "CREATE TABLE ...; INSERT ..."}`, run once in a fresh box,
 * and again at reset), SQL statements as actions, result sets as observations: `stdout` shows each result set
 * as `col|col` lines under a header row (the sqlite3 shell's list mode); `columns`, `rows` and `rowsTruncated`
 * carry the last one (at most 1000 rows and 60 kB). Python's sqlite3 module inside the box, autocommit, on /box/task.db.
 * A value JSON has no number for (SQLite's infinities, `SELECT 1e999`) is the string `Inf` / `-Inf`, as the sqlite3
 * shell prints it (harness/python/crucible_session/repl.py `cell`).
 *
 * InterCode-SQL (Yang et al. 2023, arXiv 2306.14898): a task with a `gold` query takes `submit` actions
 * (`SqliteEnvironment`): the string `submit` submits the last SQL action that ran (InterCode's episode end, whose
 * reward scores the last observation), `{"kind": "submit", "query"}` a query of its own. The query is judged by the
 * `sql` kind through the server's judge (`SqlSubmitJudge`): the query and the gold each run in a fresh box on a
 * database built from the task's `sql` (the pristine database, not the session's, whose state the agent's actions
 * changed), nothing of the gold in the session's box or the query's; the results compared outside the boxes by the
 * task's `comparators` (default `["intercode"]`: InterCode-SQL's reward, `src/kinds/sql/intercode.ts`). The reward
 * is the verdict's score (`intercode`, `soft-f1`), else 1 for a match and 0 otherwise; `internal_error` and
 * `reference_failed` (the gold failed) have none (null). The submit ends the episode (`done`); a session has
 * `limits.maxSubmits` submits over its life, a reset (which rebuilds the database) does not give them back.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { SQL_COMPARATOR_NAMES, type SqlComparatorName, type SqlProblem } from '../../formats/types.js';
import type { Verdict } from '../../verdict/index.js';
import { SessionError, type Observation, type SessionLimits, type StepOutcome } from '../types.js';
import { BoxEnvironment, type BoxDeps, type BoxEnvironmentSpec } from './box-environment.js';
import type { Environment } from './environment.js';
import type { SubmitCount } from './program.js';

const TaskSchema = z.object({
  sql: z.string().max(16 << 20).describe('SQL that builds the database.'),
  gold: z.string().min(1).max(1 << 20).optional().describe('The gold query a submit is judged against (InterCode-SQL).'),
  comparators: z.array(z.enum(SQL_COMPARATOR_NAMES)).min(1).optional().describe('How a submit is compared, the first deciding; default ["intercode"].'),
}).strict();

/** Judges one submitted query on a `sql` problem (the server's judge). Never rejects for what the query does. */
export type SqlSubmitJudge = (problem: SqlProblem, query: string, signal?: AbortSignal) => Promise<Verdict>;

/** The task's fields; @throws SessionError('invalid_task') naming the field. */
function parseTask(task: unknown): z.output<typeof TaskSchema> {
  const parsed = TaskSchema.safeParse(task);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = ['task', ...issue.path].join('.');
    throw new SessionError('invalid_task', `${field}: ${issue.message}`, field);
  }
  return parsed.data;
}

interface ResultSet {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly unknown[])[];
  readonly truncated: boolean;
}

export const SQLITE_ENVIRONMENT: BoxEnvironmentSpec = {
  kind: 'sqlite',
  actionName: 'SQL',
  stateName: 'open transactions and temporary tables',
  setup: (task) => (task === undefined ? null : parseTask(task).sql),
  observe: (extra) => {
    if (extra === null || typeof extra !== 'object') return {};
    const set = extra as ResultSet;
    return { columns: set.columns, rows: set.rows, rowsTruncated: set.truncated };
  },
};

const SubmitSchema = z.object({ kind: z.literal('submit'), query: z.string().max(1 << 20) }).strict();

/** The `sql` problem a task's submits are judged on (module comment). */
export function sessionSqlProblem(sql: string, gold: string, comparators: readonly SqlComparatorName[]): SqlProblem {
  const id = createHash('sha256').update(JSON.stringify([sql, gold, comparators])).digest('hex').slice(0, 24);
  return { kind: 'sql', taskId: `session:${id}`, dbId: 'session', engine: 'sqlite', databases: [{ sql }], gold, comparators };
}

/** A `sqlite` session: the box environment, plus InterCode-SQL's `submit` when the task has a gold query (module comment). */
export class SqliteEnvironment implements Environment {
  private readonly box: BoxEnvironment;
  private readonly problem: SqlProblem | undefined;
  private lastQuery: string | null = null;

  constructor(task: unknown, private readonly limits: SessionLimits, deps: BoxDeps, private readonly judge: SqlSubmitJudge | undefined,
    private readonly submits: SubmitCount) {
    this.box = new BoxEnvironment(SQLITE_ENVIRONMENT, task, limits, deps);
    const parsed = task === undefined ? undefined : parseTask(task);
    if (parsed?.gold !== undefined && judge === undefined) {
      throw new SessionError('invalid_task', 'task.gold: this server has no judge for sqlite submits', 'task.gold');
    }
    this.problem = parsed?.gold === undefined ? undefined : sessionSqlProblem(parsed.sql, parsed.gold, parsed.comparators ?? ['intercode']);
  }

  async start(): Promise<Observation> {
    this.lastQuery = null;
    const first = await this.box.start();
    return this.problem === undefined ? first
      : { ...first, message: `${String(first.message)}; "submit" (or {"kind": "submit", "query"}) ends the episode: the query is judged against the task's gold query` };
  }

  async step(action: unknown, signal?: AbortSignal): Promise<StepOutcome> {
    const query = this.submitted(action);
    if (query === undefined) {
      const outcome = await this.box.step(action, signal);
      this.lastQuery = action as string;
      return outcome;
    }
    if (this.submits.used >= this.limits.maxSubmits) {
      throw new SessionError('session_done', `the session has used all its ${this.limits.maxSubmits} submits (limits.maxSubmits)`);
    }
    const verdict = await this.judge!(this.problem!, query, signal);
    if (verdict.status !== 'internal_error') this.submits.used++;
    const reward = verdict.status === 'internal_error' || verdict.status === 'reference_failed' ? null
      : verdict.score ?? (verdict.passed ? 1 : 0);
    return {
      observation: {
        stdout: '', stderr: '', exitCode: null, status: verdict.status, submitted: query, passed: verdict.passed,
        ...(verdict.score === undefined ? {} : { score: verdict.score }), ...(verdict.reason === undefined ? {} : { reason: verdict.reason }),
        submitsLeft: this.limits.maxSubmits - this.submits.used,
      },
      reward, done: reward !== null,
    };
  }

  /** The query an action submits, or undefined when it is SQL to run. @throws SessionError('invalid_action') */
  private submitted(action: unknown): string | undefined {
    const isSubmit = action === 'submit' || (typeof action === 'object' && action !== null && (action as { kind?: unknown }).kind === 'submit');
    if (!isSubmit) return undefined;
    if (this.problem === undefined) throw new SessionError('invalid_action', 'action: this task has no gold query to submit against (task.gold)', 'action');
    if (action === 'submit') {
      if (this.lastQuery === null) throw new SessionError('invalid_action', 'action: "submit" submits the last SQL that ran, and none has', 'action');
      return this.lastQuery;
    }
    const parsed = SubmitSchema.safeParse(action);
    if (!parsed.success) throw new SessionError('invalid_action', 'action: a submit is "submit" or {"kind": "submit", "query": string}', 'action');
    return parsed.data.query;
  }

  async close(): Promise<void> {
    await this.box.close();
  }
}

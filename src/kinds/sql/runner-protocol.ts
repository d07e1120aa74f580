/**
 * The in-box SQL runner's protocol (`harness/sql/crucible_sql.py`, which documents it): the job it reads, and its
 * output lines read back into outcomes per query text and database instance (`./judging.ts`'s `ResultsByText`).
 * The runner is trusted code, but it runs in the box beside the query, so its output is validated like any
 * other data: a missing, malformed or extra line is Crucible's failure (`RunnerOutputError`), never a verdict.
 */
import { z } from 'zod';
import type { QueryOutcome } from './judging.js';
import { fromWire, wireValueSchema } from './values.js';

/** The runner's job: every query on every database (paths inside the box). */
export interface SqlRunnerJob {
  readonly databases: readonly string[];
  readonly queries: readonly string[];
  readonly timeLimitMs: number;
  readonly maxRows: number;
  readonly maxBytes: number;
}

/** Most result rows kept per query and instance (more is `output_limit_exceeded`). */
export const SQL_MAX_ROWS = 100_000;
/** Most bytes of result cells (JSON) kept per query and instance. */
export const SQL_MAX_BYTES = 16 << 20;

const lineSchema = z.union([
  z.object({ q: z.number().int().nonnegative(), db: z.number().int().nonnegative(), rows: z.array(z.array(wireValueSchema)) }).strict(),
  z.object({ q: z.number().int().nonnegative(), db: z.number().int().nonnegative(), error: z.string() }).strict(),
  z.object({ q: z.number().int().nonnegative(), db: z.number().int().nonnegative(), timeout: z.literal(true) }).strict(),
  z.object({ q: z.number().int().nonnegative(), db: z.number().int().nonnegative(), tooLarge: z.string() }).strict(),
  z.object({ done: z.literal(true) }).strict(),
]);

/** The runner's output could not be read (Crucible's failure). */
export class RunnerOutputError extends Error {
  override readonly name = 'RunnerOutputError';
}

/**
 * Read the runner's stdout for `job`: outcomes by query text, one per database in order. `complete` is false
 * when the output stopped early (the box was killed at its limit): the outcomes then hold what came, and the
 * caller decides (the query being run at the kill is the one that timed out). @throws RunnerOutputError.
 */
export function readRunnerOutput(job: SqlRunnerJob, stdout: string): { results: Map<string, QueryOutcome[]>; complete: boolean; next: { q: number; db: number } } {
  const results = new Map<string, QueryOutcome[]>();
  let expected = 0;
  const total = job.queries.length * job.databases.length;
  let complete = false;
  for (const text of stdout.split('\n')) {
    if (text.trim() === '') continue;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new RunnerOutputError(`runner line ${expected + 1} is not JSON`);
    }
    const parsed = lineSchema.safeParse(raw);
    if (!parsed.success) throw new RunnerOutputError(`runner line ${expected + 1}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    const line = parsed.data;
    if ('done' in line) {
      if (expected !== total) throw new RunnerOutputError(`runner finished after ${expected} of ${total} results`);
      complete = true;
      continue;
    }
    const q = Math.floor(expected / job.databases.length);
    const db = expected % job.databases.length;
    if (complete || line.q !== q || line.db !== db) throw new RunnerOutputError(`runner result out of order: got ${line.q}/${line.db}, expected ${q}/${db}`);
    const outcome: QueryOutcome = 'rows' in line ? { ok: true, rows: line.rows.map((r) => r.map(fromWire)) }
      : 'error' in line ? { ok: false, failure: 'error', message: line.error }
        : 'timeout' in line ? { ok: false, failure: 'timeout' }
          : { ok: false, failure: 'too_large', message: `the result has ${line.tooLarge}` };
    const text0 = job.queries[q]!;
    const list = results.get(text0) ?? [];
    list[db] = outcome;
    results.set(text0, list);
    expected++;
  }
  return { results, complete, next: { q: Math.floor(expected / Math.max(1, job.databases.length)), db: expected % Math.max(1, job.databases.length) } };
}

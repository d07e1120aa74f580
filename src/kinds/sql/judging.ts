/**
 * One SQL judgement from executed queries, pure: which texts each comparator executes (`comparatorQueries`),
 * and how the gold's and the prediction's results on every database instance become comparator answers and a
 * status (`judgeSql`).
 *
 * Each comparator executes what its evaluator executes: `spider-testsuite` the texts after Spider's rewriting
 * (`./spider-query.ts`), with TEXT that is not UTF-8 decoded dropping the bad bytes (Spider's `text_factory`); the
 * BIRD comparators (`bird-ex`, `bird-ex-sorted`, `soft-f1`) the texts as given, a TEXT value that is not UTF-8
 * failing the query (Python's default `text_factory`); `bag-ordered` the texts as given, bytes compared as bytes.
 * The prediction must match on every instance (the test-suite rule); `soft-f1`'s score is its lowest over the
 * instances.
 *
 * Statuses: the deciding (first) comparator's prediction runs decide how the sample failed when one of them did not
 * run to a result: `time_limit_exceeded` (the query was killed at the limit), `output_limit_exceeded` (its result
 * was larger than allowed), `runtime_error` (the database refused it: a syntax error, a second statement, a write
 * to the read-only database); otherwise `passed` when the deciding comparator matches on every instance, else
 * `wrong_answer`. A gold query that fails, or a comparison that cannot be completed, is never a verdict on the
 * sample: `judgeSql` throws `SqlJudgingError`.
 */
import type { SqlComparatorName } from '../../formats/types.js';
import { ComparatorError, compareResults } from './comparators.js';
import { spiderQueryTexts } from './spider-query.js';
import { decodeText, type SqlRow } from './values.js';

/** What executing one query on one database instance gave. */
export type QueryOutcome =
  | { readonly ok: true; readonly rows: readonly SqlRow[] }
  | { readonly ok: false; readonly failure: 'error'; readonly message: string }
  | { readonly ok: false; readonly failure: 'timeout' | 'too_large'; readonly message?: string };

/** How a comparator's evaluator reads TEXT that is not UTF-8 (module comment). */
export type TextRule = 'ignore' | 'raise' | 'keep';

/** The texts one comparator executes for one (gold, prediction) pair. */
export interface ComparatorQueries {
  readonly comparator: SqlComparatorName;
  /** Undefined when the comparator's evaluator cannot run the gold (Spider: no statement in it). */
  readonly gold: string | undefined;
  /** Undefined when the evaluator cannot run the prediction (it then fails). */
  readonly predicted: string | undefined;
  readonly orderMatters: boolean;
  readonly textRule: TextRule;
}

/** The judging options of a problem. */
export interface SqlJudgingOptions {
  readonly comparators: readonly SqlComparatorName[];
  readonly keepDistinct?: boolean;
  readonly floatDecimals?: number;
}

/** Which texts each comparator executes (module comment), in the problem's comparator order. */
export function comparatorQueries(options: SqlJudgingOptions, gold: string, predicted: string): ComparatorQueries[] {
  return options.comparators.map((comparator): ComparatorQueries => {
    if (comparator === 'spider-testsuite') {
      const t = spiderQueryTexts(gold, predicted, options.keepDistinct ?? false);
      return { comparator, gold: t.gold, predicted: t.predicted, orderMatters: t.orderMatters, textRule: 'ignore' };
    }
    const orderMatters = gold.toLowerCase().includes('order by');
    return { comparator, gold, predicted, orderMatters, textRule: comparator === 'bag-ordered' ? 'keep' : 'raise' };
  });
}

/** The gold texts a problem's comparators execute (its reference), whatever the prediction. */
export function goldQueries(options: SqlJudgingOptions, gold: string): string[] {
  const texts = comparatorQueries(options, gold, 'SELECT 1').map((q) => q.gold).filter((t): t is string => t !== undefined);
  return [...new Set(texts)];
}

/** One comparator's answer over all instances. */
export interface ComparatorAnswer {
  readonly comparator: SqlComparatorName;
  readonly match: boolean;
  /** In [0, 1]: 1/0, or `soft-f1`'s lowest score. */
  readonly score: number;
  /** Per instance: matched, or why not (`wrong result`, the query's failure). */
  readonly instances: readonly { readonly match: boolean; readonly score: number; readonly reason?: string }[];
}

/** What `judgeSql` decided. */
export interface SqlJudgement {
  readonly status: 'passed' | 'wrong_answer' | 'runtime_error' | 'time_limit_exceeded' | 'output_limit_exceeded';
  readonly reason?: string;
  /** The deciding comparator's score. */
  readonly score: number;
  /** Every comparator's answer, the deciding one first. */
  readonly comparisons: readonly ComparatorAnswer[];
  /** Whether the comparators disagree on match / no match. */
  readonly disagreement: boolean;
}

/** The gold could not be judged, or a comparison could not be completed: Crucible's (or the dataset's) failure. */
export class SqlJudgingError extends Error {
  override readonly name = 'SqlJudgingError';
}

/** Rows decoded under a text rule; undefined when the rule makes the query fail. */
function decodeRows(rows: readonly SqlRow[], rule: TextRule): SqlRow[] | undefined {
  if (rule === 'keep') return rows as SqlRow[];
  const out: SqlRow[] = [];
  for (const row of rows) {
    const cells = [];
    for (const v of row) {
      const d = decodeText(v, rule);
      if (d === undefined) return undefined;
      cells.push(d);
    }
    out.push(cells);
  }
  return out;
}

/** Why a prediction's run failed, for a reason. */
function failureReason(outcome: QueryOutcome): string {
  if (outcome.ok) return '';
  if (outcome.failure === 'timeout') return 'the query ran past the time limit';
  if (outcome.failure === 'too_large') return outcome.message ?? 'the result is larger than allowed';
  return `SQL error: ${outcome.message}`;
}

/** Results by text: the outcome on each instance, in instance order. */
export type ResultsByText = ReadonlyMap<string, readonly QueryOutcome[]>;

function answerOf(q: ComparatorQueries, goldResults: ResultsByText, predResults: ResultsByText, instanceCount: number,
  floatDecimals: number | undefined): { answer: ComparatorAnswer; failure?: QueryOutcome } {
  if (q.gold === undefined) throw new SqlJudgingError(`${q.comparator}: the gold query has no SQL statement`);
  const golds = goldResults.get(q.gold);
  if (golds === undefined || golds.length !== instanceCount) throw new SqlJudgingError(`${q.comparator}: no gold result for ${JSON.stringify(q.gold)}`);
  const instances: { match: boolean; score: number; reason?: string }[] = [];
  let failure: QueryOutcome | undefined;
  for (let i = 0; i < instanceCount; i++) {
    const g = golds[i]!;
    if (!g.ok) throw new SqlJudgingError(`${q.comparator}: the gold query failed on instance ${i}: ${failureReason(g)}`);
    const goldRows = decodeRows(g.rows, q.textRule);
    if (goldRows === undefined) throw new SqlJudgingError(`${q.comparator}: the gold result on instance ${i} holds text that is not UTF-8`);
    if (q.predicted === undefined) {
      instances.push({ match: false, score: 0, reason: 'the prediction has no SQL statement' });
      continue;
    }
    const p = predResults.get(q.predicted)?.[i];
    if (p === undefined) throw new SqlJudgingError(`${q.comparator}: no result of the prediction on instance ${i}`);
    if (!p.ok) {
      failure ??= p;
      instances.push({ match: false, score: 0, reason: failureReason(p) });
      continue;
    }
    const predRows = decodeRows(p.rows, q.textRule);
    if (predRows === undefined) {
      failure ??= { ok: false, failure: 'error', message: 'Could not decode to UTF-8 (a TEXT value is not UTF-8)' };
      instances.push({ match: false, score: 0, reason: 'a TEXT value of the result is not UTF-8' });
      continue;
    }
    try {
      const c = compareResults(q.comparator, goldRows, predRows, { orderMatters: q.orderMatters, floatDecimals });
      instances.push(c.match ? { match: true, score: c.score } : { match: false, score: c.score, reason: 'wrong result' });
    } catch (error) {
      if (error instanceof ComparatorError) throw new SqlJudgingError(`${q.comparator}: ${error.message}`);
      throw error;
    }
  }
  const match = instances.every((x) => x.match);
  const score = instances.reduce((m, x) => Math.min(m, x.score), 1);
  return { answer: { comparator: q.comparator, match, score: match ? 1 : score, instances }, ...(failure === undefined ? {} : { failure }) };
}

/**
 * Judge one prediction (module comment). `goldResults` and `predResults` map each executed text to its outcome on
 * each of the `instanceCount` instances; the texts are those `comparatorQueries` named.
 * @throws SqlJudgingError when the gold failed or a comparison could not be completed.
 */
export function judgeSql(queries: readonly ComparatorQueries[], goldResults: ResultsByText, predResults: ResultsByText,
  instanceCount: number, floatDecimals?: number): SqlJudgement {
  if (queries.length === 0) throw new SqlJudgingError('no comparator');
  const answers = queries.map((q) => answerOf(q, goldResults, predResults, instanceCount, floatDecimals));
  const comparisons = answers.map((a) => a.answer);
  const primary = answers[0]!;
  const disagreement = comparisons.some((c) => c.match !== comparisons[0]!.match);
  const failure = primary.failure;
  if (failure !== undefined && !failure.ok) {
    const status = failure.failure === 'timeout' ? 'time_limit_exceeded' : failure.failure === 'too_large' ? 'output_limit_exceeded' : 'runtime_error';
    return { status, reason: failureReason(failure), score: 0, comparisons, disagreement };
  }
  const firstMiss = primary.answer.instances.findIndex((x) => !x.match);
  if (firstMiss < 0) return { status: 'passed', score: primary.answer.score, comparisons, disagreement };
  const why = primary.answer.instances[firstMiss]!.reason ?? 'wrong result';
  const where = instanceCount > 1 ? ` on database instance ${firstMiss + 1} of ${instanceCount}` : '';
  return { status: 'wrong_answer', reason: `${primary.answer.comparator}: ${why}${where}`, score: primary.answer.score, comparisons, disagreement };
}

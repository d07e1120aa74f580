/**
 * Named comparators of SQL results: does the predicted query's result count as the gold query's? Each follows a
 * published evaluator to the letter (values compared with Python's semantics, `./values.ts`), and each was run
 * against the reference code itself (test/kinds/sql/reference-agreement.test.ts, docs/FORMATS.md "SQL"):
 *
 * - `spider-testsuite` — Zhong et al. 2020, "Semantic Evaluation for Text-to-SQL with Distilled Test Suites";
 *   taoyds/test-suite-sql-eval `exec_eval.py` `result_eq` at e97acc5: two empty results are equal; otherwise
 *   the row counts and the column counts (of the first rows) must agree, then some permutation of the predicted
 *   columns must make the results equal as bags of rows (multisets), or as lists when row order matters (the
 *   gold has ORDER BY, `./spider-query.ts`). Before that it rejects quickly when the rows, each sorted by
 *   `str(x) + str(type(x))`, differ as sets (as lists when ordered): that pre-check is exact on most values,
 *   but it can reject equal results whose cells mix ints and floats (a row `(1, 1.5)` sorts as `(1.5, 1)`, a
 *   row `(1.0, 1.5)` as `(1.0, 1.5)`); Crucible keeps it, as the reference's answer. Its random pruning of
 *   column permutations (more than 3 columns) only drops permutations that cannot match, so the answer does
 *   not depend on the random draw.
 * - `bird-ex` — BIRD (Li et al. 2023), AlibabaResearch/DAMO-ConvAI `bird/llm/src/evaluation.py` and
 *   bird-bench/mini_dev `evaluation_ex.py`: `set(predicted) == set(gold)`. Duplicates, row order and nothing
 *   else are ignored; column order matters.
 * - `bird-ex-sorted` — the revision of BIRD's `evaluation.py` that sorts each row's values by `str(x)` before the
 *   set comparison (DAMO-ConvAI commit bcbfb0c, 2024-08-14, "Sort SQL result tuples for fair comparison",
 *   issue #159): column order is ignored too, and cells of equal `str` keep their order (a stable sort).
 * - `soft-f1` — BIRD mini-dev `evaluation_f1.py` `calculate_f1_score`: both empty gives 1; otherwise duplicate
 *   rows are dropped keeping first occurrences, row i of the prediction is matched with row i of the gold (by
 *   position), each cell of a predicted row found anywhere in the gold row counts as matched, cells missing on
 *   either side count against precision or recall (as fractions of the gold row's width), unmatched rows count
 *   1; the score is the F1 of the totals. Summed left to right as Python 3.11 does (3.12's `sum` of floats is
 *   compensated, so figures can differ there in the last bits).
 * - `bag-ordered` — Crucible's strict comparator: the same rows with the same multiplicities, columns in place;
 *   row order matters when the gold has ORDER BY (`'order by'` in its lower-cased text, the Spider rule). No
 *   DISTINCT rewriting.
 * - `intercode` — InterCode-SQL's reward (`./intercode.ts`): the IoU of the two multisets of rows (Python `str` of
 *   each tuple), scaled by Kendall's tau-b of the common rows' orders and rounded to 2 decimals; a match is 1. The
 *   score is that reward, or 0 when it is negative (the common rows in opposite orders: InterCode gives down to -1,
 *   a Crucible score is in [0, 1]).
 *
 * `floatDecimals` (optional, every comparator): reals are rounded to that many decimal places before anything
 * else (`0.1 + 0.2` then equals `0.3`), the usual float tolerance of text-to-SQL evaluators; integers are left
 * alone. Default: no rounding (the references' rule).
 */
import { intercodeReward } from './intercode.js';
import {
  pyStr, pyTypeStr, rowKey, sortedBy, valueKey, type SqlRow, type SqlValue,
} from './values.js';

/** The comparator names. */
export const SQL_COMPARATORS = ['spider-testsuite', 'bird-ex', 'bird-ex-sorted', 'soft-f1', 'bag-ordered', 'intercode'] as const;

/** One comparator's name. */
export type SqlComparator = (typeof SQL_COMPARATORS)[number];

/** Options every comparator takes (module comment). */
export interface CompareOptions {
  /** Row order matters (`spider-testsuite`, `bag-ordered`): the gold has ORDER BY. */
  readonly orderMatters: boolean;
  /** Round reals to this many decimals first; undefined: exact. */
  readonly floatDecimals?: number;
}

/** A comparator's answer: `match`, and `score` in [0, 1] (1/0 except `soft-f1`). */
export interface Comparison {
  readonly match: boolean;
  readonly score: number;
}

function roundReal(v: SqlValue, decimals: number): SqlValue {
  if (v === null || v.t !== 'real' || !Number.isFinite(v.v)) return v;
  return { t: 'real', v: Number(v.v.toFixed(decimals)) };
}

function rounded(rows: readonly SqlRow[], decimals: number | undefined): readonly SqlRow[] {
  if (decimals === undefined) return rows;
  return rows.map((r) => r.map((v) => roundReal(v, decimals)));
}

/** A multiset of row keys. */
function bag(keys: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
}

function sameBag(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const m = bag(a);
  for (const k of b) {
    const n = m.get(k);
    if (n === undefined || n === 0) return false;
    m.set(k, n - 1);
  }
  return true;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const sa = new Set(a);
  const sb = new Set(b);
  if (sa.size !== sb.size) return false;
  for (const k of sa) if (!sb.has(k)) return false;
  return true;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((k, i) => k === b[i]);
}

/** `unorder_row`: the row's cells sorted by `str(x) + str(type(x))`. */
function unorderRow(row: SqlRow): SqlRow {
  return sortedBy(row, (v) => pyStr(v) + pyTypeStr(v));
}

/** Most partial column assignments `spiderResultEq` tries before giving up (see `ComparatorError`). */
export const PERMUTATION_STEP_LIMIT = 200_000;

/**
 * Thrown when a comparison cannot be completed: the search for a column permutation took more than
 * `PERMUTATION_STEP_LIMIT` steps (results with many interchangeable columns). A judge reports it as its own
 * failure, never as a verdict on the query.
 */
export class ComparatorError extends Error {
  override readonly name = 'ComparatorError';
}

/** Ordered results: equal under some column permutation exactly when the columns, as vectors, form the same bag. */
function sameColumnsInOrder(gold: readonly SqlRow[], pred: readonly SqlRow[], width: number): boolean {
  const column = (rows: readonly SqlRow[], c: number): string => JSON.stringify(rows.map((r) => valueKey(r[c]!)));
  const g = Array.from({ length: width }, (_, c) => column(gold, c));
  const p = Array.from({ length: width }, (_, c) => column(pred, c));
  return sameBag(g, p);
}

/**
 * Unordered results: is there a column permutation under which the rows form the same bag? Columns are assigned
 * one by one (gold column c takes predicted column perm[c]); a partial assignment survives only while the rows
 * projected on the assigned columns still form the same bag on both sides, which prunes the reference's
 * enumeration of every permutation to the ones that can still succeed (same answer, far fewer steps).
 * @throws ComparatorError past `PERMUTATION_STEP_LIMIT` steps.
 */
function samePermutedBag(gold: readonly SqlRow[], pred: readonly SqlRow[], width: number, stepLimit: number): boolean {
  const goldPrefix: string[][] = [];
  let acc = gold.map(() => '');
  for (let c = 0; c < width; c++) {
    acc = acc.map((k, r) => `${k}${JSON.stringify(valueKey(gold[r]![c]!))},`);
    goldPrefix.push(acc);
  }
  const used = new Set<number>();
  let steps = 0;
  const search = (c: number, prefix: readonly string[]): boolean => {
    if (c === width) return true;
    for (let p = 0; p < width; p++) {
      if (used.has(p)) continue;
      if (++steps > stepLimit) {
        throw new ComparatorError(`no column permutation decided within ${stepLimit} steps (${width} columns)`);
      }
      const next = prefix.map((k, r) => `${k}${JSON.stringify(valueKey(pred[r]![p]!))},`);
      if (!sameBag(goldPrefix[c]!, next)) continue;
      used.add(p);
      if (search(c + 1, next)) return true;
      used.delete(p);
    }
    return false;
  };
  return search(0, pred.map(() => ''));
}

/**
 * `exec_eval.result_eq(gold, pred, order_matters)` (module comment). `stepLimit`: see `PERMUTATION_STEP_LIMIT`.
 * @throws ComparatorError when the permutation search is too long (`samePermutedBag`).
 */
export function spiderResultEq(gold: readonly SqlRow[], pred: readonly SqlRow[], orderMatters: boolean,
  stepLimit = PERMUTATION_STEP_LIMIT): boolean {
  if (gold.length === 0 && pred.length === 0) return true;
  if (gold.length !== pred.length) return false;
  const width = gold[0]!.length;
  if (pred[0]!.length !== width) return false;
  const quick1 = gold.map((r) => rowKey(unorderRow(r)));
  const quick2 = pred.map((r) => rowKey(unorderRow(r)));
  if (orderMatters ? !sameList(quick1, quick2) : !sameSet(quick1, quick2)) return false;
  return orderMatters ? sameColumnsInOrder(gold, pred, width) : samePermutedBag(gold, pred, width, stepLimit);
}

/** BIRD's `set(predicted_res) == set(ground_truth_res)`. */
export function birdSetEq(gold: readonly SqlRow[], pred: readonly SqlRow[]): boolean {
  return sameSet(gold.map(rowKey), pred.map(rowKey));
}

/** BIRD bcbfb0c: each row sorted by `str(x)` (stable), then set equality. */
export function birdSortedSetEq(gold: readonly SqlRow[], pred: readonly SqlRow[]): boolean {
  const sortRow = (r: SqlRow): string => rowKey(sortedBy(r, pyStr));
  return sameSet(gold.map(sortRow), pred.map(sortRow));
}

/** Rows with duplicates dropped, first occurrences kept (`list(dict.fromkeys(rows))`). */
function distinctRows(rows: readonly SqlRow[]): SqlRow[] {
  const seen = new Set<string>();
  const out: SqlRow[] = [];
  for (const r of rows) {
    const k = rowKey(r);
    if (!seen.has(k)) {
      seen.add(k);
      out.push(r);
    }
  }
  return out;
}

/** BIRD mini-dev `calculate_f1_score(predicted, ground_truth)` (module comment). */
export function softF1(gold: readonly SqlRow[], pred: readonly SqlRow[]): number {
  if (gold.length === 0 && pred.length === 0) return 1;
  const p = distinctRows(pred);
  const g = distinctRows(gold);
  const matchScores: number[] = [];
  const predOnly: number[] = [];
  const truthOnly: number[] = [];
  g.forEach((goldRow, i) => {
    if (i >= p.length) {
      matchScores.push(0);
      truthOnly.push(1);
      return;
    }
    const predRow = p[i]!;
    const goldCells = new Set(goldRow.map(valueKey));
    const predCells = new Set(predRow.map(valueKey));
    let matches = 0;
    let inPredOnly = 0;
    for (const v of predRow) {
      if (goldCells.has(valueKey(v))) matches += 1;
      else inPredOnly += 1;
    }
    let inTruthOnly = 0;
    for (const v of goldRow) if (!predCells.has(valueKey(v))) inTruthOnly += 1;
    const total = goldRow.length;
    matchScores.push(matches / total);
    predOnly.push(inPredOnly / total);
    truthOnly.push(inTruthOnly / total);
  });
  for (let i = 0; i < p.length - g.length; i++) {
    matchScores.push(0);
    predOnly.push(1);
    truthOnly.push(0);
  }
  const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
  const tp = sum(matchScores);
  const fp = sum(predOnly);
  const fn = sum(truthOnly);
  const precision = tp + fp > 0 ? tp / (tp + fp) : 0;
  const recall = tp + fn > 0 ? tp / (tp + fn) : 0;
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}

/** Crucible's `bag-ordered` (module comment). */
export function bagOrderedEq(gold: readonly SqlRow[], pred: readonly SqlRow[], orderMatters: boolean): boolean {
  const g = gold.map(rowKey);
  const p = pred.map(rowKey);
  return orderMatters ? sameList(g, p) : sameBag(g, p);
}

/** One comparator on two results (rows as the comparator's evaluator executed them). */
export function compareResults(comparator: SqlComparator, gold: readonly SqlRow[], pred: readonly SqlRow[],
  options: CompareOptions): Comparison {
  const g = rounded(gold, options.floatDecimals);
  const p = rounded(pred, options.floatDecimals);
  const binary = (match: boolean): Comparison => ({ match, score: match ? 1 : 0 });
  switch (comparator) {
    case 'spider-testsuite':
      return binary(spiderResultEq(g, p, options.orderMatters));
    case 'bird-ex':
      return binary(birdSetEq(g, p));
    case 'bird-ex-sorted':
      return binary(birdSortedSetEq(g, p));
    case 'soft-f1': {
      const score = softF1(g, p);
      return { match: score === 1, score };
    }
    case 'bag-ordered':
      return binary(bagOrderedEq(g, p, options.orderMatters));
    case 'intercode': {
      // InterCode's reward is below 0 when the common rows come in the opposite order; a score is in [0, 1].
      const reward = intercodeReward(g, p);
      return { match: reward === 1, score: Math.max(0, reward) };
    }
  }
}

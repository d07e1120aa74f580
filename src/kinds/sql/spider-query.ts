/**
 * What Spider's test-suite evaluator does to the query texts before it runs them (taoyds/test-suite-sql-eval
 * `exec_eval.py` at e97acc5, `eval_exec_match` and `exec_on_db_`; `parse.py` `remove_distinct`), so that the
 * `spider-testsuite` comparator executes and compares what the official metric executes and compares:
 * 1. `postprocess` on both queries: `'> ='` -> `'>='`, `'< ='` -> `'<='`, `'! ='` -> `'!='` (every occurrence);
 * 2. unless `keepDistinct` (`--keep_distinct`, off by default), `remove_distinct` on both: only the FIRST
 *    statement (as sqlparse splits them) is kept, without its `distinct` tokens, so the gold changes meaning too
 *    (`count(DISTINCT x)` becomes `count(x)`); sqlparse finding no statement (empty text) makes the reference
 *    raise IndexError, which `spiderQueryTexts` reports as `undefined`;
 * 3. row order matters exactly when the (processed) gold text, lower-cased, contains `order by` (one space: a
 *    substring test, so `ORDER  BY` does not count and `'order by'` inside a string does);
 * 4. each query as executed has `YEAR(CURDATE())` (any case and spacing, with the whitespace after it) replaced
 *    by `2020` (`replace_cur_year`).
 */
import { firstStatementTokens } from './sqlparse-lexer.js';

/** `exec_eval.postprocess`. */
export function spiderPostprocess(query: string): string {
  return query.replaceAll('> =', '>=').replaceAll('< =', '<=').replaceAll('! =', '!=');
}

/** `parse.remove_distinct`: undefined where the reference raises (no statement). */
export function removeDistinct(query: string): string | undefined {
  const tokens = firstStatementTokens(query);
  if (tokens === undefined) return undefined;
  return tokens.filter((t) => t.value.toLowerCase() !== 'distinct').map((t) => t.value).join('');
}

const CUR_YEAR = /YEAR\s*\(\s*CURDATE\s*\(\s*\)\s*\)\s*/giu;

/** `exec_eval.replace_cur_year`, applied to each query as it is executed. */
export function replaceCurYear(query: string): string {
  return query.replace(CUR_YEAR, '2020');
}

/** The texts Spider's evaluator executes for a pair, and whether row order matters. */
export interface SpiderQueryTexts {
  /** The gold as executed; undefined when the reference raises on it. */
  readonly gold: string | undefined;
  /** The prediction as executed; undefined when the reference raises on it (the prediction then fails). */
  readonly predicted: string | undefined;
  readonly orderMatters: boolean;
}

/** Steps 1-4 of the module comment for one (gold, predicted) pair. */
export function spiderQueryTexts(gold: string, predicted: string, keepDistinct = false): SpiderQueryTexts {
  let g: string | undefined = spiderPostprocess(gold);
  let p: string | undefined = spiderPostprocess(predicted);
  if (!keepDistinct) {
    g = removeDistinct(g);
    p = removeDistinct(p);
  }
  const orderMatters = g !== undefined && g.toLowerCase().includes('order by');
  return {
    gold: g === undefined ? undefined : replaceCurYear(g),
    predicted: p === undefined ? undefined : replaceCurYear(p),
    orderMatters,
  };
}

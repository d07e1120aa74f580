/**
 * InterCode-SQL's reward (Yang et al. 2023, arXiv 2306.14898; princeton-nlp/intercode
 * `intercode/envs/sql/sql_env.py` `SqlEnv.get_reward` at 69922e2), the `intercode` comparator:
 * - each row is keyed by Python's `str(row)` of the fetched tuple (`(1, 'a')`, `(1,)`, `None`, floats by `repr`);
 * - both results empty: 1; else the intersection over union of the two multisets of keys (`Counter` `&`, and per
 *   key the larger count), `|∩| / |∪|`;
 * - when the intersection is not empty, that IoU is scaled by Kendall's tau-b (scipy `kendalltau`, ties corrected)
 *   between the intersection's keys in the agent's order and in the gold's order (each list the items of its result
 *   that are in the intersection, consuming counts), compared as strings, and rounded to 2 decimals (Python's
 *   `round`, half to even); a tau that is NaN (fewer than two distinct keys) leaves the IoU unscaled and unrounded.
 * The reference ran on MySQL through `mysql.connector`; here the values are SQLite's as Python's `sqlite3` returns
 * them, so a key is what `str` gives of those (a MySQL `Decimal('1.50')` has no SQLite counterpart).
 */
import { compareCodePoints, pyStr, type SqlRow, type SqlValue } from './values.js';

/** Python's `repr(str)`: single quotes unless the text holds `'` and no `"`; `\\`, the quote, `\t\n\r` and other control characters escaped. */
function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (c < 0x20 || c === 0x7f || (c >= 0x80 && c < 0xa0)) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + quote;
}

/** Python's `repr` of a cell as `sqlite3` returns it: its `str` (`pyStr`), except that text is quoted. */
function pyRepr(v: SqlValue): string {
  return v !== null && v.t === 'text' ? pyStrRepr(v.v) : pyStr(v);
}

/** Python's `str(tuple(row))`. */
export function pyRowStr(row: SqlRow): string {
  const cells = row.map(pyRepr);
  return cells.length === 1 ? `(${cells[0]},)` : `(${cells.join(', ')})`;
}

function counts(keys: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
}

/** The items of `list` that are in `bag`, in order, each consuming one count (InterCode's `get_intersect_items`). */
function intersectItems(list: readonly string[], bag: ReadonlyMap<string, number>): string[] {
  const left = new Map(bag);
  const out: string[] = [];
  for (const k of list) {
    const n = left.get(k) ?? 0;
    if (n > 0) {
      left.set(k, n - 1);
      out.push(k);
    }
  }
  return out;
}

/** Kendall's tau-b of two equally long lists of strings (scipy `kendalltau`, `variant='b'`); NaN when undefined. */
export function kendallTauB(x: readonly string[], y: readonly string[]): number {
  const n = x.length;
  let concordant = 0;
  let discordant = 0;
  let tiesX = 0;
  let tiesY = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const a = Math.sign(compareCodePoints(x[i]!, x[j]!));
      const b = Math.sign(compareCodePoints(y[i]!, y[j]!));
      if (a === 0) tiesX++;
      if (b === 0) tiesY++;
      if (a !== 0 && b !== 0) {
        if (a === b) concordant++;
        else discordant++;
      }
    }
  }
  const pairs = (n * (n - 1)) / 2;
  const denominator = Math.sqrt((pairs - tiesX) * (pairs - tiesY));
  return denominator === 0 ? Number.NaN : (concordant - discordant) / denominator;
}

/** Python's `round(x, 2)`: the nearest hundredth, an exact tie (x·8 an odd integer) to the even hundredth. */
export function pyRound2(x: number): number {
  if (Number.isInteger(x * 8) && !Number.isInteger(x * 4)) {
    const low = Math.floor(x * 100);
    return (low % 2 === 0 ? low : low + 1) / 100;
  }
  return Number(x.toFixed(2));
}

/** InterCode-SQL's reward of the agent's result against the gold's (module comment), in [-1, 1]. */
export function intercodeReward(gold: readonly SqlRow[], agent: readonly SqlRow[]): number {
  const listAgent = agent.map(pyRowStr);
  const listGold = gold.map(pyRowStr);
  const a = counts(listAgent);
  const g = counts(listGold);
  const intersection = new Map<string, number>();
  for (const [k, n] of a) {
    const m = Math.min(n, g.get(k) ?? 0);
    if (m > 0) intersection.set(k, m);
  }
  const union = new Map(a);
  for (const [k, n] of g) union.set(k, Math.max(n, union.get(k) ?? 0));
  if (union.size === 0) return 1;
  const total = (m: ReadonlyMap<string, number>): number => [...m.values()].reduce((s, v) => s + v, 0);
  const iou = total(intersection) / total(union);
  if (intersection.size === 0) return iou;
  const tau = kendallTauB(intersectItems(listAgent, intersection), intersectItems(listGold, intersection));
  return Number.isNaN(tau) ? iou : pyRound2(tau * iou);
}

/**
 * Stdin/stdout comparators: is the program's output an accepted answer for the expected output?
 * - `exact`: byte-for-byte (as strings);
 * - `tokens` (default for contest problems): whitespace-separated tokens equal, whitespace amount ignored;
 * - `float_tokens`: as `tokens`, but a pair of tokens that both parse as finite decimal numbers matches when
 *   |a - b| <= absTol or |a - b| <= relTol * |b| (b = expected; the usual "absolute or relative error"
 *   checker rule); any other pair is compared as strings.
 * `caseInsensitive` folds case before comparing string tokens. Every mismatch reports where it happened.
 * - `livecodebench`, `apps`, `codecontests`: the published harnesses' own rules (`./published-comparators.ts`).
 */
import type { Comparator } from '../../formats/types.js';
import { compareApps, compareCodeContests, compareLiveCodeBench } from './published-comparators.js';

export type ComparisonResult = { readonly ok: true; readonly reason?: undefined } | { readonly ok: false; readonly reason: string };

const SHOW_CHARS = 40;

function show(s: string | undefined): string {
  if (s === undefined) return 'end of output';
  const cut = s.length > SHOW_CHARS ? `${s.slice(0, SHOW_CHARS)}…` : s;
  return JSON.stringify(cut);
}

/** 1-based line and column of character offset `i` in `text`. */
function lineCol(text: string, i: number): string {
  let line = 1;
  let last = -1;
  for (let k = 0; k < i && k < text.length; k++) {
    if (text.charCodeAt(k) === 10) {
      line++;
      last = k;
    }
  }
  return `line ${line}, column ${i - last}`;
}

/** Exact string equality, reporting the first differing character. */
export function compareExact(actual: string, expected: string): ComparisonResult {
  if (actual === expected) return { ok: true };
  let i = 0;
  while (i < actual.length && i < expected.length && actual[i] === expected[i]) i++;
  return {
    ok: false,
    reason: `outputs differ at ${lineCol(expected, i)} (offset ${i}): expected ${show(expected.slice(i, i + SHOW_CHARS) || undefined)}, got ${show(actual.slice(i, i + SHOW_CHARS) || undefined)}`,
  };
}

interface Token { readonly text: string; readonly offset: number }

function tokenize(s: string): Token[] {
  const out: Token[] = [];
  const re = /\S+/g;
  for (let m = re.exec(s); m !== null; m = re.exec(s)) out.push({ text: m[0], offset: m.index });
  return out;
}

const DECIMAL_RE = /^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

/** A finite number if the token is a decimal literal (no "nan", "inf", hex), else undefined. */
export function parseFiniteToken(t: string): number | undefined {
  if (!DECIMAL_RE.test(t)) return undefined;
  const v = Number(t);
  return Number.isFinite(v) ? v : undefined;
}

/** Do two numbers agree within an absolute or a relative tolerance (relative to `expected`)? */
export function withinTolerance(actual: number, expected: number, absTol: number, relTol: number): boolean {
  const diff = Math.abs(actual - expected);
  return diff <= absTol || diff <= relTol * Math.abs(expected);
}

interface TokenOptions {
  readonly caseInsensitive?: boolean;
  readonly absTol?: number;
  readonly relTol?: number;
}

/** Whitespace-token comparison; with `absTol`/`relTol` numeric tokens compare within tolerance. */
export function compareTokens(actual: string, expected: string, options: TokenOptions = {}): ComparisonResult {
  const a = tokenize(actual);
  const e = tokenize(expected);
  const numeric = options.absTol !== undefined || options.relTol !== undefined;
  const n = Math.min(a.length, e.length);
  for (let i = 0; i < n; i++) {
    const ta = a[i]!.text;
    const te = e[i]!.text;
    if (numeric) {
      const va = parseFiniteToken(ta);
      const ve = parseFiniteToken(te);
      if (va !== undefined && ve !== undefined) {
        if (withinTolerance(va, ve, options.absTol ?? 0, options.relTol ?? 0)) continue;
        return {
          ok: false,
          reason: `token ${i + 1} (${lineCol(expected, e[i]!.offset)}): expected ${te}, got ${ta}: outside absTol=${options.absTol ?? 0}, relTol=${options.relTol ?? 0}`,
        };
      }
    }
    const same = options.caseInsensitive ? ta.toLowerCase() === te.toLowerCase() : ta === te;
    if (!same) {
      return { ok: false, reason: `token ${i + 1} (${lineCol(expected, e[i]!.offset)}): expected ${show(te)}, got ${show(ta)}` };
    }
  }
  if (a.length !== e.length) {
    const where = a.length < e.length ? `expected ${show(e[n]!.text)}, got end of output` : `expected end of output, got ${show(a[n]!.text)}`;
    return { ok: false, reason: `output has ${a.length} tokens, expected ${e.length}: at token ${n + 1}, ${where}` };
  }
  return { ok: true };
}

/** Apply a configured comparator to one test's output. */
export function compareOutput(actual: string, expected: string, comparator: Comparator): ComparisonResult {
  switch (comparator.kind) {
    case 'exact':
      return compareExact(actual, expected);
    case 'tokens':
      return compareTokens(actual, expected, { caseInsensitive: comparator.caseInsensitive ?? false });
    case 'float_tokens':
      return compareTokens(actual, expected, {
        caseInsensitive: comparator.caseInsensitive ?? false,
        absTol: comparator.absTol,
        relTol: comparator.relTol,
      });
    case 'livecodebench':
      return compareLiveCodeBench(actual, expected);
    case 'apps':
      return compareApps(actual, expected);
    case 'codecontests':
      return compareCodeContests(actual, expected);
  }
}

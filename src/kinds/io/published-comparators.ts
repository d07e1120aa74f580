/**
 * Output comparison rules of published benchmark harnesses, followed fact for fact (no code taken):
 *
 * - `livecodebench` (LiveCodeBench/LiveCodeBench `lcb_runner/evaluation/testing_util.py`, `grade_stdio` and
 *   `get_stripped_lines`): both outputs are `strip()`ped, split on `\n`, each line `strip()`ped; the line counts
 *   must agree; a line pair matches when equal, or when both lines are whitespace-separated lists of
 *   `decimal.Decimal` literals that are equal element-wise (exact decimal value: `1.0` equals `1`, `1e2` equals
 *   `100`; NaN never equal).
 * - `apps` (hendrycks/apps `eval/testing_util.py`, standard-input branch of `run_test`, also TACO's copy): the
 *   program's stdout is `splitlines()`-ed; it passes at the first of these that holds: the lines joined by `\n`
 *   and stripped equal the stripped expected output (also with each line stripped); the lines equal the expected
 *   output's non-empty lines, stripped; after dropping empty lines, the same; the non-empty lines parse as floats
 *   and are `np.allclose` (rtol 1e-5, atol 1e-8) to the expected lines as floats; the SET of lines, each taken as
 *   the set of its whitespace tokens, equals the expected one's (order and repeats ignored: APPS's own leniency);
 *   the same with every token as `round(float(t), 3)`.
 * - `codecontests` (google-deepmind/code_contests `execution/tester_sandboxer.cc`, `OutputsMatch` and
 *   `ValuesMatch`): tokens split on space, `\n`, `\t`, `\r`, `\v`, lowercased (ASCII); equal token lists match;
 *   otherwise the counts must agree and each pair must match: two numbers (anything `absl::SimpleAtod` parses,
 *   integers included) when |a - b| < 1e-5, else the strings equal.
 */
import type { ComparisonResult } from './comparators.js';

const SHOW = 40;
function show(s: string): string {
  return JSON.stringify(s.length > SHOW ? `${s.slice(0, SHOW)}…` : s);
}

// ------------------------------------------------------------------------------------------ Python helpers

/** Python's `str.isspace` characters (what `strip()` and `split()` remove). */
const PY_SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const PY_STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, 'g');
const PY_SPLIT = new RegExp(`[${PY_SPACE}]+`);

/** Python `s.strip()`. */
export function pyStrip(s: string): string {
  return s.replace(PY_STRIP, '');
}

/** Python `s.split()` (no argument). */
export function pySplit(s: string): string[] {
  const t = pyStrip(s);
  return t === '' ? [] : t.split(PY_SPLIT);
}

/** Python `s.splitlines()`. */
export function pySplitlines(s: string): string[] {
  const parts = s.split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/);
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/** An exact decimal: sign, digits without leading zeros (empty for 0), exponent; or a special value. */
type Decimal = { readonly kind: 'finite'; readonly negative: boolean; readonly digits: string; readonly exponent: number }
  | { readonly kind: 'inf'; readonly negative: boolean } | { readonly kind: 'nan' };

const DECIMAL_RE = /^([+-])?(?:(\d(?:_?\d)*)(?:\.(\d(?:_?\d)*)?)?|\.(\d(?:_?\d)*))(?:[eE]([+-]?\d(?:_?\d)*))?$/;

/** Python `decimal.Decimal(s)` for a token (no surrounding spaces), or undefined when it raises. */
export function parseDecimal(s: string): Decimal | undefined {
  const special = /^([+-])?(inf|infinity|nan|snan)$/i.exec(s);
  if (special) {
    return special[2]!.toLowerCase().endsWith('nan') ? { kind: 'nan' } : { kind: 'inf', negative: special[1] === '-' };
  }
  const m = DECIMAL_RE.exec(s);
  if (!m) return undefined;
  const whole = (m[2] ?? '').replace(/_/g, '');
  const fraction = (m[3] ?? m[4] ?? '').replace(/_/g, '');
  let digits = (whole + fraction).replace(/^0+/, '');
  let exponent = Number((m[5] ?? '0').replace(/_/g, '')) - fraction.length;
  const trailing = /0*$/.exec(digits)![0].length;
  if (trailing > 0) {
    digits = digits.slice(0, digits.length - trailing);
    exponent += trailing;
  }
  return { kind: 'finite', negative: m[1] === '-' && digits !== '', digits, exponent: digits === '' ? 0 : exponent };
}

/** Python `Decimal.__eq__`. */
function decimalEquals(a: Decimal, b: Decimal): boolean {
  if (a.kind === 'nan' || b.kind === 'nan') return false;
  if (a.kind === 'inf' || b.kind === 'inf') return a.kind === b.kind && a.negative === b.negative;
  return a.negative === (b as typeof a).negative && a.digits === (b as typeof a).digits && a.exponent === (b as typeof a).exponent;
}

/** Python `float(s)` (surrounding whitespace allowed, underscores between digits), or undefined when it raises. */
export function pyFloat(s: string): number | undefined {
  const t = pyStrip(s);
  if (/^[+-]?(inf|infinity)$/i.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
  if (/^[+-]?nan$/i.test(t)) return Number.NaN;
  if (!DECIMAL_RE.test(t)) return undefined;
  return Number(t.replace(/_/g, ''));
}

/** Python `round(x, 3)`: the nearest multiple of 0.001, ties (exactly representable ones) to even. */
export function pyRound3(x: number): number {
  if (!Number.isFinite(x)) return x;
  const four = x.toFixed(4);
  if (four.endsWith('5') && Number(four) === x) {
    const down = Number(four.slice(0, -1));
    const lastDigit = Number(four.charAt(four.length - 2));
    return lastDigit % 2 === 0 ? down : Number((down + (x < 0 ? -0.001 : 0.001)).toFixed(3));
  }
  return Number(x.toFixed(3));
}

// ------------------------------------------------------------------------------------------ LiveCodeBench

/** LiveCodeBench's stdin comparison (see the module comment). */
export function compareLiveCodeBench(actual: string, expected: string): ComparisonResult {
  const a = pyStrip(actual).split('\n').map(pyStrip);
  const e = pyStrip(expected).split('\n').map(pyStrip);
  if (a.length !== e.length) return { ok: false, reason: `mismatched output length: ${a.length} lines, expected ${e.length}` };
  for (let i = 0; i < a.length; i++) {
    if (a[i] === e[i]) continue;
    const da = pySplit(a[i]!).map(parseDecimal);
    const de = pySplit(e[i]!).map(parseDecimal);
    const numeric = !da.includes(undefined) && !de.includes(undefined);
    if (numeric && da.length === de.length && da.every((d, k) => decimalEquals(d!, de[k]!))) continue;
    return { ok: false, reason: `line ${i + 1}: expected ${show(e[i]!)}, got ${show(a[i]!)}` };
  }
  return { ok: true };
}

// ------------------------------------------------------------------------------------------ APPS / TACO

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** `np.allclose` with its defaults (rtol 1e-5, atol 1e-8, NaN never close). */
function allClose(a: readonly number[], b: readonly number[]): boolean {
  return a.every((x, i) => {
    const y = b[i]!;
    if (x === y) return true;
    if (!Number.isFinite(x) || !Number.isFinite(y)) return false;
    return Math.abs(x - y) <= 1e-8 + 1e-5 * Math.abs(y);
  });
}

/** A set of sets, as canonical strings (each inner set sorted, the outer set sorted and deduplicated). */
function setOfSets(lines: readonly (readonly string[])[]): string {
  const inner = lines.map((tokens) => JSON.stringify([...new Set(tokens)].sort()));
  return JSON.stringify([...new Set(inner)].sort());
}

/** APPS/TACO's standard-input comparison (see the module comment). */
export function compareApps(actual: string, expected: string): ComparisonResult {
  const output = pySplitlines(actual);
  const want = pyStrip(expected);
  if (pyStrip(output.join('\n')) === want || pyStrip(output.map(pyStrip).join('\n')) === want) return { ok: true };
  const expectedLines = expected.split('\n').filter((l) => l.length > 0).map(pyStrip);
  if (sameList(output, expectedLines)) return { ok: true };
  const nonEmpty = output.filter((l) => l.length > 0);
  if (sameList(nonEmpty, expectedLines)) return { ok: true };
  const af = nonEmpty.map(pyFloat);
  const ef = expectedLines.map(pyFloat);
  if (!af.includes(undefined) && !ef.includes(undefined) && af.length === ef.length && allClose(af as number[], ef as number[])) {
    return { ok: true };
  }
  const outputSets = nonEmpty.map(pySplit).filter((t) => t.length > 0);
  const expectedSets = expectedLines.map(pySplit);
  if (setOfSets(outputSets) === setOfSets(expectedSets)) return { ok: true };
  const rounded = (sets: string[][]): string | undefined => {
    const numbers = sets.map((s) => s.map(pyFloat));
    if (numbers.some((s) => s.includes(undefined))) return undefined;
    return setOfSets(numbers.map((s) => s.map((x) => String(pyRound3(x!)))));
  };
  const ra = rounded(outputSets);
  if (ra !== undefined && ra === rounded(expectedSets)) return { ok: true };
  return { ok: false, reason: `output ${show(pyStrip(actual))} does not match ${show(want)} under any of APPS's comparisons` };
}

// ------------------------------------------------------------------------------------------ CodeContests

/** `absl::SimpleAtod` on a token: a decimal or hex float, `inf`/`infinity`/`nan`; undefined when it fails. */
function simpleAtod(s: string): number | undefined {
  if (/^[+-]?(inf|infinity)$/i.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
  if (/^[+-]?nan$/i.test(s)) return Number.NaN;
  if (/^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i.test(s)) return Number(s);
  if (/^[+-]?0x[0-9a-f]+$/i.test(s)) return Number.parseInt(s, 16);
  return undefined;
}

/** CodeContests' `OutputsMatch` (see the module comment). */
export function compareCodeContests(actual: string, expected: string): ComparisonResult {
  const split = (s: string): string[] => s.split(/[ \n\t\r\v]+/).filter((t) => t !== '').map((t) => t.replace(/[A-Z]+/g, (c) => c.toLowerCase()));
  const a = split(actual);
  const e = split(expected);
  if (sameList(a, e)) return { ok: true };
  if (a.length !== e.length) return { ok: false, reason: `output has ${a.length} tokens, expected ${e.length}` };
  for (let i = 0; i < a.length; i++) {
    const x = simpleAtod(a[i]!);
    const y = simpleAtod(e[i]!);
    const match = x === undefined || y === undefined ? a[i] === e[i] : Math.abs(x - y) < 1e-5;
    if (!match) return { ok: false, reason: `token ${i + 1}: expected ${show(e[i]!)}, got ${show(a[i]!)}` };
  }
  return { ok: true };
}

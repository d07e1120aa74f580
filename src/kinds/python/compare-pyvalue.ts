/**
 * Comparison of PyValues outside the box, following EvalPlus (evalplus/evalplus `evalplus/eval/__init__.py`,
 * `unsafe_execute` and `is_floats`):
 *
 *   exact = (out == exp)                       Python `==`: 1 == 1.0 == True, list != tuple, sets unordered,
 *                                              dicts by key, NaN != NaN
 *   if atol == 0 and is_floats(exp): atol = 1e-6
 *   if not exact and atol != 0:  type(out) == type(exp), equal lengths for list/tuple,
 *                                np.allclose(out, exp, rtol=1e-07, atol=atol)
 *   else: exact
 *
 * np.allclose(a, b) is elementwise |a - b| <= atol + rtol * |b| for finite values, equal infinities are
 * close, NaN is never close (equal_nan=False); we accept numbers and equally shaped nested lists/tuples of
 * numbers (numpy would raise on anything else, which EvalPlus counts as a failure).
 * Opaque values (objects that could not leave the box as data) are equal to nothing, themselves included.
 * Validation of untrusted PyValue JSON lives with the type, in `src/verdict/pyvalue.ts`.
 */
import { parseIntPayload, type PyValue } from '../../verdict/pyvalue.js';

export interface CompareOptions {
  /** Absolute tolerance of the problem (EvalPlus `atol`); 0 means exact, except float outputs (1e-6). */
  readonly atol?: number;
}

export type CompareResult = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** EvalPlus' enforced tolerance for float outputs when the problem's atol is 0. */
export const EVALPLUS_DEFAULT_FLOAT_ATOL = 1e-6;
/** np.allclose default relative tolerance, set explicitly by EvalPlus. */
export const EVALPLUS_RTOL = 1e-7;

type Tag = 'none' | 'bool' | 'str' | 'i' | 'f' | 'c' | 'l' | 't' | 's' | 'fs' | 'd' | 'b' | 'o';

/** The Python type of a PyValue, as a tag. */
export function pyTag(v: PyValue): Tag {
  if (v === null) return 'none';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'str';
  return 'o' in v ? 'o' : (Object.keys(v)[0] as Tag);
}

const TYPE_NAMES: Readonly<Record<Tag, string>> = {
  none: 'None', bool: 'bool', str: 'str', i: 'int', f: 'float', c: 'complex', l: 'list', t: 'tuple', s: 'set', fs: 'frozenset',
  d: 'dict', b: 'bytes', o: 'object',
};

/** The Python type name of a PyValue ("float", "list", "None"), as a person (or a model) reads it. */
export function pyTypeName(v: PyValue): string {
  return TYPE_NAMES[pyTag(v)];
}

/** "a float", "an int", "None": a value's type with its article. */
function aType(v: PyValue): string {
  const name = pyTypeName(v);
  return name === 'None' ? 'None' : `${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name}`;
}

/** A Python number as an exact value: a bigint (int, bool) or a double (float), or complex parts. */
type Num = { readonly kind: 'int'; readonly v: bigint } | { readonly kind: 'float'; readonly v: number };

function floatOf(p: number | string): number {
  if (typeof p === 'number') return p;
  if (p === 'nan') return Number.NaN;
  if (p === 'inf') return Number.POSITIVE_INFINITY;
  if (p === '-inf') return Number.NEGATIVE_INFINITY;
  return Number.NaN;
}

function realNumber(v: PyValue): Num | undefined {
  if (typeof v === 'boolean') return { kind: 'int', v: v ? 1n : 0n };
  if (v === null || typeof v !== 'object') return undefined;
  if ('i' in v) return { kind: 'int', v: parseIntPayload(v.i) };
  if ('f' in v) return { kind: 'float', v: floatOf(v.f) };
  return undefined;
}

/** Python's exact int/float equality (no rounding: 2**53 + 1 != 2.0**53). */
function numEq(a: Num, b: Num): boolean {
  if (a.kind === 'int' && b.kind === 'int') return a.v === b.v;
  if (a.kind === 'float' && b.kind === 'float') return a.v === b.v;
  const i = a.kind === 'int' ? a.v : (b.v as bigint);
  const f = a.kind === 'float' ? a.v : (b.v as number);
  if (!Number.isFinite(f) || !Number.isInteger(f)) return false;
  return BigInt(f) === i;
}

function complexParts(v: PyValue): [Num, Num] | undefined {
  if (v !== null && typeof v === 'object' && 'c' in v) {
    return [{ kind: 'float', v: floatOf(v.c[0]) }, { kind: 'float', v: floatOf(v.c[1]) }];
  }
  const r = realNumber(v);
  return r ? [r, { kind: 'int', v: 0n }] : undefined;
}

function isNumeric(v: PyValue): boolean {
  return typeof v === 'boolean' || (v !== null && typeof v === 'object' && ('i' in v || 'f' in v || 'c' in v));
}

/**
 * A hash-like key such that Python-equal hashable values get the same key (1, 1.0, True -> one key), used
 * to compare sets and dict keys without quadratic search. NaN gets a key no other value shares.
 */
let nanCounter = 0;
function hashKey(v: PyValue): string {
  if (isNumeric(v)) {
    const parts = complexParts(v)!;
    const re = parts[0];
    const im = parts[1];
    const imZero = im.kind === 'int' ? im.v === 0n : im.v === 0;
    if (!imZero) return `c:${numKey(re)}:${numKey(im)}`;
    return numKey(re);
  }
  if (v === null) return 'N';
  if (typeof v === 'string') return `s:${JSON.stringify(v)}`;
  if (typeof v === 'boolean') return numKey({ kind: 'int', v: v ? 1n : 0n });
  if ('t' in v) return `t:[${v.t.map(hashKey).join(',')}]`;
  if ('fs' in v) return `fs:{${[...new Set(v.fs.map(hashKey))].sort().join(',')}}`;
  if ('b' in v) return `b:${v.b}`;
  return `unhashable:${nanCounter++}`;
}

function numKey(n: Num): string {
  if (n.kind === 'int') return `n:${n.v}`;
  if (Number.isNaN(n.v)) return `nan:${nanCounter++}`;
  if (Number.isInteger(n.v)) return `n:${BigInt(n.v)}`;
  return `f:${n.v}`;
}

/** Python `a == b` on two PyValues (built-in types only; opaque values equal nothing). */
export function pyEquals(a: PyValue, b: PyValue): boolean {
  if (isNumeric(a) || isNumeric(b)) {
    if (!isNumeric(a) || !isNumeric(b)) return false;
    const pa = complexParts(a)!;
    const pb = complexParts(b)!;
    return numEq(pa[0], pb[0]) && numEq(pa[1], pb[1]);
  }
  if (a === null || b === null) return a === b;
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  const ta = pyTag(a);
  const tb = pyTag(b);
  if (ta === 'o' || tb === 'o') return false;
  const setLike = (t: Tag) => t === 's' || t === 'fs';
  if (setLike(ta) && setLike(tb)) return sameSet(items(a), items(b));
  if (ta !== tb) return false;
  if (ta === 'l' || ta === 't') {
    const xa = items(a);
    const xb = items(b);
    return xa.length === xb.length && xa.every((x, i) => pyEquals(x, xb[i]!));
  }
  if (ta === 'd') return sameDict((a as { d: readonly (readonly [PyValue, PyValue])[] }).d,
    (b as { d: readonly (readonly [PyValue, PyValue])[] }).d);
  if (ta === 'b') return (a as { b: string }).b === (b as { b: string }).b;
  return false;
}

function items(v: PyValue): readonly PyValue[] {
  const o = v as Record<string, readonly PyValue[]>;
  return o.l ?? o.t ?? o.s ?? o.fs ?? [];
}

function sameSet(a: readonly PyValue[], b: readonly PyValue[]): boolean {
  const ka = new Set(a.map(hashKey));
  const kb = new Set(b.map(hashKey));
  if (ka.size !== kb.size) return false;
  for (const k of ka) if (!kb.has(k)) return false;
  return true;
}

function dictMap(d: readonly (readonly [PyValue, PyValue])[]): Map<string, PyValue> {
  const m = new Map<string, PyValue>();
  for (const [k, v] of d) m.set(hashKey(k), v); // later keys win, as in a Python dict display
  return m;
}

function sameDict(a: readonly (readonly [PyValue, PyValue])[], b: readonly (readonly [PyValue, PyValue])[]): boolean {
  const ma = dictMap(a);
  const mb = dictMap(b);
  if (ma.size !== mb.size) return false;
  for (const [k, v] of ma) {
    const w = mb.get(k);
    if (w === undefined || !pyEquals(v, w)) return false;
  }
  return true;
}

/** EvalPlus `is_floats`: a float, or a non-empty list/tuple of floats (bools are not floats). */
export function isFloats(v: PyValue): boolean {
  const t = pyTag(v);
  if (t === 'f') return true;
  if (t === 'l' || t === 't') {
    const xs = items(v);
    return xs.length > 0 && xs.every((x) => pyTag(x) === 'f');
  }
  return false;
}

function toDouble(v: PyValue): number | undefined {
  const n = realNumber(v);
  if (!n) return undefined;
  return n.kind === 'int' ? Number(n.v) : n.v;
}

/** np.isclose(a, b, rtol, atol) for one pair of doubles (equal_nan=False). */
export function isClose(a: number, b: number, rtol: number, atol: number): boolean {
  if (Number.isNaN(a) || Number.isNaN(b)) return false;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return a === b;
  return Math.abs(a - b) <= atol + rtol * Math.abs(b);
}

/** np.allclose over numbers and equally shaped nested lists/tuples of numbers; false for anything else. */
export function allClose(actual: PyValue, expected: PyValue, rtol: number, atol: number): boolean {
  const a = toDouble(actual);
  const b = toDouble(expected);
  if (a !== undefined && b !== undefined) return isClose(a, b, rtol, atol);
  const ta = pyTag(actual);
  const tb = pyTag(expected);
  if ((ta === 'l' || ta === 't') && (tb === 'l' || tb === 't')) {
    const xa = items(actual);
    const xb = items(expected);
    return xa.length === xb.length && xa.every((x, i) => allClose(x, xb[i]!, rtol, atol));
  }
  return false;
}

/**
 * The EvalPlus decision once `exactMatch` is known (special oracles may have replaced Python `==`).
 * `atol` is the problem's tolerance; 0 with float expected output enforces 1e-6.
 */
export function applyEvalPlusTolerance(actual: PyValue, expected: PyValue, exactMatch: boolean, atol: number): CompareResult {
  const tol = atol === 0 && isFloats(expected) ? EVALPLUS_DEFAULT_FLOAT_ATOL : atol;
  if (exactMatch) return { ok: true };
  if (tol === 0) return { ok: false, reason: `expected ${show(expected)}, got ${show(actual)}` };
  if (pyTag(actual) !== pyTag(expected)) {
    return { ok: false, reason: `expected ${aType(expected)} (${show(expected)}), got ${aType(actual)} (${show(actual)})` };
  }
  const t = pyTag(expected);
  if ((t === 'l' || t === 't') && items(actual).length !== items(expected).length) {
    return { ok: false, reason: `expected ${items(expected).length} items, got ${items(actual).length}` };
  }
  if (allClose(actual, expected, EVALPLUS_RTOL, tol)) return { ok: true };
  return { ok: false, reason: `not within atol=${tol}, rtol=${EVALPLUS_RTOL}: expected ${show(expected)}, got ${show(actual)}` };
}

/** EvalPlus' comparison of one output: Python `==`, then the float tolerance rule. */
export function equalPyValues(actual: PyValue, expected: PyValue, options: CompareOptions = {}): CompareResult {
  return applyEvalPlusTolerance(actual, expected, pyEquals(actual, expected), options.atol ?? 0);
}

/**
 * A short Python-like rendering of a PyValue for reasons (cut to `max` characters: the first `max` − 1 and `…`).
 * Rendered only as far as the cut needs (an EvalPlus answer can be a list of a million numbers: rendering it whole
 * cost seconds and, kept as a slice in a verdict's reason, pinned the whole rendering in memory), and returned as a
 * fresh string that holds nothing else alive.
 */
export function show(v: PyValue, max = 120): string {
  const out: Rendering = { parts: [], length: 0, cap: max };
  render(v, 0, out);
  const s = out.parts.join('');
  return fresh(s.length <= max ? s : `${s.slice(0, max - 1)}…`);
}

/** A copy of `s` that is not a slice or concatenation of a larger string (V8 keeps a slice's parent alive). */
function fresh(s: string): string {
  return s.split('').join('');
}

/** Pieces of a rendering so far; rendering stops once `length` passes `cap` (what is there is then a prefix). */
interface Rendering { readonly parts: string[]; length: number; readonly cap: number }

function emit(out: Rendering, piece: string): boolean {
  out.parts.push(piece);
  out.length += piece.length;
  return out.length <= out.cap;
}

/** `items` rendered with `each`, separated by ', '; false once the cap is passed. */
function renderAll<T>(items: readonly T[], out: Rendering, each: (x: T) => boolean): boolean {
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && !emit(out, ', ')) return false;
    if (!each(items[i]!)) return false;
  }
  return true;
}

/** Append the rendering of `v` to `out`; false once the cap is passed (the caller stops too). */
function render(v: PyValue, depth: number, out: Rendering): boolean {
  if (depth > 20) return emit(out, '…');
  if (v === null) return emit(out, 'None');
  if (typeof v === 'boolean') return emit(out, v ? 'True' : 'False');
  if (typeof v === 'string') return emit(out, JSON.stringify(v));
  const inner = (x: PyValue): boolean => render(x, depth + 1, out);
  const wrapped = (open: string, xs: readonly PyValue[], close: string): boolean =>
    emit(out, open) && renderAll(xs, out, inner) && emit(out, close);
  if ('i' in v) return emit(out, v.i);
  if ('f' in v) return emit(out, typeof v.f === 'number' ? (Number.isInteger(v.f) ? v.f.toFixed(1) : String(v.f)) : v.f);
  if ('c' in v) return emit(out, `complex(${v.c[0]}, ${v.c[1]})`);
  if ('l' in v) return wrapped('[', v.l, ']');
  if ('t' in v) return wrapped('(', v.t, v.t.length === 1 ? ',)' : ')');
  if ('s' in v) return wrapped('{', v.s, '}');
  if ('fs' in v) return wrapped('frozenset({', v.fs, '})');
  if ('d' in v) return emit(out, '{') && renderAll(v.d, out, ([k, x]) => inner(k) && emit(out, ': ') && inner(x)) && emit(out, '}');
  if ('b' in v) return emit(out, `bytes(base64:${v.b})`);
  if ('o' in v) return emit(out, `<${v.o}: ${v.r}>`);
  return emit(out, '?');
}

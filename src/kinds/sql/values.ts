/**
 * SQL result values as the published evaluators see them: each cell is what Python's `sqlite3` module returns
 * (`None`, `int`, `float`, `str`, `bytes`), and every comparison they make is Python's: `==` (so `1 == 1.0` and
 * `'1' != 1`), `hash` (sets, dicts), `str(x)` (the sort keys of Spider's `unorder_row` and BIRD's `sort_tuple`).
 * This module gives those semantics to TypeScript values, so that the comparators in `./comparators.ts` answer
 * exactly as Spider's `exec_eval.py` and BIRD's `evaluation.py` do on the same rows.
 *
 * Wire form (JSON, what the in-box query runner prints and the ground-truth cache keeps), one cell:
 * `null` | a JSON string (text) | a JSON number that is a safe integer (int) | `{"int": "<decimal>"}` (an int
 * outside ±2^53) | `{"real": number | "inf" | "-inf" | "nan"}` (a float: always tagged, since JSON cannot tell
 * `1.0` from `1`) | `{"blob": "<hex>"}` | `{"badtext": "<hex>"}` (a TEXT value whose bytes are not UTF-8: Spider's
 * evaluator decodes it dropping the bad bytes, BIRD's raises; `decodeText` applies either rule).
 */
import { z } from 'zod';

/** One cell of a result, decoded (see the module comment). Integers are exact (`bigint`). */
export type SqlValue =
  | null
  | { readonly t: 'int'; readonly v: bigint }
  | { readonly t: 'real'; readonly v: number }
  | { readonly t: 'text'; readonly v: string }
  | { readonly t: 'blob'; readonly hex: string }
  | { readonly t: 'badtext'; readonly hex: string };

/** One row of a result. */
export type SqlRow = readonly SqlValue[];

const HEX = /^(?:[0-9a-f]{2})*$/;

/** zod schema of one wire cell (module comment). */
export const wireValueSchema = z.union([
  z.null(),
  z.string(),
  z.number().refine(Number.isSafeInteger, 'a bare number must be a safe integer; floats are {"real": x}'),
  z.object({ int: z.string().regex(/^-?[0-9]+$/) }).strict(),
  z.object({ real: z.union([z.number(), z.enum(['inf', '-inf', 'nan'])]) }).strict(),
  z.object({ blob: z.string().regex(HEX) }).strict(),
  z.object({ badtext: z.string().regex(HEX) }).strict(),
]);

/** One wire cell. */
export type WireValue = z.infer<typeof wireValueSchema>;

/** A wire cell decoded. */
export function fromWire(w: WireValue): SqlValue {
  if (w === null) return null;
  if (typeof w === 'string') return { t: 'text', v: w };
  if (typeof w === 'number') return { t: 'int', v: BigInt(w) };
  if ('int' in w) return { t: 'int', v: BigInt(w.int) };
  if ('real' in w) {
    const r = w.real;
    return { t: 'real', v: r === 'inf' ? Infinity : r === '-inf' ? -Infinity : r === 'nan' ? NaN : r };
  }
  if ('blob' in w) return { t: 'blob', hex: w.blob };
  return { t: 'badtext', hex: w.badtext };
}

/** A cell in wire form (inverse of `fromWire`). */
export function toWire(v: SqlValue): WireValue {
  if (v === null) return null;
  switch (v.t) {
    case 'int': {
      const n = Number(v.v);
      return Number.isSafeInteger(n) && BigInt(n) === v.v ? n : { int: v.v.toString() };
    }
    case 'real':
      return { real: Number.isNaN(v.v) ? 'nan' : v.v === Infinity ? 'inf' : v.v === -Infinity ? '-inf' : v.v };
    case 'text':
      return v.v;
    case 'blob':
      return { blob: v.hex };
    case 'badtext':
      return { badtext: v.hex };
  }
}

/** Shorthands for tests and readers: an int, a real, a text cell. */
export const int = (n: number | bigint): SqlValue => ({ t: 'int', v: BigInt(n) });
export const real = (x: number): SqlValue => ({ t: 'real', v: x });
export const text = (s: string): SqlValue => ({ t: 'text', v: s });

/**
 * How a `badtext` cell reads under an evaluator's text rule: Spider's `exec_eval.py` sets
 * `text_factory = lambda b: b.decode(errors="ignore")` (`'ignore'`: the bytes that are not UTF-8 are dropped);
 * BIRD's `evaluation.py` keeps Python's default, which raises `OperationalError` for the whole query (`'raise'`:
 * returns undefined, the caller treats the query as failed).
 */
export function decodeText(v: SqlValue, rule: 'ignore' | 'raise'): SqlValue | undefined {
  if (v === null || v.t !== 'badtext') return v;
  if (rule === 'raise') return undefined;
  return { t: 'text', v: decodeUtf8Ignoring(hexBytes(v.hex)) };
}

function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Length of the valid UTF-8 sequence at `i`, or 0 (Unicode's well-formed byte sequences, table 3-7). */
function utf8SequenceAt(b: Uint8Array, i: number): number {
  const c = b[i]!;
  if (c < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => i + k < b.length && b[i + k]! >= lo && b[i + k]! <= hi;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if ((c >= 0xe1 && c <= 0xec) || c === 0xee || c === 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (c === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (c === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (c >= 0xf1 && c <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (c === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

/**
 * Python's `bytes.decode('utf-8', errors='ignore')`: well-formed sequences are kept, and each maximal ill-formed
 * subpart is dropped (a lead byte with some valid continuation bytes is dropped together with them).
 */
export function decodeUtf8Ignoring(b: Uint8Array): string {
  const kept: number[] = [];
  let i = 0;
  while (i < b.length) {
    const n = utf8SequenceAt(b, i);
    if (n > 0) {
      for (let k = 0; k < n; k++) kept.push(b[i + k]!);
      i += n;
      continue;
    }
    i += 1 + maximalSubpartTail(b, i);
  }
  return Buffer.from(kept).toString('utf8');
}

/** Continuation bytes after an invalid lead at `i` that still belong to its maximal ill-formed subpart. */
function maximalSubpartTail(b: Uint8Array, i: number): number {
  const c = b[i]!;
  let need: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (c >= 0xc2 && c <= 0xdf) need = 1;
  else if (c >= 0xe0 && c <= 0xef) { need = 2; if (c === 0xe0) lo = 0xa0; if (c === 0xed) hi = 0x9f; }
  else if (c >= 0xf0 && c <= 0xf4) { need = 3; if (c === 0xf0) lo = 0x90; if (c === 0xf4) hi = 0x8f; }
  else return 0;
  let k = 0;
  while (k < need && i + 1 + k < b.length) {
    const x = b[i + 1 + k]!;
    if (k === 0 ? x < lo || x > hi : x < 0x80 || x > 0xbf) break;
    k++;
  }
  return k;
}

/**
 * A key that two cells share exactly when Python's `==` holds between them (and so `hash` agrees): ints and
 * floats compare by exact numeric value (`2**53 + 1 != float(2**53 + 1)`, `-0.0 == 0`), text by code points,
 * bytes by bytes; `None` equals only `None`. NaN keys equal each other (Python's NaN is unequal even to itself;
 * SQLite never returns one, PostgreSQL can: a documented difference). `badtext` cells must be decoded first.
 */
export function valueKey(v: SqlValue): string {
  if (v === null) return 'n';
  switch (v.t) {
    case 'int':
      return `N${v.v.toString()}`;
    case 'real':
      if (Number.isInteger(v.v)) return `N${BigInt(v.v).toString()}`;
      return Number.isNaN(v.v) ? 'Rnan' : `R${v.v}`;
    case 'text':
      return `T${v.v}`;
    case 'blob':
      return `B${v.hex}`;
    case 'badtext':
      return `X${v.hex}`;
  }
}

/** Python's `a == b` for two cells (see `valueKey`). */
export function pyEquals(a: SqlValue, b: SqlValue): boolean {
  return valueKey(a) === valueKey(b);
}

/** The key of a whole row (a tuple): rows are equal exactly when their keys are. */
export function rowKey(row: SqlRow): string {
  return JSON.stringify(row.map(valueKey));
}

/**
 * Python's `repr(float)` (`float_repr_style` 'short'): the shortest digits that round-trip, in fixed notation
 * when the decimal point position `decpt` satisfies -4 < decpt <= 16, else `d.ddde±XX` (at least two exponent
 * digits); integral values keep `.0`. CPython `Python/pystrtod.c` (`format_float_short`).
 */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  const negative = x < 0 || Object.is(x, -0);
  const [mantissa, exponent] = Math.abs(x).toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  const decpt = Number(exponent) + 1;
  let body: string;
  if (decpt > -4 && decpt <= 16) {
    if (decpt <= 0) body = `0.${'0'.repeat(-decpt)}${digits}`;
    else if (decpt >= digits.length) body = `${digits}${'0'.repeat(decpt - digits.length)}.0`;
    else body = `${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
  } else {
    const e = decpt - 1;
    const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    body = `${mant}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  return negative ? `-${body}` : body;
}

/** Python's `repr(bytes)`: `b'...'`, with `"` quotes when the bytes hold `'` but no `"`. */
export function pyBytesRepr(hex: string): string {
  const b = hexBytes(hex);
  const quote = b.includes(0x27) && !b.includes(0x22) ? '"' : "'";
  let out = `b${quote}`;
  for (const c of b) {
    if (c === 0x5c) out += '\\\\';
    else if (c === quote.charCodeAt(0)) out += `\\${quote}`;
    else if (c === 0x09) out += '\\t';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c < 0x20 || c >= 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += String.fromCharCode(c);
  }
  return `${out}${quote}`;
}

/** Python's `str(x)` of a cell (`None`, `1`, `1.0`, the text itself, `b'..'`). */
export function pyStr(v: SqlValue): string {
  if (v === null) return 'None';
  switch (v.t) {
    case 'int':
      return v.v.toString();
    case 'real':
      return pyFloatRepr(v.v);
    case 'text':
      return v.v;
    case 'blob':
    case 'badtext':
      return pyBytesRepr(v.hex);
  }
}

/** Python's `str(type(x))` of a cell. */
export function pyTypeStr(v: SqlValue): string {
  if (v === null) return "<class 'NoneType'>";
  return { int: "<class 'int'>", real: "<class 'float'>", text: "<class 'str'>", blob: "<class 'bytes'>", badtext: "<class 'bytes'>" }[v.t];
}

/** Python's `<` on two strings: by code point (JavaScript's `<` compares UTF-16 units, which differs above U+FFFF). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs === ys) return x - y;
    // A surrogate (a code point above U+FFFF) sorts after every BMP unit above the surrogate range.
    return xs ? (y > 0xdfff ? 1 : x - y) : (x > 0xdfff ? -1 : x - y);
  }
  return a.length - b.length;
}

/** Python's `sorted(values, key=key)` for string keys: stable, by code point. */
export function sortedBy<T>(values: readonly T[], key: (v: T) => string): T[] {
  const keyed = values.map((v, i) => ({ v, i, k: key(v) }));
  keyed.sort((a, b) => compareCodePoints(a.k, b.k) || a.i - b.i);
  return keyed.map((x) => x.v);
}

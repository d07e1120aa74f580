/**
 * A JSON reader for files written by Python's `json` module, keeping what `JSON.parse` would lose:
 *
 * - `NaN`, `Infinity`, `-Infinity` tokens (Python's `json.dumps(allow_nan=True)`, its default, writes them);
 *   no other extension to JSON is accepted.
 * - ints of any size: a number without fraction or exponent is kept as its digits (Python's `json.loads`
 *   reads such a number as `int`, one with `.` or `e` as `float`: CPython `Lib/json/scanner.py`, NUMBER_RE);
 * - object key order, including integer-like keys that JS objects would reorder.
 *
 * Output is a `JsonValue` tree; `toPyValue` turns it into the tagged `PyValue` encoding
 * (`src/verdict/pyvalue.ts`): int -> `{i}`, float -> `{f}`, array -> list `{l}`, object -> dict `{d}`.
 * Errors: `SyntaxError` with the character offset; callers wrap it into `DatasetError` with file and line.
 */
import type { PyValue } from '../verdict/index.js';

/** A JSON number as written in the source text. */
export class JsonNumber {
  constructor(readonly text: string) {}

  /** True when Python's json would read it as `int` (no fraction, no exponent, not NaN/Infinity). */
  get isInt(): boolean {
    return /^-?\d+$/.test(this.text);
  }

  /** The value as a JS double (precision is lost for big ints; use `toPyValue` to keep it). */
  toNumber(): number {
    if (this.text === 'NaN') return Number.NaN;
    if (this.text === 'Infinity') return Number.POSITIVE_INFINITY;
    if (this.text === '-Infinity') return Number.NEGATIVE_INFINITY;
    return Number(this.text);
  }
}

/** A JSON object with its keys in source order (duplicates kept; `toPyValue` keeps the last, as Python). */
export class JsonObject {
  constructor(readonly entries: readonly (readonly [string, JsonValue])[]) {}

  get(key: string): JsonValue | undefined {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i]!;
      if (e[0] === key) return e[1];
    }
    return undefined;
  }
}

export type JsonValue = null | boolean | string | JsonNumber | JsonObject | readonly JsonValue[];

const NUMBER_RE = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

class Parser {
  pos = 0;
  constructor(readonly text: string) {}

  fail(what: string): never {
    throw new SyntaxError(`${what} at offset ${this.pos}`);
  }

  skipWs(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.pos++;
      else break;
    }
  }

  value(): JsonValue {
    this.skipWs();
    const t = this.text;
    const c = t[this.pos];
    switch (c) {
      case '{':
        return this.object();
      case '[':
        return this.array();
      case '"':
        return this.string();
      case 't':
        return this.literal('true', true);
      case 'f':
        return this.literal('false', false);
      case 'n':
        return this.literal('null', null);
      case 'N':
        return this.literal('NaN', new JsonNumber('NaN'));
      case 'I':
        return this.literal('Infinity', new JsonNumber('Infinity'));
      case undefined:
        return this.fail('unexpected end of input');
      default:
        if (c === '-' && t.startsWith('-Infinity', this.pos)) {
          this.pos += '-Infinity'.length;
          return new JsonNumber('-Infinity');
        }
        return this.number();
    }
  }

  literal<T extends JsonValue>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos)) this.fail('unexpected token');
    this.pos += word.length;
    return value;
  }

  number(): JsonNumber {
    NUMBER_RE.lastIndex = this.pos;
    const m = NUMBER_RE.exec(this.text);
    if (m === null) return this.fail('unexpected token');
    this.pos += m[0].length;
    return new JsonNumber(m[0]);
  }

  string(): string {
    const t = this.text;
    const start = this.pos;
    let i = start + 1;
    let escaped = false;
    for (;;) {
      const c = t.charCodeAt(i);
      if (Number.isNaN(c)) {
        this.pos = i;
        this.fail('unterminated string');
      }
      if (c === 0x22) break;
      if (c === 0x5c) {
        escaped = true;
        i += 2;
        continue;
      }
      i++;
    }
    this.pos = i + 1;
    if (!escaped) return t.slice(start + 1, i);
    // Escapes (\uXXXX, surrogate pairs, \n, ...) are standard JSON: let the engine decode them.
    return JSON.parse(t.slice(start, i + 1)) as string;
  }

  array(): JsonValue[] {
    this.pos++;
    const out: JsonValue[] = [];
    this.skipWs();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.value());
      this.skipWs();
      const c = this.text[this.pos];
      this.pos++;
      if (c === ',') continue;
      if (c === ']') return out;
      this.pos--;
      this.fail("expected ',' or ']'");
    }
  }

  object(): JsonObject {
    this.pos++;
    const entries: (readonly [string, JsonValue])[] = [];
    this.skipWs();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return new JsonObject(entries);
    }
    for (;;) {
      this.skipWs();
      if (this.text[this.pos] !== '"') this.fail('expected a string key');
      const key = this.string();
      this.skipWs();
      if (this.text[this.pos] !== ':') this.fail("expected ':'");
      this.pos++;
      entries.push([key, this.value()]);
      this.skipWs();
      const c = this.text[this.pos];
      this.pos++;
      if (c === ',') continue;
      if (c === '}') return new JsonObject(entries);
      this.pos--;
      this.fail("expected ',' or '}'");
    }
  }
}

/** Parse one JSON document (Python dialect: NaN/Infinity allowed, exact ints, ordered keys). */
export function parsePyJson(text: string): JsonValue {
  const p = new Parser(text);
  const v = p.value();
  p.skipWs();
  if (p.pos !== text.length) p.fail('unexpected data after JSON value');
  return v;
}

/**
 * Parse one JSON object and return it as a plain JS object of `JsonValue`s (one level deep), so that a zod
 * schema can check its top-level fields while nested values keep their exact numbers and key order.
 */
export function parsePyJsonRecord(text: string): unknown {
  const v = parsePyJson(text);
  if (!(v instanceof JsonObject)) return v;
  const out: Record<string, JsonValue> = {};
  for (const [k, val] of v.entries) out[k] = val;
  return out;
}

/** `-0` and `007`-free canonical digits of a JSON int (Python's `int("-0")` is `0`). */
function canonicalIntDigits(text: string): string {
  return text === '-0' ? '0' : text;
}

/** The PyValue float payload of a JS double. */
export function floatPayload(x: number): number | 'nan' | 'inf' | '-inf' {
  if (Number.isNaN(x)) return 'nan';
  if (x === Number.POSITIVE_INFINITY) return 'inf';
  if (x === Number.NEGATIVE_INFINITY) return '-inf';
  return x;
}

/**
 * Convert a JSON value to PyValue as Python's `json.loads` would type it: int/float by the source text
 * (a float literal that overflows, like `1e400`, is `inf`, as in Python), array -> list, object -> dict.
 */
export function toPyValue(v: JsonValue): PyValue {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (v instanceof JsonNumber) {
    return v.isInt ? { i: canonicalIntDigits(v.text) } : { f: floatPayload(v.toNumber()) };
  }
  if (v instanceof JsonObject) {
    // Python's dict keeps the last value of a duplicated key, at the position of its first occurrence.
    const index = new Map<string, number>();
    const pairs: [PyValue, PyValue][] = [];
    for (const [k, val] of v.entries) {
      const at = index.get(k);
      if (at === undefined) {
        index.set(k, pairs.length);
        pairs.push([k, toPyValue(val)]);
      } else {
        pairs[at] = [k, toPyValue(val)];
      }
    }
    return { d: pairs };
  }
  return { l: v.map(toPyValue) };
}

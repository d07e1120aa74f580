/**
 * Values that leave a script problem's boxes as text, and their comparison outside the box (the `script` mode's
 * split judging, `src/kinds/script/split.ts`). Both the candidate's program and the trusted expected-values
 * program print each test case's value on a line of its own:
 *
 *   CRUCIBLE-VALUE <case index> <value>
 *
 * where `<value>` is one line of JSON with these conventions (every language's serializer follows them):
 * `null` (nil, None, undefined, unit), `true` / `false`, numbers in JSON syntax (integers of any size — they are
 * compared exactly, as big integers; a number with a fraction or an exponent is a float), strings (characters too),
 * arrays (lists, vectors, tuples), `{"$map": [[key, value], ...]}` (dictionaries, any key type, compared without
 * order), `{"$set": [...]}` (compared without order), `{"$float": "nan" | "inf" | "-inf"}`.
 *
 * Equality follows the `==` of the languages MultiPL-E translates to on those shapes: an integer equals a float of
 * the same value (Lua, Ruby, Python `1 == 1.0`), NaN equals nothing, a boolean is not a number. A tolerance, when
 * the benchmark's tests use one (Racket's `check-within`, R's `all.equal`), applies to float comparisons only.
 */

/** A parsed value (see the module comment). Integers are kept exactly. */
export type ScriptValue =
  | { readonly t: 'null' }
  | { readonly t: 'bool'; readonly v: boolean }
  | { readonly t: 'int'; readonly v: bigint }
  | { readonly t: 'float'; readonly v: number }
  | { readonly t: 'str'; readonly v: string }
  | { readonly t: 'list'; readonly v: readonly ScriptValue[] }
  | { readonly t: 'set'; readonly v: readonly ScriptValue[] }
  | { readonly t: 'map'; readonly v: readonly (readonly [ScriptValue, ScriptValue])[] };

/** The tag that starts a value line. */
export const VALUE_TAG = 'CRUCIBLE-VALUE';

/** Nesting deeper than this is refused (a value is data, not a stack-exhaustion attempt). */
const MAX_DEPTH = 200;

/** Why a value text could not be read: the message names the offset. */
export class ScriptValueError extends Error {}

/** A recursive-descent reader of one value text; `at` is the offset read up to. */
class ValueReader {
  private at = 0;

  constructor(private readonly text: string) {}

  /** The whole text as one value. @throws ScriptValueError */
  readAll(): ScriptValue {
    const result = this.value(0);
    this.skip();
    if (this.at !== this.text.length) this.fail('text after the value');
    return result;
  }

  private fail(what: string): never {
    throw new ScriptValueError(`${what} at offset ${this.at}`);
  }

  private skip(): void {
    while (this.at < this.text.length && ' \t\r\n'.includes(this.text[this.at]!)) this.at++;
  }

  private literal(word: string): boolean {
    if (!this.text.startsWith(word, this.at)) return false;
    this.at += word.length;
    return true;
  }

  private string(): string {
    const start = this.at;
    this.at++;
    while (this.at < this.text.length && this.text[this.at] !== '"') this.at += this.text[this.at] === '\\' ? 2 : 1;
    if (this.at >= this.text.length) this.fail('unterminated string');
    this.at++;
    try {
      return JSON.parse(this.text.slice(start, this.at)) as string;
    } catch {
      return this.fail('bad string escape');
    }
  }

  private value(depth: number): ScriptValue {
    if (depth > MAX_DEPTH) this.fail('value nested too deeply');
    this.skip();
    const c = this.text[this.at];
    if (c === undefined) return this.fail('missing value');
    if (this.literal('null')) return { t: 'null' };
    if (this.literal('true')) return { t: 'bool', v: true };
    if (this.literal('false')) return { t: 'bool', v: false };
    if (c === '"') return { t: 'str', v: this.string() };
    if (c === '[') return { t: 'list', v: this.items(depth, ']') };
    if (c === '{') return this.tagged(depth);
    const m = /^-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(this.text.slice(this.at, this.at + 4096));
    if (m === null) return this.fail(`unexpected "${c}"`);
    this.at += m[0].length;
    if (m[1] === undefined && m[2] === undefined) return { t: 'int', v: BigInt(m[0]) };
    return { t: 'float', v: Number(m[0]) };
  }

  private items(depth: number, close: string): ScriptValue[] {
    this.at++;
    const out: ScriptValue[] = [];
    this.skip();
    if (this.text[this.at] === close) { this.at++; return out; }
    for (;;) {
      out.push(this.value(depth + 1));
      this.skip();
      if (this.text[this.at] === ',') { this.at++; continue; }
      if (this.text[this.at] === close) { this.at++; return out; }
      this.fail(`expected "," or "${close}"`);
    }
  }

  /** `{"$float": "nan"|"inf"|"-inf"}`, `{"$set": [...]}` or `{"$map": [[k, v], ...]}`. */
  private tagged(depth: number): ScriptValue {
    this.at++;
    this.skip();
    if (this.text[this.at] !== '"') this.fail('expected a tag');
    const tag = this.string();
    this.skip();
    if (this.text[this.at] !== ':') this.fail('expected ":"');
    this.at++;
    this.skip();
    const result = this.taggedBody(depth, tag);
    this.skip();
    if (this.text[this.at] !== '}') this.fail('expected "}"');
    this.at++;
    return result;
  }

  private taggedBody(depth: number, tag: string): ScriptValue {
    if (tag === '$float') {
      const name = this.text[this.at] === '"' ? this.string() : this.fail('expected a float name');
      if (name === 'nan') return { t: 'float', v: Number.NaN };
      if (name === 'inf') return { t: 'float', v: Number.POSITIVE_INFINITY };
      if (name === '-inf') return { t: 'float', v: Number.NEGATIVE_INFINITY };
      return this.fail(`unknown float "${name}"`);
    }
    if (tag === '$set') {
      if (this.text[this.at] !== '[') this.fail('expected "["');
      return { t: 'set', v: this.items(depth, ']') };
    }
    if (tag === '$map') {
      if (this.text[this.at] !== '[') this.fail('expected "["');
      const pairs = this.items(depth, ']').map((pair) => {
        if (pair.t !== 'list' || pair.v.length !== 2) return this.fail('a map entry must be [key, value]');
        return [pair.v[0]!, pair.v[1]!] as const;
      });
      return { t: 'map', v: pairs };
    }
    return this.fail(`unknown tag "${tag}"`);
  }
}

/**
 * Parse one value text (see the module comment).
 * @throws ScriptValueError naming the offset when the text is not a value.
 */
export function parseScriptValue(text: string): ScriptValue {
  return new ValueReader(text).readAll();
}

/** Float comparison tolerance of a benchmark: `|a - b| <= absolute + relative * |b|` (b expected). */
export interface FloatTolerance {
  readonly absolute: number;
  readonly relative: number;
}

function numberOf(v: ScriptValue): number | undefined {
  if (v.t === 'float') return v.v;
  if (v.t === 'int') return Number(v.v);
  return undefined;
}

/** Whether `actual` equals `expected` (see the module comment); `tolerance` applies where a float is involved. */
export function scriptValuesEqual(actual: ScriptValue, expected: ScriptValue, tolerance?: FloatTolerance): boolean {
  if (actual.t === 'int' && expected.t === 'int') return actual.v === expected.v;
  const a = numberOf(actual);
  const b = numberOf(expected);
  if (a !== undefined && b !== undefined) {
    if (a === b) return true;
    if (tolerance === undefined || !Number.isFinite(a) || !Number.isFinite(b)) return false;
    return Math.abs(a - b) <= tolerance.absolute + tolerance.relative * Math.abs(b);
  }
  switch (expected.t) {
    case 'null': return actual.t === 'null';
    case 'bool': return actual.t === 'bool' && actual.v === expected.v;
    case 'str': return actual.t === 'str' && actual.v === expected.v;
    case 'list':
      return actual.t === 'list' && actual.v.length === expected.v.length
        && expected.v.every((e, i) => scriptValuesEqual(actual.v[i]!, e, tolerance));
    case 'set':
      return actual.t === 'set' && unorderedEqual(actual.v, expected.v, (x, y) => scriptValuesEqual(x, y, tolerance));
    case 'map':
      return actual.t === 'map' && unorderedEqual(actual.v, expected.v,
        (x, y) => scriptValuesEqual(x[0], y[0]) && scriptValuesEqual(x[1], y[1], tolerance));
    default: return false;
  }
}

/** Equal sizes and a one-to-one matching of equal elements (greedy is exact for an equivalence relation). */
function unorderedEqual<T>(actual: readonly T[], expected: readonly T[], equal: (a: T, e: T) => boolean): boolean {
  if (actual.length !== expected.length) return false;
  const used = new Array<boolean>(actual.length).fill(false);
  return expected.every((e) => {
    const i = actual.findIndex((a, j) => !used[j] && equal(a, e));
    if (i < 0) return false;
    used[i] = true;
    return true;
  });
}

/** The value lines of `stdout`, by case index, each index with every text printed for it (in order). */
export function valueLines(stdout: string): Map<number, string[]> {
  const byIndex = new Map<number, string[]>();
  const prefix = `${VALUE_TAG} `;
  for (const raw of stdout.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (!line.startsWith(prefix)) continue;
    const m = /^(\d{1,9}) (.*)$/s.exec(line.slice(prefix.length));
    if (m === null) continue;
    const index = Number(m[1]);
    const texts = byIndex.get(index) ?? [];
    texts.push(m[2]!);
    byIndex.set(index, texts);
  }
  return byIndex;
}

/** Whether a stdout line is a value line (so a benchmark's "nothing else on stdout" rule can ignore it). */
export function isValueLine(line: string): boolean {
  return line.replace(/\r$/, '').startsWith(`${VALUE_TAG} `);
}

/** A value as short text for a reason (JSON-like; at most `max` characters). */
export function renderScriptValue(v: ScriptValue, max = 200): string {
  const text = render(v);
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function render(v: ScriptValue): string {
  switch (v.t) {
    case 'null': return 'null';
    case 'bool': return String(v.v);
    case 'int': return v.v.toString();
    case 'float': return Number.isNaN(v.v) ? 'nan' : Number.isFinite(v.v) ? (Number.isInteger(v.v) ? v.v.toFixed(1) : String(v.v)) : (v.v > 0 ? 'inf' : '-inf');
    case 'str': return JSON.stringify(v.v);
    case 'list': return `[${v.v.map(render).join(', ')}]`;
    case 'set': return `{${v.v.map(render).join(', ')}}`;
    case 'map': return `{${v.v.map(([k, x]) => `${render(k)}: ${render(x)}`).join(', ')}}`;
  }
}

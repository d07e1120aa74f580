/**
 * D (MultiPL-E `humaneval_to_d.py`): the prompt is `import std.math;` (`import std.typecons;` where a type needs
 * it), the docstring, and the signature `T f(...) ` without its body; the tests are
 * `unittest { alias candidate = f; ... } void main(){}`, one case per statement: `assert(candidate(...) == <e>);`,
 * or, where the result is `Nullable`, a block `{ auto result = candidate(...); assert(result.isNull); }` /
 * `assert(!result.isNull && result.get == <e>);`, or for a tuple of `Nullable`s one such assertion per element
 * (`result[0].isNull`, `!result[1].isNull && result[1].get == <e>`).
 *
 * D's `==` compares arrays element by element, associative arrays without order, `Tuple`s field by field, numbers
 * by value after promotion (`long == double`; a `float` promoted to `double`, so `0.1f == 0.1` is false); the
 * value conventions mirror it: numbers as JSON numbers (a `float` as the exact value of its `double` conversion,
 * `%.17g`), arrays and `Tuple`s as arrays, associative arrays as `$map`, a null `Nullable` (and `null`) as null
 * and a set one as its value — what `isNull` / `get ==` tell apart. The empty literal `[]` (`void[]`) is an
 * empty array, equal to every empty array as in D. Strings (UTF-8 `char` arrays) are checked: the bytes of an
 * invalid sequence are written as lone surrogates `\udcXX` (PEP 383's surrogateescape). `real` is written through
 * `double` (the translator never emits it).
 *
 * The expected program keeps the prompt (its imports: `tuple` needs `std.typecons`) with the body `{ assert(0); }`
 * instead of the candidate's, and prints `auto e = <e>`, each literal with the type it has in the comparison; a
 * `Nullable` block's expected value is `null`, `<e>`, or `tuple(...)` of those per element.
 */
import { VALUE_TAG } from '../values.js';
import { closingBracket, splitTopLevel, type SourceSyntax, type SplitCase, type SplitTests, type ValueSplit } from '../split.js';
import { assertionStatements } from './assertion-statements.js';

const D_SYNTAX: SourceSyntax = { quotes: ['"', '\''], lineComment: '//' };

/** D source: `crucible_value_line(i, v)` writes `CRUCIBLE-VALUE i <json>` on a line of its own. */
const D_SERIALIZER = String.raw`
void crucible_json(T)(ref char[] out_, auto ref T v) {
    import std.traits : crucible_isFloatingPoint = isFloatingPoint, crucible_isIntegral = isIntegral,
        crucible_isSomeString = isSomeString, crucible_isSomeChar = isSomeChar, crucible_isArray = isArray,
        crucible_isAssociativeArray = isAssociativeArray;
    import std.typecons : crucible_Nullable = Nullable, crucible_isTuple = isTuple;
    import std.format : crucible_format = format;
    import std.conv : crucible_to = to;
    import std.math : crucible_isNaN = isNaN, crucible_isInfinity = isInfinity;
    static if (is(T == typeof(null))) out_ ~= "null";
    else static if (is(T == bool)) out_ ~= v ? "true" : "false";
    else static if (is(T : crucible_Nullable!U, U)) { if (v.isNull) out_ ~= "null"; else crucible_json(out_, v.get); }
    else static if (crucible_isSomeChar!T) crucible_json_text(out_, crucible_to!string(v));
    else static if (crucible_isIntegral!T) out_ ~= crucible_format("%d", v);
    else static if (crucible_isFloatingPoint!T) {
        double d = cast(double) v;
        if (crucible_isNaN(d)) out_ ~= "{\"$float\":\"nan\"}";
        else if (crucible_isInfinity(d)) out_ ~= d > 0 ? "{\"$float\":\"inf\"}" : "{\"$float\":\"-inf\"}";
        else {
            string s = crucible_format("%.17g", d);
            out_ ~= s;
            bool plain = true;
            foreach (c; s) if (c == '.' || c == 'e') plain = false;
            if (plain) out_ ~= ".0";
        }
    }
    else static if (crucible_isSomeString!T) crucible_json_text(out_, crucible_to!string(v));
    else static if (is(T == void[]) || is(T == const(void)[]) || is(T == immutable(void)[])) { assert(v.length == 0, "a non-empty void[] cannot be given"); out_ ~= "[]"; }
    else static if (crucible_isArray!T) {
        out_ ~= '[';
        foreach (i, x; v) { if (i > 0) out_ ~= ','; crucible_json(out_, x); }
        out_ ~= ']';
    }
    else static if (crucible_isAssociativeArray!T) {
        out_ ~= "{\"$map\":[";
        bool first = true;
        foreach (k, x; v) {
            if (!first) out_ ~= ',';
            first = false;
            out_ ~= '[';
            crucible_json(out_, k);
            out_ ~= ',';
            crucible_json(out_, x);
            out_ ~= ']';
        }
        out_ ~= "]}";
    }
    else static if (crucible_isTuple!T) {
        out_ ~= '[';
        foreach (i, x; v.expand) { static if (i > 0) out_ ~= ','; crucible_json(out_, x); }
        out_ ~= ']';
    }
    else static assert(false, "a value of type " ~ T.stringof ~ " cannot be given");
}

void crucible_json_text(ref char[] out_, const(char)[] s) {
    import std.format : crucible_format = format;
    import std.utf : crucible_stride = stride, crucible_decode = decode, crucible_UTFException = UTFException;
    out_ ~= '"';
    size_t i = 0;
    while (i < s.length) {
        char c = s[i];
        if (c < 0x80) {
            if (c == '"' || c == '\\') { out_ ~= '\\'; out_ ~= c; }
            else if (c < 0x20 || c == 0x7f) out_ ~= crucible_format("\\u%04x", cast(uint) c);
            else out_ ~= c;
            i++;
            continue;
        }
        size_t next = i;
        bool valid = true;
        try { crucible_decode(s, next); } catch (crucible_UTFException) { valid = false; }
        if (valid) { out_ ~= s[i .. next]; i = next; }
        else { out_ ~= crucible_format("\\udc%02x", cast(uint) c); i++; }
    }
    out_ ~= '"';
}

void crucible_value_line(T)(size_t i, auto ref T v) {
    import std.stdio : crucible_stdout = stdout;
    import std.format : crucible_format = format;
    char[] line;
    crucible_json(line, v);
    crucible_stdout.write(crucible_format("\n${VALUE_TAG} %d %s\n", i, line));
    crucible_stdout.flush();
}
`;

/** `unittest { alias candidate = f; <statements> }` then `void main(){}`: group 1 is the text before, 2 the binding, 3 the statements. */
const UNITTEST = /^([\s\S]*?)\bunittest\s*\{\s*(alias\s+candidate\s*=\s*\w+\s*;)([\s\S]*)\}\s*void\s+main\s*\(\s*\)\s*\{\s*\}\s*$/;

/** The prelude's parts (the text before the unittest, the binding) are joined with this (never in D source). */
const PARTS = '\u0000';

/** One assertion about a `Nullable` result (`result` or `result[k]`): null, or the expected text after `get ==`. */
function nullableClaim(text: string): { element: number | undefined; expected: string } | undefined {
  const m = /^(!?)\s*result(?:\[(\d+)\])?\.isNull(?:\s*&&\s*result(?:\[(\d+)\])?\.get\s*==\s*([\s\S]+))?$/.exec(text.trim());
  if (m === null) return undefined;
  const element = m[2] === undefined ? undefined : Number(m[2]);
  if (m[1] === '') return m[4] === undefined ? { element, expected: 'null' } : undefined;
  if (m[4] === undefined || (m[3] === undefined ? undefined : Number(m[3])) !== element) return undefined;
  return { element, expected: m[4].trim() };
}

/** A `{ auto result = candidate(...); assert(...); ... }` block read as one case, or undefined. */
function nullableBlock(block: string): SplitCase | undefined {
  const m = /^\{\s*auto\s+result\s*=\s*([\s\S]+?);\s*(assert\s*\([\s\S]*)\}$/.exec(block);
  const claims = m === null ? undefined : assertionStatements(m[2]!, 'assert', D_SYNTAX)?.map(nullableClaim);
  if (m === null || claims === undefined || claims.length === 0 || claims.some((c) => c === undefined)) return undefined;
  const actual = m[1]!.trim();
  if (!/^candidate\s*\(/.test(actual) || closingBracket(actual, actual.indexOf('('), D_SYNTAX) !== actual.length) return undefined;
  if (claims.length === 1 && claims[0]!.element === undefined) return { actual, expected: claims[0]!.expected };
  // One claim per tuple element, in order.
  if (claims.some((c, k) => c!.element !== k)) return undefined;
  return { actual, expected: `tuple(${claims.map((c) => c!.expected).join(', ')})` };
}

/** The unittest's statements as cases, or undefined when one is in another shape. */
function statements(body: string): SplitCase[] | undefined {
  const cases: SplitCase[] = [];
  let at = 0;
  for (;;) {
    while (at < body.length && /\s/.test(body[at]!)) at++;
    if (at >= body.length) return cases.length === 0 ? undefined : cases;
    if (body[at] === '{') {
      const close = closingBracket(body, at, D_SYNTAX);
      const found = close < 0 ? undefined : nullableBlock(body.slice(at, close));
      if (found === undefined) return undefined;
      cases.push(found);
      at = close;
      continue;
    }
    const m = /^assert\s*\(/.exec(body.slice(at));
    const close = m === null ? -1 : closingBracket(body, at + m[0].length - 1, D_SYNTAX);
    if (m === null || close < 0 || body[close] !== ';') return undefined;
    const sides = splitTopLevel(body.slice(at + m[0].length, close - 1), '==', D_SYNTAX);
    if (sides.length !== 2 || !/^candidate\s*\(/.test(sides[0]!) || sides[1] === '') return undefined;
    cases.push({ actual: sides[0]!, expected: sides[1]! });
    at = close + 1;
  }
}

/** MultiPL-E D split (see the module comment). */
export const D_SPLIT: ValueSplit = {
  cases(test: string): SplitTests | undefined {
    const m = UNITTEST.exec(test);
    const cases = m === null ? undefined : statements(m[3]!);
    if (m === null || cases === undefined) return undefined;
    return { prelude: `${m[1]!}${PARTS}${m[2]!}`, cases };
  },
  candidateProgram: ({ program, tests }) => {
    const [before, binding] = tests.prelude.split(PARTS) as [string, string];
    return [
      program, before, D_SERIALIZER, 'void main() {', `    ${binding}`,
      ...tests.cases.map((c, i) => `    crucible_value_line(${i}, ${c.actual});`), '}', '',
    ].join('\n');
  },
  expectedProgram: ({ prompt, tests }) => {
    const [before, binding] = tests.prelude.split(PARTS) as [string, string];
    return [
      prompt, '{ assert(0); }', before, D_SERIALIZER, 'void main() {', `    ${binding}`,
      ...tests.cases.map((c, i) => `    { auto e = ${c.expected}; crucible_value_line(${i}, e); }`), '}', '',
    ].join('\n');
  },
};

/**
 * Java replay (HumanEval-X `Java/*`, language `java`; `./replay.ts`). The prompt is `class Solution { …`
 * ending with the entry point's method opened (`public List<Integer> f(List<Integer> l, int k) {`, sometimes
 * `throws …`), after helper methods the test may call too (`s.poly(…)`); the test's `public class Main` makes
 * `Solution s = new Solution()` and calls `s.f(…)`, mostly inside `Arrays.asList(…)` of booleans built with
 * `.equals`, `Objects.equals` or `==` on unboxed values, then throws `AssertionError`. In one process a candidate
 * could return a `List` subclass (or any object where the declared type is `Object`) whose `equals` is always
 * true, or `System.exit(0)` after printing the marker.
 *
 * The test's calls `s.f(…)` become `CrucibleCalls.f(s, …)`, a wrapper with the prompt's parameter list. In the
 * candidate's box it serialises the arguments, calls `s.f(…)` and prints the record; the test's
 * `throw new AssertionError(…)` and `assert` statements there only evaluate their operands (the trusted box
 * decides). In the trusted box (the prompt with the entry point's body a `throw`, never called; no candidate code,
 * so no type of the program can shadow a JDK type there) the wrapper replays the record.
 *
 * Values travel as JSON written by one reflective encoder of the runtime values (the same code in both boxes):
 * `null`; `Boolean` as true/false; `Integer` as a number without fraction; `Double` as `Double.toString` (always
 * with a `.` or an exponent; round-trip exact), NaN and infinities as `{"$double": "NaN" | "Infinity" |
 * "-Infinity"}`; `Long`, `Short`, `Byte` as `{"$long": n}` etc.; `Float` as `{"$float": "<Float.toString>"}`;
 * `Character` as `{"$char": "c"}`; `String` as a JSON string whose every UTF-16 unit outside printable ASCII is
 * `\uXXXX` (so lone surrogates travel exactly); any `List` (and array) as an array of its iterated elements;
 * `Optional` as `{"$optional": []}` or `{"$optional": [v]}`; any `Map` as `{"$map": [[k, v], ...]}` sorted by the
 * encoded key (Java's map equality ignores order, and the arguments of both boxes must encode the same whatever
 * the iteration order); anything else as `{"$class": "<name>"}`. The recorder reads a returned collection through
 * its own (overridable) iteration: a lying subclass yields some data, which the trusted tests then judge.
 *
 * The trusted decoder is driven by the declared return type (turned into a descriptor here: `int` `!I`,
 * `List<List<Integer>>` `LLI`, `Map<String, Integer>` `MTI`, `Object` `X`…): it builds fresh `ArrayList`,
 * `HashMap`, `Optional` and boxed values of exactly the declared element types (where the type is `Object`, of
 * the type the record names, from the fixed list above), interns strings (a test compares a returned `String`
 * with a literal by `==`: Java/137), and refuses anything else — `$class`, integers out of the type's range, a
 * number of the wrong kind, raw non-ASCII or control characters, null for a primitive, repeated map keys, text
 * after the value. Prompts whose return type is outside `boolean`/`char`/the numeric types, their boxes,
 * `String`, `Object`, `List`, `ArrayList`, `Optional`, `Map`, `HashMap` (arrays, other generics), and tests that
 * draw unseeded random numbers, are left to the one-program judging.
 *
 * Driven calls (`./replay.ts`): the test's calls are recorded with the canonical solution (else a stub returning the
 * result type's zero or null) in a trusted box; the candidate's box holds the program + the encoder and the trusted
 * `Reader` + a driver (`driver`, the test's `Main`) that decodes each argument list into fresh values of the declared
 * parameter types (descriptors as for results) and prints one record per call. A parameter type without a
 * descriptor (arrays, other generics; none in HumanEval-X) keeps the older scheme (the test in the candidate's box).
 *
 * Random inputs: the HumanEval-X Java tests draw from `new Random(42)` (java.util.Random's sequence is fixed by
 * its specification), a local or a static field of the test's class, which a candidate can reach only in its own
 * box: reseeding it there makes the arguments differ from the trusted box's (`diverged`).
 */
import type { ScriptProblem } from '../../../formats/types.js';
import { assembleHumanEvalX } from './one-program.js';
import { CALL_TAG, REPLAY_ERROR_TAG, REPLAY_FILE, type ReplayProblem, type ReplaySplit } from './replay.js';
import { splitParameters } from './parameters.js';

/** The encoder (both boxes): the body of `final class CrucibleReplay`. */
const ENCODER = String.raw`
  private CrucibleReplay() {}
  static final int MAX_DEPTH = 1000;
  static java.lang.String args(java.lang.Object[] values) {
    java.lang.StringBuilder o = new java.lang.StringBuilder("[");
    for (int i = 0; i < values.length; i++) {
      if (i > 0) o.append(',');
      enc(o, values[i], 0);
    }
    return o.append(']').toString();
  }
  static void str(java.lang.StringBuilder o, java.lang.String s) {
    o.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
        o.append(c);
      } else {
        java.lang.String h = java.lang.Integer.toHexString(c);
        o.append("\\u");
        for (int k = h.length(); k < 4; k++) o.append('0');
        o.append(h);
      }
    }
    o.append('"');
  }
  static void enc(java.lang.StringBuilder o, java.lang.Object v, int depth) {
    if (depth > MAX_DEPTH) throw new java.lang.IllegalStateException("a value nested too deeply to be recorded");
    if (v == null) {
      o.append("null");
    } else if (v instanceof java.lang.Boolean) {
      o.append(((java.lang.Boolean) v).booleanValue() ? "true" : "false");
    } else if (v instanceof java.lang.Integer) {
      o.append(((java.lang.Integer) v).intValue());
    } else if (v instanceof java.lang.Long) {
      o.append("{\"$long\":").append(((java.lang.Long) v).longValue()).append('}');
    } else if (v instanceof java.lang.Short) {
      o.append("{\"$short\":").append((int) ((java.lang.Short) v).shortValue()).append('}');
    } else if (v instanceof java.lang.Byte) {
      o.append("{\"$byte\":").append((int) ((java.lang.Byte) v).byteValue()).append('}');
    } else if (v instanceof java.lang.Double) {
      double d = ((java.lang.Double) v).doubleValue();
      if (java.lang.Double.isNaN(d) || java.lang.Double.isInfinite(d)) o.append("{\"$double\":\"").append(java.lang.Double.toString(d)).append("\"}");
      else o.append(java.lang.Double.toString(d));
    } else if (v instanceof java.lang.Float) {
      o.append("{\"$float\":\"").append(java.lang.Float.toString(((java.lang.Float) v).floatValue())).append("\"}");
    } else if (v instanceof java.lang.Character) {
      o.append("{\"$char\":");
      str(o, java.lang.String.valueOf(((java.lang.Character) v).charValue()));
      o.append('}');
    } else if (v instanceof java.lang.String) {
      str(o, (java.lang.String) v);
    } else if (v instanceof java.util.Optional) {
      java.util.Optional<?> p = (java.util.Optional<?>) v;
      o.append("{\"$optional\":[");
      if (p.isPresent()) enc(o, p.get(), depth + 1);
      o.append("]}");
    } else if (v instanceof java.util.List) {
      o.append('[');
      boolean first = true;
      for (java.lang.Object x : (java.util.List<?>) v) {
        if (!first) o.append(',');
        first = false;
        enc(o, x, depth + 1);
      }
      o.append(']');
    } else if (v instanceof java.util.Map) {
      java.util.ArrayList<java.lang.String[]> entries = new java.util.ArrayList<java.lang.String[]>();
      for (java.util.Map.Entry<?, ?> e : ((java.util.Map<?, ?>) v).entrySet()) {
        java.lang.StringBuilder k = new java.lang.StringBuilder();
        enc(k, e.getKey(), depth + 1);
        java.lang.StringBuilder x = new java.lang.StringBuilder();
        enc(x, e.getValue(), depth + 1);
        entries.add(new java.lang.String[] {k.toString(), x.toString()});
      }
      entries.sort((a, b) -> a[0].compareTo(b[0]));
      o.append("{\"$map\":[");
      for (int i = 0; i < entries.size(); i++) {
        if (i > 0) o.append(',');
        o.append('[').append(entries.get(i)[0]).append(',').append(entries.get(i)[1]).append(']');
      }
      o.append("]}");
    } else if (v.getClass().isArray()) {
      o.append('[');
      int n = java.lang.reflect.Array.getLength(v);
      for (int i = 0; i < n; i++) {
        if (i > 0) o.append(',');
        enc(o, java.lang.reflect.Array.get(v, i), depth + 1);
      }
      o.append(']');
    } else {
      o.append("{\"$class\":");
      str(o, v.getClass().getName());
      o.append('}');
    }
  }
`;

/** The candidate's recorder (rest of `CrucibleReplay`). */
const RECORDER = String.raw`
  private static int recorded = 0;
  static void record(java.lang.String a, java.lang.Object r) {
    java.lang.StringBuilder o = new java.lang.StringBuilder("\n${CALL_TAG} ");
    o.append(recorded++).append(' ').append(a).append(' ');
    enc(o, r, 0);
    o.append('\n');
    java.lang.System.out.print(o.toString());
    java.lang.System.out.flush();
  }
  static void ignore(java.lang.Object... values) {}
`;

/** The trusted replayer (rest of `CrucibleReplay`): records from the file, arguments checked, results decoded. */
const REPLAYER = String.raw`
  static final class Bad extends java.lang.Exception {
    Bad(java.lang.String why) { super(why, null, false, false); }
  }
  static void fail(java.lang.String why) {
    java.lang.System.err.println("${REPLAY_ERROR_TAG} " + why);
    java.lang.System.err.flush();
    java.lang.Runtime.getRuntime().halt(3);
  }
  static java.lang.String cut(java.lang.String s) { return s.length() > 200 ? s.substring(0, 200) + "..." : s; }
  private static java.lang.String[] lines;
  private static int replayed = 0;
  private static java.lang.String[] lines() {
    if (lines == null) {
      byte[] data = null;
      try {
        data = java.nio.file.Files.readAllBytes(java.nio.file.Paths.get("${REPLAY_FILE}"));
      } catch (java.io.IOException e) {
        fail("the call records cannot be read");
      }
      java.lang.String text = new java.lang.String(data, java.nio.charset.StandardCharsets.ISO_8859_1);
      java.util.ArrayList<java.lang.String> all = new java.util.ArrayList<java.lang.String>();
      int start = 0;
      for (int i = 0; i < text.length(); i++) {
        if (text.charAt(i) == '\n') {
          all.add(text.substring(start, i));
          start = i + 1;
        }
      }
      lines = all.toArray(new java.lang.String[0]);
    }
    return lines;
  }
  static java.lang.Object call(java.lang.String desc, java.lang.String mine) {
    java.lang.String[] all = lines();
    int k = replayed;
    java.lang.String num = "call " + (k + 1);
    if (k >= all.length / 2) fail(num + " " + cut(mine) + ": the program's run ended after " + (all.length / 2) + " calls");
    if (!all[2 * k].equals(mine)) {
      fail(num + ": the program's run diverged from the tests (it was called with " + cut(all[2 * k]) + ", the tests pass " + cut(mine) + ")");
    }
    java.lang.Object v = null;
    try {
      Reader r = new Reader(all[2 * k + 1]);
      v = r.value(desc, 0, 0);
      if (r.at != r.text.length()) throw new Bad("text after the value");
    } catch (Bad e) {
      fail(num + ": a malformed recorded result (" + e.getMessage() + ")");
    }
    replayed++;
    return v;
  }
  static void finish() {
    if (replayed != lines().length / 2) fail("the program's run recorded " + (lines().length / 2) + " calls, the tests made " + replayed);
  }
  /** The index just past the type descriptor starting at i. */
  static int end(java.lang.String d, int i) {
    if (d.charAt(i) == '!') i++;
    char k = d.charAt(i);
    if (k == 'L' || k == 'O') return end(d, i + 1);
    if (k == 'M') return end(d, end(d, i + 1));
    return i + 1;
  }
  static final class Reader {
    final java.lang.String text;
    int at = 0;
    Reader(java.lang.String text) { this.text = text; }
    boolean take(java.lang.String w) {
      if (!text.startsWith(w, at)) return false;
      at += w.length();
      return true;
    }
    void expect(java.lang.String w) throws Bad {
      if (!take(w)) throw new Bad("expected " + w + " at " + at);
    }
    boolean digit() { return at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9'; }
    java.lang.String number() throws Bad {
      int s = at;
      if (at < text.length() && text.charAt(at) == '-') at++;
      int d0 = at;
      while (digit()) at++;
      if (at == d0) throw new Bad("expected a value at " + s);
      if (at < text.length() && text.charAt(at) == '.') {
        at++;
        int f0 = at;
        while (digit()) at++;
        if (at == f0) throw new Bad("a malformed number at " + s);
      }
      if (at < text.length() && (text.charAt(at) == 'e' || text.charAt(at) == 'E')) {
        at++;
        if (at < text.length() && (text.charAt(at) == '+' || text.charAt(at) == '-')) at++;
        int e0 = at;
        while (digit()) at++;
        if (at == e0) throw new Bad("a malformed number at " + s);
      }
      return text.substring(s, at);
    }
    static boolean integral(java.lang.String n) { return n.indexOf('.') < 0 && n.indexOf('e') < 0 && n.indexOf('E') < 0; }
    long integer(long lo, long hi) throws Bad {
      java.lang.String n = number();
      if (!integral(n)) throw new Bad("not an integer: " + cut(n));
      long v;
      try {
        v = java.lang.Long.parseLong(n);
      } catch (java.lang.NumberFormatException e) {
        throw new Bad("an integer out of range: " + cut(n));
      }
      if (v < lo || v > hi) throw new Bad("an integer out of the declared type's range: " + cut(n));
      return v;
    }
    long tagged(java.lang.String tag, long lo, long hi) throws Bad {
      expect("{\"" + tag + "\":");
      long v = integer(lo, hi);
      expect("}");
      return v;
    }
    java.lang.Double dbl() throws Bad {
      if (take("{\"$double\":")) {
        java.lang.String s = str();
        expect("}");
        if (s.equals("NaN")) return java.lang.Double.NaN;
        if (s.equals("Infinity")) return java.lang.Double.POSITIVE_INFINITY;
        if (s.equals("-Infinity")) return java.lang.Double.NEGATIVE_INFINITY;
        throw new Bad("an unknown double: " + cut(s));
      }
      java.lang.String n = number();
      if (integral(n)) throw new Bad("an integer where a double was recorded as one: " + cut(n));
      double v = java.lang.Double.parseDouble(n);
      if (java.lang.Double.isInfinite(v)) throw new Bad("a double out of range: " + cut(n));
      return v;
    }
    java.lang.Float flt() throws Bad {
      expect("{\"$float\":");
      java.lang.String s = str();
      expect("}");
      if (!s.matches("-?[0-9]+\\.[0-9]+(E-?[0-9]+)?|NaN|-?Infinity")) throw new Bad("not a float: " + cut(s));
      return java.lang.Float.parseFloat(s);
    }
    java.lang.Character chr() throws Bad {
      expect("{\"$char\":");
      java.lang.String s = str();
      expect("}");
      if (s.length() != 1) throw new Bad("not one char");
      return s.charAt(0);
    }
    java.lang.String str() throws Bad {
      expect("\"");
      java.lang.StringBuilder out = new java.lang.StringBuilder();
      for (;;) {
        if (at >= text.length()) throw new Bad("an unterminated string");
        char c = text.charAt(at++);
        if (c == '"') return out.toString().intern();
        if (c < 0x20 || c >= 0x7f) throw new Bad("a raw character outside printable ASCII in a string");
        if (c != '\\') {
          out.append(c);
          continue;
        }
        if (at >= text.length()) throw new Bad("an unterminated string");
        char e = text.charAt(at++);
        if (e == '"' || e == '\\' || e == '/') out.append(e);
        else if (e == 'n') out.append('\n');
        else if (e == 't') out.append('\t');
        else if (e == 'r') out.append('\r');
        else if (e == 'b') out.append('\b');
        else if (e == 'f') out.append('\f');
        else if (e == 'u') {
          if (at + 4 > text.length()) throw new Bad("a short escape");
          java.lang.String h = text.substring(at, at + 4);
          if (!h.matches("[0-9a-fA-F]{4}")) throw new Bad("a bad escape");
          out.append((char) java.lang.Integer.parseInt(h, 16));
          at += 4;
        } else {
          throw new Bad("a bad escape");
        }
      }
    }
    java.lang.Object value(java.lang.String d, int i, int depth) throws Bad {
      if (depth > MAX_DEPTH) throw new Bad("a value nested too deeply");
      boolean primitive = d.charAt(i) == '!';
      if (primitive) i++;
      char k = d.charAt(i);
      if (take("null")) {
        if (primitive) throw new Bad("null where the declared type is primitive");
        return null;
      }
      switch (k) {
        case 'Z':
          if (take("true")) return java.lang.Boolean.TRUE;
          if (take("false")) return java.lang.Boolean.FALSE;
          throw new Bad("not a boolean at " + at);
        case 'I': return java.lang.Integer.valueOf((int) integer(java.lang.Integer.MIN_VALUE, java.lang.Integer.MAX_VALUE));
        case 'J': return java.lang.Long.valueOf(tagged("$long", java.lang.Long.MIN_VALUE, java.lang.Long.MAX_VALUE));
        case 'S': return java.lang.Short.valueOf((short) tagged("$short", java.lang.Short.MIN_VALUE, java.lang.Short.MAX_VALUE));
        case 'B': return java.lang.Byte.valueOf((byte) tagged("$byte", java.lang.Byte.MIN_VALUE, java.lang.Byte.MAX_VALUE));
        case 'D': return dbl();
        case 'F': return flt();
        case 'C': return chr();
        case 'T': return str();
        case 'X': return any(depth);
        case 'L': {
          expect("[");
          java.util.ArrayList<java.lang.Object> out = new java.util.ArrayList<java.lang.Object>();
          if (take("]")) return out;
          do {
            out.add(value(d, i + 1, depth + 1));
          } while (take(","));
          expect("]");
          return out;
        }
        case 'O': {
          expect("{\"$optional\":[");
          if (take("]}")) return java.util.Optional.empty();
          java.lang.Object v = value(d, i + 1, depth + 1);
          if (v == null) throw new Bad("null in an Optional");
          expect("]}");
          return java.util.Optional.of(v);
        }
        case 'M': {
          expect("{\"$map\":[");
          java.util.HashMap<java.lang.Object, java.lang.Object> out = new java.util.HashMap<java.lang.Object, java.lang.Object>();
          if (take("]}")) return out;
          int vi = end(d, i + 1);
          do {
            expect("[");
            java.lang.Object key = value(d, i + 1, depth + 1);
            expect(",");
            java.lang.Object val = value(d, vi, depth + 1);
            expect("]");
            if (out.containsKey(key)) throw new Bad("a repeated map key");
            out.put(key, val);
          } while (take(","));
          expect("]}");
          return out;
        }
        default: throw new Bad("an unknown declared type");
      }
    }
    java.lang.Object any(int depth) throws Bad {
      if (at >= text.length()) throw new Bad("a missing value");
      char c = text.charAt(at);
      if (c == 't' || c == 'f') return value("Z", 0, depth);
      if (c == '"') return str();
      if (c == '[') return value("LX", 0, depth);
      if (c == '{') {
        if (text.startsWith("{\"$long\":", at)) return value("J", 0, depth);
        if (text.startsWith("{\"$short\":", at)) return value("S", 0, depth);
        if (text.startsWith("{\"$byte\":", at)) return value("B", 0, depth);
        if (text.startsWith("{\"$double\":", at)) return value("D", 0, depth);
        if (text.startsWith("{\"$float\":", at)) return value("F", 0, depth);
        if (text.startsWith("{\"$char\":", at)) return value("C", 0, depth);
        if (text.startsWith("{\"$optional\":", at)) return value("OX", 0, depth);
        if (text.startsWith("{\"$map\":", at)) return value("MXX", 0, depth);
        throw new Bad("a value of a type that cannot be replayed at " + at);
      }
      int s = at;
      java.lang.String n = number();
      at = s;
      return integral(n) ? value("I", 0, depth) : value("D", 0, depth);
    }
  }
`;

/** Descriptors of the primitive types, and their boxes (the cast a replayed result takes). */
const PRIMITIVES: Readonly<Record<string, readonly [string, string]>> = {
  boolean: ['!Z', 'java.lang.Boolean'], int: ['!I', 'java.lang.Integer'], long: ['!J', 'java.lang.Long'],
  short: ['!S', 'java.lang.Short'], byte: ['!B', 'java.lang.Byte'], double: ['!D', 'java.lang.Double'],
  float: ['!F', 'java.lang.Float'], char: ['!C', 'java.lang.Character'],
};

/** Descriptors of the reference types without parameters. */
const BOXES: Readonly<Record<string, string>> = {
  Boolean: 'Z', Integer: 'I', Long: 'J', Short: 'S', Byte: 'B', Double: 'D', Float: 'F', Character: 'C', String: 'T', Object: 'X',
};

/** Descriptors of the generic types (the decoder builds an `ArrayList`, `Optional` or `HashMap`) and their arity. */
const GENERICS: Readonly<Record<string, readonly [string, number]>> = {
  List: ['L', 1], ArrayList: ['L', 1], Optional: ['O', 1], Map: ['M', 2], HashMap: ['M', 2],
};

/** The decoder's descriptor of a declared Java type (see the module comment), or undefined when it cannot be replayed. */
export function javaTypeDescriptor(type: string): string | undefined {
  const tokens = type.match(/[A-Za-z_$][\w$.]*|\S/g) ?? [];
  let at = 0;
  const parse = (top: boolean): string | undefined => {
    const name = tokens[at++]?.replace(/^java\.(lang|util)\./, '');
    if (name === undefined) return undefined;
    if (PRIMITIVES[name] !== undefined) return top ? PRIMITIVES[name][0] : undefined;
    if (BOXES[name] !== undefined) return BOXES[name];
    const generic = GENERICS[name];
    if (generic === undefined) return undefined;
    if (tokens[at] !== '<') return generic[0] + 'X'.repeat(generic[1]);
    at++;
    let out = generic[0];
    for (let k = 0; k < generic[1]; k++) {
      if (k > 0 && tokens[at++] !== ',') return undefined;
      const inner = parse(false);
      if (inner === undefined) return undefined;
      out += inner;
    }
    return tokens[at++] === '>' ? out : undefined;
  };
  const d = parse(true);
  return d !== undefined && at === tokens.length ? d : undefined;
}

/** The entry point: the last public method the prompt opens, with nothing but comments after it. */
function entryOf(prompt: string): {
  readonly name: string; readonly params: string; readonly names: string[]; readonly types: string[]; readonly result: string;
  readonly throws: string;
} | undefined {
  const all = [...prompt.matchAll(/^[ \t]*public[ \t]+([\w$<>,.?[\] \t]+?)[ \t]+([A-Za-z_$][\w$]*)[ \t]*\(([^()]*)\)\s*(throws\s+[\w$.,\s]+?)?\s*\{/gm)];
  const m = all[all.length - 1];
  if (m === undefined) return undefined;
  const rest = prompt.slice(m.index + m[0].length).replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
  if (rest.trim() !== '') return undefined;
  const names: string[] = [];
  const types: string[] = [];
  for (const part of splitParameters(m[3]!)) {
    const p = /^(?:final\s+)?([\w$<>,.?[\]\s]+?)\s+([A-Za-z_$][\w$]*)$/.exec(part);
    if (p === null) return undefined;
    names.push(p[2]!);
    types.push(p[1]!.trim());
  }
  return { name: m[2]!, params: m[3]!, names, types, result: m[1]!.trim(), throws: (m[4] ?? '').trim() };
}

/**
 * The candidate's driver (the test's place in the assembly, so the assembly's `Main` runs it): one argument list
 * per stdin line, decoded as data with the trusted decoder into fresh values of the declared parameter types
 * (`descriptors`, one per parameter), the entry point called on one `Solution` in order, one record printed per
 * call (arguments written before the call, as the recording box writes them); then exit 0 (the assembly's
 * end-of-tests marker is never printed: nothing here decides a verdict).
 */
function driver(entry: { readonly name: string; readonly types: readonly string[] }, descriptors: readonly string[]): string {
  const vars = entry.types.map((_, i) => `crucible_a${i}`);
  const decls = entry.types.map((t, i) => `      ${t} ${vars[i]};\n`).join('');
  const reads = descriptors.map((d, i) => `${i > 0 ? '        crucible_r.expect(",");\n' : ''}`
    + `        ${vars[i]} = (${PRIMITIVES[entry.types[i]!]?.[1] ?? entry.types[i]}) crucible_r.value(${JSON.stringify(d)}, 0, 0);\n`).join('');
  return String.raw`
public class Main {
  @SuppressWarnings("unchecked")
  public static void main(java.lang.String[] crucible_argv) throws java.lang.Exception {
    java.lang.String crucible_text = new java.lang.String(java.lang.System.in.readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1);
    Solution crucible_s = new Solution();
    int crucible_start = 0;
    for (int crucible_i = 0; crucible_i < crucible_text.length(); crucible_i++) {
      if (crucible_text.charAt(crucible_i) != '\n') continue;
      java.lang.String crucible_line = crucible_text.substring(crucible_start, crucible_i);
      crucible_start = crucible_i + 1;
${decls}      try {
        CrucibleReplay.Reader crucible_r = new CrucibleReplay.Reader(crucible_line);
        crucible_r.expect("[");
${reads}        crucible_r.expect("]");
        if (crucible_r.at != crucible_line.length()) throw new CrucibleReplay.Bad("text after the arguments");
      } catch (CrucibleReplay.Bad crucible_e) {
        java.lang.System.err.println("undecodable arguments: " + crucible_e.getMessage());
        java.lang.System.err.flush();
        java.lang.Runtime.getRuntime().halt(3);
        return;
      }
      java.lang.String crucible_args = CrucibleReplay.args(new java.lang.Object[] {${vars.join(', ')}});
      CrucibleReplay.record(crucible_args, crucible_s.${entry.name}(${vars.join(', ')}));
    }
    java.lang.System.out.flush();
    java.lang.System.exit(0);
  }
}
`;
}

/** Randomness a test could draw that is not fixed by a seed (none in HumanEval-X Java, whose tests use `new Random(42)`). */
const UNSEEDED = /\bnew\s+Random\s*\(\s*\)|Math\s*\.\s*random\s*\(|ThreadLocalRandom|SecureRandom|nanoTime|currentTimeMillis|UUID/;

/** The test's class, renamed in the trusted box so that a class of ours runs it and then checks every record was used. */
const TEST_CLASS = /\bpublic\s+class\s+Main\b/;

/** HumanEval-X Java replay (see the module comment). */
export const JAVA_REPLAY: ReplaySplit = {
  prepare(problem: ScriptProblem): ReplayProblem | undefined {
    const entry = entryOf(problem.prompt);
    if (entry === undefined || !/^class\s+Solution\b/m.test(problem.prompt) || UNSEEDED.test(problem.test)) return undefined;
    if (!/\bSolution\s+s\s*=\s*new\s+Solution\s*\(\s*\)/.test(problem.test) || !TEST_CLASS.test(problem.test)) return undefined;
    const desc = javaTypeDescriptor(entry.result);
    if (desc === undefined) return undefined;
    let calls = 0;
    const call = new RegExp(`(?<![\\w$.])s\\s*\\.\\s*${entry.name.replaceAll('$', '\\$')}\\s*\\((\\s*\\))?`, 'g');
    const test = problem.test.replace(call, (_all, empty?: string) => {
      calls++;
      return empty === undefined ? `CrucibleCalls.${entry.name}(s, ` : `CrucibleCalls.${entry.name}(s)`;
    });
    if (calls === 0) return undefined;
    const names = entry.names.join(', ');
    const params = entry.params.trim() === '' ? '' : `, ${entry.params}`;
    const head = `final class CrucibleCalls {\n  @SuppressWarnings("unchecked")\n  static ${entry.result} ${entry.name}(Solution crucible_solution${params}) `
      + `${entry.throws} {\n    java.lang.String crucible_args = CrucibleReplay.args(new java.lang.Object[] {${names}});\n`;
    const recorder = `${head}    ${entry.result} crucible_result = crucible_solution.${entry.name}(${names});\n`
      + '    CrucibleReplay.record(crucible_args, crucible_result);\n    return crucible_result;\n  }\n}\n';
    const cast = PRIMITIVES[entry.result]?.[1] ?? entry.result;
    const stub = `${head}    return (${cast}) CrucibleReplay.call(${JSON.stringify(desc)}, crucible_args);\n  }\n}\n`;
    const language = problem.language;
    const trustedTest = `${test.replace(TEST_CLASS, 'final class CrucibleTestBody')}\nclass CrucibleTests {\n`
      + '  public static void main(String[] args) throws java.lang.Exception {\n    CrucibleTestBody.main(args);\n    CrucibleReplay.finish();\n  }\n}\n';
    const trustedProgram = assembleHumanEvalX(language, {
      setup: problem.setup ?? '',
      program: `${problem.prompt}\n        throw new java.lang.IllegalStateException("the entry point is replayed");\n    }\n}\n\n`
        + `final class CrucibleReplay {${ENCODER}${REPLAYER}}\n\n${stub}`,
      test: trustedTest,
    });
    const candidateTest = test
      .replace(/\bthrow\s+new\s+AssertionError\s*\(/g, 'CrucibleReplay.ignore(')
      .replace(/(?<![\w$.])assert\s+([^;:]+);/g, 'CrucibleReplay.ignore($1);');
    const recording = (program: string): string => assembleHumanEvalX(language, {
      setup: problem.setup ?? '', program: `${program}\n\nfinal class CrucibleReplay {${ENCODER}${RECORDER}}\n\n${recorder}`, test: candidateTest,
    });
    const descriptors = entry.types.map(javaTypeDescriptor);
    if (!descriptors.every((d): d is string => d !== undefined)) return { entryPoint: entry.name, candidateProgram: recording, trustedProgram };
    const zero = entry.result === 'boolean' ? 'false' : PRIMITIVES[entry.result] !== undefined ? `(${entry.result}) 0` : 'null';
    const argumentPrograms = [
      ...(problem.canonicalSolution === undefined ? [] : [recording(problem.prompt + problem.canonicalSolution)]),
      recording(`${problem.prompt}\n        return ${zero};\n    }\n}\n`),
    ];
    return {
      entryPoint: entry.name,
      candidateProgram: (program) => assembleHumanEvalX(language, {
        setup: problem.setup ?? '', program: `${program}\n\nfinal class CrucibleReplay {${ENCODER}${RECORDER}${REPLAYER}}\n`,
        test: driver(entry, descriptors),
      }),
      trustedProgram,
      argumentPrograms,
    };
  },
};

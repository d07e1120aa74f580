/**
 * C# (MultiPL-E `humaneval_to_cs.py`): the prompt is `using` lines + `class Problem {` + the method to complete; the
 * tests close that method (`    }`), then `public static void Main(string[] args) {` holds one assertion per case,
 * `Debug.Assert(<call> == <expected>);` where the return type is primitive (long, float, bool) and
 * `Debug.Assert(<call>.Equals(<expected>));` otherwise (string, List, Dictionary, Tuple, Nullable), with literals
 * typed as the declaration is (`(long)3L`, `(float)1.0f`, `new List<long>(new long[]{...})`,
 * `new Dictionary<string,long>(){{"a", 2L}}`, `Tuple.Create(0L, 1L)`, `null`).
 *
 * Equality: `==` on long/float/bool, `Equals` on strings, tuples (item by item), nullables (a boxed `long?` is the
 * long or null) — mirrored. `List<T>.Equals` and `Dictionary<K,V>.Equals` are reference equality in .NET, so the
 * published tests fail every list- or dictionary-returning item whatever the answer (nuprl/MultiPL-E issue #71, open,
 * which proposes `SequenceEqual` and a content comparison); here lists compare element by element and dictionaries
 * by their entries (unordered), as that issue intends — a deliberate difference from MultiPL-E's published verdicts
 * on those items. Tuples are lists, sets `$set`. The literals only hold long, float, bool and string values: a value
 * of any other numeric or char type (possible only where a type parameter is `object`) is given as the string
 * `"(<type name>) <value>"`, which equals no literal, as `((object)1).Equals(1L)` is false. The candidate's own
 * `Equals` is never called: its value is serialised element by element.
 */
import { VALUE_TAG } from '../values.js';
import type { SourceSyntax, SplitTests, ValueSplit } from '../split.js';
import { assertedCases } from './asserted-equality.js';

const CSHARP_SYNTAX: SourceSyntax = { quotes: ['"', '\''], lineComment: '//' };

/** C# (Mono mcs) source: `CrucibleValues.Line(i, v)` writes `CRUCIBLE-VALUE i <json>` on a line of its own (ASCII only). */
const CSHARP_SERIALIZER = String.raw`
static class CrucibleValues {
    public static void Line(int index, object value) {
        var o = new global::System.Text.StringBuilder();
        o.Append("\n${VALUE_TAG} ").Append(index.ToString(global::System.Globalization.CultureInfo.InvariantCulture)).Append(' ');
        Json(o, value, 0);
        o.Append('\n');
        global::System.Console.Out.Write(o.ToString());
        global::System.Console.Out.Flush();
    }
    static void Str(global::System.Text.StringBuilder o, string s) {
        o.Append('"');
        foreach (char c in s) {
            if (c == '"' || c == '\\') o.Append('\\').Append(c);
            else if (c < (char) 0x20 || c > (char) 0x7e) o.Append("\\u").Append(((int) c).ToString("x4"));
            else o.Append(c);
        }
        o.Append('"');
    }
    static bool IsGeneric(global::System.Type t, string prefix) {
        return t.IsGenericType && t.GetGenericTypeDefinition().FullName.StartsWith(prefix, global::System.StringComparison.Ordinal);
    }
    static void Json(global::System.Text.StringBuilder o, object v, int depth) {
        if (depth > 100) throw new global::System.InvalidOperationException("value nested too deeply");
        if (v == null) { o.Append("null"); return; }
        if (v is bool) { o.Append((bool) v ? "true" : "false"); return; }
        if (v is long) { o.Append(((long) v).ToString(global::System.Globalization.CultureInfo.InvariantCulture)); return; }
        if (v is float) {
            float f = (float) v;
            if (float.IsNaN(f)) o.Append("{\"$float\":\"nan\"}");
            else if (float.IsPositiveInfinity(f)) o.Append("{\"$float\":\"inf\"}");
            else if (float.IsNegativeInfinity(f)) o.Append("{\"$float\":\"-inf\"}");
            else {
                string s = f.ToString("R", global::System.Globalization.CultureInfo.InvariantCulture);
                o.Append(s);
                if (s.IndexOf('.') < 0 && s.IndexOf('E') < 0) o.Append(".0");
            }
            return;
        }
        if (v is string) { Str(o, (string) v); return; }
        var type = v.GetType();
        if (IsGeneric(type, "System.Tuple${'`'}") || IsGeneric(type, "System.ValueTuple${'`'}")) {
            o.Append('[');
            bool first = true;
            for (int i = 1; i <= 8; i++) {
                var member = type.GetProperty(i == 8 ? "Rest" : "Item" + i);
                object item;
                if (member != null) item = member.GetValue(v, null);
                else {
                    var field = type.GetField(i == 8 ? "Rest" : "Item" + i);
                    if (field == null) break;
                    item = field.GetValue(v);
                }
                if (!first) o.Append(',');
                first = false;
                Json(o, item, depth + 1);
            }
            o.Append(']');
            return;
        }
        var map = v as global::System.Collections.IDictionary;
        if (map != null) {
            o.Append("{\"$map\":[");
            bool first = true;
            foreach (global::System.Collections.DictionaryEntry e in map) {
                if (!first) o.Append(',');
                first = false;
                o.Append('[');
                Json(o, e.Key, depth + 1);
                o.Append(',');
                Json(o, e.Value, depth + 1);
                o.Append(']');
            }
            o.Append("]}");
            return;
        }
        var items = v as global::System.Collections.IEnumerable;
        if (items != null) {
            bool set = false;
            foreach (var i in type.GetInterfaces()) if (IsGeneric(i, "System.Collections.Generic.ISet${'`'}")) set = true;
            o.Append(set ? "{\"$set\":[" : "[");
            bool first = true;
            foreach (object x in items) {
                if (!first) o.Append(',');
                first = false;
                Json(o, x, depth + 1);
            }
            o.Append(set ? "]}" : "]");
            return;
        }
        if (type.IsPrimitive || v is decimal || v is global::System.Numerics.BigInteger) {
            Str(o, "(" + type.FullName + ") " + global::System.Convert.ToString(v, global::System.Globalization.CultureInfo.InvariantCulture));
            return;
        }
        throw new global::System.ArgumentException("a " + type.FullName + " cannot be given as a value");
    }
}
`;

/** The test's `Main` header and body: `(    }\n    public static void Main(string[] args) {)(body)}\n\n}`. */
const TEST_SHAPE = /^(\s*\}\s*public\s+static\s+void\s+Main\s*\(\s*string\s*\[\s*\]\s*args\s*\)\s*\{)([\s\S]*)\}\s*\}\s*$/;

/** The prompt's `using` lines (what the literals' types need: `System.Collections.Generic`). */
function usingsOf(prompt: string): string {
  return prompt.split('\n').filter((line) => /^\s*using\s+[\w.]+\s*;\s*$/.test(line)).join('\n');
}

/** MultiPL-E C# split (see the module comment). */
export const CSHARP_SPLIT: ValueSplit = {
  cases: (test: string): SplitTests | undefined => assertedCases(test, { shape: TEST_SHAPE, callee: 'Debug.Assert', equalsMethod: 'Equals', syntax: CSHARP_SYNTAX }),
  candidateProgram: ({ program, tests }) => [
    program, tests.prelude,
    ...tests.cases.map((c, i) => `        global::CrucibleValues.Line(${i}, ${c.actual});`),
    '    }', '}',
    CSHARP_SERIALIZER,
  ].join('\n'),
  expectedProgram: ({ prompt, tests }) => [
    usingsOf(prompt), '',
    'static class CrucibleExpected {',
    '    public static void Main(string[] args) {',
    ...tests.cases.map((c, i) => `        global::CrucibleValues.Line(${i}, ${c.expected});`),
    '    }',
    '}',
    CSHARP_SERIALIZER,
  ].join('\n'),
};

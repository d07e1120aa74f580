/**
 * Java (MultiPL-E `humaneval_to_java.py`): the prompt is imports + `class Problem {` + the method to complete; the
 * tests close that method (`    }`), then `public static void main(String[] args) {` holds one assertion per case,
 * `assert(<call> == <expected>);` where the return type is primitive (long, float, boolean) and
 * `assert(<call>.equals(<expected>));` otherwise (String, ArrayList, HashMap, Optional, javatuples' Pair), with
 * literals typed as the declaration is (`(long)3l`, `(float)1.0f`, `new ArrayList<Long>(Arrays.asList(...))`,
 * `new HashMap<String,Long>(Map.of(...))`, `Optional.of(2l)`, `Optional.empty()`).
 *
 * Equality mirrored: `==` on long/float/boolean and `equals` on the boxed values, Strings, Lists (element by element,
 * whatever the List class: `ArrayList.equals(LinkedList)` is true), Maps and Sets (unordered), Optionals.
 * `Long.equals(Integer)` and `Float.equals(Double)` are false in Java, and the tests' literals only ever hold Long,
 * Float, Boolean and String values: a value of any other boxed or numeric class (reachable only through raw types)
 * is given as the string `"(<class name>) <value>"`, which equals no literal. An empty Optional is `null`, a present
 * one its value. The candidate's own `equals` is never called: its value is serialised element by element, so an
 * object whose `equals` always answers true compares by its contents.
 *
 * Every MultiPL-E Java prompt imports `org.javatuples.*`, which Debian does not package: that one import line is
 * left out of both programs (the items that use `Pair` still fail to compile, as before).
 */
import { VALUE_TAG } from '../values.js';
import type { SourceSyntax, SplitTests, ValueSplit } from '../split.js';
import { assertedCases } from './asserted-equality.js';

const JAVA_SYNTAX: SourceSyntax = { quotes: ['"', '\''], lineComment: '//' };

/** The import MultiPL-E puts in every prompt whose package Debian does not ship. */
const JAVATUPLES_IMPORT = /^[ \t]*import[ \t]+org\.javatuples\.\*[ \t]*;[ \t]*\r?\n?/m;

/** Java 17 source: `CrucibleValues.line(i, v)` writes `CRUCIBLE-VALUE i <json>` on a line of its own (ASCII only). */
const JAVA_SERIALIZER = String.raw`
final class CrucibleValues {
    private CrucibleValues() {}
    static void line(int index, Object value) {
        java.lang.StringBuilder out = new java.lang.StringBuilder();
        out.append("\n${VALUE_TAG} ").append(index).append(' ');
        json(out, value, 0);
        out.append('\n');
        java.lang.System.out.print(out);
        java.lang.System.out.flush();
    }
    private static void string(java.lang.StringBuilder out, java.lang.String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') out.append('\\').append(c);
            else if (c < 0x20 || c > 0x7e) out.append(java.lang.String.format("\\u%04x", (int) c));
            else out.append(c);
        }
        out.append('"');
    }
    private static void json(java.lang.StringBuilder out, java.lang.Object v, int depth) {
        if (depth > 100) throw new java.lang.IllegalStateException("value nested too deeply");
        if (v == null) { out.append("null"); return; }
        if (v instanceof java.lang.Boolean) { out.append(((java.lang.Boolean) v).booleanValue() ? "true" : "false"); return; }
        if (v instanceof java.lang.Long) { out.append(((java.lang.Long) v).longValue()); return; }
        if (v instanceof java.lang.Float) {
            float f = ((java.lang.Float) v).floatValue();
            if (java.lang.Float.isNaN(f)) out.append("{\"$float\":\"nan\"}");
            else if (java.lang.Float.isInfinite(f)) out.append(f > 0 ? "{\"$float\":\"inf\"}" : "{\"$float\":\"-inf\"}");
            else out.append(java.lang.Float.toString(f));
            return;
        }
        if (v instanceof java.lang.String) { string(out, (java.lang.String) v); return; }
        if (v instanceof java.util.Optional) {
            java.util.Optional<?> o = (java.util.Optional<?>) v;
            json(out, o.isPresent() ? o.get() : null, depth + 1);
            return;
        }
        if (v instanceof java.util.Map) {
            out.append("{\"$map\":[");
            boolean first = true;
            for (java.util.Map.Entry<?, ?> e : ((java.util.Map<?, ?>) v).entrySet()) {
                if (!first) out.append(',');
                first = false;
                out.append('[');
                json(out, e.getKey(), depth + 1);
                out.append(',');
                json(out, e.getValue(), depth + 1);
                out.append(']');
            }
            out.append("]}");
            return;
        }
        boolean set = v instanceof java.util.Set;
        if (v instanceof java.lang.Iterable || v.getClass().isArray()) {
            out.append(set ? "{\"$set\":[" : "[");
            boolean first = true;
            if (v.getClass().isArray()) {
                for (int i = 0; i < java.lang.reflect.Array.getLength(v); i++) {
                    if (i > 0) out.append(',');
                    json(out, java.lang.reflect.Array.get(v, i), depth + 1);
                }
            } else {
                for (java.lang.Object x : (java.lang.Iterable<?>) v) {
                    if (!first) out.append(',');
                    first = false;
                    json(out, x, depth + 1);
                }
            }
            out.append(set ? "]}" : "]");
            return;
        }
        if (v instanceof java.lang.Number || v instanceof java.lang.Character) {
            string(out, "(" + v.getClass().getName() + ") " + v);
            return;
        }
        throw new java.lang.IllegalArgumentException("a " + v.getClass().getName() + " cannot be given as a value");
    }
}
`;

/** The test's `main` header and body: `(    }\n    public static void main(String[] args) {)(body)}\n\n}`. */
const TEST_SHAPE = /^(\s*\}\s*public\s+static\s+void\s+main\s*\(\s*String\s*\[\s*\]\s*args\s*\)\s*\{)([\s\S]*)\}\s*\}\s*$/;

/** The prompt's import lines (the trusted declarations a literal may need: `java.util.*`). */
function importsOf(prompt: string): string {
  return prompt.split('\n').filter((line) => /^\s*import\s+[\w.]+(?:\.\*)?\s*;\s*$/.test(line) && !JAVATUPLES_IMPORT.test(line)).join('\n');
}

/** MultiPL-E Java split (see the module comment). */
export const JAVA_SPLIT: ValueSplit = {
  cases: (test: string): SplitTests | undefined => assertedCases(test, { shape: TEST_SHAPE, callee: 'assert', equalsMethod: 'equals', syntax: JAVA_SYNTAX }),
  candidateProgram: ({ program, tests }) => [
    program.replace(JAVATUPLES_IMPORT, ''), tests.prelude,
    ...tests.cases.map((c, i) => `        CrucibleValues.line(${i}, ${c.actual});`),
    '    }', '}', '',
    'public class Main {',
    '    public static void main(String[] args) {',
    '        Problem.main(args);',
    '    }',
    '}',
    JAVA_SERIALIZER,
  ].join('\n'),
  expectedProgram: ({ prompt, tests }) => [
    importsOf(prompt), '',
    'public class Main {',
    '    public static void main(String[] args) {',
    ...tests.cases.map((c, i) => `        CrucibleValues.line(${i}, ${c.expected});`),
    '    }',
    '}',
    JAVA_SERIALIZER,
  ].join('\n'),
};

/**
 * Kotlin (MultiPL-E `humaneval_to_kt.py`): the prompt is the function's header (`fun f(x: Long): Long {`); the tests
 * are `fun main() {` with one check per case. Published versions differ in the check's shape, all read here:
 * `assert(<expected> == <call>)` (the translator at nuprl/MultiPL-E 669406e: expected first),
 * `assert(<call> == <expected>)`, and `if (<call> != <expected>) { throw Exception("...") }`, the call being
 * `candidate(...)` after a `var candidate = ::f` line where there is one, else `f(...)`; literals such as
 * `mutableListOf(1L, 2L)`, `mutableListOf<Any>()`, `mutableMapOf("a" to 2L)`, `Pair(1L, 2L)`, `null`.
 *
 * Equality mirrored: Kotlin's `==` is `equals` — Lists by order whatever their class, Maps and Sets without order,
 * Pair and Triple item by item. Integers are JSON integers and Doubles JSON floats; a value of any other numeric or
 * char class (Float, Short, Byte, BigInteger, Char) is given as the string `"(<class name>) <value>"`, which equals
 * no literal. Int and Long are both integers here (the published versions type the same items as Int or as Long),
 * although `1 == 1L` is false for boxed values in Kotlin: a candidate can only return the other one through an
 * unchecked cast. The candidate's own `equals` is never called: its value is serialised element by element.
 */
import { VALUE_TAG } from '../values.js';
import { closingBracket, splitTopLevel, type SourceSyntax, type SplitCase, type SplitTests, type ValueSplit } from '../split.js';

const KOTLIN_SYNTAX: SourceSyntax = { quotes: ['"', '\''], lineComment: '//' };

/** Constructors of the tests' literals: a side of a comparison starting with one of these is the expected value. */
const LITERAL_BUILDERS = new Set(['mutableListOf', 'listOf', 'arrayListOf', 'emptyList', 'mutableMapOf', 'mapOf', 'hashMapOf', 'emptyMap',
  'setOf', 'mutableSetOf', 'hashSetOf', 'Pair', 'Triple']);

/** Kotlin 1.3 source: `CrucibleValues.line(i, v)` writes `CRUCIBLE-VALUE i <json>` on a line of its own (ASCII only). */
const KOTLIN_SERIALIZER = String.raw`
object CrucibleValues {
    fun line(index: Int, value: Any?) {
        val out = java.lang.StringBuilder()
        out.append("\n${VALUE_TAG} ").append(index).append(' ')
        json(out, value, 0)
        out.append('\n')
        java.lang.System.out.print(out.toString())
        java.lang.System.out.flush()
    }
    private fun str(out: java.lang.StringBuilder, s: String) {
        out.append('"')
        for (c in s) {
            if (c == '"' || c == '\\') out.append('\\').append(c)
            else if (c.toInt() < 0x20 || c.toInt() > 0x7e) out.append('\\').append('u').append(java.lang.String.format("%04x", c.toInt()))
            else out.append(c)
        }
        out.append('"')
    }
    private fun items(out: java.lang.StringBuilder, xs: Iterator<Any?>, depth: Int) {
        var first = true
        for (x in xs) {
            if (!first) out.append(',')
            first = false
            json(out, x, depth + 1)
        }
    }
    private fun json(out: java.lang.StringBuilder, v: Any?, depth: Int) {
        if (depth > 100) throw java.lang.IllegalStateException("value nested too deeply")
        when (v) {
            null -> out.append("null")
            is Boolean -> out.append(if (v) "true" else "false")
            is Long -> out.append(v)
            is Int -> out.append(v)
            is Double -> when {
                v.isNaN() -> out.append("{\"\$float\":\"nan\"}")
                v == Double.POSITIVE_INFINITY -> out.append("{\"\$float\":\"inf\"}")
                v == Double.NEGATIVE_INFINITY -> out.append("{\"\$float\":\"-inf\"}")
                else -> out.append(java.lang.Double.toString(v))
            }
            is String -> str(out, v)
            is Map<*, *> -> {
                out.append("{\"\$map\":[")
                var first = true
                for ((k, x) in v) {
                    if (!first) out.append(',')
                    first = false
                    out.append('[')
                    json(out, k, depth + 1)
                    out.append(',')
                    json(out, x, depth + 1)
                    out.append(']')
                }
                out.append("]}")
            }
            is Set<*> -> { out.append("{\"\$set\":["); items(out, v.iterator(), depth); out.append("]}") }
            is Iterable<*> -> { out.append('['); items(out, v.iterator(), depth); out.append(']') }
            is Array<*> -> { out.append('['); items(out, v.iterator(), depth); out.append(']') }
            is Pair<*, *> -> { out.append('['); items(out, listOf(v.first, v.second).iterator(), depth); out.append(']') }
            is Triple<*, *, *> -> { out.append('['); items(out, listOf(v.first, v.second, v.third).iterator(), depth); out.append(']') }
            is Number, is Char -> str(out, "(" + (v as Any).javaClass.name + ") " + v)
            else -> throw java.lang.IllegalArgumentException("a " + (v as Any).javaClass.name + " cannot be given as a value")
        }
    }
}
`;

/** The tests: text before `fun main() {`, and its body. */
const TEST_SHAPE = /^([\s\S]*?)\bfun\s+main\s*\(\s*\)\s*\{([\s\S]*)\}\s*$/;
const BINDING = /^\s*(?:var|val)\s+candidate\s*=\s*::\s*[A-Za-z_]\w*[ \t]*;?[ \t]*(?:\r?\n|$)/;

/** Which side of `a <op> b` calls the function: `candidate(` where bound, else the side that is not a literal. */
function orient(sides: readonly string[], bound: boolean): SplitCase | undefined {
  if (sides.length !== 2 || sides.some((s) => s === '')) return undefined;
  const isCall = (side: string): boolean => {
    const head = /^([A-Za-z_]\w*)\s*\(/.exec(side);
    if (head === null || closingBracket(side, head[0].length - 1, KOTLIN_SYNTAX) !== side.length) return false;
    return bound ? head[1] === 'candidate' : !LITERAL_BUILDERS.has(head[1]!);
  };
  const [a, b] = sides as [string, string];
  if (isCall(a) && !isCall(b)) return { actual: a, expected: b };
  if (isCall(b) && !isCall(a)) return { actual: b, expected: a };
  return undefined;
}

/** The cases of a `main` body (after any binding line), or undefined for a statement of another shape. */
function checks(body: string, bound: boolean): SplitCase[] | undefined {
  const cases: SplitCase[] = [];
  let at = 0;
  const skip = (): void => { while (at < body.length && /[\s;]/.test(body[at]!)) at++; };
  for (skip(); at < body.length; skip()) {
    const keyword = /^(assert|if)\s*\(/.exec(body.slice(at));
    if (keyword === null) return undefined;
    const open = at + keyword[0].length - 1;
    const close = closingBracket(body, open, KOTLIN_SYNTAX);
    if (close < 0) return undefined;
    const condition = body.slice(open + 1, close - 1).trim();
    let found: SplitCase | undefined;
    if (keyword[1] === 'assert') {
      found = orient(splitTopLevel(condition, '==', KOTLIN_SYNTAX), bound);
      at = close;
    } else {
      const block = /^\s*\{\s*throw\s+Exception\s*\(/.exec(body.slice(close));
      if (block === null) return undefined;
      const blockOpen = body.indexOf('{', close);
      const blockClose = closingBracket(body, blockOpen, KOTLIN_SYNTAX);
      if (blockClose < 0 || !/^\{\s*throw\s+Exception\s*\([\s\S]*\)\s*;?\s*\}$/.test(body.slice(blockOpen, blockClose))) return undefined;
      found = orient(splitTopLevel(condition, '!=', KOTLIN_SYNTAX), bound);
      at = blockClose;
    }
    if (found === undefined) return undefined;
    cases.push(found);
  }
  return cases;
}

/** The prompt's import lines. */
function importsOf(prompt: string): string {
  return prompt.split('\n').filter((line) => /^\s*import\s+[\w.]+(?:\.\*)?\s*$/.test(line)).join('\n');
}

/** MultiPL-E Kotlin split (see the module comment). */
export const KOTLIN_SPLIT: ValueSplit = {
  cases(test: string): SplitTests | undefined {
    const shape = TEST_SHAPE.exec(test);
    if (shape === null) return undefined;
    const binding = BINDING.exec(shape[2]!);
    const cases = checks(binding === null ? shape[2]! : shape[2]!.slice(binding[0].length), binding !== null);
    if (cases === undefined || cases.length === 0) return undefined;
    return { prelude: `${shape[1]!}fun main() {\n${binding === null ? '' : `    ${binding[0].trim()}\n`}`, cases };
  },
  candidateProgram: ({ program, tests }) => [
    program, tests.prelude,
    ...tests.cases.map((c, i) => `    CrucibleValues.line(${i}, ${c.actual})`),
    '}',
    KOTLIN_SERIALIZER,
  ].join('\n'),
  expectedProgram: ({ prompt, tests }) => [
    importsOf(prompt), '',
    'fun main() {',
    ...tests.cases.map((c, i) => `    CrucibleValues.line(${i}, ${c.expected})`),
    '}',
    KOTLIN_SERIALIZER,
  ].join('\n'),
};

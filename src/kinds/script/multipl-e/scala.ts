/**
 * Scala (MultiPL-E `humaneval_to_scala.py`): the prompt is imports (`scala.math._`, `scala.collection.mutable._`) +
 * `object Problem {` + the method to complete; the tests close that method (`    }`), then
 * `def main(args: Array[String]) = {` holds one assertion per case, `assert(<call> == <expected>);` where the return
 * type is Long, Float or Boolean and `assert(<call>.equals(<expected>));` otherwise, with literals such as
 * `List[Long](3l.toLong)`, `Map[String,Long]("a" -> 2l)` (a mutable Map: the prompt imports `mutable._`),
 * `(0l, 1l)`, `Some(2l)`, `None`.
 *
 * Equality mirrored: Scala's `==` is cooperative across numeric boxes (`1L == 1`, `1L == 1.0f`) and collections
 * compare their elements with it; Seqs compare by order whatever their class (`List(1) == ArrayBuffer(1)`), Maps
 * and Sets without order, whether mutable or not. Integers are JSON integers and floating-point numbers JSON floats,
 * which compare by value as Scala does; a Float is given as the exact double it widens to (`0.1f` is
 * 0.10000000149011612), so a Float and a Double differ as `0.1f == 0.1` does. Tuples are lists. An Option is its
 * value or null. The candidate's own `equals` is never called: its value is serialised element by element.
 *
 * Two shapes where the published assertion can never hold are judged by the value instead (a deliberate
 * difference from MultiPL-E's verdicts): an `Either` result compared with a plain literal
 * (`roundedAvg(1l, 5l).equals("0b11")`: `Left("0b11")` never equals a String) is its `Left`/`Right` content, and
 * `Some(None)` (`largestSmallestIntegers`) is null like `None`.
 */
import { VALUE_TAG } from '../values.js';
import type { SourceSyntax, SplitTests, ValueSplit } from '../split.js';
import { assertedCases } from './asserted-equality.js';

const SCALA_SYNTAX: SourceSyntax = { quotes: ['"', '\''], lineComment: '//' };

/** Scala 2.11 source: `CrucibleValues.line(i, v)` writes `CRUCIBLE-VALUE i <json>` on a line of its own (ASCII only). */
const SCALA_SERIALIZER = String.raw`
object CrucibleValues {
  def line(index: _root_.scala.Int, value: _root_.scala.Any): _root_.scala.Unit = {
    val out = new _root_.java.lang.StringBuilder()
    out.append("\n${VALUE_TAG} ").append(index).append(' ')
    json(out, value, 0)
    out.append('\n')
    _root_.java.lang.System.out.print(out.toString)
    _root_.java.lang.System.out.flush()
  }
  private def str(out: _root_.java.lang.StringBuilder, s: _root_.java.lang.String): _root_.scala.Unit = {
    out.append('"')
    var i = 0
    while (i < s.length) {
      val c = s.charAt(i)
      if (c == '"' || c == '\\') out.append('\\').append(c)
      else if (c < 0x20 || c > 0x7e) out.append('\\').append('u').append(_root_.java.lang.String.format("%04x", _root_.java.lang.Integer.valueOf(c.toInt)))
      else out.append(c)
      i += 1
    }
    out.append('"')
  }
  private def double(out: _root_.java.lang.StringBuilder, d: _root_.scala.Double): _root_.scala.Unit = {
    if (_root_.java.lang.Double.isNaN(d)) out.append("{\"$float\":\"nan\"}")
    else if (_root_.java.lang.Double.isInfinite(d)) out.append(if (d > 0) "{\"$float\":\"inf\"}" else "{\"$float\":\"-inf\"}")
    else out.append(_root_.java.lang.Double.toString(d))
  }
  private def items(out: _root_.java.lang.StringBuilder, xs: _root_.scala.collection.Iterator[_root_.scala.Any], depth: _root_.scala.Int): _root_.scala.Unit = {
    var first = true
    while (xs.hasNext) {
      if (!first) out.append(',')
      first = false
      json(out, xs.next(), depth + 1)
    }
  }
  private def json(out: _root_.java.lang.StringBuilder, v: _root_.scala.Any, depth: _root_.scala.Int): _root_.scala.Unit = {
    if (depth > 100) throw new _root_.java.lang.IllegalStateException("value nested too deeply")
    v match {
      case null => out.append("null")
      case b: _root_.scala.Boolean => out.append(if (b) "true" else "false")
      case n: _root_.scala.Long => out.append(n)
      case n: _root_.scala.Int => out.append(n)
      case n: _root_.scala.Short => out.append(n.toInt)
      case n: _root_.scala.Byte => out.append(n.toInt)
      case n: _root_.scala.math.BigInt => out.append(n.toString)
      case f: _root_.scala.Float => double(out, f.toDouble)
      case d: _root_.scala.Double => double(out, d)
      case s: _root_.java.lang.String => str(out, s)
      case c: _root_.scala.Char => str(out, "(Char) " + c)
      case _root_.scala.None => out.append("null")
      case _root_.scala.Some(x) => json(out, x, depth + 1)
      case _root_.scala.util.Left(x) => json(out, x, depth + 1)
      case _root_.scala.util.Right(x) => json(out, x, depth + 1)
      case m: _root_.scala.collection.Map[_, _] =>
        out.append("{\"$map\":[")
        var first = true
        for ((k, x) <- m) {
          if (!first) out.append(',')
          first = false
          out.append('[')
          json(out, k, depth + 1)
          out.append(',')
          json(out, x, depth + 1)
          out.append(']')
        }
        out.append("]}")
      case s: _root_.scala.collection.Set[_] =>
        out.append("{\"$set\":[")
        items(out, s.iterator, depth)
        out.append("]}")
      case s: _root_.scala.collection.Seq[_] =>
        out.append('[')
        items(out, s.iterator, depth)
        out.append(']')
      case a: _root_.scala.Array[_] =>
        out.append('[')
        items(out, a.iterator, depth)
        out.append(']')
      case p: _root_.scala.Product if p.getClass.getName.startsWith("scala.Tuple") =>
        out.append('[')
        items(out, p.productIterator, depth)
        out.append(']')
      case other => throw new _root_.java.lang.IllegalArgumentException("a " + other.getClass.getName + " cannot be given as a value")
    }
  }
}
`;

/** The test's `main` header and body: `(    }\n    def main(args: Array[String]) = {)(body)}\n\n}`. */
const TEST_SHAPE = /^(\s*\}\s*def\s+main\s*\(\s*args\s*:\s*Array\[String\]\s*\)\s*(?::\s*Unit\s*)?=\s*\{)([\s\S]*)\}\s*\}\s*$/;

/** The prompt's import lines (what the literals may need: `scala.collection.mutable._` makes `Map` mutable). */
function importsOf(prompt: string): string {
  return prompt.split('\n').filter((line) => /^\s*import\s+[\w.]+(?:\._)?\s*;?\s*$/.test(line)).join('\n');
}

/** MultiPL-E Scala split (see the module comment). */
export const SCALA_SPLIT: ValueSplit = {
  cases: (test: string): SplitTests | undefined => assertedCases(test, { shape: TEST_SHAPE, callee: 'assert', equalsMethod: 'equals', syntax: SCALA_SYNTAX }),
  candidateProgram: ({ program, tests }) => [
    program, tests.prelude,
    ...tests.cases.map((c, i) => `        CrucibleValues.line(${i}, ${c.actual})`),
    '    }', '}', '',
    'object Main {',
    '    def main(args: Array[String]): Unit = Problem.main(args)',
    '}',
    SCALA_SERIALIZER,
  ].join('\n'),
  expectedProgram: ({ prompt, tests }) => [
    importsOf(prompt), '',
    'object Main {',
    '    def main(args: Array[String]): Unit = {',
    ...tests.cases.map((c, i) => `        CrucibleValues.line(${i}, ${c.expected})`),
    '    }',
    '}',
    SCALA_SERIALIZER,
  ].join('\n'),
};

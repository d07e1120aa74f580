/**
 * Reading MultiPL-E's statically typed test suites (Java, C#, Scala: `humaneval_to_java.py`, `humaneval_to_cs.py`,
 * `humaneval_to_scala.py`, `deep_equality`): a test body is a run of assertion statements
 * `<assert>(<call> == <expected>);` (the return type is primitive) or `<assert>(<call>.<equals>(<expected>));`
 * (an object), where `<call>` is the function under test applied to literals.
 */
import { closingBracket, type SourceSyntax, type SplitCase, type SplitTests } from '../split.js';

/**
 * The single argument of every `<callee>(...)` statement of `body`, in order; undefined unless `body` is nothing
 * but such statements (each ended by `;`, whitespace between them).
 */
export function assertionStatements(body: string, callee: string, syntax: SourceSyntax): string[] | undefined {
  const args: string[] = [];
  let at = 0;
  for (;;) {
    while (at < body.length && /\s/.test(body[at]!)) at++;
    if (at >= body.length) return args;
    if (!body.startsWith(callee, at)) return undefined;
    let open = at + callee.length;
    while (open < body.length && /[ \t]/.test(body[open]!)) open++;
    if (body[open] !== '(') return undefined;
    const close = closingBracket(body, open, syntax);
    if (close < 0) return undefined;
    let end = close;
    while (end < body.length && /[ \t]/.test(body[end]!)) end++;
    if (body[end] !== ';') return undefined;
    args.push(body.slice(open + 1, close - 1).trim());
    at = end + 1;
  }
}

/**
 * `<call> == <expected>` or `<call>.<equalsMethod>(<expected>)` (outer parentheses allowed around the whole) read
 * into a case, where `<call>` is an identifier applied to arguments; undefined for any other shape.
 */
export function callComparedTo(assertion: string, equalsMethod: string, syntax: SourceSyntax): SplitCase | undefined {
  let text = assertion.trim();
  while (text.startsWith('(') && closingBracket(text, 0, syntax) === text.length) text = text.slice(1, -1).trim();
  const callee = /^[A-Za-z_$][\w$]*\s*\(/.exec(text);
  if (callee === null) return undefined;
  const callEnd = closingBracket(text, callee[0].length - 1, syntax);
  if (callEnd < 0) return undefined;
  const actual = text.slice(0, callEnd);
  const rest = text.slice(callEnd).trim();
  if (rest.startsWith('==')) {
    const expected = rest.slice(2).trim();
    return expected === '' ? undefined : { actual, expected };
  }
  const method = new RegExp(`^\\.\\s*${equalsMethod}\\s*\\(`).exec(rest);
  if (method === null) return undefined;
  const open = method[0].length - 1;
  if (closingBracket(rest, open, syntax) !== rest.length) return undefined;
  const expected = rest.slice(open + 1, -1).trim();
  return expected === '' ? undefined : { actual, expected };
}

/** Where a test suite's assertions are and how they are written (one per language). */
export interface AssertedSuite {
  /** The suite: group 1 the text up to and including the test method's opening brace, group 2 its body. */
  readonly shape: RegExp;
  /** The assertion's callee (`assert`, `Debug.Assert`). */
  readonly callee: string;
  /** The object equality method (`equals`, `Equals`). */
  readonly equalsMethod: string;
  readonly syntax: SourceSyntax;
}

/**
 * The cases of `test` in `suite`'s shape (the prelude is group 1 of `suite.shape`); undefined when the test is
 * not in that shape or any assertion is not `<call> == <expected>` / `<call>.<equals>(<expected>)`.
 */
export function assertedCases(test: string, suite: AssertedSuite): SplitTests | undefined {
  const shape = suite.shape.exec(test);
  if (shape === null) return undefined;
  const assertions = assertionStatements(shape[2]!, suite.callee, suite.syntax);
  if (assertions === undefined || assertions.length === 0) return undefined;
  const cases = assertions.map((a) => callComparedTo(a, suite.equalsMethod, suite.syntax));
  if (cases.some((c) => c === undefined)) return undefined;
  return { prelude: shape[1]!, cases: cases.map((c) => c!) };
}

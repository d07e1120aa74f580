/**
 * Split judging of `script` problems: the candidate's code and the tests' expectations never share a process.
 * A same-process script can patch its test library or equality at run time, or print the end-of-tests marker
 * itself (docs/SECURITY.md, "Script problems"); so where a language has a `ValueSplit`, the benchmark's tests are
 * read into test cases (an expression calling the candidate, an expected-value expression), and
 *
 * 1. the candidate's box runs prompt + completion + a driver that evaluates each case's call and prints its value
 *    (`CRUCIBLE-VALUE <i> <json>`, `src/kinds/script/values.ts`) — the expected values are not in that box;
 * 2. a trusted program (no candidate code: the problem's setup, the prompt's declarations where a typed language
 *    needs them, the expected-value expressions and the same serializer) prints the expected values, in a box of
 *    its own; its output depends on the problem only, so it is the mode's reference: run once per problem and
 *    cached on disk (`expectedValueTexts`), and handed to each run's judgement in the plan (never in a box);
 * 3. Crucible compares the two outside the boxes, case by case, in order.
 *
 * A candidate that exits early leaves cases without a value; one that prints value lines itself either repeats
 * a case (refused) or claims values it would have to compute anyway: printing the right values is solving the
 * problem. The candidate's serializer runs in its process and can be subverted to the same end only.
 *
 * The first case, in order, without the expected value decides (as the benchmark's own tests stop at the first
 * failing assertion): a mismatch is `wrong_answer`, a case the run did not reach takes the run's status.
 */
import type { ScriptProblem } from '../../formats/types.js';
import type { JudgeLimits } from '../../limits.js';
import type { ExecutionResult } from '../../sandbox/types.js';
import { reasonWithStderr, runStatus, shortReason, type TestResult } from '../../verdict/index.js';
import { GroundTruthError } from '../../judge/mode.js';
import { stderrRuleFailure, stdoutRuleFailure } from './output-rules.js';
import {
  isValueLine, parseScriptValue, renderScriptValue, scriptValuesEqual, ScriptValueError, valueLines,
  type FloatTolerance, type ScriptValue,
} from './values.js';

/** One test case read from a benchmark's tests: source text in the problem's language. */
export interface SplitCase {
  /** The expression that calls the candidate (e.g. `candidate({1, 2}, 0.3)`), evaluated in the candidate's box. */
  readonly actual: string;
  /** The expected value's expression (a literal in MultiPL-E's tests), evaluated in the trusted box. */
  readonly expected: string;
}

/** A benchmark's tests read as cases: `prelude` is trusted test text the calls need (e.g. `local candidate = f`). */
export interface SplitTests {
  readonly prelude: string;
  readonly cases: readonly SplitCase[];
}

/** How one language's tests are split and its two programs assembled (one per language and dialect). */
export interface ValueSplit {
  /**
   * The test cases of `test` (the benchmark's test text), or undefined when it is not in the shape this split
   * reads (such a problem is judged as one script, with the marker: see `./script.ts`).
   */
  cases(test: string): SplitTests | undefined;
  /** The candidate's program: `program` (prompt + completion) followed by a driver printing each case's `actual`. */
  candidateProgram(parts: { readonly setup: string; readonly program: string; readonly tests: SplitTests }): string;
  /** The trusted program printing each case's `expected` value. `prompt` is the problem's prompt (trusted text). */
  expectedProgram(parts: { readonly setup: string; readonly prompt: string; readonly tests: SplitTests }): string;
  /** Float tolerance of the benchmark's own assertion (e.g. Racket's `check-within` 0.001); exact when absent. */
  readonly tolerance?: FloatTolerance;
}

/** Limits of the trusted expected-values run (a literal per case: generous, compile excluded). */
export const EXPECTED_VALUES_LIMITS: JudgeLimits = { cpuMs: 20_000, memoryKiB: 1024 * 1024, outputBytes: 16 * 1024 * 1024 };

/**
 * The expected values of every case from what the trusted expected-values program printed, as value texts (each
 * one a `CRUCIBLE-VALUE` line's value, checked readable): the `script` mode's reference for a split problem,
 * computed once per problem and cached on disk (`src/engine/ground-truth.ts`).
 * @throws GroundTruthError when that program failed or did not print exactly one readable value per case.
 */
export function expectedValueTexts(result: ExecutionResult, caseCount: number): string[] {
  if (result.status !== 'ok') {
    throw new GroundTruthError(`the trusted expected-values program ended ${result.status}: ${(result.reason ?? '')} ${result.stderr.slice(0, 400)}`.trim(),
      result.status === 'internal_error');
  }
  const lines = valueLines(result.stdout);
  const texts: string[] = [];
  for (let i = 0; i < caseCount; i++) {
    const printed = lines.get(i);
    if (printed?.length !== 1) throw new GroundTruthError(`the trusted expected-values program printed ${printed?.length ?? 0} values for case ${i}`);
    try {
      parseScriptValue(printed[0]!);
    } catch (error) {
      throw new GroundTruthError(`the trusted expected-values program printed an unreadable value for case ${i}: ${(error as Error).message}`);
    }
    texts.push(printed[0]!);
  }
  return texts;
}

/** A case's call for a reason: its `actual` text, shortened. */
function caseName(tests: SplitTests, index: number): string {
  const text = tests.cases[index]!.actual.replace(/\s+/g, ' ').trim();
  return `case ${index + 1} (${text.length > 120 ? `${text.slice(0, 119)}…` : text})`;
}

/**
 * Judge the candidate's run of a split problem (see the module comment) against the trusted expected values
 * (`expectedTexts`, the reference: one value text per case). `stderrFails` / `stdoutFails` are the benchmark's
 * rules (`ScriptProblem`); value lines are not "other stdout".
 */
export function judgeSplitRun(problem: ScriptProblem, split: ValueSplit, tests: SplitTests, expectedTexts: readonly string[], index: number,
  result: ExecutionResult): TestResult {
  const base = { index, cpuMs: result.cpuMs, wallMs: result.wallMs };
  const expected = expectedTexts.map(parseScriptValue);
  const actual = valueLines(result.stdout);
  for (let i = 0; i < tests.cases.length; i++) {
    const texts = actual.get(i);
    if (texts === undefined || texts.length === 0) {
      if (result.status !== 'ok') {
        return { ...base, status: runStatus(result), reason: shortReason(`${caseName(tests, i)}: ${reasonWithStderr(result.reason, result.stderr) ?? result.status}`)! };
      }
      return { ...base, status: 'wrong_answer', reason: shortReason(`${caseName(tests, i)}: the program ended without giving its value (exited 0 before the tests ran to the end)`)! };
    }
    if (texts.length > 1) {
      return { ...base, status: 'wrong_answer', reason: shortReason(`${caseName(tests, i)}: ${texts.length} values were printed for this case (value lines printed by the program itself)`)! };
    }
    let value: ScriptValue;
    try {
      value = parseScriptValue(texts[0]!);
    } catch (error) {
      if (!(error instanceof ScriptValueError)) throw error;
      return { ...base, status: 'wrong_answer', reason: shortReason(`${caseName(tests, i)}: an unreadable value line (${error.message})`)! };
    }
    if (!scriptValuesEqual(value, expected[i]!, split.tolerance)) {
      return { ...base, status: 'wrong_answer',
        reason: shortReason(`${caseName(tests, i)}: expected ${renderScriptValue(expected[i]!)}, got ${renderScriptValue(value)}`)! };
    }
  }
  if (result.status !== 'ok') {
    return { ...base, status: runStatus(result), reason: shortReason(reasonWithStderr(result.reason, result.stderr)) ?? result.status };
  }
  const rule = stderrRuleFailure(problem, result.stderr) ?? stdoutRuleFailure(problem, result.stdout, isValueLine);
  if (rule !== undefined) return { ...base, ...rule };
  return { ...base, status: 'passed' };
}

/** Source syntax a scanner needs to skip literals: string quote characters and the line-comment opener. */
export interface SourceSyntax {
  /** Quote characters of string (and character) literals; a backslash escapes the next character inside them. */
  readonly quotes: readonly string[];
  /** False where a backslash is an ordinary character inside literals (Pascal, Ada: a doubled quote escapes). */
  readonly backslashEscapes?: boolean;
  /** Line comment opener (`--`, `#`, `//`, `;`), if any. */
  readonly lineComment?: string;
}

/**
 * When a string literal or a line comment starts at `at`: the index of its last character (the closing quote, the
 * comment's newline; `text.length` when it is never closed). Undefined when none starts there. A backslash escapes
 * the next character inside a literal unless `syntax.backslashEscapes` is false (a doubled quote then reads as
 * two literals side by side, which skips the same text).
 */
function literalEnd(text: string, at: number, syntax: SourceSyntax): number | undefined {
  const c = text[at]!;
  if (syntax.quotes.includes(c)) {
    const escapes = syntax.backslashEscapes !== false;
    let end = at + 1;
    while (end < text.length && text[end] !== c) end += escapes && text[end] === '\\' ? 2 : 1;
    return Math.min(end, text.length);
  }
  if (syntax.lineComment !== undefined && text.startsWith(syntax.lineComment, at)) {
    const end = text.indexOf('\n', at);
    return end < 0 ? text.length : end;
  }
  return undefined;
}

/**
 * The index just past the bracket that closes the one at `open` (`(`, `[` or `{`), skipping string literals
 * and line comments; -1 when it is never closed.
 */
export function closingBracket(text: string, open: number, syntax: SourceSyntax): number {
  const stack: string[] = [];
  const pairs: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
  for (let at = open; at < text.length; at++) {
    const c = text[at]!;
    const skipped = literalEnd(text, at, syntax);
    if (skipped !== undefined) {
      at = skipped;
      continue;
    }
    if (pairs[c] !== undefined) stack.push(pairs[c]!);
    else if (c === ')' || c === ']' || c === '}') {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return at + 1;
    }
  }
  return -1;
}

/**
 * `text` split at its top-level `separator` characters (outside brackets and string literals), each part trimmed.
 */
export function splitTopLevel(text: string, separator: string, syntax: SourceSyntax): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let at = 0; at < text.length; at++) {
    const c = text[at]!;
    const skipped = literalEnd(text, at, { quotes: syntax.quotes, backslashEscapes: syntax.backslashEscapes !== false });
    if (skipped !== undefined) {
      at = skipped;
      continue;
    }
    if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (depth === 0 && text.startsWith(separator, at)) {
      parts.push(text.slice(start, at).trim());
      start = at + separator.length;
      at += separator.length - 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts;
}

/**
 * Every call of `callee` in `text` outside string literals and line comments (`callee` is the literal text before
 * the opening parenthesis, e.g. `lu.assertEquals`): its top-level arguments, in order. Returns undefined when a
 * call is never closed.
 */
export function callsOf(text: string, callee: string, syntax: SourceSyntax): string[][] | undefined {
  const calls: string[][] = [];
  const pattern = new RegExp(`(?<![\\w.:$@>-])${callee.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\(`, 'y');
  for (let at = 0; at < text.length; at++) {
    const skipped = literalEnd(text, at, syntax);
    if (skipped !== undefined) {
      at = skipped;
      continue;
    }
    pattern.lastIndex = at;
    const m = pattern.exec(text);
    if (m === null) continue;
    const open = at + m[0].length - 1;
    const close = closingBracket(text, open, syntax);
    if (close < 0) return undefined;
    calls.push(splitTopLevel(text.slice(open + 1, close - 1), ',', syntax));
    at = close - 1;
  }
  return calls;
}

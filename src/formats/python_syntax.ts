/**
 * A cheap, conservative stand-in for Python's `compile(..., 'exec')` on short generated snippets (CodeT's
 * generated assertions), so that a test-case file can be read without running Python on the host.
 *
 * It tokenises like Python (strings with prefixes and triple quotes, comments, brackets spanning lines,
 * backslash continuation, indentation) and rejects what truncated or rambling generations typically show:
 * - an unclosed string or bracket, a mismatched bracket, a newline inside a one-line string;
 * - an indent that no `:` line opened, a dedent to a level never used;
 * - two operands side by side (`check the`, `'x'import`), except adjacent string literals;
 * - a statement keyword inside an expression (`assert import os`), `from __future__` (always a SyntaxError
 *   inside CodeT's `try:` wrapper);
 * - `return`/`yield` outside `def`, `break`/`continue` outside a loop, `await`/`async` outside `async def`;
 * - a line ending in a binary operator, `,` or `.`; a binary operator followed by one that cannot be unary,
 *   or by a closing bracket; an `assert` with a bare `=`.
 * It still accepts some programs Python rejects; measured agreement with CPython's `compile` on CodeT's
 * HumanEval test-case generations is in `docs/FORMATS.md`.
 */

type TokKind = 'name' | 'number' | 'string' | 'op';
interface Tok {
  readonly kind: TokKind;
  readonly text: string;
}
interface LogicalLine {
  readonly indent: number;
  readonly toks: readonly Tok[];
}

const KEYWORDS = new Set([
  'False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del',
  'elif', 'else', 'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda',
  'nonlocal', 'not', 'or', 'pass', 'raise', 'return', 'try', 'while', 'with', 'yield',
]);
/** Keywords that are operands. */
const CONSTANTS = new Set(['False', 'None', 'True']);
/** Keywords that may only start a statement (after optional `async`). */
const STATEMENT_ONLY = new Set([
  'assert', 'break', 'class', 'continue', 'def', 'del', 'elif', 'except', 'finally', 'global', 'import',
  'nonlocal', 'pass', 'raise', 'return', 'try', 'while', 'with',
]);
/** Statements that open an indented block. */
const COMPOUND_HEADS = new Set([
  'if', 'elif', 'else', 'for', 'while', 'try', 'except', 'finally', 'with', 'def', 'class', 'match', 'case',
]);
/** Keywords that cannot end a statement. */
const NEEDS_OPERAND = new Set([
  'and', 'as', 'assert', 'async', 'await', 'class', 'def', 'del', 'elif', 'for', 'from', 'global', 'if',
  'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or', 'while', 'with',
]);
const BINARY_OPS = new Set([
  '+', '-', '*', '/', '//', '%', '@', '**', '<<', '>>', '&', '|', '^', '<', '>', '<=', '>=', '==', '!=', '=',
  '+=', '-=', '*=', '/=', '//=', '%=', '@=', '**=', '<<=', '>>=', '&=', '|=', '^=', ':=', '->', '.',
]);
const UNARY_OK = new Set(['-', '+', '~', '*', '**', '(', '[', '{', '...']);
const OPS = [
  '**=', '//=', '>>=', '<<=', '...', '->', ':=', '**', '//', '<<', '>>', '<=', '>=', '==', '!=', '+=', '-=', '*=',
  '/=', '%=', '@=', '&=', '|=', '^=', '+', '-', '*', '/', '%', '@', '&', '|', '^', '~', '<', '>', '(', ')', '[',
  ']', '{', '}', ',', ':', ';', '.', '=',
];
const CLOSER: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
/** Python identifiers (PEP 3131, XID_Start/XID_Continue approximated by Unicode categories). */
const NAME_RE = /[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*/uy;
const NUMBER_RE = /(?:0[xX][\da-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?[jJlL]?)/y;
const STRING_PREFIX_RE = /^(?:[rRbBuUfF]|[rR][bBfF]|[bBfF][rR])$/;

class Invalid extends Error {}

function tokenize(code: string): LogicalLine[] {
  const lines: LogicalLine[] = [];
  const stack: string[] = [];
  let toks: Tok[] = [];
  let indent = 0;
  let atLineStart = true;
  let col = 0;
  let i = 0;
  const n = code.length;
  const endLine = (): void => {
    if (toks.length > 0) lines.push({ indent, toks });
    toks = [];
  };
  while (i < n) {
    const c = code[i]!;
    if (atLineStart) {
      if (c === ' ') { col++; i++; continue; }
      if (c === '\t') { col = (Math.floor(col / 8) + 1) * 8; i++; continue; }
      if (c === '\f') { col = 0; i++; continue; }
      atLineStart = false;
      if (c !== '\n' && c !== '#' && c !== '\r') indent = col;
    }
    if (c === ' ' || c === '\t' || c === '\f' || c === '\r') { i++; continue; }
    if (c === '#') { while (i < n && code[i] !== '\n') i++; continue; }
    if (c === '\n') {
      i++;
      if (stack.length === 0) { endLine(); atLineStart = true; col = 0; }
      continue;
    }
    if (c === '\\') {
      if (code[i + 1] === '\n') { i += 2; continue; }
      throw new Invalid('stray backslash');
    }
    if (c === '"' || c === "'") {
      const prev = toks[toks.length - 1];
      // A name token glued to the quote that is a string prefix (r, b, f, rb, ...) is part of the string.
      if (prev !== undefined && prev.kind === 'name' && STRING_PREFIX_RE.test(prev.text) && code[i - 1] === prev.text.at(-1)) {
        toks.pop();
      }
      const triple = code.startsWith(c.repeat(3), i);
      const quote = triple ? c.repeat(3) : c;
      let j = i + quote.length;
      for (;;) {
        if (j >= n) throw new Invalid('unterminated string');
        const d = code[j]!;
        if (d === '\\') { j += 2; continue; }
        if (!triple && d === '\n') throw new Invalid('newline in string');
        if (code.startsWith(quote, j)) break;
        j++;
      }
      toks.push({ kind: 'string', text: code.slice(i, j + quote.length) });
      i = j + quote.length;
      continue;
    }
    NUMBER_RE.lastIndex = i;
    if (/[\d.]/.test(c) && !(c === '.' && !/\d/.test(code[i + 1] ?? ''))) {
      const m = NUMBER_RE.exec(code);
      if (m !== null && m[0].length > 0) { toks.push({ kind: 'number', text: m[0] }); i += m[0].length; continue; }
    }
    NAME_RE.lastIndex = i;
    const nm = NAME_RE.exec(code);
    if (nm !== null) { toks.push({ kind: 'name', text: nm[0] }); i += nm[0].length; continue; }
    const op = OPS.find((o) => code.startsWith(o, i));
    if (op === undefined) throw new Invalid(`unexpected character ${JSON.stringify(c)}`);
    if (op === '(' || op === '[' || op === '{') stack.push(op);
    else if (op === ')' || op === ']' || op === '}') {
      if (stack.pop() !== CLOSER[op]) throw new Invalid('mismatched bracket');
    }
    toks.push({ kind: 'op', text: op });
    i += op.length;
  }
  if (stack.length > 0) throw new Invalid('unclosed bracket');
  endLine();
  return lines;
}

const isOperand = (t: Tok): boolean =>
  t.kind === 'number' || t.kind === 'string' || (t.kind === 'name' && (!KEYWORDS.has(t.text) || CONSTANTS.has(t.text))) ||
  t.text === ')' || t.text === ']' || t.text === '}';

interface Block {
  readonly indent: number;
  readonly kind: 'def' | 'async_def' | 'loop' | 'class' | 'try' | 'other';
}

function checkLine(toks: readonly Tok[], blocks: readonly Block[]): void {
  // Split simple statements on `;` (outside brackets: brackets were balanced per logical line).
  let depth = 0;
  let start = 0;
  const stmts: Tok[][] = [];
  toks.forEach((t, k) => {
    if (t.text === '(' || t.text === '[' || t.text === '{') depth++;
    else if (t.text === ')' || t.text === ']' || t.text === '}') depth--;
    else if (t.text === ';' && depth === 0 && t.kind === 'op') {
      stmts.push(toks.slice(start, k) as Tok[]);
      start = k + 1;
    }
  });
  stmts.push(toks.slice(start) as Tok[]);
  const inside = (kind: Block['kind']): boolean => {
    for (let k = blocks.length - 1; k >= 0; k--) {
      const b = blocks[k]!;
      if (b.kind === kind) return true;
      if ((b.kind === 'def' || b.kind === 'async_def' || b.kind === 'class') && kind === 'loop') return false;
      if (b.kind === 'def' || b.kind === 'class') return false;
    }
    return false;
  };
  const inFunction = (): boolean => blocks.some((b) => b.kind === 'def' || b.kind === 'async_def');

  for (const s of stmts) {
    if (s.length === 0) continue;
    let first = 0;
    if (s[0]!.text === '@') continue; // decorator line
    if (s[0]!.text === 'async') {
      if (!inside('async_def') && s[1]?.text !== 'def') throw new Invalid('async outside async def');
      first = 1;
    }
    const head = s[first]!.text;
    if (head === 'from' && s[first + 1]?.text === '__future__') throw new Invalid('from __future__ not at start');
    if ((head === 'return' || head === 'yield') && !inFunction()) throw new Invalid(`${head} outside function`);
    if ((head === 'break' || head === 'continue') && !inside('loop')) throw new Invalid(`${head} outside loop`);
    const isImport = head === 'import' || head === 'from';
    let depth2 = 0;
    for (let k = first; k < s.length; k++) {
      const t = s[k]!;
      const prev = k > first ? s[k - 1] : undefined;
      const next = s[k + 1];
      if (t.text === '(' || t.text === '[' || t.text === '{') depth2++;
      if (t.text === ')' || t.text === ']' || t.text === '}') depth2--;
      if (t.kind === 'name' && k > first && STATEMENT_ONLY.has(t.text)) {
        const ok = (t.text === 'import' && head === 'from') || (t.text === 'with' && prev?.text === 'async');
        if (!ok) throw new Invalid(`keyword ${t.text} inside a statement`);
      }
      if (t.kind === 'name' && t.text === 'await' && !inside('async_def')) throw new Invalid('await outside async def');
      if (prev !== undefined && isOperand(prev) && isOperand(t) && !(prev.kind === 'string' && t.kind === 'string')) {
        const opener = t.text === ')' || t.text === ']' || t.text === '}';
        if (!opener && !(isImport && t.text === '*')) throw new Invalid('two operands side by side');
      }
      if (t.kind === 'op' && BINARY_OPS.has(t.text) && !(isImport && t.text === '.')) {
        const unaryPosition = prev === undefined || (prev.kind === 'op' && !(prev.text === ')' || prev.text === ']' || prev.text === '}'));
        if (unaryPosition && !UNARY_OK.has(t.text) && !(isImport && t.text === '.')) {
          if (!(t.text === '*' || t.text === '**')) throw new Invalid('operator without a left operand');
        }
        if (next === undefined) {
          if (!(isImport && t.text === '*')) throw new Invalid('line ends with an operator');
        } else if (next.text === ')' || next.text === ']' || next.text === '}' || next.text === ',' ||
          (next.kind === 'op' && BINARY_OPS.has(next.text) && !UNARY_OK.has(next.text) && next.text !== '.')) {
          if (!(t.text === '*' && (next.text === ',' || next.text === ')'))) throw new Invalid('operator without a right operand');
        }
        if (head === 'assert' && t.text === '=' && depth2 === 0) throw new Invalid('assignment in assert');
      }
    }
    const last = s[s.length - 1]!;
    if (last.text === ',' && (head === 'assert' || head === 'return')) throw new Invalid('trailing comma');
    if (last.kind === 'name' && NEEDS_OPERAND.has(last.text)) throw new Invalid(`nothing after ${last.text}`);
  }
}

function checkStructure(lines: readonly LogicalLine[]): void {
  const indents: number[] = [lines[0]!.indent];
  const blocks: Block[] = [];
  let expectIndent = false;
  let pendingKind: Block['kind'] = 'other';
  let afterDecorator = false;
  for (const { indent, toks } of lines) {
    const top = indents[indents.length - 1]!;
    const head = toks[0]!.text === 'async' ? toks[1]?.text : toks[0]!.text;
    if (expectIndent) {
      if (indent <= top) throw new Invalid('expected an indented block');
      indents.push(indent);
      blocks.push({ indent, kind: pendingKind });
    } else if (indent > top) {
      throw new Invalid('unexpected indent');
    } else if (indent < top) {
      let closedTry = false;
      while (indents.length > 1 && indents[indents.length - 1]! > indent) {
        indents.pop();
        closedTry = blocks.pop()?.kind === 'try';
      }
      if (indents[indents.length - 1] !== indent) throw new Invalid('unindent does not match');
      if (closedTry && head !== 'except' && head !== 'finally') throw new Invalid("try without except or finally");
    }
    if (afterDecorator && head !== 'def' && head !== 'class' && head !== '@') throw new Invalid('decorator not followed by def/class');
    afterDecorator = head === '@';
    checkLine(toks, blocks);
    const last = toks[toks.length - 1]!;
    // A compound statement header ends with `:` and has its body on the next lines.
    expectIndent = last.text === ':' && last.kind === 'op';
    if (expectIndent && !COMPOUND_HEADS.has(head ?? '')) throw new Invalid('`:` ends a line that opens no block');
    if (expectIndent) {
      pendingKind =
        head === 'def' ? (toks[0]!.text === 'async' ? 'async_def' : 'def')
          : head === 'class' ? 'class'
            : head === 'for' || head === 'while' ? 'loop'
              : head === 'try' ? 'try'
                : 'other';
    }
  }
  if (expectIndent || afterDecorator) throw new Invalid('input ends inside a statement');
  if (blocks.some((b) => b.kind === 'try')) throw new Invalid("try without except or finally");
}

/** True when `code` looks like it would compile as a Python statement block. Never throws. */
export function looksLikeCompilablePython(code: string): boolean {
  try {
    const lines = tokenize(code);
    if (lines.length === 0) return false;
    checkStructure(lines);
    return true;
  } catch (err) {
    if (err instanceof Invalid) return false;
    throw err;
  }
}

/**
 * Token-level facts of Dafny's grammar that the declaration parser (`./parse.ts`) and the audit's statement scan
 * (`./audit.ts`) share: reserved words, which tokens open a declaration, which end an expression (so that a
 * following `{` opens a body rather than a set display), and bracket matching. Source: the reference manual's
 * grammar (reserved words, `TopDecl`, `MethodSpec`, `FunctionSpec`, `LoopSpec`) and `Dafny.atg`'s TOKENS section.
 */
import { type DafnyToken } from './lexer.js';

/** Dafny's reserved words (reference manual, "reservedword"), plus words of later versions that we treat alike. */
export const RESERVED = new Set([
  'abstract', 'allocated', 'as', 'assert', 'assume', 'bool', 'break', 'by', 'calc', 'case', 'char', 'class',
  'codatatype', 'colemma', 'const', 'constructor', 'continue', 'copredicate', 'datatype', 'decreases', 'downto',
  'else', 'ensures', 'exists', 'expect', 'export', 'extends', 'false', 'for', 'forall', 'fresh', 'function', 'ghost',
  'if', 'imap', 'import', 'in', 'include', 'inductive', 'int', 'invariant', 'is', 'iset', 'iterator', 'label',
  'lemma', 'map', 'match', 'method', 'modifies', 'modify', 'module', 'multiset', 'nameonly', 'nat', 'new',
  'newtype', 'null', 'object', 'object?', 'old', 'opened', 'ORDINAL', 'predicate', 'print', 'provides', 'reads',
  'real', 'refines', 'requires', 'return', 'returns', 'reveal', 'reveals', 'seq', 'set', 'static', 'string', 'then',
  'this', 'to', 'trait', 'true', 'twostate', 'type', 'unchanged', 'var', 'while', 'witness', 'yield', 'yields',
]);

/** Reserved words that end an expression: literals, `this`, and type names (`x as int {`). */
const ENDING_WORDS = new Set(['true', 'false', 'null', 'this', 'int', 'nat', 'real', 'bool', 'char', 'string',
  'ORDINAL', 'object', 'object?']);

/** Whether `token` can be the last token of an expression (a `{` after it opens a body, not a display). */
export function endsExpression(token: DafnyToken | undefined): boolean {
  if (token === undefined) return false;
  switch (token.kind) {
    case 'number': case 'string': case 'char':
      return true;
    case 'punct':
      return token.text === ')' || token.text === ']' || token.text === '}';
    case 'ident':
      return !RESERVED.has(token.text) || ENDING_WORDS.has(token.text) || /^(array\d*\??|bv\d+)$/.test(token.text);
  }
}

/**
 * Whether the expression read so far is complete, token by token, with Dafny's one ambiguous token handled:
 * `|` opens a length `|s|` where an operand is expected, closes the innermost open one after a complete operand,
 * and is otherwise a separator (`forall x | P`, `set x | P`) after which an operand is expected. Bracket groups
 * are fed whole (`group`). A `*` as the first token (`decreases *`, `while *`) is complete.
 */
export class ExpressionState {
  complete = false;
  private openBars = 0;

  /** Start a new expression (after a clause or loop keyword). */
  reset(): void {
    this.complete = false;
    this.openBars = 0;
  }

  /** One token outside brackets; `first` when it is the expression's first token. */
  token(token: DafnyToken, first: boolean): void {
    if (token.kind === 'punct' && token.text === '|') {
      if (!this.complete) {
        this.openBars++;
      } else if (this.openBars > 0) {
        this.openBars--;
        return;
      }
      this.complete = false;
      return;
    }
    this.complete = endsExpression(token) || (first && token.kind === 'punct' && token.text === '*');
  }

  /** A bracket group fed whole; an attribute `{:...}` changes nothing. */
  group(opener: DafnyToken): void {
    if (opener.text !== '{:') this.complete = true;
  }
}

/** Keywords that open a declaration (after modifiers). `least`/`greatest` only before `predicate`/`lemma`. */
const DECL_WORDS = new Set([
  'method', 'lemma', 'function', 'predicate', 'constructor', 'twostate', 'inductive', 'copredicate', 'colemma',
  'iterator', 'class', 'trait', 'datatype', 'codatatype', 'type', 'newtype', 'module', 'import', 'export', 'const',
  'var', 'include',
]);

/** Declaration modifiers (`abstract`, `ghost`, `static`, Dafny 4's `opaque` and `replaceable`, the old `protected`). */
export const MODIFIERS = new Set(['abstract', 'ghost', 'static', 'opaque', 'replaceable', 'protected']);

/** Whether a declaration keyword (not a modifier) is at `i`. */
export function isDeclKeyword(tokens: readonly DafnyToken[], i: number): boolean {
  const t = tokens[i];
  if (t === undefined || t.kind !== 'ident') return false;
  if (t.text === 'least' || t.text === 'greatest') {
    const next = tokens[i + 1]?.text;
    return next === 'predicate' || next === 'lemma';
  }
  return DECL_WORDS.has(t.text);
}

/** Whether a declaration starts at `i`: modifiers followed by a declaration keyword. */
export function isDeclStart(tokens: readonly DafnyToken[], i: number): boolean {
  let j = i;
  while (tokens[j]?.kind === 'ident' && MODIFIERS.has(tokens[j]!.text)) j++;
  return isDeclKeyword(tokens, j);
}

/** Specification clause keywords of methods, functions, lemmas and iterators. */
export const CLAUSE_WORDS = new Set(['requires', 'ensures', 'reads', 'modifies', 'decreases']);

/** Loop specification keywords. */
export const LOOP_SPEC_WORDS = new Set(['invariant', 'decreases', 'modifies']);

/** Statement keywords: after a complete expression, one of these starts the next statement. */
export const STATEMENT_WORDS = new Set([
  'assert', 'assume', 'expect', 'break', 'continue', 'calc', 'forall', 'if', 'label', 'match', 'modify', 'print',
  'return', 'reveal', 'var', 'while', 'for', 'yield', 'ghost', 'new',
]);

const OPENERS = new Set(['(', '[', '{', '{:']);
const CLOSERS: Readonly<Record<string, string>> = { ')': '(', ']': '[', '}': '{' };

/** The token stream has brackets that do not match; `token` is where. */
export class DafnyBracketError extends Error {
  constructor(message: string, readonly token: DafnyToken | undefined) {
    super(token === undefined ? message : `line ${token.line}, column ${token.column}: ${message}`);
    this.name = 'DafnyBracketError';
  }
}

/**
 * For every opening bracket (`(`, `[`, `{`, `{:`) the index of its closing one (`{:` closes with `}`), and for
 * every closing one the index of its opener. Throws `DafnyBracketError` when they do not match.
 */
export function matchBrackets(tokens: readonly DafnyToken[]): Int32Array {
  const match = new Int32Array(tokens.length).fill(-1);
  const stack: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind !== 'punct') continue;
    if (OPENERS.has(t.text)) {
      stack.push(i);
    } else if (CLOSERS[t.text] !== undefined) {
      const open = stack.pop();
      if (open === undefined) throw new DafnyBracketError(`unmatched '${t.text}'`, t);
      const opener = tokens[open]!.text;
      const expected = opener === '{:' ? '{' : opener;
      if (expected !== CLOSERS[t.text]) throw new DafnyBracketError(`'${opener}' closed by '${t.text}'`, t);
      match[open] = i;
      match[i] = open;
    }
  }
  const open = stack.pop();
  if (open !== undefined) throw new DafnyBracketError(`unclosed '${tokens[open]!.text}'`, tokens[open]);
  return match;
}

/** Whether `token` opens a bracket group. */
export function isOpener(token: DafnyToken): boolean {
  return token.kind === 'punct' && OPENERS.has(token.text);
}

/** Tokens joined by one space: the normal form two texts are compared in (comments and layout gone). */
export function normalText(tokens: readonly DafnyToken[], start: number, end: number): string {
  const parts: string[] = [];
  for (let i = start; i < end; i++) parts.push(tokens[i]!.text);
  return parts.join(' ');
}

/**
 * Dafny declarations, read from tokens (`./lexer.ts`): every method, lemma, function, predicate, constructor and
 * iterator with its header, attributes, specification clauses (requires, ensures, reads, modifies, decreases,
 * and iterators' `yield requires`/`yield ensures`) and body; every container (module, class, trait, and the
 * member blocks of datatypes and types) with its members; every other declaration (datatype, type, newtype,
 * const, field, import, export, include) as its whole text. Enough of the grammar to say what a program
 * promises (reference manual: `TopDecl`, `ClassMemberDecl`, `MethodSpec`, `FunctionSpec`, `IteratorSpec`), not
 * a full parser: expressions are token runs whose end is found with `endsExpression` (`./tokens.ts`).
 *
 * Paths name a declaration by its containers: `M.C.Foo` is member `Foo` of class `C` in module `M`; an
 * anonymous constructor is `_ctor`; imports, exports and includes are named by their text.
 */
import { DafnyLexError, lexDafny, type DafnyToken } from './lexer.js';
import {
  CLAUSE_WORDS, DafnyBracketError, endsExpression, ExpressionState, isDeclKeyword, isDeclStart, isOpener, matchBrackets, MODIFIERS,
  normalText, RESERVED,
} from './tokens.js';

/** An attribute: `{:name args}` or Dafny 4's `@Name(args)`; `args` in normal text; `index` of its first token. */
export interface DafnyAttribute {
  readonly name: string;
  readonly args: string;
  readonly line: number;
  readonly column: number;
  readonly index: number;
}

/** A specification clause kind. */
export type DafnyClauseKind = 'requires' | 'ensures' | 'reads' | 'modifies' | 'decreases' | 'yield requires' | 'yield ensures';

/** One specification clause: its expression in normal text (attributes kept, a trailing `;` dropped). */
export interface DafnyClause {
  readonly kind: DafnyClauseKind;
  readonly text: string;
  readonly line: number;
}

/** A token range, `end` exclusive. */
export interface TokenRange {
  readonly start: number;
  readonly end: number;
}

/**
 * One declaration. `category`: `callable` (has clauses and maybe a body), `container` (module, class, trait:
 * members follow as their own declarations), `other` (its whole text is its meaning). `signature`: for callables
 * the header (modifiers, keyword, name, type parameters, parameters, results) in normal text without attributes;
 * for containers the header; for others the whole declaration without attributes and member block. `body`:
 * the braces of a callable's body (`specBody`: the same in normal text, for functions and predicates, whose
 * body is part of the specification); `byMethod`: a function's `by method` body.
 */
export interface DafnyDecl {
  readonly path: string;
  readonly keyword: string;
  readonly category: 'callable' | 'container' | 'other';
  readonly line: number;
  readonly column: number;
  readonly range: TokenRange;
  readonly signature: string;
  readonly attributes: readonly DafnyAttribute[];
  readonly clauses: readonly DafnyClause[];
  readonly body: TokenRange | null;
  readonly specBody: string | null;
  readonly byMethod: TokenRange | null;
}

/** A parsed program: its tokens, bracket matches (`matchBrackets`) and declarations in source order. */
export interface DafnyProgram {
  readonly tokens: readonly DafnyToken[];
  readonly match: Int32Array;
  readonly decls: readonly DafnyDecl[];
}

/** The program cannot be read; `line`/`column` (1-based) say where, 0 when at the end. */
export class DafnyParseError extends Error {
  constructor(readonly reason: string, readonly line: number, readonly column: number) {
    super(line > 0 ? `line ${line}, column ${column}: ${reason}` : reason);
    this.name = 'DafnyParseError';
  }
}

/** Parse Dafny source (see the module comment). Throws `DafnyParseError`. */
export function parseDafny(source: string): DafnyProgram {
  let tokens: DafnyToken[];
  let match: Int32Array;
  try {
    tokens = lexDafny(source);
    match = matchBrackets(tokens);
  } catch (error) {
    if (error instanceof DafnyLexError) throw new DafnyParseError(error.message.replace(/^line \d+, column \d+: /, ''), error.line, error.column);
    if (error instanceof DafnyBracketError) {
      throw new DafnyParseError(error.message.replace(/^line \d+, column \d+: /, ''), error.token?.line ?? 0, error.token?.column ?? 0);
    }
    throw error;
  }
  const parser = new DeclParser(tokens, match);
  parser.container(0, tokens.length, '');
  return { tokens, match, decls: parser.decls };
}

const CALLABLE_WORDS = new Set(['method', 'lemma', 'function', 'predicate', 'constructor', 'iterator', 'colemma',
  'copredicate', 'least', 'greatest', 'inductive', 'twostate']);
const CONTAINER_WORDS = new Set(['module', 'class', 'trait']);
const MEMBER_BLOCK_WORDS = new Set(['datatype', 'codatatype', 'type', 'newtype']);

class DeclParser {
  readonly decls: DafnyDecl[] = [];
  /** `{` tokens that open a `match` body inside an expression (not a declaration's body). */
  private readonly matchBraces = new Set<number>();

  constructor(private readonly tokens: readonly DafnyToken[], private readonly match: Int32Array) {}

  private fail(reason: string, index: number): never {
    const t = this.tokens[index];
    throw new DafnyParseError(reason, t?.line ?? 0, t?.column ?? 0);
  }

  private after(opener: number): number {
    return this.match[opener]! + 1;
  }

  /** Declarations in [start, end), named under `prefix`. */
  container(start: number, end: number, prefix: string): void {
    let i = start;
    while (i < end) {
      if (this.tokens[i]!.text === ';') {
        i++;
        continue;
      }
      const atAttributes: DafnyAttribute[] = [];
      i = this.atAttributes(i, end, atAttributes);
      if (!isDeclStart(this.tokens, i)) this.fail(`expected a declaration, found '${this.tokens[i]?.text ?? 'end of file'}'`, i);
      i = this.declaration(i, end, prefix, atAttributes);
    }
  }

  /** Dafny 4's `@Name` / `@Name(args)` attributes before a declaration. */
  private atAttributes(i: number, end: number, into: DafnyAttribute[]): number {
    let j = i;
    while (j + 1 < end && this.tokens[j]!.text === '@' && this.tokens[j + 1]!.kind === 'ident') {
      const name = this.tokens[j + 1]!;
      let next = j + 2;
      let args = '';
      if (this.tokens[next]?.text === '(') {
        args = normalText(this.tokens, next + 1, this.match[next]!);
        next = this.after(next);
      }
      into.push({ name: `@${name.text}`, args, line: this.tokens[j]!.line, column: this.tokens[j]!.column, index: j });
      j = next;
    }
    return j;
  }

  /** One declaration at `i` (modifiers first); returns the index after it. */
  private declaration(i: number, end: number, prefix: string, attributes: DafnyAttribute[]): number {
    const start = i;
    const modifiers: string[] = [];
    while (MODIFIERS.has(this.tokens[i]!.text) && !isDeclKeyword(this.tokens, i)) modifiers.push(this.tokens[i++]!.text);
    let keyword = this.tokens[i]!.text;
    i++;
    const second = this.tokens[i]?.text;
    if ((['least', 'greatest', 'inductive', 'twostate'].includes(keyword) && ['predicate', 'lemma', 'function'].includes(second ?? ''))
      || (['function', 'predicate'].includes(keyword) && second === 'method')) {
      keyword = `${keyword} ${second}`;
      i++;
    }
    const head = { start, modifiers, keyword, prefix, attributes };
    const first = keyword.split(' ')[0]!;
    if (CALLABLE_WORDS.has(first)) return this.callable(head, i, end);
    if (CONTAINER_WORDS.has(first)) return this.containerDecl(head, i, end);
    return this.other(head, i, end, MEMBER_BLOCK_WORDS.has(first));
  }

  private attribute(index: number): DafnyAttribute {
    const t = this.tokens[index]!;
    const close = this.match[index]!;
    const name = this.tokens[index + 1];
    return {
      name: name !== undefined && index + 1 < close ? name.text : '',
      args: normalText(this.tokens, index + 2, close),
      line: t.line, column: t.column, index,
    };
  }

  /** A method, lemma, function, predicate, constructor or iterator. */
  private callable(head: DeclHead, i: number, end: number): number {
    const attributes = [...head.attributes];
    const header: string[] = [...head.modifiers, head.keyword];
    let name: string | undefined;
    let j = i;
    while (j < end) {
      const t = this.tokens[j]!;
      if (t.text === '{:') {
        attributes.push(this.attribute(j));
        j = this.after(j);
        continue;
      }
      if (this.clauseAt(j) !== null || t.text === '{' || isDeclStart(this.tokens, j) || t.text === '}') break;
      if (name === undefined && t.kind === 'ident' && !RESERVED.has(t.text)) name = t.text;
      if (name === undefined && t.text === '(') name = '_ctor';
      const next = isOpener(t) ? this.after(j) : j + 1;
      header.push(normalText(this.tokens, j, next));
      j = next;
    }
    const clauses: DafnyClause[] = [];
    j = this.clauses(j, end, clauses, attributes);
    let body: TokenRange | null = null;
    let byMethod: TokenRange | null = null;
    if (this.tokens[j]?.text === '{' && j < end) {
      body = { start: j, end: this.after(j) };
      j = body.end;
      if (this.tokens[j]?.text === 'by' && this.tokens[j + 1]?.text === 'method' && this.tokens[j + 2]?.text === '{') {
        byMethod = { start: j + 2, end: this.after(j + 2) };
        j = byMethod.end;
      }
    }
    const isFunction = /\b(function|predicate)\b/.test(head.keyword) && !head.keyword.endsWith('lemma');
    this.push(head, name ?? '', 'callable', j, header.join(' '), attributes, clauses, body,
      isFunction && body !== null ? specText(this.tokens, this.match, body) : null, byMethod);
    return j;
  }

  /** The clause keyword at `j` (`yield requires` takes two tokens), or null. */
  private clauseAt(j: number): DafnyClauseKind | null {
    const t = this.tokens[j];
    if (t === undefined || t.kind !== 'ident') return null;
    if (CLAUSE_WORDS.has(t.text)) return t.text as DafnyClauseKind;
    const next = this.tokens[j + 1]?.text;
    if (t.text === 'yield' && (next === 'requires' || next === 'ensures')) return `yield ${next}`;
    return null;
  }

  /** Specification clauses from `j`; returns the index after the last. Clause attributes join `attributes`. */
  private clauses(j: number, end: number, into: DafnyClause[], attributes: DafnyAttribute[]): number {
    let k = j;
    for (let kind = this.clauseAt(k); kind !== null && k < end; kind = this.clauseAt(k)) {
      const line = this.tokens[k]!.line;
      k += kind.startsWith('yield') ? 2 : 1;
      const exprStart = k;
      while (this.tokens[k]?.text === '{:' && k < end) {
        attributes.push(this.attribute(k));
        k = this.after(k);
      }
      const exprEnd = this.expressionEnd(k, end);
      into.push({ kind, text: normalText(this.tokens, exprStart, exprEnd), line });
      k = exprEnd;
      if (this.tokens[k]?.text === ';' && k < end) k++;
    }
    return k;
  }

  /**
   * Where the expression starting at `j` ends: before a `{` that follows a complete expression (a body; a
   * `match`'s braces excepted), a clause keyword or declaration after a complete expression, a `;` that a
   * clause or declaration follows, or `end`. A lone `*` (`decreases *`, `reads *`) is a complete expression.
   */
  expressionEnd(j: number, end: number): number {
    let k = j;
    const state = new ExpressionState();
    while (k < end) {
      const t = this.tokens[k]!;
      if (t.text === '}' || t.text === ')' || t.text === ']') return k;
      if (t.text === '{' && state.complete && !this.matchBraces.has(k)) return k;
      if (state.complete && (this.clauseAt(k) !== null || isDeclStart(this.tokens, k))) return k;
      if (t.text === ';' && this.endsClauseList(k + 1, end)) return k;
      if (t.kind === 'ident' && t.text === 'match') this.noteMatchBrace(k, end);
      if (isOpener(t)) {
        state.group(t);
        k = this.after(k);
        continue;
      }
      state.token(t, k === j);
      k++;
    }
    return k;
  }

  private endsClauseList(k: number, end: number): boolean {
    const t = this.tokens[k];
    return k >= end || t === undefined || t.text === '{' || t.text === '}' || this.clauseAt(k) !== null || isDeclStart(this.tokens, k);
  }

  /** A `match` expression's `{` (the first `{` or `case` after the scrutinee decides whether it has braces). */
  private noteMatchBrace(k: number, end: number): void {
    let m = k + 1;
    while (m < end) {
      const t = this.tokens[m]!;
      if (t.text === '{') {
        this.matchBraces.add(m);
        return;
      }
      if (t.text === 'case' || t.text === ';' || t.text === '}' || t.text === ')') return;
      m = isOpener(t) ? this.after(m) : m + 1;
    }
  }

  /** A module, class or trait: header, then its members under its name. */
  private containerDecl(head: DeclHead, i: number, end: number): number {
    const attributes = [...head.attributes];
    const header: string[] = [...head.modifiers, head.keyword];
    const nameParts: string[] = [];
    let j = i;
    while (j < end && this.tokens[j]!.text !== '{') {
      const t = this.tokens[j]!;
      if (t.text === '{:') {
        attributes.push(this.attribute(j));
        j = this.after(j);
        continue;
      }
      if (nameParts.length === 0 || (nameParts.length > 0 && (t.text === '.' || nameParts[nameParts.length - 1] === '.'))) {
        if (t.kind === 'ident' || t.text === '.') nameParts.push(t.text);
      }
      const next = isOpener(t) ? this.after(j) : j + 1;
      header.push(normalText(this.tokens, j, next));
      j = next;
    }
    if (j >= end) this.fail(`${head.keyword} without a body`, head.start);
    const name = nameParts.join('');
    this.push(head, name, 'container', this.after(j), header.join(' '), attributes, [], null, null, null);
    this.container(j + 1, this.match[j]!, `${head.prefix}${name}.`);
    return this.after(j);
  }

  /** Any other declaration: its text up to the next declaration; datatypes and types may have a member block. */
  private other(head: DeclHead, i: number, end: number, mayHaveMembers: boolean): number {
    const attributes = [...head.attributes];
    const text: string[] = [...head.modifiers, head.keyword];
    let name: string | undefined;
    let afterGets = false;
    let complete = false;
    let j = i;
    let members: number | null = null;
    while (j < end) {
      const t = this.tokens[j]!;
      if (t.text === '{:') {
        attributes.push(this.attribute(j));
        j = this.after(j);
        continue;
      }
      if (t.text === ';' || t.text === '}') break;
      if (isDeclStart(this.tokens, j) && (!afterGets || complete)) break;
      if (mayHaveMembers && t.text === '{' && complete && !this.matchBraces.has(j)) {
        members = j;
        break;
      }
      if (t.kind === 'ident' && t.text === 'match') this.noteMatchBrace(j, end);
      if (name === undefined && (t.kind === 'ident' || t.kind === 'string') && !RESERVED.has(t.text)) name = t.text;
      if (t.text === ':=') afterGets = true;
      const next = isOpener(t) ? this.after(j) : j + 1;
      complete = isOpener(t) ? t.text !== '{:' : endsExpression(t);
      text.push(normalText(this.tokens, j, next));
      j = next;
    }
    if (this.tokens[j]?.text === ';' && j < end) j++;
    const keyed = ['import', 'export', 'include'].includes(head.keyword) ? `${head.keyword} ${text.slice(1).join(' ')}` : (name ?? '');
    const finish = members === null ? j : this.after(members);
    this.push(head, keyed, 'other', finish, text.join(' '), attributes, [], null, null, null);
    if (members !== null) this.container(members + 1, this.match[members]!, `${head.prefix}${keyed}.`);
    return finish;
  }

  private push(head: DeclHead, name: string, category: DafnyDecl['category'], end: number, signature: string,
    attributes: DafnyAttribute[], clauses: DafnyClause[], body: TokenRange | null, specBody: string | null,
    byMethod: TokenRange | null): void {
    const t = this.tokens[head.start]!;
    this.decls.push({
      path: `${head.prefix}${name}`, keyword: head.keyword, category, line: t.line, column: t.column,
      range: { start: head.start, end }, signature, attributes, clauses, body, specBody, byMethod,
    });
  }
}

/** Tokens after which an expression (and so a statement-expression such as `assert P;`) may start. */
const EXPRESSION_STARTS = new Set(['{', ';', 'then', 'else', '=>', '(', ',', ':=', '::']);

/**
 * A function body in normal text without its proof hints: the statement-expressions `assert P;`,
 * `assert P by {...}`, `calc {...}`, `reveal f();` and lemma calls `L(x);` that may precede an expression and
 * do not change its value (reference manual, "Statements in an Expression"). DafnyBench's `hints_removed` drops
 * exactly such hints from function bodies; `assert var ...` is kept (its extent needs real parsing).
 */
export function specText(tokens: readonly DafnyToken[], match: Int32Array, body: TokenRange): string {
  const out: string[] = [];
  let prev = '{';
  let k = body.start;
  while (k < body.end) {
    const hintEnd = EXPRESSION_STARTS.has(prev) ? hintExtent(tokens, match, k, body.end, prev !== ':=') : null;
    if (hintEnd !== null) {
      k = hintEnd;
      continue;
    }
    prev = tokens[k]!.text;
    out.push(prev);
    k++;
  }
  return out.join(' ');
}

/**
 * The end (exclusive) of a hint statement-expression at `k`, or null when none starts there. `calls`: whether a
 * call followed by `;` is a lemma call here (not after `:=`, where it is a let binding's value).
 */
function hintExtent(tokens: readonly DafnyToken[], match: Int32Array, k: number, end: number, calls: boolean): number | null {
  const t = tokens[k];
  if (t === undefined || t.kind !== 'ident') return null;
  let j = k + 1;
  if (t.text === 'calc') {
    while (j < end && tokens[j]!.text !== '{') j = isOpener(tokens[j]!) ? match[j]! + 1 : j + 1;
    if (j >= end) return null;
    j = match[j]! + 1;
    return tokens[j]?.text === ';' ? j + 1 : j;
  }
  if (t.text === 'assert' || t.text === 'reveal') {
    while (tokens[j]?.text === '{:') j = match[j]! + 1;
    if (tokens[j]?.text === 'var') return null;
    for (; j < end; j = isOpener(tokens[j]!) ? match[j]! + 1 : j + 1) {
      const u = tokens[j]!;
      if (u.text === ';') return j + 1;
      if (u.text === 'by' && tokens[j + 1]?.text === '{') return match[j + 1]! + 1;
      if (u.text === '}' || u.text === ')' || u.text === ']') return null;
    }
    return null;
  }
  if (!calls || RESERVED.has(t.text)) return null;
  while (tokens[j]?.text === '.' && tokens[j + 1]?.kind === 'ident') j += 2;
  if (tokens[j]?.text !== '(') return null;
  j = match[j]! + 1;
  return tokens[j]?.text === ';' && j < end ? j + 1 : null;
}

interface DeclHead {
  readonly start: number;
  readonly modifiers: readonly string[];
  readonly keyword: string;
  readonly prefix: string;
  readonly attributes: readonly DafnyAttribute[];
}

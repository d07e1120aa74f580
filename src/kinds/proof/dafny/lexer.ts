/**
 * A Dafny tokenizer of our own, for the proof audit (`./audit.ts`). It follows the token definitions of Dafny's
 * Coco/R grammar (`Source/Dafny/Dafny.atg` of dafny-lang/dafny, CHARACTERS and TOKENS sections; the reference
 * manual's "Lexical and Low Level Grammar"), because a cheat hides exactly where an auditor and the verifier
 * disagree about what is code:
 * - block comments `/* ... *\/` NEST (`COMMENTS FROM "/*" TO "*\/" NESTED`) and may start anywhere on a line;
 *   line comments run to the line feed;
 * - identifiers are `nondigit {idchar}` with `nondigit = letter + "'_?"`, so `x'`, `'a`, `_x?` are identifiers;
 *   a token starting with `'` is a character literal only when the character token is the longest match
 *   (`'a'` is a character, `'a'b` an identifier);
 * - character literals `'c'` and escapes `\' \" \\ \0 \n \r \t \uXXXX \U{X..X}`; strings `"..."` (no raw line
 *   breaks) and verbatim strings `@"..."` where `""` is a quote;
 * - `{:` is one token (the start of an attribute), so `{:verify  false}` and `{: verify false}` are the same
 *   attribute to us as to Dafny; `!in` is one token when no identifier character follows.
 * Anything this tokenizer cannot read (an unterminated comment or string, a stray character) is a `DafnyLexError`:
 * the audit then refuses the program instead of guessing.
 */

/** What a token is. `ident` covers keywords too (Dafny's reserved words are identifiers to this tokenizer). */
export type DafnyTokenKind = 'ident' | 'number' | 'string' | 'char' | 'punct';

/** One token: its text as written, where it starts (1-based line and column), and its offset in the source. */
export interface DafnyToken {
  readonly kind: DafnyTokenKind;
  readonly text: string;
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

/** The program cannot be tokenized; `line`/`column` say where (1-based). */
export class DafnyLexError extends Error {
  constructor(message: string, readonly line: number, readonly column: number) {
    super(`line ${line}, column ${column}: ${message}`);
    this.name = 'DafnyLexError';
  }
}

const LETTER = /[A-Za-z]/;
const ID_CHAR = /[A-Za-z0-9'_?]/;
const DIGIT = /[0-9]/;
const HEX = /[0-9A-Fa-f]/;

/** Multi-character operators, longest first (from the TOKENS section and the expression grammar). */
const OPERATORS = [
  '<==>', '...', '==>', '<==', '-->', '!in', '{:', ':=', ':|', ':-', '::', '==', '!=', '<=', '>=', '&&', '||', '=>', '..',
  '->', '~>',
];

/** Tokenize Dafny source text. Throws `DafnyLexError` (see the module comment). */
export function lexDafny(source: string): DafnyToken[] {
  const lexer = new Lexer(source);
  return lexer.run();
}

class Lexer {
  private pos = 0;
  private line = 1;
  private lineStart = 0;
  private readonly tokens: DafnyToken[] = [];

  constructor(private readonly src: string) {}

  run(): DafnyToken[] {
    const src = this.src;
    if (src.charCodeAt(0) === 0xfeff) this.pos = 1;
    while (this.pos < src.length) {
      const c = src[this.pos]!;
      if (c === '\n') {
        this.newline(this.pos + 1);
        this.pos++;
      } else if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
        this.pos++;
      } else if (c === '/' && src[this.pos + 1] === '/') {
        this.lineComment();
      } else if (c === '/' && src[this.pos + 1] === '*') {
        this.blockComment();
      } else {
        this.token();
      }
    }
    return this.tokens;
  }

  private newline(nextLineStart: number): void {
    this.line++;
    this.lineStart = nextLineStart;
  }

  private lineComment(): void {
    const end = this.src.indexOf('\n', this.pos);
    this.pos = end < 0 ? this.src.length : end;
  }

  /** Nested block comment: `/*` opens, `*\/` closes, counted. */
  private blockComment(): void {
    const startLine = this.line;
    const startColumn = this.pos - this.lineStart + 1;
    let depth = 0;
    const src = this.src;
    while (this.pos < src.length) {
      if (src[this.pos] === '/' && src[this.pos + 1] === '*') {
        depth++;
        this.pos += 2;
      } else if (src[this.pos] === '*' && src[this.pos + 1] === '/') {
        depth--;
        this.pos += 2;
        if (depth === 0) return;
      } else {
        if (src[this.pos] === '\n') this.newline(this.pos + 1);
        this.pos++;
      }
    }
    throw new DafnyLexError('unterminated block comment', startLine, startColumn);
  }

  private push(kind: DafnyTokenKind, length: number): void {
    this.tokens.push({
      kind, text: this.src.slice(this.pos, this.pos + length), line: this.line,
      column: this.pos - this.lineStart + 1, offset: this.pos,
    });
    this.pos += length;
  }

  private token(): void {
    const src = this.src;
    const c = src[this.pos]!;
    if (c === '"') return this.push('string', this.stringLength(this.pos));
    if (c === '@' && src[this.pos + 1] === '"') return this.verbatimString();
    if (c === "'") return this.tick();
    if (LETTER.test(c) || c === '_' || c === '?') return this.push('ident', this.identLength(this.pos));
    if (DIGIT.test(c)) return this.push('number', this.numberLength(this.pos));
    for (const op of OPERATORS) {
      if (src.startsWith(op, this.pos)) {
        if (op === '!in' && ID_CHAR.test(src[this.pos + 3] ?? ' ')) continue;
        return this.push('punct', op.length);
      }
    }
    if (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f) this.fail(`unexpected control character U+${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    const codePoint = src.codePointAt(this.pos)!;
    this.push('punct', codePoint > 0xffff ? 2 : 1);
  }

  private fail(message: string): never {
    throw new DafnyLexError(message, this.line, this.pos - this.lineStart + 1);
  }

  private identLength(start: number): number {
    let end = start + 1;
    while (end < this.src.length && ID_CHAR.test(this.src[end]!)) end++;
    return end - start;
  }

  /** `'`: the longest of an identifier run and a character literal; a tie (`'a'`) is the character. */
  private tick(): void {
    const run = this.identLength(this.pos);
    if (run >= 4) return this.push('ident', run);
    if (run === 3) return this.push(this.src[this.pos + 2] === "'" ? 'char' : 'ident', 3);
    if (run === 2) return this.push('ident', 2);
    const charLength = this.charLiteralLength(this.pos);
    this.push(charLength > 0 ? 'char' : 'ident', charLength > 0 ? charLength : 1);
  }

  /** Length of a character literal at `start` (the opening quote), 0 when there is none. */
  private charLiteralLength(start: number): number {
    const src = this.src;
    const c = src[start + 1];
    if (c === undefined || c === "'" || c === '\n' || c === '\r') return 0;
    let end: number;
    if (c === '\\') {
      const escape = this.escapeLength(start + 1);
      if (escape === 0) return 0;
      end = start + 1 + escape;
    } else {
      end = start + 1 + (src.codePointAt(start + 1)! > 0xffff ? 2 : 1);
    }
    return src[end] === "'" ? end + 1 - start : 0;
  }

  /** Length of an escape sequence at `at` (the backslash), 0 when it is not one Dafny knows. */
  private escapeLength(at: number): number {
    const src = this.src;
    const e = src[at + 1];
    if (e !== undefined && "'\"\\0nrt".includes(e)) return 2;
    if (e === 'u') {
      for (let i = 2; i < 6; i++) if (!HEX.test(src[at + i] ?? '')) return 0;
      return 6;
    }
    if (e === 'U' && src[at + 2] === '{') {
      let end = at + 3;
      while (end < src.length && (HEX.test(src[end]!) || src[end] === '_')) end++;
      return src[end] === '}' && end > at + 3 ? end + 1 - at : 0;
    }
    return 0;
  }

  private stringLength(start: number): number {
    const src = this.src;
    let end = start + 1;
    while (end < src.length) {
      const c = src[end]!;
      if (c === '"') return end + 1 - start;
      if (c === '\n' || c === '\r') break;
      if (c === '\\') {
        const escape = this.escapeLength(end);
        if (escape === 0) this.failAt(end, 'unknown escape in string');
        end += escape;
      } else {
        end++;
      }
    }
    return this.failAt(start, 'unterminated string');
  }

  private failAt(offset: number, message: string): never {
    throw new DafnyLexError(message, this.line, offset - this.lineStart + 1);
  }

  /** `@"..."`: may span lines; `""` is a quote. */
  private verbatimString(): void {
    const src = this.src;
    const start = this.pos;
    const startLine = this.line;
    const startColumn = start - this.lineStart + 1;
    let end = start + 2;
    while (end < src.length) {
      if (src[end] === '"') {
        if (src[end + 1] === '"') {
          end += 2;
          continue;
        }
        this.tokens.push({ kind: 'string', text: src.slice(start, end + 1), line: startLine, column: startColumn, offset: start });
        for (let i = start; i <= end; i++) if (src[i] === '\n') this.newline(i + 1);
        this.pos = end + 1;
        return;
      }
      end++;
    }
    throw new DafnyLexError('unterminated verbatim string', startLine, startColumn);
  }

  /** digits (`_` between digits), `0x` hex digits, decimals `d.d` (not `1..2`). */
  private numberLength(start: number): number {
    const src = this.src;
    if (src[start] === '0' && src[start + 1] === 'x' && HEX.test(src[start + 2] ?? '')) {
      let end = start + 3;
      while (end < src.length && (HEX.test(src[end]!) || (src[end] === '_' && HEX.test(src[end + 1] ?? '')))) end++;
      return end - start;
    }
    let end = this.digitsEnd(start);
    if (src[end] === '.' && DIGIT.test(src[end + 1] ?? '')) end = this.digitsEnd(end + 1);
    return end - start;
  }

  private digitsEnd(start: number): number {
    const src = this.src;
    let end = start + 1;
    while (end < src.length && (DIGIT.test(src[end]!) || (src[end] === '_' && DIGIT.test(src[end + 1] ?? '')))) end++;
    return end;
  }
}

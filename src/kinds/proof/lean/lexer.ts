/**
 * A Lean 4 tokenizer of our own, for the Lean audit (`./audit.ts`): enough of Lean's lexical structure (the
 * reference's "Lexical Structure"; `Lean.Parser.Basic`) to tell code from comments and literals:
 * - comments: `-- ...` to the end of the line; block comments `/- ... -/` that NEST, doc comments `/-- ... -/`
 *   and `/-! ... -/` alike;
 * - strings `"..."` with backslash escapes; raw strings `r"..."`, `r#"..."#` (any number of `#`); characters
 *   `'a'`, `'\n'`, `'\x41'`, `'\u{41}'` (a `'` that does not close a character is a prime of an identifier or
 *   punctuation);
 * - identifiers: letters (Unicode letters and Greek included), digits, `_`, `'`, `!`, `?` after the first character,
 *   dotted parts, and `«guillemet»` parts; `#command` and `@[` are single tokens.
 * What it cannot read (an unterminated comment or string) is a `LeanLexError`: the audit then refuses.
 */

/** Token kinds. `command` is `#name` (`#eval`, `#print`, `#exit`). */
export type LeanTokenKind = 'ident' | 'command' | 'number' | 'string' | 'char' | 'punct';

/** One token with its 1-based line and column. */
export interface LeanToken {
  readonly kind: LeanTokenKind;
  readonly text: string;
  readonly line: number;
  readonly column: number;
}

/** The source cannot be tokenized. */
export class LeanLexError extends Error {
  constructor(message: string, readonly line: number) {
    super(`line ${line}: ${message}`);
    this.name = 'LeanLexError';
  }
}

const ID_START = /[\p{L}_]/u;
const ID_REST = /[\p{L}\p{N}_'!?₀-₉ₐ-ₜᵢ-ᵪⱼ]/u;

/** Tokenize Lean 4 source (see the module comment). Throws `LeanLexError`. */
export function lexLean(source: string): LeanToken[] {
  const tokens: LeanToken[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const push = (kind: LeanTokenKind, end: number): void => {
    tokens.push({ kind, text: source.slice(i, end), line, column: i - lineStart + 1 });
    for (let k = i; k < end; k++) if (source[k] === '\n') { line++; lineStart = k + 1; }
    i = end;
  };
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\n') { line++; lineStart = i + 1; i++; continue; }
    if (/\s/.test(c)) { i++; continue; }
    if (c === '-' && source[i + 1] === '-') { while (i < source.length && source[i] !== '\n') i++; continue; }
    if (c === '/' && source[i + 1] === '-') {
      const end = blockCommentEnd(source, i, line);
      for (let k = i; k < end; k++) if (source[k] === '\n') { line++; lineStart = k + 1; }
      i = end;
      continue;
    }
    if (c === '"') { push('string', stringEnd(source, i + 1, line)); continue; }
    if (c === 'r' && /^r#*"/.test(source.slice(i, i + 64))) { push('string', rawStringEnd(source, i, line)); continue; }
    if (c === "'" && charEnd(source, i) > 0) { push('char', charEnd(source, i)); continue; }
    if (c === '#' && ID_START.test(source[i + 1] ?? '')) { push('command', identEnd(source, i + 1)); continue; }
    if (c === '@' && source[i + 1] === '[') { push('punct', i + 2); continue; }
    if (ID_START.test(c) || c === '«') { push('ident', identEnd(source, i)); continue; }
    if (/[0-9]/.test(c)) { let e = i + 1; while (/[0-9A-Za-z_.]/.test(source[e] ?? '')) e++; push('number', e); continue; }
    push('punct', i + (source.codePointAt(i)! > 0xffff ? 2 : 1));
  }
  return tokens;
}

/** Nested `/- -/` comment starting at `i`: the index after it. */
function blockCommentEnd(source: string, i: number, line: number): number {
  let depth = 0;
  let k = i;
  while (k < source.length) {
    if (source[k] === '/' && source[k + 1] === '-') { depth++; k += 2; continue; }
    if (source[k] === '-' && source[k + 1] === '/') { depth--; k += 2; if (depth === 0) return k; continue; }
    k++;
  }
  throw new LeanLexError('unterminated comment', line);
}

function stringEnd(source: string, k: number, line: number): number {
  while (k < source.length) {
    if (source[k] === '\\') { k += 2; continue; }
    if (source[k] === '"') return k + 1;
    k++;
  }
  throw new LeanLexError('unterminated string', line);
}

function rawStringEnd(source: string, i: number, line: number): number {
  let k = i + 1;
  let hashes = 0;
  while (source[k] === '#') { hashes++; k++; }
  const close = `"${'#'.repeat(hashes)}`;
  const end = source.indexOf(close, k + 1);
  if (end < 0) throw new LeanLexError('unterminated raw string', line);
  return end + close.length;
}

/** The end of a character literal at `i`, or 0 when `'` does not open one here. */
function charEnd(source: string, i: number): number {
  if (source[i + 1] === '\\') {
    const m = /^\\(x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\}|[\\"'nrt])'/.exec(source.slice(i + 1, i + 16));
    return m === null ? 0 : i + 1 + m[0].length;
  }
  const cp = source.codePointAt(i + 1);
  if (cp === undefined || source[i + 1] === "'" || source[i + 1] === '\n') return 0;
  const width = cp > 0xffff ? 2 : 1;
  return source[i + 1 + width] === "'" ? i + 2 + width : 0;
}

/** An identifier with dotted and `«...»` parts. */
function identEnd(source: string, i: number): number {
  let k = i;
  for (;;) {
    if (source[k] === '«') {
      const close = source.indexOf('»', k + 1);
      if (close < 0) return k + 1;
      k = close + 1;
    } else {
      if (!ID_START.test(source[k] ?? '')) return k;
      k++;
      while (k < source.length && ID_REST.test(source[k]!)) k++;
    }
    if (source[k] === '.' && (ID_START.test(source[k + 1] ?? '') || source[k + 1] === '«')) k++;
    else return k;
  }
}

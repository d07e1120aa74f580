/**
 * SMT-LIB 2 S-expressions, after the standard's lexicon (SMT-LIB 2.6, section 3.1): `;` comments to the end of
 * the line; string literals `"..."` with `""` for a quote; quoted symbols `|...|` (anything but `|` and `\`);
 * numerals, decimals, `#x`/`#b` literals, keywords `:name`, and simple symbols. Each expression keeps its
 * source span, so a command is passed on exactly as written.
 */

/** An atom (its text as written) or a list, with its span in the source (`end` exclusive) and 1-based line. */
export type SExpr =
  | { readonly kind: 'atom'; readonly text: string; readonly start: number; readonly end: number; readonly line: number }
  | { readonly kind: 'list'; readonly items: readonly SExpr[]; readonly start: number; readonly end: number; readonly line: number };

/** The text cannot be read as S-expressions; `line` (1-based) says where. */
export class SExprError extends Error {
  constructor(message: string, readonly line: number) {
    super(`line ${line}: ${message}`);
    this.name = 'SExprError';
  }
}

/** Read every top-level S-expression of `source`. Throws `SExprError`. */
export function parseSExprs(source: string): SExpr[] {
  const reader = new Reader(source);
  const out: SExpr[] = [];
  for (let e = reader.next(); e !== null; e = reader.next()) out.push(e);
  return out;
}

class Reader {
  private pos = 0;
  private line = 1;

  constructor(private readonly src: string) {}

  private skipBlank(): void {
    const src = this.src;
    while (this.pos < src.length) {
      const c = src[this.pos]!;
      if (c === '\n') {
        this.line++;
        this.pos++;
      } else if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
        this.pos++;
      } else if (c === ';') {
        while (this.pos < src.length && src[this.pos] !== '\n') this.pos++;
      } else {
        return;
      }
    }
  }

  /** The next expression, or null at the end. */
  next(): SExpr | null {
    this.skipBlank();
    if (this.pos >= this.src.length) return null;
    const c = this.src[this.pos]!;
    if (c === ')') throw new SExprError('unexpected )', this.line);
    if (c === '(') return this.list();
    return this.atom();
  }

  private list(): SExpr {
    const start = this.pos;
    const line = this.line;
    this.pos++;
    const items: SExpr[] = [];
    for (;;) {
      this.skipBlank();
      if (this.pos >= this.src.length) throw new SExprError('unclosed (', line);
      if (this.src[this.pos] === ')') {
        this.pos++;
        return { kind: 'list', items, start, end: this.pos, line };
      }
      items.push(this.next()!);
    }
  }

  private atom(): SExpr {
    const src = this.src;
    const start = this.pos;
    const line = this.line;
    const c = src[this.pos]!;
    if (c === '"') {
      this.pos++;
      for (;;) {
        if (this.pos >= src.length) throw new SExprError('unterminated string', line);
        if (src[this.pos] === '"') {
          if (src[this.pos + 1] === '"') {
            this.pos += 2;
            continue;
          }
          this.pos++;
          break;
        }
        if (src[this.pos] === '\n') this.line++;
        this.pos++;
      }
    } else if (c === '|') {
      const close = src.indexOf('|', this.pos + 1);
      if (close < 0) throw new SExprError('unterminated |symbol|', line);
      const body = src.slice(this.pos + 1, close);
      if (body.includes('\\')) throw new SExprError('\\ in a |symbol|', line);
      for (const ch of body) if (ch === '\n') this.line++;
      this.pos = close + 1;
    } else {
      while (this.pos < src.length && !/[\s()";|]/.test(src[this.pos]!)) this.pos++;
    }
    return { kind: 'atom', text: src.slice(start, this.pos), start, end: this.pos, line };
  }
}

/** An expression in normal form: atoms as written, lists as `(a b c)` with single spaces. */
export function normalSExpr(e: SExpr): string {
  return e.kind === 'atom' ? e.text : `(${e.items.map(normalSExpr).join(' ')})`;
}

/** The head symbol of a list (a command's name), or null. */
export function headOf(e: SExpr): string | null {
  return e.kind === 'list' && e.items[0]?.kind === 'atom' ? e.items[0].text : null;
}

/** Every atom text in `e` (symbols a definition refers to). */
export function atomsOf(e: SExpr, into: Set<string> = new Set()): Set<string> {
  if (e.kind === 'atom') into.add(e.text);
  else for (const item of e.items) atomsOf(item, into);
  return into;
}

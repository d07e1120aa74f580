/**
 * A SystemVerilog tokenizer (IEEE 1800-2017 §5: lexical conventions), enough to judge designs by their tokens:
 * comments and strings are whole tokens (so nothing inside them is mistaken for code), escaped identifiers are
 * normalised (`\cpu3 ` names the same object as `cpu3`, §5.6.1), system names (`$display`) and compiler directives
 * (`` `define ``) are their own kinds, numbers include sizes, bases and time units.
 *
 * Errors (`SvLexError`, with the 1-based line): a block comment or a string that does not end, a character that
 * starts no token. Compiler directives are tokens here; `./preprocess.ts` interprets them.
 */

/** What a token is. */
export type SvTokenKind = 'identifier' | 'keyword' | 'system' | 'directive' | 'number' | 'string' | 'operator' | 'comment';

/** One token: its kind, its text as written, its normalised name (identifiers: without the escape), and where it starts. */
export interface SvToken {
  readonly kind: SvTokenKind;
  /** The source text of the token. */
  readonly text: string;
  /** Identifiers: the name (an escaped identifier without its backslash and the space ending it); else `text`. */
  readonly name: string;
  /** 0-based offset into the source. */
  readonly offset: number;
  /** 1-based line. */
  readonly line: number;
}

/** A lexical error at a line. */
export class SvLexError extends Error {
  override readonly name = 'SvLexError';
  constructor(readonly line: number, message: string) {
    super(`line ${line}: ${message}`);
  }
}

/** SystemVerilog keywords (IEEE 1800-2017 Annex B), the ones that cannot be identifiers. */
export const SV_KEYWORDS: ReadonlySet<string> = new Set(`accept_on alias always always_comb always_ff always_latch and assert assign
assume automatic before begin bind bins binsof bit break buf bufif0 bufif1 byte case casex casez cell chandle checker
class clocking cmos config const constraint context continue cover covergroup coverpoint cross deassign default defparam
design disable dist do edge else end endcase endchecker endclass endclocking endconfig endfunction endgenerate
endgroup endinterface endmodule endpackage endprimitive endprogram endproperty endspecify endsequence endtable endtask
enum event eventually expect export extends extern final first_match for force foreach forever fork forkjoin function
generate genvar global highz0 highz1 if iff ifnone ignore_bins illegal_bins implements implies import incdir include
initial inout input inside instance int integer interconnect interface intersect join join_any join_none large let
liblist library local localparam logic longint macromodule matches medium modport module nand negedge nettype new
nexttime nmos nor noshowcancelled not notif0 notif1 null or output package packed parameter pmos posedge primitive
priority program property protected pull0 pull1 pulldown pullup pulsestyle_ondetect pulsestyle_onevent pure rand randc
randcase randsequence rcmos real realtime ref reg reject_on release repeat restrict return rnmos rpmos rtran rtranif0
rtranif1 s_always s_eventually s_nexttime s_until s_until_with scalared sequence shortint shortreal showcancelled
signed small soft solve specify specparam static string strong strong0 strong1 struct super supply0 supply1
sync_accept_on sync_reject_on table tagged task this throughout time timeprecision timeunit tran tranif0 tranif1 tri
tri0 tri1 triand trior trireg type typedef union unique unique0 unsigned until until_with untyped use uwire var
vectored virtual void wait wait_order wand weak weak0 weak1 while wildcard wire with within wor xnor xor`.split(/\s+/));

/** Operators and punctuation, longest first (§11.3, §5.5). */
const OPERATORS = ['<<<=', '>>>=', '===', '!==', '==?', '!=?', '<<<', '>>>', '<<=', '>>=', '->>', '<->', '|->', '|=>', '#-#', '#=#',
  '::', '**', '==', '!=', '<=', '>=', '&&', '||', '<<', '>>', '->', '++', '--', '+=', '-=', '*=', '/=', '%=', '&=', '|=',
  '^=', '~&', '~|', '~^', '^~', '+:', '-:', '##', '.*', "'{", '{', '}', '(', ')', '[', ']', ';', ':', ',', '.', '@', '#',
  '?', '=', '+', '-', '*', '/', '%', '&', '|', '^', '~', '!', '<', '>', "'", '$'];

const IDENT_START = /[A-Za-z_]/;
const IDENT_PART = /[A-Za-z0-9_$]/;
const DIGIT = /[0-9]/;

/** Tokenize `source` (comments kept as `comment` tokens unless `dropComments`). @throws SvLexError. */
export function tokenize(source: string, dropComments = true): SvToken[] {
  const out: SvToken[] = [];
  let i = 0;
  let line = 1;
  const n = source.length;
  const push = (kind: SvTokenKind, start: number, startLine: number, name?: string): void => {
    const text = source.slice(start, i);
    out.push({ kind, text, name: name ?? text, offset: start, line: startLine });
  };
  const countLines = (from: number, to: number): void => {
    for (let k = from; k < to; k++) if (source.charCodeAt(k) === 10) line++;
  };
  while (i < n) {
    const c = source[i]!;
    const start = i;
    const startLine = line;
    if (c === '\n') { line++; i++; continue; }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') { i++; continue; }
    if (c === '/' && source[i + 1] === '/') {
      while (i < n && source[i] !== '\n') i++;
      if (!dropComments) push('comment', start, startLine);
      continue;
    }
    if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      if (end < 0) throw new SvLexError(startLine, 'a /* comment does not end');
      i = end + 2;
      countLines(start, i);
      if (!dropComments) push('comment', start, startLine);
      continue;
    }
    if (c === '"') {
      i = scanString(source, i, startLine);
      countLines(start, i);
      push('string', start, startLine);
      continue;
    }
    if (c === '\\') {
      i++;
      while (i < n && source.charCodeAt(i) > 32 && source.charCodeAt(i) < 127) i++;
      if (i === start + 1) throw new SvLexError(startLine, 'a backslash starts no escaped identifier');
      push('identifier', start, startLine, source.slice(start + 1, i));
      continue;
    }
    if (IDENT_START.test(c)) {
      while (i < n && IDENT_PART.test(source[i]!)) i++;
      const word = source.slice(start, i);
      push(SV_KEYWORDS.has(word) ? 'keyword' : 'identifier', start, startLine);
      continue;
    }
    if (c === '$' && i + 1 < n && IDENT_PART.test(source[i + 1]!)) {
      i++;
      while (i < n && IDENT_PART.test(source[i]!)) i++;
      push('system', start, startLine);
      continue;
    }
    if (c === '`') {
      i = scanDirective(source, i);
      push('directive', start, startLine);
      continue;
    }
    if (DIGIT.test(c) || (c === "'" && /[sSbBoOdDhH01xXzZ]/.test(source[i + 1] ?? ''))) {
      i = scanNumber(source, i);
      countLines(start, i);
      push('number', start, startLine);
      continue;
    }
    const op = OPERATORS.find((o) => source.startsWith(o, i));
    if (op === undefined) throw new SvLexError(startLine, `unexpected character ${JSON.stringify(c)}`);
    i += op.length;
    push('operator', start, startLine);
  }
  return out;
}

/** The end of the string literal opening at `i` (escapes skipped; a backslash-newline continues it). @throws SvLexError. */
function scanString(s: string, i: number, line: number): number {
  let k = i + 1;
  while (k < s.length && s[k] !== '"') {
    if (s[k] === '\\') {
      k += 2;
      continue;
    }
    if (s[k] === '\n') throw new SvLexError(line, 'a string does not end on its line');
    k++;
  }
  if (k >= s.length) throw new SvLexError(line, 'a string does not end');
  return k + 1;
}

/** The end of the directive or macro use at `i` (a backtick and a name, or `` `` ``, `` `" ``, `` `\`" ``). */
function scanDirective(s: string, i: number): number {
  let k = i + 1;
  if (k < s.length && IDENT_START.test(s[k]!)) {
    while (k < s.length && IDENT_PART.test(s[k]!)) k++;
  } else if (s[k] === '`' || s[k] === '"') {
    k++;
  } else if (s[k] === '\\' && s[k + 1] === '`' && s[k + 2] === '"') {
    k += 3;
  }
  return k;
}

/** The end of a number starting at `i`: decimal or real with time unit, sized or unsized based literal (§5.7). */
function scanNumber(s: string, i: number): number {
  const digits = (k: number, re: RegExp): number => {
    while (k < s.length && re.test(s[k]!)) k++;
    return k;
  };
  let k = i;
  if (s[k] !== "'") {
    k = digits(k, /[0-9_]/);
    if (s[k] === '.' && /[0-9]/.test(s[k + 1] ?? '')) k = digits(k + 1, /[0-9_]/);
    if (/[eE]/.test(s[k] ?? '') && /[0-9+-]/.test(s[k + 1] ?? '')) k = digits(k + 2, /[0-9_]/);
    const unit = /^(?:s|ms|us|ns|ps|fs)(?![A-Za-z0-9_$])/.exec(s.slice(k, k + 3));
    if (unit !== null) return k + unit[0].length;
    // A size followed by a base: `8 'h ff` (spaces allowed around the apostrophe and the base).
    const ws = digits(k, /[ \t]/);
    if (s[ws] !== "'" || !/[sSbBoOdDhH]/.test(s[ws + 1] ?? '')) return k;
    k = ws;
  }
  k++; // the apostrophe
  if (/[01xXzZ]/.test(s[k] ?? '') && !/[sSbBoOdDhH]/.test(s[k] ?? '')) return k + 1; // '0 '1 'x 'z
  if (/[sS]/.test(s[k] ?? '')) k++;
  k++; // the base letter
  k = digits(k, /[ \t]/);
  return digits(k, /[0-9a-fA-FxXzZ?_]/);
}

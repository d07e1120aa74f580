/**
 * The compiler directives of a design (IEEE 1800-2017 §22), interpreted so that the text Crucible checks is the
 * text the compiler compiles. A design may use `` `timescale ``, `` `default_nettype `` and object-like
 * `` `define NAME body `` / `` `undef NAME ``; every use of a defined macro is replaced by its body (recursively),
 * and the design is then compiled from this expanded text, not from what was submitted: nothing the design defines
 * reaches the trusted files compiled after it, and the token checks see exactly what iverilog sees (so
 * `$`` + macro or a body that holds a system task cannot smuggle one past them).
 * Rejected, each with its line: any other directive (`` `include `` reads files, `` `ifdef ``/`` `else `` hide
 * text, `` `resetall ``, `` `line ``, `` `pragma ``, ...), function-like macros, token pasting (```` `` ````) and
 * stringification (`` `" ``), a macro that is not defined, expansions nested deeper than 32 or longer than 1 MiB.
 */
import { SvLexError } from './sv-lexer.js';

/** A directive or macro the design may not use. */
export class DirectiveError extends Error {
  override readonly name = 'DirectiveError';
  constructor(readonly line: number, message: string) {
    super(`line ${line}: ${message}`);
  }
}

const MAX_DEPTH = 32;
const MAX_EXPANDED_CHARS = 1 << 20;
const KEPT = new Set(['timescale', 'default_nettype']);

/** Where code can be in the raw text: skipping comments and strings. Returns the index after the construct at `i`. */
function skipNonCode(text: string, i: number, line: { n: number }): number {
  if (text.startsWith('//', i)) {
    const e = text.indexOf('\n', i);
    return e < 0 ? text.length : e;
  }
  if (text.startsWith('/*', i)) {
    const e = text.indexOf('*/', i + 2);
    if (e < 0) throw new SvLexError(line.n, 'a /* comment does not end');
    for (let k = i; k < e; k++) if (text.charCodeAt(k) === 10) line.n++;
    return e + 2;
  }
  if (text[i] === '"') {
    let k = i + 1;
    while (k < text.length && text[k] !== '"') {
      if (text[k] === '\n') throw new SvLexError(line.n, 'a string does not end on its line');
      k += text[k] === '\\' ? 2 : 1;
    }
    if (k >= text.length) throw new SvLexError(line.n, 'a string does not end');
    return k + 1;
  }
  return i;
}

/** The rest of a directive's logical line (a `define body): `\`-newline continues it; a `//` comment ends it. */
function directiveLine(text: string, i: number, line: { n: number }): { body: string; end: number } {
  let body = '';
  let k = i;
  while (k < text.length && text[k] !== '\n') {
    if (text[k] === '\\' && text[k + 1] === '\n') {
      body += ' ';
      line.n++;
      k += 2;
      continue;
    }
    if (text.startsWith('//', k)) {
      while (k < text.length && text[k] !== '\n') k++;
      break;
    }
    if (text.startsWith('/*', k)) {
      const e = text.indexOf('*/', k + 2);
      const nl = text.indexOf('\n', k);
      if (e < 0 || (nl >= 0 && nl < e)) throw new DirectiveError(line.n, 'a /* comment inside a macro body must end on its line');
      body += ' ';
      k = e + 2;
      continue;
    }
    if (text[k] === '"') {
      const e = skipNonCode(text, k, line);
      body += text.slice(k, e);
      k = e;
      continue;
    }
    body += text[k];
    k++;
  }
  return { body, end: k };
}

const NAME = /^[A-Za-z_][A-Za-z0-9_$]*/;

/** The expanded design text (module comment). @throws DirectiveError, SvLexError. */
export function preprocessDesign(source: string): string {
  const macros = new Map<string, string>();
  return expand(source, macros, 0, { n: 1 }, true);
}

function expand(text: string, macros: Map<string, string>, depth: number, line: { n: number }, topLevel: boolean): string {
  if (depth > MAX_DEPTH) throw new DirectiveError(line.n, `macros nest deeper than ${MAX_DEPTH}`);
  let out = '';
  let i = 0;
  while (i < text.length) {
    const skipped = skipNonCode(text, i, line);
    if (skipped !== i) {
      out += text.slice(i, skipped);
      i = skipped;
      continue;
    }
    const c = text[i]!;
    if (c === '\n') line.n++;
    if (c !== '`') {
      out += c;
      i++;
      continue;
    }
    const m = NAME.exec(text.slice(i + 1, i + 257));
    if (m === null) {
      const what = text.slice(i, i + 3);
      throw new DirectiveError(line.n, what.startsWith('``') || what.startsWith('`"') || what.startsWith('`\\')
        ? `token pasting and stringification (${JSON.stringify(what)}) are not accepted`
        : 'a backtick that starts no directive');
    }
    const word = m[0];
    const after = i + 1 + word.length;
    if (word === 'define' || word === 'undef') {
      if (!topLevel) throw new DirectiveError(line.n, `\`${word} inside a macro body is not accepted`);
      const rest = directiveLine(text, after, line);
      const def = /^[ \t]+([A-Za-z_][A-Za-z0-9_$]*)(\(?)/.exec(rest.body);
      if (def === null) throw new DirectiveError(line.n, `\`${word} needs a macro name`);
      if (word === 'undef') macros.delete(def[1]!);
      else {
        if (def[2] === '(') throw new DirectiveError(line.n, `function-like macro \`${def[1]} is not accepted`);
        const body = rest.body.slice(def[0].length).trim();
        if (/`[`"\\]/.test(body)) throw new DirectiveError(line.n, `macro \`${def[1]} uses token pasting or stringification`);
        macros.set(def[1]!, body);
      }
      i = rest.end;
      continue;
    }
    if (KEPT.has(word)) {
      if (!topLevel) throw new DirectiveError(line.n, `\`${word} inside a macro body is not accepted`);
      const rest = directiveLine(text, after, line);
      out += `\`${word}${rest.body}`;
      i = rest.end;
      continue;
    }
    const body = macros.get(word);
    if (body === undefined) {
      throw new DirectiveError(line.n, /^(include|ifdef|ifndef|elsif|else|endif|resetall|line|pragma|celldefine|endcelldefine|undefineall|unconnected_drive|nounconnected_drive|begin_keywords|end_keywords|__FILE__|__LINE__)$/.test(word)
        ? `directive \`${word} is not accepted in a design`
        : `macro \`${word} is not defined`);
    }
    out += expand(body, macros, depth + 1, { n: line.n }, false);
    if (out.length > MAX_EXPANDED_CHARS) throw new DirectiveError(line.n, 'the design expands past 1 MiB');
    i = after;
  }
  return out;
}

/**
 * Reading the test forms of the Lisp dialects MultiPL-E translates to (Racket, Scheme, Clojure): the forms headed by
 * a name (`(check-within a b 0.001)`, `(test-equal a b)`, `(is (= a b))`) and their top-level data, as source text.
 * Enough for the translator's output (lists, `#hash(...)`, `'(...)`, `[...]`, `{...}`, strings, atoms); it does not
 * know character literals such as `#\(` (the translator emits none; a test text with one is refused by the caller
 * reading fewer forms than it expects, or splits wrongly and its expected-values program fails, never silently).
 */
import { closingBracket, type SourceSyntax } from '../split.js';

/** Lisp source syntax: `"` strings and a `;` line comment. */
export const LISP_SYNTAX: SourceSyntax = { quotes: ['"'], lineComment: ';' };

/**
 * The top-level data of `text` as source texts, or undefined when a bracket is unbalanced. `whitespace` lists the
 * separator characters (Clojure also counts `,`). A datum is a run of atom characters, followed directly by a
 * bracketed form or a string when one follows without a separator (`#hash(`, `'(`, `#{`).
 */
export function sexprs(text: string, whitespace = ' \t\r\n\f'): string[] | undefined {
  const out: string[] = [];
  let at = 0;
  while (at < text.length) {
    const c = text[at]!;
    if (whitespace.includes(c)) { at++; continue; }
    if (c === ';') {
      const end = text.indexOf('\n', at);
      at = end < 0 ? text.length : end + 1;
      continue;
    }
    const start = at;
    while (at < text.length && !whitespace.includes(text[at]!) && !'()[]{}";'.includes(text[at]!)) at++;
    const next = text[at];
    if (next === '(' || next === '[' || next === '{') {
      const close = closingBracket(text, at, LISP_SYNTAX);
      if (close < 0) return undefined;
      at = close;
    } else if (next === '"') {
      at++;
      while (at < text.length && text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
      if (at >= text.length) return undefined;
      at++;
    } else if (at === start) {
      return undefined;
    }
    out.push(text.slice(start, at));
  }
  return out;
}

/**
 * Every form `(head ...)` in `text` (the head at a form's start, e.g. `check-within`): its top-level data after the
 * head. Undefined when one is never closed.
 */
export function formsOf(text: string, head: string, whitespace?: string): string[][] | undefined {
  const forms: string[][] = [];
  const pattern = new RegExp(`\\(\\s*${head.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=[\\s)])`, 'g');
  for (const m of text.matchAll(pattern)) {
    const close = closingBracket(text, m.index, LISP_SYNTAX);
    if (close < 0) return undefined;
    const data = sexprs(text.slice(m.index + m[0].length, close - 1), whitespace);
    if (data === undefined) return undefined;
    forms.push(data);
  }
  return forms;
}

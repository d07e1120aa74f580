/**
 * A test body read as a run of assertion statements, and nothing else (shared by the compiled languages' splits:
 * Rust `assert_eq!(a, b);`, C++ `assert(a == (b));`, D `assert(a == b);`). A body with any other statement is not
 * in the shape a split reads: its problem is judged as one program (`../script.ts`).
 */
import { closingBracket, type SourceSyntax } from '../split.js';

/**
 * The text inside the parentheses of each `callee(...)` statement of `body`, in order, when `body` is exactly such
 * statements (each optionally followed by `;`, whitespace and line comments between them); undefined otherwise,
 * or when there are none.
 */
export function assertionStatements(body: string, callee: string, syntax: SourceSyntax): string[] | undefined {
  const opener = new RegExp(`^${callee.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\(`);
  const found: string[] = [];
  let at = 0;
  for (;;) {
    at = skipBlank(body, at, syntax);
    if (at >= body.length) return found.length === 0 ? undefined : found;
    const m = opener.exec(body.slice(at));
    if (m === null) return undefined;
    const open = at + m[0].length - 1;
    const close = closingBracket(body, open, syntax);
    if (close < 0) return undefined;
    found.push(body.slice(open + 1, close - 1));
    at = skipBlank(body, close, syntax);
    if (body[at] === ';') at++;
  }
}

function skipBlank(text: string, from: number, syntax: SourceSyntax): number {
  let at = from;
  for (;;) {
    while (at < text.length && /\s/.test(text[at]!)) at++;
    if (syntax.lineComment === undefined || !text.startsWith(syntax.lineComment, at)) return at;
    const end = text.indexOf('\n', at);
    at = end < 0 ? text.length : end;
  }
}

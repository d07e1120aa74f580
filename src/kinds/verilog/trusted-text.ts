/**
 * Token-level rewrites of Verilog text (never text search: comments and strings are left alone unless a rewrite is
 * about them), used to assemble a judged program:
 * - `renameIdentifiers`: every identifier token (plain or escaped) with a name in the map gets the new name, so the
 *   trusted modules can carry a per-judgement secret (`RefModule` -> `RefModule_<secret>`) that no design can name;
 * - `markDisplays`: the format string of every `$display` call (its first argument, when a string literal) gets a
 *   marker prefix, so the lines the trusted testbench prints can be told apart from anything else on stdout;
 * - `trustedLines`: the lines of an output that carry the marker, without it.
 */
import { tokenize, type SvToken } from './sv-lexer.js';

/** Apply replacements `[offset, length, text]` (non-overlapping) to `source`. */
function splice(source: string, edits: readonly (readonly [number, number, string])[]): string {
  let out = '';
  let at = 0;
  for (const [offset, length, replacement] of [...edits].sort((a, b) => a[0] - b[0])) {
    out += source.slice(at, offset) + replacement;
    at = offset + length;
  }
  return out + source.slice(at);
}

/** Rename identifier tokens (module comment). Directive lines are left as they are. @throws SvLexError. */
export function renameIdentifiers(source: string, names: ReadonlyMap<string, string>): string {
  const edits: [number, number, string][] = [];
  for (const t of tokenize(source)) {
    if (t.kind !== 'identifier') continue;
    const to = names.get(t.name);
    // An escaped identifier keeps the space that ends it.
    if (to !== undefined) edits.push([t.offset, t.text.length, to]);
  }
  return splice(source, edits);
}

const DISPLAYS = new Set(['$display', '$displayb', '$displayh', '$displayo']);

/** Prefix the format string of each `$display(...)` with `marker` (module comment). @throws SvLexError. */
export function markDisplays(source: string, marker: string): string {
  const tokens: SvToken[] = tokenize(source);
  const edits: [number, number, string][] = [];
  tokens.forEach((t, i) => {
    if (t.kind !== 'system' || !DISPLAYS.has(t.text) || tokens[i + 1]?.text !== '(') return;
    const first = tokens[i + 2];
    if (first?.kind === 'string') edits.push([first.offset, first.text.length, `"${marker}${first.text.slice(1)}`]);
  });
  return splice(source, edits);
}

/** The lines of `stdout` that start with `marker`, without it (a trailing `\r` dropped). */
export function trustedLines(stdout: string, marker: string): string[] {
  return stdout.split('\n').filter((l) => l.startsWith(marker)).map((l) => l.slice(marker.length).replace(/\r$/, ''));
}

/**
 * The output comparisons of guipenedo/piston's contest packages, reimplemented (their bash is never run):
 * - `codeforcesMatch`: `packages/codeforces/1.0.0/run`, no checker: empty lines removed, then `normalize_output`
 *   (whole words yes/no upper-cased, case-insensitively; every run of whitespace, newlines included, one
 *   space; trimmed) on both sides, then `diff -b` (equal).
 * - `cmsDiffMatch`: `packages/cms_ioi/1.0.0/run`, Batch without checker: `diff -bq <(echo "$CORRECT") out`,
 *   i.e. line by line, runs of blanks equal to one, blanks at line ends ignored (GNU diff `-b`), after the
 *   correct output lost its trailing newlines to `$(...)` and got one back from `echo`.
 */

/** Text after bash `X=$(cat f); echo "$X"`: trailing newlines removed, one added. */
export function echoed(text: string): string {
  return text.replace(/\n+$/, '') + '\n';
}

/** `sed -i 's/\r$//'`: a carriage return at the end of each line removed. */
export function stripCarriageReturns(text: string): string {
  return text.replace(/\r(?=\n|$)/g, '');
}

/** `sed -i '/^$/d'`: empty lines removed (a line holding only blanks stays). */
export function dropEmptyLines(text: string): string {
  const lines = text.split('\n');
  const last = lines.pop()!;
  const kept = lines.filter((l) => l !== '').map((l) => l + '\n');
  return kept.join('') + last;
}

/** codeforces `normalize_output`: yes/no upper-cased as whole words, whitespace to single spaces, trimmed. */
export function normalizeCodeforces(text: string): string {
  return text.replace(/\byes\b/gi, 'YES').replace(/\bno\b/gi, 'NO').replace(/\s+/g, ' ').replace(/^ /, '').replace(/ $/, '');
}

/** codeforces package without a checker: the solution's output matches the correct one. */
export function codeforcesMatch(correct: string, output: string): boolean {
  return normalizeCodeforces(correct) === normalizeCodeforces(output);
}

/** One line as GNU `diff -b` compares it: runs of blanks one space, blanks at the end dropped. */
function diffBLine(line: string): string {
  return line.replace(/[ \t\f\v\r]+/g, ' ').replace(/ $/, '');
}

/** `diff -b a b` finds no difference (lines compared by `diffBLine`; a missing final newline is ignored). */
export function diffBEqual(a: string, b: string): boolean {
  const lines = (t: string): string[] => {
    const parts = t.split('\n');
    if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
    return parts.map(diffBLine);
  };
  const x = lines(a);
  const y = lines(b);
  return x.length === y.length && x.every((line, i) => line === y[i]);
}

/** cms_ioi Batch without a checker: `diff -bq <(echo "$CORRECT_OUTPUT") "$SOLUTION_OUTPUT"`. */
export function cmsDiffMatch(correct: string, output: string): boolean {
  return diffBEqual(echoed(correct), output);
}

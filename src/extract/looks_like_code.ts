/**
 * Heuristic for responses without fences: is this text a program, or prose?
 *
 * Each non-blank line is classed:
 * - strong code: starts like a statement in a common language (`def`, `class`, `import`, `from x import`,
 *   `return`, `#include`, `fn`, `func`, `let`, `const`, `var`, `function`, `package`, `using`, `public`,
 *   `int main`, `print(`, ...), or ends with `;`, `{` or `}`, or is an assignment `name = value`;
 * - weak code: indented, a comment (`#`, `//`, `/*`), ends with `:` or `)`, or mostly symbols;
 * - prose: anything else.
 * The text is code when it has at least one strong-code line and code lines (strong or weak) are at least
 * 60% of the non-blank lines. Ten lines of explanation around three lines of code therefore count as prose
 * (`no_code`), while a bare program with a comment header counts as code.
 */
const STRONG_START_RE =
  /^\s*(?:async\s+def|def|class|import|from\s+[\w.]+\s+import|return|raise|yield|elif|else\s*:|try\s*:|except\b|with\s|for\s.*:\s*$|while\s.*:\s*$|if\s.*:\s*$|#include|#define|#!|fn\s|func\s|let\s|const\s|var\s|function\b|package\s|using\s|namespace\s|public\s|private\s|protected\s|static\s|int\s+main|template\s*<|struct\s|impl\s|use\s|print\(|println!?\(|printf\(|console\.log\(|System\.out\.|std::|cout\s*<<|cin\s*>>)/;
const STRONG_END_RE = /[;{}]\s*$/;
const ASSIGN_RE = /^\s*[A-Za-z_][\w.[\]'"]*\s*(?:[-+*/%&|^]|\/\/|\*\*)?=(?!=)\s*\S/;
const WEAK_RE = /^(?:\s{2,}|\t)\S|^\s*(?:#|\/\/|\/\*|\*)|[:)]\s*$/;

export function looksLikeCode(text: string): boolean {
  let nonBlank = 0;
  let strong = 0;
  let weak = 0;
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    nonBlank++;
    if (STRONG_START_RE.test(line) || STRONG_END_RE.test(line) || ASSIGN_RE.test(line)) strong++;
    else if (WEAK_RE.test(line) || symbolRatio(line) > 0.3) weak++;
  }
  return strong > 0 && (strong + weak) / nonBlank >= 0.6;
}

function symbolRatio(line: string): number {
  const t = line.replace(/\s/g, '');
  if (t.length === 0) return 0;
  const symbols = t.replace(/[A-Za-z0-9]/g, '').length;
  return symbols / t.length;
}

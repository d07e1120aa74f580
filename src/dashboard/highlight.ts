/**
 * Code as HTML with syntax highlighting, on the server (highlight.js, its common languages; no script in the
 * browser, so the page's Content-Security-Policy stays as strict and the page shows highlighted code at once).
 * The output is one `<span class="line">` per source line, so a line can be marked (a failing assertion) and
 * numbered; highlight.js spans that cross a line break (a docstring) are closed at the end of each line and
 * opened again on the next. highlight.js escapes the code it is given; unknown languages are escaped as plain text.
 */
import hljs from 'highlight.js/lib/common';
import { esc } from './html.js';

/** Our language ids (`languages/*.yaml`) that highlight.js names otherwise. */
const ALIASES: Readonly<Record<string, string>> = {
  python: 'python', python3: 'python', pypy: 'python', cpp: 'cpp', 'c++': 'cpp', c: 'c', java: 'java', javascript: 'javascript',
  js: 'javascript', typescript: 'typescript', ts: 'typescript', go: 'go', rust: 'rust', ruby: 'ruby', php: 'php', perl: 'perl',
  lua: 'lua', r: 'r', bash: 'bash', sh: 'bash', sql: 'sql', kotlin: 'kotlin', swift: 'swift', csharp: 'csharp', scala: 'scala',
};

/** Split highlighted HTML into lines, closing the spans open at each line end and reopening them on the next line. */
export function splitHighlightedLines(html: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let current = '';
  const tag = /<span[^>]*>|<\/span>|\n/g;
  let last = 0;
  for (let m = tag.exec(html); m !== null; m = tag.exec(html)) {
    current += html.slice(last, m.index);
    last = m.index + m[0].length;
    if (m[0] === '\n') {
      lines.push(current + '</span>'.repeat(open.length));
      current = open.join('');
    } else if (m[0] === '</span>') {
      open.pop();
      current += m[0];
    } else {
      open.push(m[0]);
      current += m[0];
    }
  }
  lines.push(current + html.slice(last));
  return lines;
}

/** Options of `codeHtml`. */
export interface CodeOptions {
  /** Language id (ours or highlight.js's); unknown or absent: plain text. */
  readonly language?: string | null;
  /** 1-based lines to mark (e.g. the failing assertion). */
  readonly mark?: readonly number[];
  /** `data-testid` of the `<pre>`. */
  readonly testid?: string;
  /** Number of the first line (default 1). */
  readonly firstLine?: number;
}

/**
 * A `<pre class="code">` of `code`, highlighted, one `span.line` per line (`data-line` = its number); marked lines
 * get `class="line mark"`. The `<pre>`'s text content equals `code` (line numbers are CSS counters).
 */
export function codeHtml(code: string, options: CodeOptions = {}): string {
  const language = options.language === undefined || options.language === null ? undefined : ALIASES[options.language.toLowerCase()] ?? options.language;
  let html: string;
  if (language !== undefined && hljs.getLanguage(language) !== undefined) {
    html = hljs.highlight(code, { language, ignoreIllegals: true }).value;
  } else {
    html = esc(code);
  }
  const marks = new Set(options.mark ?? []);
  const first = options.firstLine ?? 1;
  const lines = splitHighlightedLines(html).map((line, i) => {
    const n = first + i;
    return `<span class="line${marks.has(n) ? ' mark' : ''}" data-line="${n}">${line}</span>`;
  });
  const testid = options.testid === undefined ? '' : ` data-testid="${esc(options.testid)}"`;
  // Newlines between the line spans keep the text content equal to the code; the first newline after <pre> is eaten.
  return `<pre class="code hljs"${testid} style="counter-reset: line ${first - 1}">\n${lines.join('\n')}</pre>`;
}

/**
 * Unified diffs, as `git diff` and `diff -u` write them and as models answer with them: parsed into files and
 * hunks (pure, no process), every path checked to stay inside the repository, and written back as a plain
 * unified diff (`toUnified`) that GNU patch is given instead of the model's text, so the fuzz step of the apply
 * ladder never sees anything but `---`/`+++`/`@@` hunks (no ed scripts, no git binary patches).
 *
 * Format followed: the GNU diffutils manual, "Detailed Description of Unified Format" (hunk headers
 * `@@ -l,s +l,s @@`, a missing `,s` meaning 1, `\ No newline at end of file`), and git's extended headers
 * (git-diff(1) "Generating patch text with -p": `diff --git`, `old mode`/`new mode`, `new file mode`,
 * `deleted file mode`, `rename from`/`rename to`, `copy from`/`copy to`, `similarity index`, `index`, binary
 * markers; C-quoted path names). Text before the first file header and between files is skipped, as `git
 * apply` and `patch` skip it.
 */

/** One hunk: its header's ranges (start line, line count), the text after `@@ ... @@`, and its body lines with their prefixes. */
export interface Hunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly section: string;
  /** Each line with its prefix: ' ' context, '-' removed, '+' added, '\' a no-newline marker. */
  readonly lines: readonly string[];
}

/**
 * One file of a diff. `oldPath` is null for a file the diff creates, `newPath` null for one it deletes; paths are
 * repository-relative (the `a/`, `b/` prefixes removed). `oldMode`/`newMode` are git's octal modes when given
 * (`120000` a symbolic link, `160000` a submodule). `binary`: git's binary patch or "Binary files differ".
 */
export interface FileDiff {
  readonly oldPath: string | null;
  readonly newPath: string | null;
  readonly oldMode?: string;
  readonly newMode?: string;
  readonly rename: boolean;
  readonly copy: boolean;
  readonly binary: boolean;
  readonly hunks: readonly Hunk[];
}

/** A parsed diff: its files in order. */
export interface ParsedDiff {
  readonly files: readonly FileDiff[];
}

/** A diff that cannot be read: `line` is 1-based in the diff's text. */
export class DiffError extends Error {
  override readonly name = 'DiffError';
  constructor(readonly line: number, readonly detail: string) {
    super(`line ${line}: ${detail}`);
  }
}

/**
 * Whether `path` is a plain repository-relative path: not empty, not absolute, no `.` or `..` component, no
 * empty component, no backslash, no control character (NUL, newline). Such a path names a file inside the
 * repository whatever the current directory; the box enforces the rest (the patch is applied in it).
 */
export function isRepositoryPath(path: string): boolean {
  if (path === '' || path.startsWith('/') || path.length > 4096 || /[\\\u0000-\u001f\u007f]/.test(path)) return false;
  return path.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

/** Undo git's C-style quoting of a path (`"a/f\303\251 \"x\""`); other text is returned as is. */
export function unquotePath(text: string): string {
  if (!(text.length >= 2 && text.startsWith('"') && text.endsWith('"'))) return text;
  const bytes: number[] = [];
  const body = text.slice(1, -1);
  const simple: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const next = body[i + 1] ?? '';
    if (/[0-7]/.test(next)) {
      const octal = /^[0-7]{1,3}/.exec(body.slice(i + 1))![0];
      bytes.push(parseInt(octal, 8) & 0xff);
      i += octal.length;
    } else {
      bytes.push(simple[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The path of a `---`/`+++` header: quoting undone, a trailing tab-separated timestamp dropped, `a/` or `b/` removed; null for /dev/null. */
function headerPath(text: string, prefix: 'a/' | 'b/'): string | null {
  let name = text.startsWith('"') ? unquotePath(text.replace(/\t.*$/, '').trimEnd()) : text.replace(/\t.*$/, '').trimEnd();
  if (name === '/dev/null') return null;
  if (name.startsWith(prefix)) name = name.slice(2);
  return name;
}

/** The two names of `diff --git a/X b/Y` (quoted or not); undefined when they cannot be told apart. */
function gitHeaderPaths(rest: string): { readonly a: string; readonly b: string } | undefined {
  const quoted = /^("(?:[^"\\]|\\.)*"|\S+) ("(?:[^"\\]|\\.)*"|\S+)$/.exec(rest);
  if (quoted && (quoted[1]!.startsWith('"') || quoted[2]!.startsWith('"'))) {
    const a = unquotePath(quoted[1]!);
    const b = unquotePath(quoted[2]!);
    return { a: a.startsWith('a/') ? a.slice(2) : a, b: b.startsWith('b/') ? b.slice(2) : b };
  }
  // Unquoted names may hold spaces: "a/<p> b/<p>" with the same <p> is the common case.
  if (rest.startsWith('a/')) {
    const half = (rest.length - 1) / 2;
    if (Number.isInteger(half) && rest.slice(half, half + 3) === ' b/' && rest.slice(2, half) === rest.slice(half + 3)) {
      return { a: rest.slice(2, half), b: rest.slice(half + 3) };
    }
    const at = rest.indexOf(' b/');
    if (at > 0) return { a: rest.slice(2, at), b: rest.slice(at + 3) };
  }
  return undefined;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/;

interface FileBuilder {
  oldPath: string | null | undefined;
  newPath: string | null | undefined;
  gitOld?: string;
  gitNew?: string;
  oldMode?: string;
  newMode?: string;
  created: boolean;
  deleted: boolean;
  rename: boolean;
  copy: boolean;
  binary: boolean;
  hunks: Hunk[];
  line: number;
}

function finish(f: FileBuilder): FileDiff {
  let oldPath = f.oldPath === undefined ? (f.created ? null : f.gitOld ?? null) : f.oldPath;
  let newPath = f.newPath === undefined ? (f.deleted ? null : f.gitNew ?? null) : f.newPath;
  if (f.created) oldPath = null;
  if (f.deleted) newPath = null;
  if (oldPath === null && newPath === null) throw new DiffError(f.line, 'a file section names no file');
  for (const path of [oldPath, newPath]) {
    if (path !== null && !isRepositoryPath(path)) throw new DiffError(f.line, `path outside the repository or malformed: ${JSON.stringify(path)}`);
  }
  if (f.hunks.length === 0 && !f.binary && !f.rename && !f.copy && f.oldMode === f.newMode && !f.created && !f.deleted) {
    throw new DiffError(f.line, `file ${newPath ?? oldPath} has a header but no hunk`);
  }
  return {
    oldPath, newPath, rename: f.rename, copy: f.copy, binary: f.binary, hunks: f.hunks,
    ...(f.oldMode === undefined ? {} : { oldMode: f.oldMode }), ...(f.newMode === undefined ? {} : { newMode: f.newMode }),
  };
}

/** Read one hunk's body starting at `lines[start]`; returns the hunk and the index after it. @throws DiffError */
function readHunk(lines: readonly string[], start: number, header: RegExpExecArray): { hunk: Hunk; next: number } {
  const oldLines = header[2] === undefined ? 1 : Number(header[2]);
  const newLines = header[4] === undefined ? 1 : Number(header[4]);
  let oldLeft = oldLines;
  let newLeft = newLines;
  const body: string[] = [];
  let i = start;
  while (i < lines.length && (oldLeft > 0 || newLeft > 0)) {
    const line = lines[i]!;
    const c = line === '' ? ' ' : line[0]!;
    if (c === ' ') { oldLeft--; newLeft--; }
    else if (c === '-') oldLeft--;
    else if (c === '+') newLeft--;
    else if (c !== '\\') break;
    body.push(line === '' ? ' ' : line);
    i++;
  }
  while (i < lines.length && lines[i]!.startsWith('\\')) body.push(lines[i++]!);
  if (oldLeft !== 0 || newLeft !== 0) {
    throw new DiffError(start, `hunk "${header[0]}" ends early: ${Math.max(oldLeft, 0)} old and ${Math.max(newLeft, 0)} new lines missing`);
  }
  return {
    hunk: { oldStart: Number(header[1]), oldLines, newStart: Number(header[3]), newLines, section: header[5]!, lines: body },
    next: i,
  };
}

/** Apply one extended git header line to the file being read; false when the line is none. */
function gitHeader(line: string, f: FileBuilder): boolean {
  let m: RegExpExecArray | null;
  if ((m = /^old mode (\d+)$/.exec(line))) f.oldMode = m[1]!;
  else if ((m = /^new mode (\d+)$/.exec(line))) f.newMode = m[1]!;
  else if ((m = /^new file mode (\d+)$/.exec(line))) { f.newMode = m[1]!; f.created = true; }
  else if ((m = /^deleted file mode (\d+)$/.exec(line))) { f.oldMode = m[1]!; f.deleted = true; }
  else if ((m = /^rename from (.+)$/.exec(line))) { f.oldPath = unquotePath(m[1]!); f.rename = true; }
  else if ((m = /^rename to (.+)$/.exec(line))) { f.newPath = unquotePath(m[1]!); f.rename = true; }
  else if ((m = /^copy from (.+)$/.exec(line))) { f.oldPath = unquotePath(m[1]!); f.copy = true; }
  else if ((m = /^copy to (.+)$/.exec(line))) { f.newPath = unquotePath(m[1]!); f.copy = true; }
  else if (/^(?:similarity|dissimilarity) index \d+%$/.test(line) || /^index [0-9a-f]+\.\.[0-9a-f]+( \d+)?$/.test(line)) { /* informational */ }
  else if (line === 'GIT binary patch' || /^Binary files .* differ$/.test(line)) f.binary = true;
  else return false;
  return true;
}

/**
 * Parse a unified diff (see the module comment). An empty text (or one with no file section) is the empty diff.
 * @throws DiffError (with the 1-based line) for a hunk outside a file, a hunk that ends early, a path that leaves
 *   the repository, or a file section without changes.
 */
export function parseDiff(text: string): ParsedDiff {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const files: FileDiff[] = [];
  let current: FileBuilder | null = null;
  const start = (line: number): FileBuilder => ({
    oldPath: undefined, newPath: undefined, created: false, deleted: false, rename: false, copy: false, binary: false, hunks: [], line,
  });
  const close = (): void => {
    if (current !== null) files.push(finish(current));
    current = null;
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.startsWith('diff --git ')) {
      close();
      current = start(i + 1);
      const names = gitHeaderPaths(line.slice('diff --git '.length));
      if (names === undefined) throw new DiffError(i + 1, `cannot read the file names of "${line.slice(0, 200)}"`);
      current.gitOld = names.a;
      current.gitNew = names.b;
      i++;
      while (i < lines.length && current !== null && gitHeader(lines[i]!, current)) i++;
      continue;
    }
    if (line.startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ ')) {
      const hasHunks = current !== null && (current as FileBuilder).hunks.length > 0;
      if (current === null || hasHunks || (current as FileBuilder).oldPath !== undefined) {
        close();
        current = start(i + 1);
      }
      const f: FileBuilder = current!;
      f.oldPath = f.created ? null : headerPath(line.slice(4), 'a/');
      f.newPath = f.deleted ? null : headerPath(lines[i + 1]!.slice(4), 'b/');
      if (f.oldPath === null) f.created = true;
      if (f.newPath === null) f.deleted = true;
      i += 2;
      continue;
    }
    const header = HUNK_HEADER.exec(line);
    if (header !== null) {
      if (current === null || ((current as FileBuilder).oldPath === undefined && (current as FileBuilder).gitOld === undefined)) {
        throw new DiffError(i + 1, 'a hunk before any file header');
      }
      const { hunk, next } = readHunk(lines, i + 1, header);
      (current as FileBuilder).hunks.push(hunk);
      i = next;
      continue;
    }
    i++;
  }
  close();
  return { files };
}

/** Every path a diff reads or writes (old and new names), in order, once each. */
export function diffPaths(diff: ParsedDiff): string[] {
  const out = new Set<string>();
  for (const f of diff.files) {
    if (f.oldPath !== null) out.add(f.oldPath);
    if (f.newPath !== null) out.add(f.newPath);
  }
  return [...out];
}

/**
 * Whether GNU patch can apply the diff as `toUnified` writes it: text hunks only, no rename or copy, no mode to
 * carry. (Other diffs skip the ladder's `patch --fuzz` step.)
 */
export function plainUnified(diff: ParsedDiff): boolean {
  return diff.files.every((f) => !f.binary && !f.rename && !f.copy && f.hunks.length > 0
    && (f.oldMode === undefined || f.newMode === undefined || f.oldMode === f.newMode));
}

/** The diff as a plain unified diff (`--- a/x`, `+++ b/x`, hunks), one trailing newline; for GNU patch `-p1`. */
export function toUnified(diff: ParsedDiff): string {
  const out: string[] = [];
  for (const f of diff.files) {
    out.push(`--- ${f.oldPath === null ? '/dev/null' : `a/${f.oldPath}`}`);
    out.push(`+++ ${f.newPath === null ? '/dev/null' : `b/${f.newPath}`}`);
    for (const h of f.hunks) {
      out.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@${h.section}`);
      out.push(...h.lines);
    }
  }
  return out.length === 0 ? '' : `${out.join('\n')}\n`;
}

/**
 * Programs inside a Kattis problem package: output validators and example submissions, each a file or a
 * directory of files (Kattis problem package format, "Programs"; problemtools `problemtools/run/__init__.py`
 * `find_programs`). The language comes from the file's extension as problemtools maps it
 * (`problemtools/config/languages.yaml`, `files:`), to Crucible's language ids. A Python file whose first line
 * names `python2` is Python 2, which Crucible does not run. A directory is one program: Crucible judges one
 * source file, so a directory holding one source file (C/C++ headers beside it are inlined where the source
 * includes them with `#include "..."`) is that program, and any other directory is unsupported (with why).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';

/** File extensions -> Crucible language id, as problemtools' language table maps them. */
export const KATTIS_EXTENSIONS: Readonly<Record<string, string>> = {
  '.c': 'c', '.cc': 'cpp', '.C': 'cpp', '.cpp': 'cpp', '.cxx': 'cpp', '.c++': 'cpp', '.cs': 'csharp', '.cob': 'cobol',
  '.go': 'go', '.hs': 'haskell', '.java': 'java', '.js': 'javascript', '.kt': 'kotlin', '.lisp': 'commonlisp',
  '.cl': 'commonlisp', '.ml': 'ocaml', '.pas': 'pascal', '.php': 'php', '.pl': 'prolog', '.py': 'python', '.py3': 'python',
  '.rb': 'ruby', '.rs': 'rust', '.sc': 'scala', '.scala': 'scala',
};

/** Header files a C or C++ source may include from its own directory. */
const HEADER = /\.(h|hh|hpp|hxx|h\+\+)$/;

/** A program found in a package: its language and one source file, or why Crucible cannot run it. */
export type PackageProgram =
  | { readonly ok: true; readonly language: string; readonly source: string; readonly file: string }
  | { readonly ok: false; readonly why: string };

/** The language of one source file (module comment), or why there is none. */
function languageOfFile(path: string, text: string): { language: string } | { why: string } {
  const ext = extname(path);
  const language = KATTIS_EXTENSIONS[ext];
  if (language === undefined) return { why: `no language for the extension "${ext || basename(path)}"` };
  if (language === 'python' && (ext === '.py' && /^#!.*python2\b/.test(text.split('\n', 1)[0] ?? ''))) return { why: 'Python 2 is not run by Crucible' };
  return { language };
}

/**
 * `source` with each `#include "name"` of a file in `headers` replaced by that file (recursively, each file once),
 * `#line` keeping the compiler's messages on the original lines.
 */
export function inlineHeaders(source: string, fileName: string, headers: ReadonlyMap<string, string>, seen = new Set<string>()): string {
  const lines = source.split('\n');
  return lines.map((line, i) => {
    const m = /^[ \t]*#[ \t]*include[ \t]*"([^"]+)"/.exec(line);
    if (m === null || !headers.has(m[1]!)) return line;
    const name = m[1]!;
    if (seen.has(name)) return `// ${line.trim()} (inlined above)`;
    seen.add(name);
    return `#line 1 "${name}"\n${inlineHeaders(headers.get(name)!, name, headers, seen)}\n#line ${i + 2} "${fileName}"`;
  }).join('\n');
}

/** The program at `path` (a file, or a directory of files; module comment). */
export function readPackageProgram(path: string): PackageProgram {
  if (!statSync(path).isDirectory()) {
    const source = readFileSync(path, 'utf8');
    const found = languageOfFile(path, source);
    return 'why' in found ? { ok: false, why: found.why } : { ok: true, language: found.language, source, file: basename(path) };
  }
  const names = readdirSync(path).filter((n) => statSync(join(path, n)).isFile()).sort();
  const headers = new Map(names.filter((n) => HEADER.test(n)).map((n) => [n, readFileSync(join(path, n), 'utf8')]));
  const sources = names.filter((n) => !HEADER.test(n));
  if (sources.length !== 1) {
    return { ok: false, why: sources.length === 0 ? 'a directory without a source file'
      : `a program of ${sources.length} files (${sources.join(', ')}): Crucible judges one source file` };
  }
  const file = sources[0]!;
  const text = readFileSync(join(path, file), 'utf8');
  const found = languageOfFile(file, text);
  if ('why' in found) return { ok: false, why: found.why };
  const source = found.language === 'c' || found.language === 'cpp' ? inlineHeaders(text, file, headers) : text;
  return { ok: true, language: found.language, source, file };
}

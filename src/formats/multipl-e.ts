/**
 * MultiPL-E problems and samples -> `ScriptProblem` / `Sample`.
 *
 * Problem files (nuprl/MultiPL-E; the `nuprl/MultiPL-E` dataset rows as JSONL, optionally gzipped): one object
 * per line with `name` (`HumanEval_23_strlen`), `language` (MultiPL-E's short name: `lua`, `rb`, `pl`, `rs`, ...),
 * `prompt`, `tests`, `stop_tokens`; other fields (`doctests`, `original`, `prompt_terminology`) are ignored.
 * MultiPL-E's completion files (`<name>.json(.gz)`: the same fields plus `completions: [string]`) and results
 * files (`<name>.results.json(.gz)`: the same fields plus `results: [{program, status, ...}]`) are problem files
 * too, one problem each; a directory of them is read whole (results files skipped when completion files exist).
 * A `.json(.gz)` file is one JSON document, pretty-printed or not (MultiPL-E writes its completion files with
 * `json.dump(..., indent=2)`): an object is one record, an array a record per element; any other file is JSONL.
 * The task id is `name`; when a directory holds items of more than one language (MultiPL-E's executor fixtures:
 * HumanEval_53_add in six languages), every task id is `<Crucible language>/<name>` (`lua/HumanEval_53_add`),
 * for problems and samples alike. The same item in two files (the same language, name, prompt, tests and stop
 * tokens: completions of two runs) is one problem whose samples continue across the files in name order; the same
 * name with a different item is an error naming both files.
 * The program is `prompt + completion + "\n" + tests`, run once; its exit status decides
 * (`evaluation/src/containerized_eval.py`, `eval_<lang>.py`); Racket, Scala and Clojure also fail on any stderr.
 * Perl's evaluator also fails a run whose output contains `ERROR`; Crucible does not apply that rule (a test that
 * fails calls `exit 1`).
 * The per-language assembly is `src/kinds/script/multipl-e/one-program.ts`.
 *
 * Samples: a completion file gives its `completions` in order (index 0, 1, ...); a results file gives each
 * result's `program` with the prompt in front and `"\n" + tests` behind removed (what MultiPL-E ran), falling
 * back to the whole program as a `solution` when it does not have that shape.
 * Languages Crucible cannot run here (Julia, Swift, F#, Dart, Elm, Lean, Coq, Dafny, Zig, V, ...) are refused with
 * `DatasetError` naming the language and why.
 * Errors: `DatasetError` (file, line, field).
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { DatasetError, datasetErrorFromZod } from './errors.js';
import { readDecompressedText, readJsonl } from './jsonl.js';
import type { Sample, ScriptProblem } from './types.js';

export const MultiplERecordSchema = z.object({
  name: z.string().min(1),
  language: z.string().min(1),
  prompt: z.string(),
  tests: z.string(),
  stop_tokens: z.array(z.string()).optional(),
  completions: z.array(z.string()).optional(),
  results: z.array(z.object({ program: z.string() }).passthrough()).optional(),
});
type MultiplERecord = z.infer<typeof MultiplERecordSchema>;

/** MultiPL-E language name -> Crucible language id, or why it cannot run here. */
export const MULTIPL_E_LANGUAGES: Readonly<Record<string, string | { readonly refused: string }>> = {
  lua: 'lua', rb: 'ruby', ruby: 'ruby', php: 'php', pl: 'perl', perl: 'perl', r: 'r', rs: 'rust', rust: 'rust',
  ts: 'typescript', sh: 'bash', cs: 'csharp', scala: 'scala', kt: 'kotlin', kotlin: 'kotlin', d: 'd',
  rkt: 'racket', racket: 'racket', cpp: 'cpp', java: 'java', js: 'javascript', javascript: 'javascript',
  ml: 'ocaml', ocaml: 'ocaml', hs: 'haskell', haskell: 'haskell', elixir: 'elixir', ex: 'elixir', clj: 'clojure',
  scm: 'scheme', go_test: 'go', 'go_test.go': 'go', go: 'go', tcl: 'tcl', pas: 'pascal', adb: 'ada', ada: 'ada',
  jl: { refused: 'Julia is not installable from Debian bookworm' },
  julia: { refused: 'Julia is not installable from Debian bookworm' },
  swift: { refused: 'Swift is not installable from Debian bookworm' },
  fs: { refused: 'F# (dotnet fsi) is not installable from Debian bookworm' },
  dart: { refused: 'Dart is not installable from Debian bookworm' },
  elm: { refused: 'Elm is not installable from Debian bookworm' },
  lean: { refused: 'Lean is not installable from Debian bookworm' },
  coq: { refused: 'MultiPL-E\'s Coq tests are not judged by Crucible (no script assembly)' },
  v: { refused: 'V is not installable from Debian bookworm' },
  zig: { refused: 'Zig is not installable from Debian bookworm' },
  dfy: { refused: 'Dafny is not installable from Debian bookworm' },
  lisp: { refused: 'MultiPL-E\'s Common Lisp prompts load serapeum, which Debian bookworm does not package' },
  m: { refused: 'MultiPL-E\'s MATLAB tests use MATLAB-only dictionary() and string(missing), which GNU Octave lacks' },
  matlab: { refused: 'MultiPL-E\'s MATLAB tests use MATLAB-only dictionary() and string(missing), which GNU Octave lacks' },
};

/** MultiPL-E languages whose programs fail on any stderr (`eval_racket.py`, `eval_scala.py`, `eval_clj.py`). */
const STDERR_FAILS: ReadonlySet<string> = new Set(['racket', 'scala', 'clojure']);

/** The Crucible language of a MultiPL-E language name. @throws DatasetError for an unknown or refused one. */
function languageOf(path: string, line: number, name: string): string {
  const language = MULTIPL_E_LANGUAGES[name];
  if (language === undefined) {
    throw new DatasetError(path, line, 'language', `MultiPL-E language "${name}" has no script assembly in Crucible `
      + `(judged: ${Object.entries(MULTIPL_E_LANGUAGES).filter(([, v]) => typeof v === 'string').map(([k]) => k).join(', ')})`);
  }
  if (typeof language !== 'string') throw new DatasetError(path, line, 'language', `MultiPL-E language "${name}": ${language.refused}`);
  return language;
}

/**
 * MultiPL-E's Go prompt opens with `package <name>_test` and an import block (its tests run under `go test`);
 * here they become the setup, as `package main`, so that the Go assembly can add its imports and `main` (the
 * same as HumanEval-X's `test_setup`). @throws DatasetError when the prompt has no such head.
 */
function goSetup(path: string, line: number, prompt: string): { setup: string; prompt: string } {
  const head = /^\s*package\s+\w+\s*\n(\s*import\s*(?:\([^)]*\)|"[^"\n]*")\s*\n)?/.exec(prompt);
  if (head === null) throw new DatasetError(path, line, 'prompt', 'a MultiPL-E Go prompt must start with a package clause');
  return { setup: `package main\n${head[1] ?? ''}\n`, prompt: prompt.slice(head[0].length) };
}

function problemOf(path: string, line: number, r: MultiplERecord): ScriptProblem {
  const language = languageOf(path, line, r.language);
  const go = language === 'go' ? goSetup(path, line, r.prompt) : undefined;
  return {
    kind: 'script', taskId: r.name, language, prompt: go?.prompt ?? r.prompt, test: r.tests, dialect: 'multipl-e',
    ...(go === undefined ? {} : { setup: go.setup }),
    ...(STDERR_FAILS.has(language) ? { stderrFails: true } : {}),
    ...(r.stop_tokens === undefined ? {} : { stopTokens: r.stop_tokens }),
  };
}

/** The files a path names: itself, or a directory's `*.json`/`*.json.gz`/`*.jsonl(.gz)` in name order. */
async function filesOf(path: string): Promise<string[]> {
  if (!(await stat(path)).isDirectory()) return [path];
  const names = (await readdir(path)).filter((n) => /\.jsonl?(\.gz)?$/.test(n)).sort();
  const completions = names.filter((n) => !n.includes('.results.json'));
  return (completions.length > 0 ? completions : names).map((n) => join(path, n));
}

/** A directory's first problem file (format detection looks at it); any other path as it is. */
export async function firstMultiplEFile(path: string): Promise<string> {
  return (await filesOf(path))[0] ?? path;
}

/** One record of a file, with where it came from. */
interface Located {
  readonly file: string;
  /** 1-based line (JSONL), or 1 for a whole-document file. */
  readonly line: number;
  readonly record: MultiplERecord;
}

/** The records of one file: a whole JSON document (`.json`, `.json.gz`) or JSONL (module comment). */
async function* recordsOfFile(file: string): AsyncGenerator<Located> {
  if (!/\.json(\.gz)?$/.test(file)) {
    for await (const { line, value } of readJsonl(file, MultiplERecordSchema)) yield { file, line, record: value };
    return;
  }
  const text = await readDecompressedText(file);
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    // Not one document: MultiPL-E rows saved under a .json name, one per line.
    for await (const { line, value } of readJsonl(file, MultiplERecordSchema)) yield { file, line, record: value };
    return;
  }
  for (const element of Array.isArray(document) ? document : [document]) {
    const parsed = MultiplERecordSchema.safeParse(element);
    if (!parsed.success) throw datasetErrorFromZod(file, 1, parsed.error);
    yield { file, line: 1, record: parsed.data };
  }
}

/** A record with its task id (module comment: qualified by language when a path holds several languages). */
interface Identified extends Located {
  readonly taskId: string;
  readonly language: string;
}

/**
 * Every record under `path` with its task id, in file order. Records of the same item (same id, prompt, tests
 * and stop tokens) keep one id; the same id with a different item is an error.
 * @throws DatasetError for unreadable records, refused languages and conflicting items
 */
async function identifiedRecords(path: string): Promise<Identified[]> {
  const all: (Located & { language: string })[] = [];
  for (const file of await filesOf(path)) {
    for await (const located of recordsOfFile(file)) {
      all.push({ ...located, language: languageOf(located.file, located.line, located.record.language) });
    }
  }
  const qualify = new Set(all.map((r) => r.language)).size > 1;
  const first = new Map<string, Identified>();
  const out: Identified[] = [];
  for (const r of all) {
    const taskId = qualify ? `${r.language}/${r.record.name}` : r.record.name;
    const identified = { ...r, taskId };
    const earlier = first.get(taskId);
    if (earlier === undefined) first.set(taskId, identified);
    else if (!sameItem(earlier.record, r.record)) {
      throw new DatasetError(r.file, r.line, 'name', `duplicate name "${r.record.name}" with a different item than ${earlier.file}:${earlier.line}`);
    }
    out.push(identified);
  }
  return out;
}

/** Whether two records are the same item (prompt, tests and stop tokens). */
function sameItem(a: MultiplERecord, b: MultiplERecord): boolean {
  return a.prompt === b.prompt && a.tests === b.tests && JSON.stringify(a.stop_tokens ?? null) === JSON.stringify(b.stop_tokens ?? null);
}

/**
 * Read MultiPL-E problems (a JSONL file, a completion or results file, or a directory of them), one per distinct
 * task id (module comment).
 */
export async function readMultiplE(path: string): Promise<ScriptProblem[]> {
  const out: ScriptProblem[] = [];
  const seen = new Set<string>();
  for (const { file, line, record, taskId } of await identifiedRecords(path)) {
    if (seen.has(taskId)) continue;
    seen.add(taskId);
    out.push({ ...problemOf(file, line, record), taskId });
  }
  return out;
}

/** Whether a first record is a MultiPL-E row (`name`, `language`, `prompt`, `tests`). */
export function isMultiplERecord(keys: ReadonlySet<string>): boolean {
  return keys.has('name') && keys.has('language') && keys.has('prompt') && keys.has('tests');
}

/** The completion inside a results file's `program` (prompt + completion + "\n" + tests), or undefined. */
function completionOfProgram(program: string, r: MultiplERecord): string | undefined {
  const tail = `\n${r.tests}`;
  if (!program.startsWith(r.prompt) || !program.endsWith(tail) || program.length < r.prompt.length + tail.length) return undefined;
  return program.slice(r.prompt.length, program.length - tail.length);
}

/**
 * Read the samples of MultiPL-E completion or results files (a file or a directory of them), with the task ids
 * `readMultiplE` gives the same path; a task's indices continue across files.
 */
export async function readMultiplESamples(path: string): Promise<Sample[]> {
  const out: Sample[] = [];
  const next = new Map<string, number>();
  const indexOf = (taskId: string): number => {
    const index = next.get(taskId) ?? 0;
    next.set(taskId, index + 1);
    return index;
  };
  for (const { file, line, record, taskId } of await identifiedRecords(path)) {
    if (record.completions !== undefined) {
      for (const completion of record.completions) out.push({ taskId, index: indexOf(taskId), completion, line });
    } else if (record.results !== undefined) {
      for (const { program } of record.results) {
        const completion = completionOfProgram(program, record);
        out.push({ taskId, index: indexOf(taskId), line, ...(completion === undefined ? { solution: program } : { completion }) });
      }
    } else {
      throw new DatasetError(file, line, 'completions', 'a MultiPL-E samples file needs "completions" or "results"');
    }
  }
  return out;
}

/**
 * The one-program judging of `script` problems: how a problem's program is assembled in each language, from tables
 * of data (no per-language code elsewhere): HumanEval-X's (`./humaneval-x/one-program.ts`) and MultiPL-E's
 * (`./multipl-e/one-program.ts`, which extends HumanEval-X's). The program is
 * `setup + prologue + program + "\n" + rewritten test + epilogue`, where
 * - `setup` is the problem's own preamble (HumanEval-X Go's `test_setup`: `package main` and its imports);
 * - `program` is the prompt plus the completion (or a whole solution);
 * - the test text is trusted (it comes from the dataset) and may be rewritten by `testRewrites` (e.g. C++'s
 *   `int main(` renamed so that the epilogue's `main` runs the tests first);
 * - the epilogue is trusted code that runs after the tests and, only if they all ran and none failed, reads the
 *   per-run nonce from stdin and prints `SCRIPT_MARKER <nonce>` on a line of its own.
 * Python is not here: Python test code is judged by the `unit_test` kind in the Python judge harness, which
 * also stops a candidate's rigged `__eq__` (a same-process script cannot).
 * `{tests}` in an epilogue is replaced by the test's `func Test…(t *testing.T)` names as Go `InternalTest`s.
 * `{secret}` (in a prologue, epilogue or test rewrite) is replaced by random hex drawn per plan, for trusted names a
 * program cannot name in advance, where the language lets a later definition shadow any name it knows (Racket).
 * An assembly without `{secret}` yields the same source every time, so compiled programs stay cacheable.
 */

/** The line the epilogue prints, followed by a space and the run's nonce. */
export const SCRIPT_MARKER = 'CRUCIBLE-SCRIPT-TESTS-DONE';

/** One language's assembly. Strings are source text in that language. */
export interface ScriptAssembly {
  /** Placed after the problem's setup and before the program. */
  readonly prologue: string;
  /** Applied in order to the (trusted) test text: `[pattern, replacement]` as `String.prototype.replace` takes them. */
  readonly testRewrites: readonly (readonly [RegExp, string])[];
  /** Placed after the test; `{tests}` is replaced by the Go test list (see the module comment). */
  readonly epilogue: string;
  /**
   * Imports added when the program needs them (CodeGeeX's `IMPORT_HELPER`): `include_missing` puts each line the
   * program does not already contain before everything (C++); `import_used` imports each Go package that the
   * setup does not import and whose name followed by `.` occurs in the program as a word outside comments
   * (CodeGeeX tests the completion only, as a substring; here the prompt counts too, hence the word boundary —
   * `operand.` must not import `math/rand` — and comments out, as the prompt's docstring is prose).
   */
  readonly helpers?:
    | { readonly kind: 'include_missing'; readonly lines: readonly string[] }
    | { readonly kind: 'import_used'; readonly packages: readonly string[] };
}

/**
 * Rust's assertion macros, path-qualified in the tests (shared by HumanEval-X `rust-test` and MultiPL-E Rust): a
 * program's `macro_rules! assert_eq`, textually before the tests, would otherwise be the one they call.
 */
export const RUST_ASSERT_REWRITES: ScriptAssembly['testRewrites'] = [
  [/(?<![\w:])assert_eq!\s*\(/g, '::std::assert_eq!('],
  [/(?<![\w:])assert_ne!\s*\(/g, '::std::assert_ne!('],
  [/(?<![\w:])assert!\s*\(/g, '::std::assert!('],
];

/** Rust statements (4-space indented lines) that read the nonce from stdin and print the marker line. */
export const RUST_PRINT_MARKER: readonly string[] = [
  '    let mut crucible_nonce = ::std::string::String::new();',
  '    let _ = ::std::io::BufRead::read_line(&mut ::std::io::stdin().lock(), &mut crucible_nonce);',
  `    ::std::print!("\\n${SCRIPT_MARKER} {}\\n", crucible_nonce.trim());`,
];

/** Go `InternalTest` literals for each `func TestX(t *testing.T)` in `test`, in order, each followed by `, `. */
function goTests(test: string): string {
  return [...test.matchAll(/^func\s+(Test\w*)\s*\(\s*\w+\s+\*testing\.T\s*\)/gm)]
    .map((m) => `{Name: ${JSON.stringify(m[1])}, F: ${m[1]}}, `).join('');
}

/**
 * The program for `languageId` from its parts (see the module comment), with the assembly of `table` (HumanEval-X's
 * is `SCRIPT_ASSEMBLY` in `./humaneval-x/one-program.ts`; MultiPL-E's is `MULTIPL_E_SCRIPT_ASSEMBLY` in
 * `./multipl-e/one-program.ts`).
 * @throws Error when the language has no entry in `table` (callers check `acceptsLanguage` first).
 */
export function assembleScript(languageId: string,
  parts: { readonly setup: string; readonly program: string; readonly test: string; readonly secret?: string },
  table: Readonly<Record<string, ScriptAssembly>>): string {
  const assembly = table[languageId];
  if (assembly === undefined) throw new Error(`no script assembly for language "${languageId}"`);
  const secret = (text: string): string => text.replaceAll('{secret}', parts.secret ?? '');
  let test = parts.test;
  for (const [pattern, replacement] of assembly.testRewrites) test = test.replace(pattern, secret(replacement));
  const epilogue = secret(assembly.epilogue).replace('{tests}', goTests(parts.test));
  return `${head(assembly, parts)}${secret(assembly.prologue)}${parts.program}\n${test}${epilogue}`;
}

/** The setup with the helper imports the program needs (see `ScriptAssembly.helpers`): before it (C++), after it (Go). */
function head(assembly: ScriptAssembly, parts: { readonly setup: string; readonly program: string }): string {
  const helpers = assembly.helpers;
  if (helpers === undefined) return parts.setup;
  if (helpers.kind === 'include_missing') {
    const missing = helpers.lines.filter((line) => !parts.program.includes(line));
    // `using namespace std;` needs a standard header declared first: it goes after the includes.
    const ordered = [...missing.filter((l) => l.startsWith('#')), ...missing.filter((l) => !l.startsWith('#'))];
    return ordered.map((l) => `${l}\n`).join('') + parts.setup;
  }
  // Comments out first: the prompt's docstring says things like "a list of strings." in prose.
  const code = parts.program.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
  const used = helpers.packages.filter((pkg) => !parts.setup.includes(`"${pkg}"`)
    && new RegExp(`(?<![\\w.])${pkg.split('/').pop()!}\\.`).test(code));
  return used.length === 0 ? parts.setup : `${parts.setup}import (\n${used.map((pkg) => `\t"${pkg}"\n`).join('')})\n`;
}

/**
 * How a `script` problem's program is assembled in each language, as one table of data (no per-language code
 * elsewhere). The program is `setup + prologue + program + "\n" + rewritten test + epilogue`, where
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
 *
 * Facts followed (no code taken): CodeGeeX `codegeex/benchmark/execution.py` and `evaluate_humaneval_x.py`
 * (THUDM/CodeGeeX, Apache-2.0): HumanEval-X programs are `prompt + generation + test` per language; C++ with
 * g++ (we use the language's C++17 command), Java with `javac` + `java Main`, JavaScript with node (CodeGeeX fails
 * a program that writes anything to stderr, because `console.assert` only prints), Go as `go test` of
 * `test_setup + prompt(without its import) + generation + test` with testify. Go's `testing.Main` runs the listed
 * tests in order and exits 1 if one failed (`/usr/lib/go-1.19/src/testing/testing.go`).
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
 * JavaScript: `console.assert` only prints (Node), so the test's calls are rewritten to a trusted checker that
 * counts failures in a closure; the epilogue exits 1 after any failure, else prints the marker. The checker
 * keeps its own references to `fs.readFileSync` and `process.stdout.write` taken before the program runs.
 */
const JAVASCRIPT: ScriptAssembly = {
  prologue: [
    'const crucible_script_tests = (() => {',
    '  let failed = 0;',
    '  const readFileSync = require(\'fs\').readFileSync;',
    '  const write = process.stdout.write.bind(process.stdout);',
    '  const proc = process;',
    '  return Object.freeze({',
    '    check: (ok, ...message) => { if (!ok) { failed++; proc.stderr.write(\'Assertion failed\' + (message.length ? \': \' + message.join(\' \') : \'\') + \'\\n\'); } },',
    '    end: () => {',
    '      if (failed > 0) { proc.exitCode = 1; return; }',
    `      write('${SCRIPT_MARKER} ' + readFileSync(0, 'utf8').trim() + '\\n');`,
    '    },',
    '  });',
    '})();',
    '',
  ].join('\n'),
  testRewrites: [[/\bconsole\.assert\s*\(/g, 'crucible_script_tests.check(']],
  epilogue: '\ncrucible_script_tests.end();\n',
};

/**
 * C++: the test's `int main(` becomes `int crucible_tests_main(` with a `return 0;` before its last `}` (the
 * test's main falls off its end, which is defined for `main` only); macros the program could define to disarm
 * `assert` are undefined first (`assert.h` is included again by the test after `#undef NDEBUG`).
 */
const CPP: ScriptAssembly = {
  prologue: '',
  helpers: { kind: 'include_missing', lines: [
    'using namespace std;', '#include<stdlib.h>', '#include<algorithm>', '#include<math.h>', '#include<stdio.h>',
    '#include<vector>', '#include<string>', '#include<climits>', '#include<cstring>', '#include<iostream>', '#include<cassert>',
  ] },
  testRewrites: [
    [/^/, '\n#undef assert\n#undef __assert_fail\n#undef __assert\n#undef NDEBUG\n#undef main\n#undef crucible_tests_main\n'],
    [/\bint\s+main\s*\(\s*\)/, 'int crucible_tests_main()'],
    [/\}\s*$/, 'return 0;\n}\n'],
  ],
  epilogue: [
    '',
    '#include <cstdio>',
    'int main() {',
    '  crucible_tests_main();',
    '  char crucible_nonce[256] = {0};',
    '  if (std::fgets(crucible_nonce, sizeof crucible_nonce, stdin) == nullptr) return 3;',
    `  std::printf("${SCRIPT_MARKER} %s", crucible_nonce);`,
    '  std::fflush(stdout);',
    '  return 0;',
    '}',
    '',
  ].join('\n'),
};

/**
 * Java types the HumanEval-X tests name by simple name (counted over the 164 tests), imported one by one. A
 * single-type import and a top-level type of the same name in one compilation unit is a compile error (JLS 17
 * §7.5.1), so a program cannot shadow them with its own `Arrays` (whose `asList` could return an all-true list)
 * or `AssertionError`; an on-demand import (`java.util.*`, which the prompts use) would let it.
 */
const JAVA_PINNED_TYPES = [
  'java.lang.AssertionError', 'java.lang.Boolean', 'java.lang.Double', 'java.lang.Integer', 'java.lang.Math',
  'java.lang.Object', 'java.lang.String', 'java.lang.StringBuilder', 'java.lang.System',
  'java.util.ArrayList', 'java.util.Arrays', 'java.util.HashMap', 'java.util.List', 'java.util.Map',
  'java.util.Objects', 'java.util.Optional', 'java.util.Random', 'java.security.NoSuchAlgorithmException',
];

/**
 * Java: the test's types are pinned by single-type imports (above); the test's `public class Main` becomes
 * `class CrucibleTests`, and a new `Main` runs it, then prints the marker.
 */
const JAVA: ScriptAssembly = {
  prologue: JAVA_PINNED_TYPES.map((t) => `import ${t};\n`).join(''),
  testRewrites: [[/\bpublic\s+class\s+Main\b/, 'class CrucibleTests']],
  epilogue: [
    '',
    'public class Main {',
    '  public static void main(String[] args) throws Exception {',
    '    CrucibleTests.main(args);',
    '    byte[] nonce = new byte[256];',
    '    int n = java.lang.System.in.read(nonce);',
    `    java.lang.System.out.print("${SCRIPT_MARKER} " + new java.lang.String(nonce, 0, java.lang.Math.max(n, 0), "UTF-8"));`,
    '    java.lang.System.out.flush();',
    '  }',
    '}',
    '',
  ].join('\n'),
};

/**
 * Go: `testing.Main` runs the test's functions (testify's `assert` reports through `*testing.T`), then a last
 * test of ours prints the marker; the exit status is 1 when any test failed. The match function accepts every
 * name, so `-test.run` set by the program cannot select the marker test alone.
 */
const GO: ScriptAssembly = {
  helpers: { kind: 'import_used', packages: ['math', 'strings', 'fmt', 'strconv', 'time', 'bytes', 'regexp', 'sort', 'math/rand', 'crypto/md5'] },
  prologue: '\nimport (\n\tcrucible_os "os"\n\tcrucible_testing "testing"\n)\n\n',
  testRewrites: [],
  epilogue: [
    '',
    'func crucibleScriptEnd(t *crucible_testing.T) {',
    '\tnonce := make([]byte, 256)',
    '\tn, _ := crucible_os.Stdin.Read(nonce)',
    `\tcrucible_os.Stdout.Write(append([]byte("${SCRIPT_MARKER} "), nonce[:n]...))`,
    '}',
    '',
    'func main() {',
    '\tall := func(string, string) (bool, error) { return true, nil }',
    '\tcrucible_testing.Main(all, []crucible_testing.InternalTest{{tests}{Name: "CrucibleScriptEnd", F: crucibleScriptEnd}}, nil, nil)',
    '}',
    '',
  ].join('\n'),
};

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

/**
 * Rust (HumanEval-X, `cargo test`): the program is a test harness (`rust-test` compiles with `rustc --test`); a
 * last test of ours prints the marker (the harness exits 101 when any test failed, whatever ran after it). The
 * tests' assertions are path-qualified (`RUST_ASSERT_REWRITES`).
 */
const RUST_TEST: ScriptAssembly = {
  prologue: '',
  testRewrites: RUST_ASSERT_REWRITES,
  epilogue: ['', '#[test]', 'fn zzzz_crucible_script_end() {', ...RUST_PRINT_MARKER, '}', ''].join('\n'),
};

/** Assembly by language id (ids of `languages/*.yaml`). A language missing here cannot judge `script` problems. */
export const SCRIPT_ASSEMBLY: Readonly<Record<string, ScriptAssembly>> = {
  javascript: JAVASCRIPT,
  cpp: CPP,
  cpp11: CPP,
  java: JAVA,
  'rust-test': RUST_TEST,
  go: GO,
};

/** Go `InternalTest` literals for each `func TestX(t *testing.T)` in `test`, in order, each followed by `, `. */
function goTests(test: string): string {
  return [...test.matchAll(/^func\s+(Test\w*)\s*\(\s*\w+\s+\*testing\.T\s*\)/gm)]
    .map((m) => `{Name: ${JSON.stringify(m[1])}, F: ${m[1]}}, `).join('');
}

/**
 * The program for `languageId` from its parts (see the module comment), with the assembly of `table` (HumanEval-X's
 * by default; MultiPL-E's is `MULTIPL_E_SCRIPT_ASSEMBLY` in `./script.ts`).
 * @throws Error when the language has no entry in `SCRIPT_ASSEMBLY` (callers check `acceptsLanguage` first).
 */
export function assembleScript(languageId: string,
  parts: { readonly setup: string; readonly program: string; readonly test: string; readonly secret?: string },
  table: Readonly<Record<string, ScriptAssembly>> = SCRIPT_ASSEMBLY): string {
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

/**
 * HumanEval-X's one-program assembly table (see `../one-program.ts` for how an assembly becomes a program): the
 * languages whose tests run in the candidate's program, for the languages `./index.ts` does not replay, and the
 * base MultiPL-E's table extends.
 *
 * Facts followed (no code taken): CodeGeeX `codegeex/benchmark/execution.py` and `evaluate_humaneval_x.py`
 * (THUDM/CodeGeeX, Apache-2.0): HumanEval-X programs are `prompt + generation + test` per language; C++ with
 * g++ (we use the language's C++17 command), Java with `javac` + `java Main`, JavaScript with node (CodeGeeX fails
 * a program that writes anything to stderr, because `console.assert` only prints), Go as `go test` of
 * `test_setup + prompt(without its import) + generation + test` with testify. Go's `testing.Main` runs the listed
 * tests in order and exits 1 if one failed (`/usr/lib/go-1.19/src/testing/testing.go`).
 */
import { assembleScript, RUST_ASSERT_REWRITES, RUST_PRINT_MARKER, SCRIPT_MARKER, type ScriptAssembly } from '../one-program.js';

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

/** The program for `languageId` assembled with HumanEval-X's table (`assembleScript` with `SCRIPT_ASSEMBLY`). */
export function assembleHumanEvalX(languageId: string,
  parts: { readonly setup: string; readonly program: string; readonly test: string; readonly secret?: string }): string {
  return assembleScript(languageId, parts, SCRIPT_ASSEMBLY);
}

/**
 * The one-program fallback of MultiPL-E `script` problems: used only where split judging (`../split.ts`,
 * the language modules of this folder) has no module for the language or cannot read a problem's tests as cases.
 *
 * How a MultiPL-E `script` problem's program is assembled per language (the `multipl-e` dialect of
 * `../one-program.ts`; same `ScriptAssembly` shape, same pass rule). MultiPL-E's tests are the translator's
 * test suite appended to prompt + completion (nuprl/MultiPL-E `dataset_builder/humaneval_to_<lang>.py`,
 * `test_suite_prefix_lines` / `deep_equality` / `test_suite_suffix_lines`), and the program's exit status decides
 * (`evaluation/src/eval_<lang>.py`), except Racket, Scala and Clojure, where MultiPL-E also fails a program that
 * wrote to stderr (rackunit's top-level checks only print) — that rule is on the problem
 * (`ScriptProblem.stderrFails`, set by the reader, `src/formats/multipl-e.ts`).
 *
 * Each entry makes the end of the tests observable: the test's own final call (or `main`) is renamed or kept,
 * then trusted closing code prints `SCRIPT_MARKER <nonce>` on a line of its own (a newline first: Perl's tests
 * print `ok!` without one) after reading the nonce from stdin. Where a language lets the program shadow what the
 * tests call, the tests' calls are path-qualified so that the language's own resolution rules refuse the
 * shadow: Rust `::std::assert_eq!`, Scala `_root_.scala.Predef.assert`, Kotlin `kotlin.assert`, R `base::`,
 * C# a trusted checker replacing `Debug.Assert` (which only prints under Mono). What a same-process script in
 * Lua, Ruby, Perl, R, Bash, JavaScript or TypeScript can still do against its test library is in
 * docs/SECURITY.md ("Script problems").
 *
 * Facts followed (no code taken): nuprl/MultiPL-E at 0231fc9 (BSD 3-Clause with a machine-learning-training restriction, as its LICENSE says):
 * Lua `os.exit(lu.LuaUnit.run())`; Ruby test-unit (autorun at exit); PHP `throw new Exception("Test failed!")`;
 * Perl `exit 1` after `eq_deeply`; R `stopifnot(isTRUE(all.equal(...)))`; Bash `set -e` + `[[ ... ]]`;
 * Racket `(check-within a b 0.001)` in `(test-humaneval)`; D `unittest` blocks run by `-unittest -main`;
 * C# `Debug.Assert` in `Problem.Main`; Scala `assert` in `object Problem`'s `main`; Kotlin `assert` in `main`
 * (run with `java -ea`); Java `assert` in `class Problem`'s `main` (`java -ea`); Rust `assert_eq!` in `main`;
 * JavaScript/TypeScript `assert.deepEqual` of `node:assert` in `test()`; C++ `assert` in `main`; Ada `pragma Assert`
 * in `procedure Main` after package Placeholder, split into units by `gnatchop -w` and built by `gnatmake -gnata
 * -gnat2022` (`eval_adb.py`, matsuolab/MultiPL-E fork at 41193bd).
 */
import { RUST_ASSERT_REWRITES, RUST_PRINT_MARKER, SCRIPT_MARKER, type ScriptAssembly } from '../one-program.js';
import { SCRIPT_ASSEMBLY } from '../humaneval-x/one-program.js';

/** Lua: the test's `os.exit(lu.LuaUnit.run())` becomes a status the closing code checks before the marker. */
const LUA: ScriptAssembly = {
  prologue: '',
  testRewrites: [[/os\.exit\(\s*lu\.LuaUnit\.run\(\s*\)\s*\)\s*$/, 'local crucible_status = lu.LuaUnit.run()\n']],
  epilogue: [
    '',
    'if crucible_status ~= 0 then os.exit(1) end',
    `io.write('\\n${SCRIPT_MARKER} ' .. (io.read('l') or '') .. '\\n')`,
    'io.stdout:flush()',
    'os.exit(0)',
    '',
  ].join('\n'),
};

/**
 * Ruby: test-unit runs its tests in an `at_exit` hook; the closing code runs them itself (turning the hook off),
 * exits 1 on a failure, else prints the marker. An early `exit` still runs the hook (and no marker).
 */
const RUBY: ScriptAssembly = {
  prologue: '',
  testRewrites: [],
  epilogue: [
    '',
    'Test::Unit::AutoRunner.need_auto_run = false',
    'exit(1) unless Test::Unit::AutoRunner.run',
    `$stdout.write("\\n${SCRIPT_MARKER} " + $stdin.gets.to_s.chomp + "\\n")`,
    '$stdout.flush',
    '',
  ].join('\n'),
};

/** PHP: a failed test throws (exit status 255); the marker follows `test();`. Functions cannot be redefined. */
const PHP: ScriptAssembly = {
  prologue: '',
  testRewrites: [],
  epilogue: `\necho "\\n${SCRIPT_MARKER} " . trim((string) fgets(STDIN)) . "\\n";\n`,
};

/** Perl: a failed test calls `exit 1`; the marker follows `testhumaneval();`. */
const PERL: ScriptAssembly = {
  prologue: '',
  testRewrites: [],
  epilogue: `\nmy $crucible_nonce = <STDIN>;\nchomp $crucible_nonce;\nprint "\\n${SCRIPT_MARKER} $crucible_nonce\\n";\n`,
};

/** R: `stopifnot` stops Rscript with status 1; the tests' base functions are called through `base::`. */
const R: ScriptAssembly = {
  prologue: '',
  testRewrites: [
    [/(?<![\w.:])stopifnot\(/g, 'base::stopifnot('],
    [/(?<![\w.:])isTRUE\(/g, 'base::isTRUE('],
    [/(?<![\w.:])all\.equal\(/g, 'base::all.equal('],
  ],
  epilogue: `\nbase::cat("\\n${SCRIPT_MARKER} ", base::readLines(base::file("stdin"), n = 1L), "\\n", sep = "")\n`,
};

/** Bash: `set -e` stops at the first failed `[[ ... ]]`; the marker follows `run_test`. */
const BASH: ScriptAssembly = {
  prologue: '',
  testRewrites: [],
  epilogue: `\nread -r crucible_nonce\nprintf '\\n%s %s\\n' '${SCRIPT_MARKER}' "$crucible_nonce"\n`,
};

/**
 * Racket: the prompt's `#lang racket` must come first, so everything trusted goes where the test's final
 * `(test-humaneval)` was. A module-level definition shadows any imported name in Racket, so the trusted names
 * carry the per-plan `{secret}`: the tests' `check-within` becomes rackunit's under a secret name, rackunit's
 * `current-check-handler` (under a secret name) counts failures (a top-level check only prints), and the
 * closing code, written with `racket/base` under a secret prefix, exits 1 after any failure, else prints the
 * marker. Redefining core syntax for the whole module (`#%app`) stays possible (docs/SECURITY.md).
 */
const RACKET: ScriptAssembly = {
  prologue: '',
  testRewrites: [
    [/(?<![\w-])check-within(?![\w-])/g, 'crucible-{secret}-check-within'],
    [/^/, '(require (prefix-in crucible-{secret}: racket/base)\n'
      + '         (only-in rackunit [check-within crucible-{secret}-check-within] [current-check-handler crucible-{secret}-handler]))\n'],
    [/\(test-humaneval\)\s*$/, [
      '(crucible-{secret}:define crucible-{secret}-failures 0)',
      '(crucible-{secret}:parameterize ([crucible-{secret}-handler',
      '                (crucible-{secret}:lambda (e)',
      '                  (crucible-{secret}:set! crucible-{secret}-failures (crucible-{secret}:add1 crucible-{secret}-failures))',
      '                  (crucible-{secret}:eprintf "check failed: ~a\\n" (crucible-{secret}:if (crucible-{secret}:exn? e) (crucible-{secret}:exn-message e) e)))])',
      '  (test-humaneval))',
      '(crucible-{secret}:if (crucible-{secret}:zero? crucible-{secret}-failures)',
      `  (crucible-{secret}:begin (crucible-{secret}:printf "\\n${SCRIPT_MARKER} ~a\\n" (crucible-{secret}:read-line)) (crucible-{secret}:flush-output) (crucible-{secret}:exit 0))`,
      '  (crucible-{secret}:exit 1))',
      '',
    ].join('\n')],
  ],
  epilogue: '',
};

/** D: the `unittest` blocks run before `main` (`--DRT-testmode=run-main`; a failure exits 1); `main` prints the marker. */
const D: ScriptAssembly = {
  prologue: '',
  testRewrites: [[/void\s+main\s*\(\s*\)\s*\{\s*\}\s*$/, '']],
  epilogue: [
    '',
    'void main() {',
    '    import std.stdio : crucible_readln = readln, crucible_write = write, crucible_stdout = stdout;',
    `    crucible_write("\\n${SCRIPT_MARKER} ", crucible_readln());`,
    '    crucible_stdout.flush();',
    '}',
    '',
  ].join('\n'),
};

/** Rust: the test's `main` is renamed; assertions are path-qualified (a program's `macro_rules! assert_eq` cannot shadow them). */
const RUST: ScriptAssembly = {
  prologue: '',
  testRewrites: [[/\bfn\s+main\s*\(\s*\)/, 'fn crucible_tests_main()'], ...RUST_ASSERT_REWRITES],
  epilogue: ['', 'fn main() {', '    crucible_tests_main();', ...RUST_PRINT_MARKER, '}', ''].join('\n'),
};

/**
 * C#: Mono's `Debug.Assert` only prints; the tests' calls go to a trusted checker (fully qualified, so a
 * program's own `Debug` class is not what runs), and the test's `Main` is renamed; a new entry point runs it,
 * exits 1 after any failure, else prints the marker.
 */
const CSHARP: ScriptAssembly = {
  prologue: '',
  testRewrites: [
    [/(?<![\w.])(?:System\.Diagnostics\.)?Debug\.Assert\s*\(/g, 'global::CrucibleScriptChecks.Check('],
    [/\bpublic\s+static\s+void\s+Main\s*\(\s*string\s*\[\s*\]\s*args\s*\)/, 'public static void CrucibleTestsMain(string[] args)'],
  ],
  epilogue: [
    '',
    'static class CrucibleScriptChecks {',
    '    private static int failed = 0;',
    '    public static void Check(bool ok) {',
    '        if (!ok) { failed++; global::System.Console.Error.WriteLine("Assertion failed"); }',
    '    }',
    '    public static void Main(string[] args) {',
    '        global::Problem.CrucibleTestsMain(args);',
    '        if (failed > 0) global::System.Environment.Exit(1);',
    `        global::System.Console.Write("\\n${SCRIPT_MARKER} " + global::System.Console.ReadLine() + "\\n");`,
    '        global::System.Console.Out.Flush();',
    '    }',
    '}',
    '',
  ].join('\n'),
};

/** Scala: `Predef.assert` path-qualified (a program's own `assert` in `object Problem` would shadow it); a new `Main` runs `Problem`'s tests. */
const SCALA: ScriptAssembly = {
  prologue: '',
  testRewrites: [
    [/(?<![\w.])assert\s*\(/g, '_root_.scala.Predef.assert('],
    [/\bdef\s+main\s*\(\s*args\s*:\s*Array\[String\]\s*\)/, 'def crucibleTestsMain(args: Array[String])'],
  ],
  epilogue: [
    '',
    'object Main {',
    '    def main(args: Array[String]): Unit = {',
    '        Problem.crucibleTestsMain(args)',
    `        _root_.scala.Predef.print("\\n${SCRIPT_MARKER} " + _root_.scala.io.StdIn.readLine() + "\\n")`,
    '        _root_.java.lang.System.out.flush()',
    '    }',
    '}',
    '',
  ].join('\n'),
};

/** Kotlin: `kotlin.assert` path-qualified (a program's top-level `fun assert` would win over the default import); the test's `main` renamed. */
const KOTLIN: ScriptAssembly = {
  prologue: '',
  testRewrites: [
    [/(?<![\w.])assert\s*\(/g, 'kotlin.assert('],
    [/\bfun\s+main\s*\(\s*\)/, 'fun crucibleTestsMain()'],
  ],
  epilogue: [
    '',
    'fun main() {',
    '    crucibleTestsMain()',
    `    kotlin.io.print("\\n${SCRIPT_MARKER} " + kotlin.io.readLine() + "\\n")`,
    '    java.lang.System.out.flush()',
    '}',
    '',
  ].join('\n'),
};

/** Java (MultiPL-E's `class Problem` with its own `main`): the test's `main` renamed; a new public `Main` runs it. */
const JAVA: ScriptAssembly = {
  prologue: '',
  testRewrites: [[/\bpublic\s+static\s+void\s+main\s*\(\s*String\s*\[\s*\]\s*args\s*\)/, 'public static void crucibleTestsMain(String[] args)']],
  epilogue: [
    '',
    'public class Main {',
    '    public static void main(String[] args) throws java.lang.Exception {',
    '        Problem.crucibleTestsMain(args);',
    '        java.lang.String nonce = new java.io.BufferedReader(new java.io.InputStreamReader(java.lang.System.in)).readLine();',
    `        java.lang.System.out.print("\\n${SCRIPT_MARKER} " + nonce + "\\n");`,
    '        java.lang.System.out.flush();',
    '    }',
    '}',
    '',
  ].join('\n'),
};

/**
 * OCaml: the tests are a top-level `let assertions = ... (assert ...)` evaluated at start-up (a failed `assert`
 * raises, exit 2); a last top-level `let () =` prints the marker.
 */
const OCAML: ScriptAssembly = {
  prologue: '',
  testRewrites: [],
  epilogue: `\nlet () = print_string ("\\n${SCRIPT_MARKER} " ^ (try input_line stdin with End_of_file -> "") ^ "\\n")\n`,
};

/**
 * Haskell: the test's `main` (`if ... then pure () else error ...`) is renamed; our `main` runs it, then prints
 * the marker. A program cannot import anything after its first declaration, and a top-level `(==)` or `error`
 * of its own is an ambiguous occurrence with the Prelude's (a compile error).
 */
const HASKELL: ScriptAssembly = {
  prologue: '',
  testRewrites: [
    [/^main\s*::\s*IO\s*\(\)\s*$/m, 'crucibleTestsMain :: IO ()'],
    [/^main\s*=\s*do/m, 'crucibleTestsMain = do'],
  ],
  epilogue: [
    '',
    'main :: IO ()',
    `main = crucibleTestsMain >> getLine >>= \\crucibleNonce -> putStrLn ("\\n${SCRIPT_MARKER} " ++ crucibleNonce)`,
    '',
  ].join('\n'),
};

/**
 * Elixir: ExUnit's autorun (at exit) is turned off; the closing code runs the suite itself, halts with 1 after a
 * failure, else prints the marker. An early `System.halt(0)` leaves no marker.
 */
const ELIXIR: ScriptAssembly = {
  prologue: '',
  testRewrites: [[/ExUnit\.start\(\s*\)/, 'ExUnit.start(autorun: false)']],
  epilogue: [
    '',
    'crucible_result = ExUnit.run()',
    'if crucible_result.failures > 0, do: System.halt(1)',
    `IO.write("\\n${SCRIPT_MARKER} " <> String.trim(to_string(IO.read(:stdio, :line))) <> "\\n")`,
    '',
  ].join('\n'),
};

/**
 * Clojure: clojure.test's `run-test` only reports; the final call becomes a check of its summary (exit 1 after a
 * failure, else the marker). The tests' `is` and `=` are namespace-qualified: a program's own `(defn = ...)`
 * would otherwise be the one they call.
 */
const CLOJURE: ScriptAssembly = {
  prologue: '',
  testRewrites: [
    [/\(is \(= /g, '(clojure.test/is (clojure.core/= '],
    [/\(run-test test-humaneval\)\s*$/, [
      '(if (clojure.test/successful? (clojure.test/run-test test-humaneval))',
      `  (do (clojure.core/print (clojure.core/str "\\n${SCRIPT_MARKER} " (clojure.core/read-line) "\\n")) (clojure.core/flush) (System/exit 0))`,
      '  (System/exit 1))',
      '',
    ].join('\n')],
  ],
  epilogue: '',
};

/**
 * Scheme (Guile, SRFI-64): `test-end` only prints the summary (MultiPL-E reads it from stdout); the runner's
 * failure count, taken just before `test-end`, decides: exit 1 after a failure, else the marker.
 */
const SCHEME: ScriptAssembly = {
  prologue: '',
  testRewrites: [[/\(test-end\)\s*$/, [
    '(define crucible-failures ((@ (srfi srfi-64) test-runner-fail-count) ((@ (srfi srfi-64) test-runner-current))))',
    '(test-end)',
    '(if ((@ (guile) zero?) crucible-failures)',
    `  (begin ((@ (guile) display) "\\n${SCRIPT_MARKER} ") ((@ (guile) display) ((@ (ice-9 rdelim) read-line))) ((@ (guile) newline)) ((@ (guile) exit) 0))`,
    '  ((@ (guile) exit) 1))',
    '',
  ].join('\n')]],
  epilogue: '',
};

/**
 * Go (MultiPL-E's `go_test.go`): HumanEval-X's assembly (`testing.Main` runs the `Test…` functions, a last test
 * prints the marker) without its helper imports: MultiPL-E compiles the prompt's own import block only. The
 * reader turns the prompt's `package <name>_test` and import block into the setup (`package main`).
 */
const { helpers: _goHelpers, ...GO } = SCRIPT_ASSEMBLY.go!;

/**
 * C++ (MultiPL-E, judged as one program only where split judging cannot read the tests: the three problems
 * returning one of the translator's unions): HumanEval-X's assembly without CodeGeeX's helper lines (MultiPL-E's
 * prompts include `<bits/stdc++.h>` and write `std::`; a `using namespace std;` of ours would make entry points
 * such as `exchange` ambiguous), and `<cassert>` included again after `assert` is undefined (MultiPL-E's tests,
 * unlike HumanEval-X's, do not include it themselves).
 */
const { helpers: _cppHelpers, ...CPP_BASE } = SCRIPT_ASSEMBLY.cpp!;
const CPP: ScriptAssembly = {
  ...CPP_BASE,
  testRewrites: [[/^/, '\n#undef assert\n#undef __assert_fail\n#undef __assert\n#undef NDEBUG\n#include <cassert>\n#undef main\n#undef crucible_tests_main\n'],
    ...CPP_BASE.testRewrites.slice(1)],
};

/**
 * Ada (MultiPL-E's `adb`: package Placeholder's spec and body, then `procedure Main` whose `pragma Assert`s raise
 * `Assert_Failure` — exit 1 — on a failed test; the language's compile splits the units with gnatchop): the
 * closing code, at the end of `Main`'s statements, reads the nonce and prints the marker, through
 * `Standard.Ada.Text_IO` (withed for `Main`). A program's own `"="` cannot reach the tests' `=` on Integer, Float,
 * Boolean or String (the predefined operators of package Standard are directly visible; a use-visible homograph
 * is hidden), but one declared beside a record type of a Placeholder spec given again after the prompt's (gnatchop
 * keeps the last unit of a name) would be primitive, hence what the tests call: only split judging stops that.
 */
const ADA: ScriptAssembly = {
  prologue: '',
  testRewrites: [
    [/^procedure Main is\b/m, 'with Ada.Text_IO;\nprocedure Main is'],
    [/^end Main;\s*$/m, [
      '   declare',
      '      Crucible_Nonce : constant Standard.String := Standard.Ada.Text_IO.Get_Line;',
      '   begin',
      '      Standard.Ada.Text_IO.New_Line;',
      `      Standard.Ada.Text_IO.Put ("${SCRIPT_MARKER} ");`,
      '      Standard.Ada.Text_IO.Put_Line (Crucible_Nonce);',
      '      Standard.Ada.Text_IO.Flush;',
      '   end;',
      'end Main;',
      '',
    ].join('\n')],
  ],
  epilogue: '',
};

/**
 * MultiPL-E assembly by Crucible language id. C++ and JavaScript share HumanEval-X's entries (same test shape:
 * `int main` with `assert`; `node:assert` calls that throw); TypeScript is JavaScript after transpiling.
 */
export const MULTIPL_E_ASSEMBLY: Readonly<Record<string, ScriptAssembly>> = {
  lua: LUA,
  ruby: RUBY,
  php: PHP,
  perl: PERL,
  r: R,
  bash: BASH,
  racket: RACKET,
  d: D,
  rust: RUST,
  csharp: CSHARP,
  scala: SCALA,
  kotlin: KOTLIN,
  java: JAVA,
  ocaml: OCAML,
  haskell: HASKELL,
  elixir: ELIXIR,
  clojure: CLOJURE,
  scheme: SCHEME,
  go: GO,
  cpp: CPP,
  ada: ADA,
};

/** MultiPL-E's assembly table: its own entries, else HumanEval-X's (C++, JavaScript, TypeScript as JavaScript, Go). */
export const MULTIPL_E_SCRIPT_ASSEMBLY: Readonly<Record<string, ScriptAssembly>> = {
  ...SCRIPT_ASSEMBLY, typescript: SCRIPT_ASSEMBLY.javascript!, ...MULTIPL_E_ASSEMBLY,
};

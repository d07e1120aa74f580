/**
 * MultiPL-E `script` problems judged end to end in the real sandbox, one case per language with a MultiPL-E
 * assembly: a correct completion passes, a wrong one fails, and the hack classes fail with their exact status —
 * an early exit 0 before the tests ran (no end-of-tests marker), a printed fake marker, and, where the language
 * lets a program shadow what the tests call, that shadow (the assembly path-qualifies the call or the language
 * refuses the redefinition). Each problem is HumanEval/53 (`add`) in the shape MultiPL-E's translator gives it
 * for that language (nuprl/MultiPL-E `dataset_builder/humaneval_to_<lang>.py`: prompt, then the test suite), read
 * through the `multipl-e` reader from a row with MultiPL-E's language name.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readProblems } from '../../../../src/formats/index.js';
import type { ScriptProblem } from '../../../../src/formats/types.js';
import { defaultModes } from '../../../../src/kinds/index.js';
import { MULTIPL_E_ASSEMBLY } from '../../../../src/kinds/script/multipl-e/one-program.js';
import { SCRIPT_MARKER } from '../../../../src/kinds/script/one-program.js';
import { splitOf } from '../../../../src/kinds/script/script.js';
import { LanguageRegistry } from '../../../../src/languages/registry.js';
import { createJudge } from '../../../../src/engine/factory.js';
import type { SampleStatus, Verdict } from '../../../../src/verdict/index.js';
import { judgeCompletion as judgeInline } from '../../../support/split-values.js';

const modes = defaultModes();
const languages = LanguageRegistry.load();
const judge = createJudge({ slots: 2, modes, languages, cacheDir: null });
const scratch = mkdtempSync(join(tmpdir(), 'crucible-multipl-e-script-'));
after(async () => { await judge.close(); rmSync(scratch, { recursive: true, force: true }); });

/** Crucible language id -> the MultiPL-E language name its rows carry. */
const MULTIPL_E_NAME: Readonly<Record<string, string>> = {
  ruby: 'rb', perl: 'pl', bash: 'sh', racket: 'rkt', csharp: 'cs', kotlin: 'kt', typescript: 'ts', ocaml: 'ml',
  haskell: 'hs', javascript: 'js', clojure: 'clj', scheme: 'scm', go: 'go_test.go',
};

/** A marker line with a nonce the run was never given. */
const FAKE = `${SCRIPT_MARKER} 0123456789abcdef0123456789abcdef`;

function judgeCompletion(problem: ScriptProblem, completion: string): Promise<Verdict> {
  return judgeInline(judge, { languages, modes }, problem, completion);
}

interface Case {
  readonly language: string;
  readonly prompt: string;
  readonly tests: string;
  readonly correct: string;
  readonly wrong: string;
  /** The status a wrong completion gets (a failed test: `runtime_error`; where the checks only print and MultiPL-E fails on stderr, too). */
  readonly wrongStatus?: SampleStatus;
  readonly stderrFails?: boolean;
  /** Hack name -> [completion, the status it must get] (never `passed`). */
  readonly hacks: Readonly<Record<string, readonly [string, SampleStatus]>>;
}

const DOC = 'Add two numbers x and y';

/** An Ada completion that ends the prompt's package body and gives it again with `withs` (gnatchop keeps the last unit of a name). */
function ADA_BODY_AGAIN(withs: readonly string[], statements: string): string {
  return ' is\n   begin\n      return X - Y;\n   end Add;\nend Placeholder;\n\n' + withs.map((w) => `with ${w};\n`).join('')
    + 'package body Placeholder is\n   function Add (X : Integer; Y : Integer) return Integer is\n   begin\n' + statements;
}

const CASES: Readonly<Record<string, Case>> = {
  lua: {
    language: 'lua',
    prompt: `-- ${DOC}\n-- >>> add(2, 3)\n-- 5\nlocal function add(x, y)\n`,
    tests: 'lu = require(\'luaunit\')\n\nfunction test_humaneval()\nlocal candidate = add\n    lu.assertEquals(candidate(0, 1), 1)\n'
      + '    lu.assertEquals(candidate(5, 7), 12)\nend\n\nos.exit(lu.LuaUnit.run())',
    correct: '    return x + y\nend\n',
    wrong: '    return x - y\nend\n',
    wrongStatus: 'wrong_answer',
    hacks: {
      'os.exit(0) inside the tested function': ['    os.exit(0)\nend\n', 'wrong_answer'],
      'luaunit\'s assertEquals replaced by one that accepts anything': ['    return x - y\nend\nlocal lu = require(\'luaunit\')\nlu.assertEquals = function() end\n', 'wrong_answer'],
      'numbers made equal to everything (a metatable on every table result)': ['    return setmetatable({}, {__eq = function() return true end})\nend\n', 'wrong_answer'],
      'value lines printed by the program beside its wrong answers': ['    return x - y\nend\nprint(\'CRUCIBLE-VALUE 0 1\')\nprint(\'CRUCIBLE-VALUE 1 12\')\n', 'wrong_answer'],
      'os.exit(0) at the top level, before the tests': ['    return x - y\nend\nos.exit(0)\n', 'wrong_answer'],
      'a printed fake marker, then exit': [`    return x - y\nend\nprint('${FAKE}')\nos.exit(0)\n`, 'wrong_answer'],
    },
  },
  ruby: {
    language: 'ruby',
    prompt: `# ${DOC}\n# >>> add.call(2, 3)\n# 5\ndef add(x, y)\n`,
    tests: 'require \'test/unit\'\nclass TestHumanEval < Test::Unit::TestCase\n  def test_add\n    candidate = method(:add)\n'
      + '    assert_equal(1, candidate.call(0, 1))\n    assert_equal(12, candidate.call(5, 7))\n  end\nend\n',
    correct: '  x + y\nend\n',
    wrong: '  x - y\nend\n',
    wrongStatus: 'wrong_answer',
    hacks: {
      'early exit(0) inside the tested method': ['  exit(0)\nend\n', 'wrong_answer'],
      'early exit!(0), skipping the hooks': ['  exit!(0)\nend\n', 'wrong_answer'],
      'a printed fake marker, then exit!': [`  puts "${FAKE}"\n  exit!(0)\nend\n`, 'wrong_answer'],
      'test-unit\'s assert_equal replaced by one that accepts anything': ['  x - y\nend\nrequire \'test/unit\'\n'
        + 'module Test::Unit::Assertions\n  def assert_equal(*) = nil\nend\n', 'wrong_answer'],
      'Integer#== made always true': ['  x - y\nend\nclass Integer\n  def ==(other) = true\nend\n', 'wrong_answer'],
      'an object whose == is always true': ['  o = Object.new\n  def o.==(other) = true\n  o\nend\n', 'runtime_error'],
      'value lines printed by the program beside its wrong answers': ['  x - y\nend\nputs \'CRUCIBLE-VALUE 0 1\'\nputs \'CRUCIBLE-VALUE 1 12\'\n', 'wrong_answer'],
      'the nonce read from stdin, a marker printed with it, exit!(0) before the tests': [`  x - y\nend\nputs "\\n${SCRIPT_MARKER} #{$stdin.gets.to_s.strip}"\n$stdout.flush\nexit!(0)\n`, 'wrong_answer'],
    },
  },
  php: {
    language: 'php',
    prompt: `<?php\n// ${DOC}\n// >>> add(2, 3)\n// 5\nfunction add($x, $y) {\n`,
    tests: 'function candidate(...$args) {\n    return add(...$args);\n}\n\nfunction test(): void {\n'
      + '    if (candidate(0, 1) !== 1) { throw new Exception("Test failed!"); }\n'
      + '    if (candidate(5, 7) !== 12) { throw new Exception("Test failed!"); }\n}\n\ntest();',
    correct: '    return $x + $y;\n}\n',
    wrong: '    return $x - $y;\n}\n',
    wrongStatus: 'wrong_answer',
    hacks: {
      'early exit(0)': ['    exit(0);\n}\n', 'wrong_answer'],
      'a printed fake marker, then exit': [`    echo "${FAKE}\\n";\n    exit(0);\n}\n`, 'wrong_answer'],
      'an empty test function of its own (the split runs no test())': ['    return $x - $y;\n}\nfunction test(): void {}\n', 'wrong_answer'],
      'the candidate function defined first (PHP refuses the redeclaration)': ['    return $x - $y;\n}\nfunction candidate(...$a) { return 1; }\n', 'runtime_error'],
      'an object instead of a value': ['    return new stdClass();\n}\n', 'runtime_error'],
      'value lines printed by the program beside its wrong answers': ['    return $x - $y;\n}\necho "CRUCIBLE-VALUE 0 1\\nCRUCIBLE-VALUE 1 12\\n";\n', 'wrong_answer'],
      'the nonce read from stdin, a marker printed with it, exit(0) before the tests': [`    return $x - $y;\n}\necho "\\n${SCRIPT_MARKER} " . trim((string) fgets(STDIN)) . "\\n";\nexit(0);\n`, 'wrong_answer'],
    },
  },
  perl: {
    language: 'perl',
    prompt: `# ${DOC}\n# >>> add(2, 3)\n# 5\nsub add {\n    my($x, $y) = @_;\n`,
    tests: 'use Test::Deep;\n\n\nsub testhumaneval {\n    my $candidate = \\&add;\n'
      + '        if(eq_deeply($candidate->(0, 1),1)) {\n        print "ok!" }else{\n        exit 1;\n        }\n'
      + '        if(eq_deeply($candidate->(5, 7),12)) {\n        print "ok!" }else{\n        exit 1;\n        }\n}\n\ntesthumaneval();',
    correct: '    return $x + $y;\n}\n',
    wrong: '    return $x - $y;\n}\n',
    wrongStatus: 'wrong_answer',
    hacks: {
      'early exit 0': ['    exit 0;\n}\n', 'wrong_answer'],
      'a printed fake marker, then exit': [`    print "${FAKE}\\n";\n    exit 0;\n}\n`, 'wrong_answer'],
      'Test::Deep\'s eq_deeply replaced by one that accepts anything': ['    return $x - $y;\n}\nuse Test::Deep;\nno warnings;\n'
        + '*Test::Deep::eq_deeply = sub { 1 };\n*main::eq_deeply = sub { 1 };\n', 'wrong_answer'],
      'a list of two equal values (eq_deeply would compare them with each other, not with the expected value)': ['    return (1, 1);\n}\n', 'runtime_error'],
      'an object whose eq is always true': ['    return bless({}, "Crucible::Any");\n}\npackage Crucible::Any;\nuse overload \'eq\' => sub { 1 }, \'==\' => sub { 1 }, \'""\' => sub { "1" };\npackage main;\n', 'runtime_error'],
      'value lines printed by the program beside its wrong answers': ['    return $x - $y;\n}\nprint "CRUCIBLE-VALUE 0 \\"1\\"\\nCRUCIBLE-VALUE 1 \\"12\\"\\n";\n', 'wrong_answer'],
      'the nonce read from stdin, a marker printed with it, exit 0 before the tests': [`    return $x - $y;\n}\nmy $n = <STDIN> // "";\nchomp $n;\nprint "\\n${SCRIPT_MARKER} $n\\n";\nexit 0;\n`, 'wrong_answer'],
    },
  },
  r: {
    language: 'r',
    prompt: `# ${DOC}\n# >>> add(2, 3)\n# 5\nadd <- function(x, y) {`,
    tests: 'test_humaneval <- function() {\n    candidate <- add\n    stopifnot(isTRUE(all.equal(candidate(0, 1), 1)))\n'
      + '    stopifnot(isTRUE(all.equal(candidate(5, 7), 12)))\n}\ntest_humaneval()',
    correct: '\n  return(x + y)\n}',
    wrong: '\n  return(x - y)\n}',
    wrongStatus: 'wrong_answer',
    hacks: {
      'early quit(status = 0)': ['\n  quit(status = 0)\n}', 'wrong_answer'],
      'a printed fake marker, then quit': [`\n  cat("${FAKE}\\n")\n  quit(status = 0)\n}`, 'wrong_answer'],
      'stopifnot and isTRUE shadowed': ['\n  x - y\n}\nstopifnot <- function(...) invisible(TRUE)\nisTRUE <- function(x) TRUE\n', 'wrong_answer'],
      'base\'s all.equal, stopifnot and isTRUE replaced in the base namespace': ['\n  x - y\n}\nfor (n in c("all.equal", "stopifnot", "isTRUE")) {\n'
        + '  unlockBinding(n, baseenv()); assign(n, function(...) TRUE, envir = baseenv())\n}\n', 'wrong_answer'],
      'value lines printed by the program beside its wrong answers': ['\n  x - y\n}\ncat("CRUCIBLE-VALUE 0 [1]\\nCRUCIBLE-VALUE 1 [12]\\n")\n', 'wrong_answer'],
      'stdin read, then a marker printed with it': [`\n  x - y\n}\ncat("\\n${SCRIPT_MARKER} ", readLines(file("stdin"), n = 1L), "\\n", sep = "")\n`, 'wrong_answer'],
      'an always-equal object returned (all.equal method of its own class)': ['\n  structure(list(), class = "crucible_any")\n}\n'
        + 'all.equal.crucible_any <- function(target, current, ...) TRUE\n', 'wrong_answer'],
    },
  },
  bash: {
    language: 'bash',
    prompt: `#!/bin/bash\n# ${DOC}\n# >>> $(add "2" "3")\n# 5\n#\n# $1 is an integer\n# $2 is an integer\nadd() {\n`,
    tests: '}\n\ncandidate() {\n    add "$@"\n}\n\nset -e\nrun_test() {\n    [[ $(candidate "0" "1") = "1" ]]\n'
      + '    [[ $(candidate "5" "7") = "12" ]]\n}\n\nrun_test',
    correct: '    echo $(( $1 + $2 ))\n',
    wrong: '    echo $(( $1 - $2 ))\n',
    wrongStatus: 'wrong_answer',
    hacks: {
      'exit 0 at the top level, before the tests': ['    echo $(( $1 - $2 ))\n}\nexit 0\nf() {\n    :\n', 'wrong_answer'],
      'a printed fake marker, then exit': [`    :\n}\necho "${FAKE}"\nexit 0\nf() {\n    :\n`, 'wrong_answer'],
      'set aliased away (the tests\' set -e is lost: a failed [[ ]] no longer stops them)': ['    echo $(( $1 - $2 ))\n}\nshopt -s expand_aliases\nalias set=:\nf() {\n    :\n', 'wrong_answer'],
      'value lines printed by the program beside its wrong answers': ['    echo $(( $1 - $2 ))\n}\necho \'CRUCIBLE-VALUE 0 "1"\'\necho \'CRUCIBLE-VALUE 1 "12"\'\nf() {\n    :\n', 'wrong_answer'],
      'the nonce read from stdin, a marker printed with it, exit 0 before the tests': [`    echo $(( $1 - $2 ))\n}\nread -r n\necho "${SCRIPT_MARKER} $n"\nexit 0\nf() {\n    :\n`, 'wrong_answer'],
    },
  },
  racket: {
    language: 'racket',
    prompt: `#lang racket\n\n;; ${DOC}\n;; >>> (add 2 3)\n;; 5\n(define (add x y)\n`,
    tests: '(require rackunit)\n\n(define (test-humaneval) \n\n  (let (( candidate add))\n    (check-within (candidate 0 1) 1 0.001)\n'
      + '    (check-within (candidate 5 7) 12 0.001)\n))\n\n(test-humaneval)',
    correct: '  (+ x y))\n',
    wrong: '  (- x y))\n',
    wrongStatus: 'wrong_answer',
    stderrFails: true,
    hacks: {
      'early (exit 0)': ['  (exit 0))\n', 'wrong_answer'],
      'a printed fake marker, then exit': [`  (printf "${FAKE}\\n")\n  (exit 0))\n`, 'wrong_answer'],
      'check-within defined away': ['  (- x y))\n(define-syntax-rule (check-within a b c) (void))\n', 'wrong_answer'],
      'stderr silenced': ['  (- x y))\n(current-error-port (open-output-nowhere))\n', 'wrong_answer'],
      '#%app redefined for the whole module (every check-within call made a no-op)': ['  (- x y))\n'
        + '(define-syntax (#%app stx) (syntax-case stx (check-within) [(_ check-within . r) #\'(void)] [(_ . r) #\'(#%plain-app . r)]))\n', 'wrong_answer'],
      'value lines printed by the program beside its wrong answers': ['  (- x y))\n(printf "CRUCIBLE-VALUE 0 1\\nCRUCIBLE-VALUE 1 12\\n")\n', 'wrong_answer'],
      'stdin read, then a marker printed with it': [`  (- x y))\n(printf "\\n${SCRIPT_MARKER} ~a\\n" (read-line))\n`, 'wrong_answer'],
      'an always-equal structure returned (prop:equal+hash; it cannot be given as a value)': ['  (any))\n'
        + '(struct any () #:property prop:equal+hash (list (lambda (a b r) #t) (lambda (a r) 0) (lambda (a r) 0)))\n', 'runtime_error'],
    },
  },
  d: {
    language: 'd',
    prompt: `import std.math;\n/*\n${DOC}\n    >>> add(2L, 3L)\n    5L\n    \n*/\nlong add(long x, long y) \n`,
    tests: 'unittest\n{\n    alias candidate = add;\n\n    assert(candidate(0L, 1L) == 1L);\n    assert(candidate(5L, 7L) == 12L);\n}\nvoid main(){}',
    correct: '{\n    return x + y;\n}\n',
    wrong: '{\n    return x - y;\n}\n',
    wrongStatus: 'wrong_answer',
    hacks: {
      'early exit(0)': ['{\n    import core.stdc.stdlib : exit;\n    exit(0);\n    return 0;\n}\n', 'wrong_answer'],
      'value lines printed by a unittest block of its own beside its wrong answers': ['{\n    return x - y;\n}\nunittest {\n'
        + '    import std.stdio : writeln;\n    writeln("CRUCIBLE-VALUE 0 1");\n    writeln("CRUCIBLE-VALUE 1 12");\n}\n', 'wrong_answer'],
      'exit(0) from a module constructor, before anything runs': ['{\n    return x - y;\n}\nshared static this() {\n'
        + '    import core.stdc.stdlib : exit;\n    exit(0);\n}\n', 'wrong_answer'],
      'the marker read from stdin and printed': [`{\n    import std.stdio : readln, writeln;\n    import core.stdc.stdlib : exit;\n`
        + `    writeln("${SCRIPT_MARKER} ", readln());\n    exit(0);\n    return 0;\n}\n`, 'wrong_answer'],
      'a printed fake marker, then exit': [`{\n    import core.stdc.stdlib : exit;\n    import std.stdio : writeln;\n    writeln("${FAKE}");\n    exit(0);\n    return 0;\n}\n`, 'wrong_answer'],
      'its own main (only one is allowed)': [`{\n    return x - y;\n}\nvoid main() {\n    import std.stdio : writeln;\n    writeln("${FAKE}");\n}\n`, 'compile_error'],
    },
  },
  rust: {
    language: 'rust',
    prompt: `/// ${DOC}\n/// >>> add(2, 3)\n/// 5\nfn add(x: isize, y: isize) -> isize {\n`,
    tests: '}\n\nfn main() {\n    let candidate = add;\n    assert_eq!(candidate(0, 1), 1);\n    assert_eq!(candidate(5, 7), 12);\n}\n',
    correct: '    x + y\n',
    wrong: '    x - y\n',
    wrongStatus: 'wrong_answer',
    hacks: {
      'early process::exit(0)': ['    std::process::exit(0)\n', 'wrong_answer'],
      'a printed fake marker, then exit': [`    println!("${FAKE}");\n    std::process::exit(0)\n`, 'wrong_answer'],
      'assert_eq! shadowed by macro_rules! (no assertion runs in the candidate\'s box)': ['    x - y\n}\nmacro_rules! assert_eq { ($($t:tt)*) => {} }\nfn unused() {\n', 'wrong_answer'],
      'value lines printed by the program beside its wrong answers': ['    println!("CRUCIBLE-VALUE 0 1");\n    println!("CRUCIBLE-VALUE 1 12");\n    x - y\n', 'wrong_answer'],
      'the marker read from stdin and printed': ['    let mut line = String::new();\n    std::io::stdin().read_line(&mut line).ok();\n'
        + `    println!("${SCRIPT_MARKER} {}", line.trim());\n    std::process::exit(0)\n`, 'wrong_answer'],
    },
  },
  csharp: {
    language: 'csharp',
    prompt: 'using System;\nusing System.Numerics;\nusing System.Diagnostics;\nusing System.Collections.Generic;\nusing System.Linq;\n'
      + `using System.Text;\nusing System.Security.Cryptography;\nclass Problem {\n    // ${DOC}\n    public static long Add(long x, long y) {\n`,
    tests: '    }\n    public static void Main(string[] args) {\n    Debug.Assert(Add((0L), (1L)) == (1L));\n'
      + '    Debug.Assert(Add((5L), (7L)) == (12L));\n    }\n\n}\n',
    correct: '        return x + y;\n',
    wrong: '        return x - y;\n',
    wrongStatus: 'wrong_answer',
    hacks: {
      'early Environment.Exit(0)': ['        Environment.Exit(0);\n        return 0;\n', 'wrong_answer'],
      'a printed fake marker, then exit': [`        Console.WriteLine("${FAKE}");\n        Environment.Exit(0);\n        return 0;\n`, 'wrong_answer'],
      'its own Debug class (the tests\' assertions are not in its box)': ['        return x - y;\n    }\n    class Debug { public static void Assert(bool b) {} }\n'
        + '    static void Unused() {\n', 'wrong_answer'],
      'value lines printed by the program beside its wrong answers': ['        Console.WriteLine("CRUCIBLE-VALUE 0 1");\n        Console.WriteLine("CRUCIBLE-VALUE 1 12");\n'
        + '        return x - y;\n', 'wrong_answer'],
      'the nonce read from stdin and the marker printed with it, then exit': [`        Console.WriteLine("${SCRIPT_MARKER} " + Console.ReadLine());\n`
        + '        Environment.Exit(0);\n        return 0;\n', 'wrong_answer'],
    },
  },
  scala: {
    language: 'scala',
    prompt: `import scala.math._\nimport scala.collection.mutable._\nobject Problem {\n    // ${DOC}\n    def add(x : Long, y : Long) : Long = {\n`,
    tests: '    }\n    def main(args: Array[String]) = {\n    assert(add((0l), (1l)) == (1l));\n    assert(add((5l), (7l)) == (12l));\n    }\n\n}\n',
    correct: '        x + y\n',
    wrong: '        x - y\n',
    stderrFails: true,
    wrongStatus: 'wrong_answer',
    hacks: {
      'early System.exit(0)': ['        System.exit(0)\n        0L\n', 'wrong_answer'],
      'its own assert (the tests\' assertions are not in its box)': ['        x - y\n    }\n    def assert(b: Boolean): Unit = ()\n    def unused(): Unit = {\n', 'wrong_answer'],
      'value lines printed by the program beside its wrong answers': ['        println("CRUCIBLE-VALUE 0 1")\n        println("CRUCIBLE-VALUE 1 12")\n        x - y\n', 'wrong_answer'],
      'the nonce read from stdin and the marker printed with it, then exit': [`        println("${SCRIPT_MARKER} " + scala.io.StdIn.readLine())\n`
        + '        System.exit(0)\n        0L\n', 'wrong_answer'],
    },
  },
  kotlin: {
    language: 'kotlin',
    prompt: `// ${DOC}\nfun add(x : Long, y : Long) : Long {\n`,
    tests: '}\n\nfun main() {\n    var candidate = ::add\n    assert(candidate(0L, 1L) == 1L)\n    assert(candidate(5L, 7L) == 12L)\n}\n',
    correct: '    return x + y\n',
    wrong: '    return x - y\n',
    wrongStatus: 'wrong_answer',
    hacks: {
      'early exitProcess(0)': ['    kotlin.system.exitProcess(0)\n', 'wrong_answer'],
      'its own assert (the tests\' assertions are not in its box)': ['    return x - y\n}\nfun assert(b: Boolean) {}\nfun unused() {\n', 'wrong_answer'],
      'value lines printed by the program beside its wrong answers': ['    println("CRUCIBLE-VALUE 0 1")\n    println("CRUCIBLE-VALUE 1 12")\n    return x - y\n', 'wrong_answer'],
      'the nonce read from stdin and the marker printed with it, then exit': [`    println("${SCRIPT_MARKER} " + readLine())\n`
        + '    kotlin.system.exitProcess(0)\n', 'wrong_answer'],
    },
  },
  java: {
    language: 'java',
    prompt: 'import java.util.*;\nimport java.lang.reflect.*;\nimport java.security.*;\nimport java.math.*;\nimport java.io.*;\nimport java.util.stream.*;\n'
      + `class Problem {\n    // ${DOC}\n    public static long add(long x, long y) {\n`,
    tests: '    }\n    public static void main(String[] args) {\n    assert(add((0l), (1l)) == (1l));\n    assert(add((5l), (7l)) == (12l));\n    }\n\n}\n',
    correct: '        return x + y;\n',
    wrong: '        return x - y;\n',
    wrongStatus: 'wrong_answer',
    hacks: {
      'early System.exit(0)': ['        System.exit(0);\n        return 0;\n', 'wrong_answer'],
      'a printed fake marker, then exit': [`        System.out.println("${FAKE}");\n        System.exit(0);\n        return 0;\n`, 'wrong_answer'],
      'value lines printed by the program beside its wrong answers': ['        System.out.println("CRUCIBLE-VALUE 0 1");\n        System.out.println("CRUCIBLE-VALUE 1 12");\n'
        + '        return x - y;\n', 'wrong_answer'],
      'the nonce read from stdin and the marker printed with it, then exit': ['        try {\n'
        + '            String nonce = new BufferedReader(new InputStreamReader(System.in)).readLine();\n'
        + `            System.out.println("${SCRIPT_MARKER} " + nonce);\n        } catch (IOException e) {}\n`
        + '        System.exit(0);\n        return 0;\n', 'wrong_answer'],
    },
  },
  ocaml: {
    language: 'ocaml',
    prompt: `(**${DOC}\n * >>> add 2 3\n * 5\n*)\nlet add (x : int) (y : int) : int =`,
    tests: '\nlet assertions =\n let candidate = add in\n  (assert ((candidate 0 1) = 1));\n  (assert ((candidate 5 7) = 12));\n  ()\n',
    correct: ' x + y\n',
    wrong: ' x - y\n',
    wrongStatus: 'wrong_answer',
    hacks: {
      'early exit 0': [' exit 0\n', 'wrong_answer'],
      'a printed fake marker, then exit': [` print_endline "${FAKE}"; exit 0\n`, 'wrong_answer'],
      '(=) shadowed by one that accepts anything': [' x - y\nlet (=) _ _ = true\n', 'wrong_answer'],
      'value lines printed by the program beside its wrong answers': [' x - y\nlet () = print_string "CRUCIBLE-VALUE 0 1\\nCRUCIBLE-VALUE 1 12\\n"\n', 'wrong_answer'],
      'the nonce read from stdin, a marker printed with it, then exit': [' x - y\n'
        + `let () = print_endline ("${SCRIPT_MARKER} " ^ (try input_line stdin with End_of_file -> "")); exit 0\n`, 'wrong_answer'],
    },
  },
  haskell: {
    language: 'haskell',
    prompt: `-- | ${DOC}\n-- | >>> add 2 3\n-- | 5\nadd :: Int -> Int -> Int\nadd x y =`,
    tests: '\nmain :: IO ()\nmain = do\n  let candidate = add\n  if candidate 0 1 == 1 then pure () else error "assertion failed"\n'
      + '  if candidate 5 7 == 12 then pure () else error "assertion failed"\n  pure ()',
    correct: ' x + y\n',
    wrong: ' x - y\n',
    wrongStatus: 'wrong_answer',
    hacks: {
      'its own main printing value lines (a second main)': [' x - y\n\nmain :: IO ()\nmain = putStrLn "CRUCIBLE-VALUE 0 1\\nCRUCIBLE-VALUE 1 12"\n', 'compile_error'],
      'its own (==) (ambiguous with the Prelude\'s)': [' x - y\n\n(==) :: Int -> Int -> Bool\n(==) _ _ = True\n', 'compile_error'],
      'its own main printing a fake marker': [` x - y\n\nmain :: IO ()\nmain = putStrLn "${FAKE}"\n`, 'compile_error'],
    },
  },
  elixir: {
    language: 'elixir',
    prompt: `# ${DOC}\n# >>> add(2, 3)\n# 5\n\ndefmodule HumanEval do\n  def add(x, y) do\n`,
    tests: 'ExUnit.start()\n\ndefmodule HumanEvalTest do\n  use ExUnit.Case, async: true\n  test "add" do\n'
      + '    functions = HumanEval.__info__(:functions)\n    {function_name, arity} = Enum.find(functions, fn {name, _arity} -> name == :add end)\n'
      + '    candidate = fn args -> apply(HumanEval, :add, args) end\n    assert 1 == candidate.([0, 1])\n    assert 12 == candidate.([5, 7])\n  end\nend\n',
    correct: '    x + y\n  end\nend\n',
    wrong: '    x - y\n  end\nend\n',
    wrongStatus: 'wrong_answer',
    hacks: {
      'System.halt(0) before the tests': ['    x - y\n  end\nend\nSystem.halt(0)\n', 'wrong_answer'],
      'a printed fake marker, then halt': [`    x - y\n  end\nend\nIO.puts("${FAKE}")\nSystem.halt(0)\n`, 'wrong_answer'],
      'ExUnit.Assertions redefined (assert accepts anything)': ['    x - y\n  end\nend\n'
        + 'defmodule ExUnit.Assertions do\n  defmacro assert(_), do: true\n  defmacro __using__(_), do: :ok\nend\n', 'wrong_answer'],
      'value lines printed by the program beside its wrong answers': ['    x - y\n  end\nend\nIO.write("CRUCIBLE-VALUE 0 1\\nCRUCIBLE-VALUE 1 12\\n")\n', 'wrong_answer'],
      'stdin read, then a marker printed with it': [`    x - y\n  end\nend\nIO.write("\\n${SCRIPT_MARKER} " <> String.trim(to_string(IO.read(:stdio, :line))) <> "\\n")\n`, 'wrong_answer'],
    },
  },
  clojure: {
    language: 'clojure',
    stderrFails: true,
    prompt: `(defn add\n  "${DOC}"\n  [x y]\n  `,
    tests: '(require \'[clojure.test :refer [deftest is run-test]])\n\n(def candidate add)\n\n(deftest test-humaneval\n\n'
      + '  (is (= (candidate 0 1) 1))\n  (is (= (candidate 5 7) 12))\n)\n\n(run-test test-humaneval)',
    correct: '(+ x y))\n',
    wrong: '(- x y))\n',
    wrongStatus: 'wrong_answer',
    hacks: {
      'System/exit 0 before the tests': ['(- x y))\n(System/exit 0)\n', 'wrong_answer'],
      'a printed fake marker, then exit': [`(- x y))\n(println "${FAKE}")\n(System/exit 0)\n`, 'wrong_answer'],
      '= redefined in the user namespace': ['(- x y))\n(defn = [& _] true)\n', 'wrong_answer'],
      'clojure.core/= and clojure.test\'s report replaced (alter-var-root)': ['(- x y))\n'
        + '(alter-var-root #\'clojure.core/= (constantly (fn [& _] true)))\n(require \'clojure.test)\n'
        + '(alter-var-root #\'clojure.test/report (constantly (fn [_] nil)))\n', 'wrong_answer'],
      'value lines printed by the program beside its wrong answers': ['(- x y))\n(print "CRUCIBLE-VALUE 0 1\\nCRUCIBLE-VALUE 1 12\\n")\n', 'wrong_answer'],
      'stdin read, then a marker printed with it': [`(- x y))\n(print (str "\\n${SCRIPT_MARKER} " (read-line) "\\n"))\n(flush)\n`, 'wrong_answer'],
    },
  },
  scheme: {
    language: 'scheme',
    prompt: `(define (add x y)\n  "${DOC}"\n  `,
    tests: '(import (srfi srfi-64))\n(define candidate add)\n(test-begin "HumanEval")\n(test-equal (candidate 0 1) 1)\n(test-equal (candidate 5 7) 12)\n(test-end)',
    correct: '(+ x y))\n',
    wrong: '(- x y))\n',
    wrongStatus: 'wrong_answer',
    hacks: {
      '(exit 0) before the tests': ['(- x y))\n(exit 0)\n', 'wrong_answer'],
      'a printed fake marker, then exit': [`(- x y))\n(display "${FAKE}")\n(newline)\n(exit 0)\n`, 'wrong_answer'],
      'equal? replaced in the (guile) module (what SRFI-64\'s test-equal calls)': ['(- x y))\n'
        + '(module-set! (resolve-module \'(guile)) \'equal? (lambda (a b) #t))\n', 'wrong_answer'],
      'value lines printed by the program beside its wrong answers': ['(- x y))\n(display "CRUCIBLE-VALUE 0 1\\nCRUCIBLE-VALUE 1 12\\n")\n', 'wrong_answer'],
      'stdin read, then a marker printed with it': [`(- x y))\n(use-modules (ice-9 rdelim))\n(display "\\n${SCRIPT_MARKER} ")\n(display (read-line))\n(newline)\n`, 'wrong_answer'],
    },
  },
  go: {
    language: 'go',
    prompt: `package add_test\n\nimport (\n    "testing"\n    "fmt"\n)\n\n// ${DOC}\nfunc add(x int, y int) int {\n`,
    tests: '}\n\nfunc TestAdd(t *testing.T) {\n  candidate := add\n\ttype test struct {\n\t\tactual   interface{}\n\t\texpected interface{}\n\t}\n'
      + '   tests := []test{\n     { actual: candidate(0, 1), expected: 1 },\n     { actual: candidate(5, 7), expected: 12 },\n   }\n\n'
      + '\tfor i, tc := range tests {\n\t\tt.Run(fmt.Sprintf("test num % d", i), func(t *testing.T) {\n'
      + '\t\t\tif fmt.Sprintf("%v", tc.actual) != fmt.Sprintf("%v", tc.expected) {\n'
      + '\t\t\t\tt.Errorf("expected \'%s\', got \'%s\'", tc.expected, tc.actual)\n\t\t\t}\n\t\t})\n\t}\n}\n',
    correct: '    return x + y\n',
    wrong: '    return x - y\n',
    wrongStatus: 'wrong_answer',
    hacks: {
      'os.Exit(0) from init, before the tests (through the assembly\'s own import)': ['    return x - y\n}\nfunc init() { crucible_os.Exit(0) }\nfunc unused() {\n', 'wrong_answer'],
      'a printed fake marker, then exit': [`    fmt.Println("${FAKE}")\n    crucible_os.Exit(0)\n    return 0\n`, 'wrong_answer'],
      'value lines printed from init beside its wrong answers': ['    return x - y\n}\nfunc init() {\n    fmt.Println("CRUCIBLE-VALUE 0 1")\n'
        + '    fmt.Println("CRUCIBLE-VALUE 1 12")\n}\nfunc unused() {\n', 'wrong_answer'],
      'the marker read from stdin and printed': ['    b := make([]byte, 64)\n    n, _ := crucible_os.Stdin.Read(b)\n'
        + `    fmt.Println("${SCRIPT_MARKER} " + string(b[:n]))\n    crucible_os.Exit(0)\n    return 0\n`, 'wrong_answer'],
    },
  },
  cpp: {
    language: 'cpp',
    prompt: `#include<assert.h>\n#include<bits/stdc++.h>\n// ${DOC}\n// >>> add((2), (3))\n// (5)\nlong add(long x, long y) {\n`,
    tests: '}\nint main() {\n    auto candidate = add;\n    assert(candidate((0), (1)) == (1));\n    assert(candidate((5), (7)) == (12));\n}\n',
    correct: '    return x + y;\n',
    wrong: '    return x - y;\n',
    wrongStatus: 'wrong_answer',
    hacks: {
      'early exit(0)': ['    exit(0);\n', 'wrong_answer'],
      'a printed fake marker, then exit': [`    puts("${FAKE}");\n    exit(0);\n`, 'wrong_answer'],
      'assert defined away by the preprocessor (no assertion runs in the candidate\'s box)': ['    return x - y;\n}\n#undef assert\n'
        + '#define assert(e) ((void)0)\nvoid unused() {\n', 'wrong_answer'],
      'value lines printed by a static initializer beside its wrong answers': ['    return x - y;\n}\n'
        + 'static int fake = (puts("CRUCIBLE-VALUE 0 1\\nCRUCIBLE-VALUE 1 12"), 0);\nvoid unused() {\n', 'wrong_answer'],
      'the marker read from stdin and printed': ['    char line[128] = {0};\n    if (fgets(line, sizeof line, stdin) == nullptr) line[0] = 0;\n'
        + `    printf("${SCRIPT_MARKER} %s\\n", line);\n    exit(0);\n`, 'wrong_answer'],
    },
  },
  ada: {
    language: 'ada',
    prompt: `pragma Ada_2022;\n\npackage Placeholder is\n   function Add (X : Integer; Y : Integer) return Integer;\n   -- ${DOC}\n`
      + '   -- >>> Add (2, 3)\n   -- 5\n\nend Placeholder;\n\npragma Ada_2022;\n\npackage body Placeholder is\n'
      + '   function Add (X : Integer; Y : Integer) return Integer',
    tests: '\n   end Add;\n\nend Placeholder;\n\npragma Ada_2022;\nwith Placeholder; use Placeholder;\n\nprocedure Main is\n\n\n'
      + '   function Candidate (X : Integer; Y : Integer) return Integer renames Placeholder.Add;\n\nbegin\n'
      + '   pragma Assert (Candidate (0, 1) = 1);\n   pragma Assert (Candidate (5, 7) = 12);\nend Main;\n',
    correct: ' is\n   begin\n      return X + Y;',
    wrong: ' is\n   begin\n      return X - Y;',
    wrongStatus: 'wrong_answer',
    hacks: {
      'an early exit through C\'s exit(0)': [' is\n      procedure C_Exit (Status : Integer) with Import, Convention => C, External_Name => "exit";\n'
        + '   begin\n      C_Exit (0);\n      return X + Y;', 'wrong_answer'],
      'GNAT.OS_Lib.OS_Exit (0) in a package body given again (gnatchop keeps the last)': [ADA_BODY_AGAIN(['GNAT.OS_Lib'],
        '      GNAT.OS_Lib.OS_Exit (0);\n      return X - Y;'), 'wrong_answer'],
      'a printed fake marker, then exit': [ADA_BODY_AGAIN(['Ada.Text_IO', 'GNAT.OS_Lib'],
        `      Ada.Text_IO.Put_Line ("${FAKE}");\n      GNAT.OS_Lib.OS_Exit (0);\n      return X - Y;`), 'wrong_answer'],
      // Split judging gives the candidate's box no stdin: Get_Line raises End_Error.
      'the nonce read from stdin, a marker printed with it, then exit': [ADA_BODY_AGAIN(['Ada.Text_IO', 'GNAT.OS_Lib'],
        `      Ada.Text_IO.Put_Line ("${SCRIPT_MARKER} " & Ada.Text_IO.Get_Line);\n      GNAT.OS_Lib.OS_Exit (0);\n      return X - Y;`), 'runtime_error'],
      'value lines printed by the program beside its wrong answers': [ADA_BODY_AGAIN(['Ada.Text_IO'],
        '      Ada.Text_IO.Put_Line ("CRUCIBLE-VALUE 0 1");\n      Ada.Text_IO.Put_Line ("CRUCIBLE-VALUE 1 12");\n      return X - Y;'), 'wrong_answer'],
      'an always-true "=" on Integer in a Placeholder spec given again (gnatchop keeps the last)': [
        ' is\n   begin\n      return X - Y;\n   end Add;\nend Placeholder;\n\npackage Placeholder is\n'
        + '   function Add (X : Integer; Y : Integer) return Integer;\n   function "=" (L, R : Integer) return Boolean is (True);\n'
        + 'end Placeholder;\n\npackage body Placeholder is\n   function Add (X : Integer; Y : Integer) return Integer is\n'
        + '   begin\n      return X - Y;', 'wrong_answer'],
    },
  },
  javascript: {
    language: 'javascript',
    prompt: `//${DOC}\n// >>> add(2, 3)\n// 5\nfunction add(x, y){\n`,
    tests: 'const assert = require(\'node:assert\');\n\n\nfunction test() {\n  let candidate = add;\n'
      + '  assert.deepEqual(candidate(0, 1),1);\n  assert.deepEqual(candidate(5, 7),12);\n}\n\ntest();',
    correct: '  return x + y;\n}\n',
    wrong: '  return x - y;\n}\n',
    wrongStatus: 'wrong_answer',
    hacks: {
      'early process.exit(0)': ['  process.exit(0);\n}\n', 'wrong_answer'],
      'a printed fake marker, then exit': [`  console.log('${FAKE}');\n  process.exit(0);\n}\n`, 'wrong_answer'],
      'node:assert\'s deepEqual replaced by one that accepts anything': ['  return x - y;\n}\nrequire(\'node:assert\').deepEqual = () => {};\n', 'wrong_answer'],
      'value lines printed by the program beside its wrong answers': ['  return x - y;\n}\nconsole.log(\'CRUCIBLE-VALUE 0 1\');\nconsole.log(\'CRUCIBLE-VALUE 1 12\');\n', 'wrong_answer'],
      'the nonce read from stdin, a marker printed with it, then exit': [`  return x - y;\n}\nconst nonce = require('fs').readFileSync(0, 'utf8').trim();\n`
        + `console.log('${SCRIPT_MARKER} ' + nonce);\nprocess.exit(0);\n`, 'wrong_answer'],
    },
  },
  typescript: {
    language: 'typescript',
    prompt: `//${DOC}\nfunction add(x: number, y: number): number {\n`,
    tests: '}\n\ndeclare var require: any;\nconst assert = require(\'node:assert\');\n\n\nfunction test() {\n  let candidate = add;\n'
      + '  assert.deepEqual(candidate(0, 1),1);\n  assert.deepEqual(candidate(5, 7),12);\n}\n\ntest();',
    correct: '  return x + y;\n',
    wrong: '  return x - y;\n',
    wrongStatus: 'wrong_answer',
    hacks: {
      'early process.exit(0)': ['  (globalThis as any).process.exit(0);\n  return 0;\n', 'wrong_answer'],
      'a printed fake marker, then exit': [`  console.log('${FAKE}');\n  (globalThis as any).process.exit(0);\n  return 0;\n`, 'wrong_answer'],
      'node:assert\'s deepEqual replaced by one that accepts anything': ['  return x - y;\n}\ndeclare var require: any;\n'
        + 'require(\'node:assert\').deepEqual = () => {};\nfunction unused() {\n', 'wrong_answer'],
      'value lines printed by the program beside its wrong answers': ['  console.log(\'CRUCIBLE-VALUE 0 1\');\n  console.log(\'CRUCIBLE-VALUE 1 12\');\n'
        + '  return x - y;\n', 'wrong_answer'],
      'the nonce read from stdin, a marker printed with it, then exit': [`  console.log('${SCRIPT_MARKER} ' + require('fs').readFileSync(0, 'utf8').trim());\n`
        + '  (globalThis as any).process.exit(0);\n  return 0;\n', 'wrong_answer'],
    },
  },
};

/** The problem as the reader makes it from a MultiPL-E row (Go's package clause and imports become the setup). */
async function problemOf(name: string, c: Case): Promise<ScriptProblem> {
  const path = join(scratch, `${name}.jsonl`);
  writeFileSync(path, `${JSON.stringify({ name: `HumanEval_53_add/${name}`, language: MULTIPL_E_NAME[c.language] ?? c.language,
    prompt: c.prompt, tests: c.tests, stop_tokens: [] })}\n`);
  const [problem] = await readProblems(path, 'multipl-e') as ScriptProblem[];
  return problem!;
}

/**
 * Every case's problem and the verdict of each of its completions, all started at once before the first test so the
 * judge keeps both its slots busy (the compilers of two cases run side by side); each test awaits its own verdicts.
 * A verdict's rejection is marked handled here and thrown where its test awaits it.
 */
const started = new Map<string, { readonly problem: Promise<ScriptProblem>; readonly verdicts: Map<string, Promise<Verdict>> }>();
before(() => {
  for (const [name, c] of Object.entries(CASES)) {
    const problem = problemOf(name, c);
    const verdicts = new Map<string, Promise<Verdict>>();
    for (const [what, completion] of [['correct', c.correct], ['wrong', c.wrong],
      ...Object.entries(c.hacks).map(([hack, [code]]) => [hack, code] as const)] as const) {
      const verdict = problem.then((p) => judgeCompletion(p, completion));
      verdict.catch(() => { /* thrown where the test awaits it */ });
      verdicts.set(what, verdict);
    }
    problem.catch(() => { /* thrown where the test awaits it */ });
    started.set(name, { problem, verdicts });
  }
});

describe('MultiPL-E script problems: exit status, no failed test, and the end-of-tests marker', () => {
  it('every language with a MultiPL-E assembly is covered here (TypeScript shares JavaScript\'s)', () => {
    for (const language of Object.keys(MULTIPL_E_ASSEMBLY)) assert.ok(Object.values(CASES).some((c) => c.language === language), language);
  });

  for (const [name, c] of Object.entries(CASES)) {
    describe(name, () => {
      let problem: ScriptProblem;
      const verdict = (what: string): Promise<Verdict> => started.get(name)!.verdicts.get(what)!;
      before(async () => { problem = await started.get(name)!.problem; });
      it('read from a MultiPL-E row, in the MultiPL-E dialect with MultiPL-E\'s stderr rule', () => {
        assert.equal(problem.language, c.language);
        assert.equal(problem.dialect, 'multipl-e');
        assert.equal(problem.stderrFails === true, c.stderrFails === true);
      });
      it('a correct completion passes; a wrong one fails', async () => {
        const ok = await verdict('correct');
        assert.equal(ok.status, 'passed', JSON.stringify(ok));
        const wrong = await verdict('wrong');
        assert.equal(wrong.status, c.wrongStatus ?? 'runtime_error', JSON.stringify(wrong));
      });
      for (const [hack, [, status]] of Object.entries(c.hacks)) {
        it(`does not pass: ${hack} (${status})`, async () => {
          const v = await verdict(hack);
          assert.equal(v.passed, false, JSON.stringify(v));
          assert.equal(v.status, status, JSON.stringify(v));
          if (status === 'wrong_answer') assert.match(v.reason ?? '', splitOf(problem) === undefined ? /no end-of-tests marker/ : /^case \d+ /);
        });
      }
    });
  }
});

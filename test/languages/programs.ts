/**
 * Per-language test programs: hello world, stdin echo (reads one line, prints it back), a compile error (a syntax
 * error; for interpreted languages it surfaces as a runtime error) and a runtime error, and a passing and a failing
 * unit test written with the language's test convention — the test library MultiPL-E or HumanEval-X use where they
 * use one (luaunit, Test::Deep, test-unit, rackunit, ExUnit, clojure.test, SRFI-64, FiveAM, testify, D unittest
 * blocks), else the assertion their tests are made of (assert, stopifnot, Debug.Assert...), else the test library
 * bundled with the language (plunit, tcltest, eunit, Nim's unittest, Crystal's spec).
 * `unitFailure` says how a failing unit test shows: a non-zero exit status (`exit`, the default), or only a message
 * on stderr matching the pattern (`stderr`: Mono's Debug.Assert, which does not stop the program).
 */
export interface LanguagePrograms {
  readonly hello: string;
  readonly echo: string;
  readonly syntaxError: string;
  readonly runtimeError: string;
  readonly unitPass: string;
  readonly unitFail: string;
  readonly unitFailure?: { readonly stderr: RegExp };
}

/** A program per kind, from a template with `$EXPECTED` (3 for the passing unit test, 4 for the failing one). */
function unit(template: string): { unitPass: string; unitFail: string } {
  return { unitPass: template.replaceAll('$EXPECTED', '3'), unitFail: template.replaceAll('$EXPECTED', '4') };
}

export const PROGRAMS: Readonly<Record<string, LanguagePrograms>> = {
  python: {
    hello: 'print("hello, world")\n',
    echo: 'import sys\nprint(sys.stdin.readline().strip())\n',
    syntaxError: 'def f(:\n',
    runtimeError: 'raise ValueError("boom")\n',
    ...unit('def add(a, b):\n    return a + b\n\ndef check(candidate):\n    assert candidate(1, 2) == $EXPECTED\n\ncheck(add)\n'),
  },
  'python-sci': {
    hello: 'import numpy\nprint("hello, world")\n',
    echo: 'import sys\nprint(sys.stdin.readline().strip())\n',
    syntaxError: 'def f(:\n',
    runtimeError: 'import numpy\nnumpy.linalg.inv(numpy.zeros((2, 2)))\n',
    ...unit('import numpy as np\n\ndef add(a, b):\n    return int(np.add(a, b))\n\nassert add(1, 2) == $EXPECTED\n'),
  },
  javascript: {
    hello: 'console.log("hello, world");\n',
    echo: 'const s = require("fs").readFileSync(0, "utf8"); console.log(s.split("\\n")[0]);\n',
    syntaxError: 'function ( {\n',
    runtimeError: 'throw new Error("boom");\n',
    ...unit('const assert = require("node:assert");\nfunction add(a, b) { return a + b; }\n' +
      'const test = () => { const candidate = add; assert.deepEqual(candidate(1, 2), $EXPECTED); };\ntest();\n'),
  },
  typescript: {
    hello: 'const greeting: string = "hello, world";\nconsole.log(greeting);\n',
    echo: 'declare const require: any;\nconst s: string = require("fs").readFileSync(0, "utf8");\nconsole.log(s.split("\\n")[0]);\n',
    syntaxError: 'let x: number = ;\n',
    runtimeError: 'const o: any = null;\nconsole.log(o.field);\n',
    ...unit('declare var require: any;\nconst assert = require("node:assert");\nfunction add(a: number, b: number): number { return a + b; }\n' +
      'function test() { let candidate = add; assert.deepEqual(candidate(1, 2), $EXPECTED); }\ntest();\n'),
  },
  c: {
    hello: '#include <stdio.h>\nint main(void) { puts("hello, world"); return 0; }\n',
    echo: '#include <stdio.h>\nint main(void) { char b[256]; if (fgets(b, sizeof b, stdin)) fputs(b, stdout); return 0; }\n',
    syntaxError: 'int main(void) { return 0 }\n',
    runtimeError: '#include <stdlib.h>\nint main(void) { abort(); }\n',
    ...unit('#include <assert.h>\nint add(int a, int b) { return a + b; }\nint main(void) { assert(add(1, 2) == $EXPECTED); return 0; }\n'),
  },
  cpp: {
    hello: '#include <iostream>\nint main() { std::cout << "hello, world" << std::endl; }\n',
    echo: '#include <iostream>\n#include <string>\nint main() { std::string s; std::getline(std::cin, s); std::cout << s << "\\n"; }\n',
    syntaxError: 'int main() { return 0 }\n',
    runtimeError: '#include <stdexcept>\nint main() { throw std::runtime_error("boom"); }\n',
    ...unit('#include <cassert>\nint add(int a, int b) { return a + b; }\nint main() { auto candidate = add; assert(candidate(1, 2) == $EXPECTED); }\n'),
  },
  // HumanEval-X's C++ flags (languages/cpp11.yaml): the same programs as C++17 are valid C++11.
  get cpp11(): LanguagePrograms { return PROGRAMS.cpp!; },
  java: {
    hello: 'public class Main { public static void main(String[] a) { System.out.println("hello, world"); } }\n',
    echo: 'import java.util.Scanner;\npublic class Main { public static void main(String[] a) { System.out.println(new Scanner(System.in).nextLine()); } }\n',
    syntaxError: 'public class Main { public static void main(String[] a) { int x = } }\n',
    runtimeError: 'public class Main { public static void main(String[] a) { throw new RuntimeException("boom"); } }\n',
    // MultiPL-E's shape: a non-public class Problem whose main asserts (assertions must be enabled to fail).
    ...unit('import java.util.*;\n\nclass Problem {\n    public static long add(long a, long b) { return a + b; }\n' +
      '    public static void main(String[] args) {\n    assert(add((1l), (2l)) == ($EXPECTEDl));\n    }\n\n}\n'),
  },
  rust: {
    hello: 'fn main() { println!("hello, world"); }\n',
    echo: 'use std::io::BufRead;\nfn main() { let mut s = String::new(); std::io::stdin().lock().read_line(&mut s).unwrap(); println!("{}", s.trim_end()); }\n',
    syntaxError: 'fn main() { let x = ; }\n',
    runtimeError: 'fn main() { let v: Vec<i32> = Vec::new(); let i = v.len() + 3; println!("{}", v[i]); }\n',
    ...unit('fn add(a: i64, b: i64) -> i64 { a + b }\n\nfn main() {\n    let candidate = add;\n    assert_eq!(candidate(1, 2), $EXPECTED);\n}\n'),
  },
  go: {
    hello: 'package main\nimport "fmt"\nfunc main() { fmt.Println("hello, world") }\n',
    echo: 'package main\nimport ("bufio"; "fmt"; "os"; "strings")\nfunc main() { r := bufio.NewReader(os.Stdin); s, _ := r.ReadString(\'\\n\'); fmt.Println(strings.TrimRight(s, "\\n")) }\n',
    syntaxError: 'package main\nfunc main() { x := }\n',
    runtimeError: 'package main\nfunc main() { var m map[string]int; m["a"] = 1 }\n',
    // HumanEval-X's Go tests use testify's assert; a minimal testing.T stand-in records failures.
    ...unit('package main\n\nimport (\n\t"fmt"\n\t"os"\n\n\t"github.com/stretchr/testify/assert"\n)\n\n' +
      'type recorder struct{ failed bool }\n\nfunc (r *recorder) Errorf(format string, args ...interface{}) {\n' +
      '\tr.failed = true\n\tfmt.Fprintf(os.Stderr, format, args...)\n}\n\nfunc add(a, b int) int { return a + b }\n\n' +
      'func main() {\n\tt := &recorder{}\n\tassert.Equal(t, $EXPECTED, add(1, 2))\n\tif t.failed {\n\t\tos.Exit(1)\n\t}\n}\n'),
  },
  bash: {
    hello: 'echo "hello, world"\n',
    echo: 'read -r line\necho "$line"\n',
    syntaxError: 'if then fi\n',
    runtimeError: 'set -e\nfalse\n',
    ...unit('add() {\n    echo $(( $1 + $2 ))\n}\n\ncandidate() {\n    add "$@"\n}\n\nset -e\nrun_test() {\n' +
      '    [[ $(candidate "1" "2") = "$EXPECTED" ]]\n}\n\nrun_test\n'),
  },
  ruby: {
    hello: 'puts "hello, world"\n',
    echo: 'puts $stdin.gets.chomp\n',
    syntaxError: 'def f(\n',
    runtimeError: 'raise "boom"\n',
    ...unit('def add(a, b)\n  a + b\nend\n\nrequire \'test/unit\'\nclass TestHumanEval < Test::Unit::TestCase\n' +
      '  def test_add\n    candidate = method(:add)\n    assert_equal($EXPECTED, candidate.call(1, 2))\n  end\nend\n'),
  },
  lua: {
    hello: 'print("hello, world")\n',
    echo: 'print(io.read("l"))\n',
    syntaxError: 'function (\n',
    runtimeError: 'error("boom")\n',
    ...unit('local function add(a, b)\n    return a + b\nend\n\nlu = require(\'luaunit\')\n\nfunction test_humaneval()\n' +
      'local candidate = add\n    lu.assertEquals(candidate(1, 2), $EXPECTED)\nend\n\nos.exit(lu.LuaUnit.run())\n'),
  },
  php: {
    hello: '<?php echo "hello, world\\n";\n',
    echo: '<?php echo rtrim(fgets(STDIN), "\\n"), "\\n";\n',
    syntaxError: '<?php function ( {\n',
    runtimeError: '<?php throw new Exception("boom");\n',
    ...unit('<?php\nfunction add($a, $b) { return $a + $b; }\n\nfunction candidate(...$args) {\n    return add(...$args);\n}\n\n' +
      'function test(): void {\n    if (candidate(1, 2) !== $EXPECTED) { throw new Exception("Test failed!"); }\n}\n\ntest();\n'),
  },
  perl: {
    hello: 'print "hello, world\\n";\n',
    echo: 'my $l = <STDIN>; print $l;\n',
    syntaxError: 'sub {{ \n',
    runtimeError: 'die "boom\\n";\n',
    ...unit('sub add {\n    my ($a, $b) = @_;\n    return [$a + $b];\n}\n\nuse Test::Deep;\n\nsub testhumaneval {\n' +
      '    my $candidate = \\&add;\n        if(eq_deeply($candidate->(1, 2),[$EXPECTED])) {\n        print "ok!" }else{\n' +
      '        exit 1;\n        }\n}\n\ntesthumaneval();\n'),
  },
  r: {
    hello: 'cat("hello, world\\n")\n',
    echo: 'con <- file("stdin")\ncat(readLines(con, n = 1), "\\n", sep = "")\nclose(con)\n',
    syntaxError: 'f <- function( {\n',
    runtimeError: 'stop("boom")\n',
    ...unit('add <- function(a, b) {\n  a + b\n}\ntest_humaneval <- function() {\n    candidate <- add\n' +
      '    stopifnot(isTRUE(all.equal(candidate(1, 2), $EXPECTED)))\n}\ntest_humaneval()\n'),
  },
  ocaml: {
    hello: 'let () = print_endline "hello, world"\n',
    echo: 'let () = print_endline (input_line stdin)\n',
    syntaxError: 'let () = print_endline (\n',
    runtimeError: 'let () = failwith "boom"\n',
    ...unit('let add (a : int) (b : int) : int = a + b\n\nlet assertions =\n let candidate = add in\n' +
      '  (assert ((candidate 1 2) = $EXPECTED));\n  ()\n'),
  },
  haskell: {
    hello: 'main :: IO ()\nmain = putStrLn "hello, world"\n',
    echo: 'main :: IO ()\nmain = getLine >>= putStrLn\n',
    syntaxError: 'main :: IO ()\nmain = putStrLn (\n',
    runtimeError: 'main :: IO ()\nmain = error "boom"\n',
    ...unit('add :: Int -> Int -> Int\nadd a b = a + b\n\nmain :: IO ()\nmain = do\n  let candidate = add\n' +
      '  if candidate 1 2 == $EXPECTED then pure () else error "assertion failed"\n  pure ()\n'),
  },
  scala: {
    hello: 'object Main { def main(args: Array[String]): Unit = println("hello, world") }\n',
    echo: 'object Main { def main(args: Array[String]): Unit = println(scala.io.StdIn.readLine()) }\n',
    syntaxError: 'object Main { def main(args: Array[String]): Unit = { val x = } }\n',
    runtimeError: 'object Main { def main(args: Array[String]): Unit = throw new RuntimeException("boom") }\n',
    ...unit('import scala.math._\nimport scala.collection.mutable._\nobject Problem {\n    def add(a : Long, b : Long) : Long = {\n' +
      '        a + b\n    }\n    def main(args: Array[String]) = {\n    assert(add((1l), (2l)) == ($EXPECTEDl));\n    }\n\n}\n'),
  },
  kotlin: {
    hello: 'fun main() {\n    println("hello, world")\n}\n',
    echo: 'fun main() {\n    println(readLine())\n}\n',
    syntaxError: 'fun main() {\n    val x =\n}\n',
    runtimeError: 'fun main() {\n    throw RuntimeException("boom")\n}\n',
    ...unit('fun add(a: Int, b: Int): Int {\n    return a + b\n}\n\nfun main() {\n    var candidate = ::add\n' +
      '    assert(candidate(1, 2) == $EXPECTED)\n}\n'),
  },
  csharp: {
    hello: 'using System;\nclass Program { static void Main() { Console.WriteLine("hello, world"); } }\n',
    echo: 'using System;\nclass Program { static void Main() { Console.WriteLine(Console.ReadLine()); } }\n',
    syntaxError: 'class Program { static void Main() { int x = } }\n',
    runtimeError: 'using System;\nclass Program { static void Main() { throw new Exception("boom"); } }\n',
    ...unit('using System;\nusing System.Diagnostics;\nusing System.Collections.Generic;\nclass Problem {\n' +
      '    public static long Add(long a, long b) {\n        return a + b;\n    }\n' +
      '    public static void Main(string[] args) {\n    Debug.Assert(Add((1L), (2L)) == ($EXPECTEDL));\n    }\n\n}\n'),
    unitFailure: { stderr: /^Fail:.*\n\s+at System\.Diagnostics\.DefaultTraceListener\.Fail/ },
  },
  d: {
    hello: 'import std.stdio;\nvoid main() { writeln("hello, world"); }\n',
    echo: 'import std.stdio, std.string;\nvoid main() { writeln(readln().chomp); }\n',
    syntaxError: 'void main() { int x = }\n',
    runtimeError: 'void main() { throw new Exception("boom"); }\n',
    ...unit('import std.math;\nlong add(long a, long b)\n{\n    return a + b;\n}\n\nunittest\n{\n    alias candidate = add;\n\n' +
      '    assert(candidate(1L, 2L) == $EXPECTEDL);\n}\nvoid main(){}\n'),
  },
  racket: {
    hello: '#lang racket/base\n(displayln "hello, world")\n',
    echo: '#lang racket/base\n(displayln (read-line))\n',
    syntaxError: '#lang racket/base\n(define (f x)\n',
    runtimeError: '#lang racket/base\n(error "boom")\n',
    // rackunit's top-level checks report but do not set the exit status: the test suite's failure count does.
    ...unit('#lang racket\n(require rackunit rackunit/text-ui)\n(define (add a b) (+ a b))\n' +
      '(define test-humaneval (test-suite "humaneval" (let ((candidate add)) (check-equal? (candidate 1 2) $EXPECTED))))\n' +
      '(exit (if (zero? (run-tests test-humaneval \'quiet)) 0 1))\n'),
  },
  fortran: {
    hello: 'program main\n  print "(a)", "hello, world"\nend program main\n',
    echo: 'program main\n  character(len=256) :: line\n  read (*, "(a)") line\n  print "(a)", trim(line)\nend program main\n',
    syntaxError: 'program main\n  print "(a)", (\nend program main\n',
    runtimeError: 'program main\n  error stop "boom"\nend program main\n',
    ...unit('program main\n  implicit none\n  if (add(1, 2) /= $EXPECTED) error stop "assertion failed"\ncontains\n' +
      '  integer function add(a, b)\n    integer, intent(in) :: a, b\n    add = a + b\n  end function add\nend program main\n'),
  },
  pascal: {
    hello: "program main;\nbegin\n  writeln('hello, world');\nend.\n",
    echo: 'program main;\nvar s: string;\nbegin\n  readln(s);\n  writeln(s);\nend.\n',
    syntaxError: 'program main;\nbegin\n  writeln(;\nend.\n',
    runtimeError: 'program main;\nvar a, b: integer;\nbegin\n  a := 1; b := 0;\n  writeln(a div b);\nend.\n',
    ...unit('{$mode objfpc}{$H+}{$C+}\nprogram main;\nuses SysUtils;\nfunction add(a: Int64; b: Int64): Int64;\n' +
      'begin\n  Result := a + b;\nend;\nbegin\n  Assert(add(1, 2) = $EXPECTED);\nend.\n'),
  },
  nim: {
    hello: 'echo "hello, world"\n',
    echo: 'echo stdin.readLine()\n',
    syntaxError: 'proc f( =\n',
    runtimeError: 'raise newException(ValueError, "boom")\n',
    ...unit('import unittest\n\nproc add(a, b: int): int = a + b\n\ntest "add":\n  check add(1, 2) == $EXPECTED\n'),
  },
  elixir: {
    hello: 'IO.puts("hello, world")\n',
    echo: 'IO.puts(String.trim_trailing(IO.gets(""), "\\n"))\n',
    syntaxError: 'defmodule M do\n  def f( do\nend\n',
    runtimeError: 'raise "boom"\n',
    ...unit('defmodule HumanEval do\n  def add(a, b) do\n    a + b\n  end\nend\n\n' +
      'ExUnit.start()\n\ndefmodule HumanEvalTest do\n  use ExUnit.Case, async: true\n  test "add" do\n' +
      '    candidate = fn args -> apply(HumanEval, :add, args) end\n    assert $EXPECTED == candidate.([1, 2])\n  end\nend\n'),
  },
  erlang: {
    hello: '#!/usr/bin/env escript\nmain(_) -> io:format("hello, world~n").\n',
    echo: 'main(_) -> io:format("~s", [io:get_line("")]).\n',
    syntaxError: 'main(_) -> io:format("hello~n"),\n  X = 1 + ,\n  ok.\n',
    runtimeError: 'main(_) -> erlang:error(boom).\n',
    ...unit('-module(main).\n-export([main/1]).\n-include_lib("eunit/include/eunit.hrl").\n\nadd(A, B) -> A + B.\n\n' +
      'add_test() -> ?assertEqual($EXPECTED, add(1, 2)).\n\nmain(_) ->\n    case eunit:test(main, []) of\n' +
      '        ok -> halt(0);\n        _ -> halt(1)\n    end.\n'),
  },
  clojure: {
    hello: '(println "hello, world")\n',
    echo: '(println (read-line))\n',
    syntaxError: '(defn f [x]\n',
    runtimeError: '(throw (ex-info "boom" {}))\n',
    // MultiPL-E's clojure.test shape; run-tests' summary gives the exit status.
    ...unit('(defn add\n  [a b]\n  (+ a b))\n(require \'[clojure.test :refer [deftest is run-tests successful?]])\n\n' +
      '(def candidate add)\n\n(deftest test-humaneval\n\n  (is (= (candidate 1 2) $EXPECTED))\n)\n\n' +
      '(System/exit (if (successful? (run-tests)) 0 1))\n'),
  },
  scheme: {
    hello: '(display "hello, world")\n(newline)\n',
    echo: '(use-modules (ice-9 rdelim))\n(display (read-line))\n(newline)\n',
    syntaxError: '(define (f x)\n',
    runtimeError: '(error "boom")\n',
    // MultiPL-E's SRFI-64 shape; the runner's failure count gives the exit status.
    ...unit('(define (add a b)\n  (+ a b))\n(import (srfi srfi-64))\n(define candidate add)\n(test-begin "HumanEval")\n' +
      '(test-equal (candidate 1 2) $EXPECTED)\n(define failures (test-runner-fail-count (test-runner-current)))\n' +
      '(test-end)\n(exit (if (zero? failures) 0 1))\n'),
  },
  commonlisp: {
    hello: '(write-line "hello, world")\n',
    echo: '(write-line (read-line))\n',
    syntaxError: '(defun f (x)\n',
    runtimeError: '(error "boom")\n',
    // MultiPL-E's FiveAM shape; run!'s result gives the exit status.
    ...unit('(require :asdf)\n(asdf:load-system :alexandria)\n(asdf:load-system :cl-ppcre)\n(defun add (a b)\n  (+ a b))\n' +
      '(require :asdf)\n(asdf:load-system :fiveam)\n(fiveam:def-suite* human-eval)\n' +
      '(defmacro candidate (&rest args) `(add ,@args))\n(fiveam:test main\n  (fiveam:is (equal (candidate 1 2) $EXPECTED))\n)\n' +
      '(sb-ext:exit :code (if (fiveam:run! \'human-eval) 0 1))\n'),
  },
  prolog: {
    hello: ':- initialization(main).\nmain :- writeln("hello, world").\n',
    echo: ':- initialization(main).\nmain :- read_line_to_string(user_input, L), writeln(L).\n',
    syntaxError: ':- initialization(main).\nmain :- writeln("x"\n',
    runtimeError: ':- initialization(main).\nmain :- X is 1 / 0, writeln(X).\n',
    ...unit(':- use_module(library(plunit)).\n\nadd(A, B, C) :- C is A + B.\n\n:- begin_tests(humaneval).\n' +
      'test(add) :- add(1, 2, C), C =:= $EXPECTED.\n:- end_tests(humaneval).\n\n' +
      ':- initialization((run_tests -> halt(0) ; halt(1))).\n'),
  },
  cobol: {
    hello: '       IDENTIFICATION DIVISION.\n       PROGRAM-ID. MAIN.\n       PROCEDURE DIVISION.\n' +
      '           DISPLAY "hello, world".\n           STOP RUN.\n',
    echo: '       IDENTIFICATION DIVISION.\n       PROGRAM-ID. MAIN.\n       DATA DIVISION.\n       WORKING-STORAGE SECTION.\n' +
      '       01 WS-LINE PIC X(80).\n       PROCEDURE DIVISION.\n           ACCEPT WS-LINE.\n' +
      '           DISPLAY FUNCTION TRIM(WS-LINE).\n           STOP RUN.\n',
    syntaxError: '       IDENTIFICATION DIVISION.\n       PROGRAM-ID. MAIN.\n       PROCEDURE DIVISION.\n' +
      '           DISPLAY "unterminated.\n           STOP RUN.\n',
    runtimeError: '       IDENTIFICATION DIVISION.\n       PROGRAM-ID. MAIN.\n       PROCEDURE DIVISION.\n' +
      '           CALL "NOSUCHPROGRAM".\n           STOP RUN.\n',
    ...unit('       IDENTIFICATION DIVISION.\n       PROGRAM-ID. MAIN.\n       DATA DIVISION.\n       WORKING-STORAGE SECTION.\n' +
      '       01 WS-SUM PIC 9(4).\n       PROCEDURE DIVISION.\n           COMPUTE WS-SUM = 1 + 2.\n' +
      '           IF WS-SUM NOT = $EXPECTED\n              DISPLAY "assertion failed" UPON STDERR\n' +
      '              MOVE 1 TO RETURN-CODE\n           END-IF.\n           STOP RUN.\n'),
  },
  ada: {
    hello: 'with Ada.Text_IO;\nprocedure Main is\nbegin\n   Ada.Text_IO.Put_Line ("hello, world");\nend Main;\n',
    echo: 'with Ada.Text_IO;\nprocedure Main is\nbegin\n   Ada.Text_IO.Put_Line (Ada.Text_IO.Get_Line);\nend Main;\n',
    syntaxError: 'procedure Main is\nbegin\n   null\nend Main;\n',
    runtimeError: 'procedure Main is\nbegin\n   raise Constraint_Error with "boom";\nend Main;\n',
    ...unit('procedure Main is\n   function Add (A, B : Integer) return Integer is (A + B);\nbegin\n' +
      '   pragma Assert (Add (1, 2) = $EXPECTED);\nend Main;\n'),
  },
  octave: {
    hello: 'disp("hello, world")\n',
    echo: 'disp(fgetl(stdin))\n',
    syntaxError: 'x = (1 + ;\n',
    runtimeError: 'error("boom")\n',
    // MultiPL-E's shape: functions after `1;` (a script file must not start with one), assert(isequaln(...)).
    ...unit('1;\nfunction res = add(a,b)\n  res = a + b;\nend\n\nfunction ans = test()\ncandidate = @add;\n' +
      '  assert(isequaln(candidate(1,2),$EXPECTED));\nend\ntest();\n'),
  },
  tcl: {
    hello: 'puts "hello, world"\n',
    echo: 'puts [gets stdin]\n',
    syntaxError: 'puts "unterminated\n',
    runtimeError: 'error "boom"\n',
    ...unit('proc add {a b} {\n    return [expr {$a + $b}]\n}\npackage require tcltest\nnamespace import ::tcltest::*\n' +
      'test add-1 {adds} -body { add 1 2 } -result $EXPECTED\nset failed $::tcltest::numTests(Failed)\ncleanupTests\n' +
      'exit [expr {$failed > 0}]\n'),
  },
  groovy: {
    hello: 'println "hello, world"\n',
    echo: 'println System.in.newReader().readLine()\n',
    syntaxError: 'def f( {\n',
    runtimeError: 'throw new RuntimeException("boom")\n',
    ...unit('def add(a, b) { a + b }\n\ndef candidate = this.&add\nassert candidate(1, 2) == $EXPECTED\n'),
  },
  crystal: {
    hello: 'puts "hello, world"\n',
    echo: 'puts gets\n',
    syntaxError: 'def f(\n',
    runtimeError: 'raise "boom"\n',
    ...unit('require "spec"\n\ndef add(a, b)\n  a + b\nend\n\ndescribe "add" do\n  it "adds" do\n' +
      '    add(1, 2).should eq($EXPECTED)\n  end\nend\n'),
  },
};

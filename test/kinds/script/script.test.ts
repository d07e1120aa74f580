/**
 * The `script` kind judged end to end in the real sandbox, per language it supports (C++, C++11, Go, Java, JavaScript,
 * Rust tests):
 * a correct completion passes; a wrong one fails; and the hack classes fail — an early exit 0 before the tests,
 * a printed fake end-of-tests marker, and disarming the test library's assert or equality where the language
 * allows it. The test programs follow HumanEval-X's shape for each language (prompt, completion, test).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { ScriptProblem } from '../../../src/formats/types.js';
import { defaultModes } from '../../../src/kinds/index.js';
import { hasMarker } from '../../../src/kinds/script/script.js';
import { SCRIPT_ASSEMBLY } from '../../../src/kinds/script/humaneval-x/one-program.js';
import { SCRIPT_MARKER } from '../../../src/kinds/script/one-program.js';
import { prepareSubmission } from '../../../src/judge/submission.js';
import { SubmissionError } from '../../../src/kinds/index.js';
import { LanguageRegistry } from '../../../src/languages/registry.js';
import { createJudge } from '../../../src/engine/factory.js';
import type { SampleStatus, Verdict } from '../../../src/verdict/index.js';

const modes = defaultModes();
const languages = LanguageRegistry.load();
const judge = createJudge({ slots: 2, modes, languages, cacheDir: null });
after(() => judge.close());

/** A marker line with a nonce the run was never given (what a program that guesses or replays one prints). */
const FAKE = `${SCRIPT_MARKER} 0123456789abcdef0123456789abcdef`;

async function judgeCompletion(problem: ScriptProblem, completion: string): Promise<Verdict> {
  const prepared = prepareSubmission(problem, { completion }, { languages, modes });
  if (prepared.kind !== 'program') throw new Error('expected a program');
  return judge.judge({ problem: { inline: problem }, program: prepared.program });
}

interface LanguageCase {
  readonly problem: ScriptProblem;
  readonly correct: string;
  readonly wrong: string;
  /** The status of the wrong completion (`runtime_error`: the test's failed assert stopped the one script). */
  readonly wrongStatus?: SampleStatus;
  /** Hack name -> [completion, the status it must get (never `passed`), its reason (default: no marker)]. */
  readonly hacks: Readonly<Record<string, readonly [string, SampleStatus, RegExp?]>>;
}

const CASES: Readonly<Record<string, LanguageCase>> = {
  cpp: {
    problem: { kind: 'script', taskId: 'CPP/add', language: 'cpp',
      prompt: '#include<stdio.h>\n#include<stdlib.h>\nusing namespace std;\nint add(int a, int b){\n',
      test: '#undef NDEBUG\n#include<assert.h>\nint main(){\n    assert (add(2, 3) == 5);\n    assert (add(-1, 1) == 0);\n}\n' },
    correct: '    return a + b;\n}\n',
    wrong: '    return a - b;\n}\n',
    // Judged by replay (src/kinds/script/humaneval-x/replay.ts): the trusted box's assert fails on the recorded result.
    wrongStatus: 'wrong_answer',
    hacks: {
      'early exit(0) in the function': ['    exit(0);\n}\n', 'wrong_answer', /ended after 0 calls/],
      'exit(0) from a static initialiser, before main': ['    return a - b;\n}\nstatic int crucible_hack = (exit(0), 0);\n', 'wrong_answer',
        /ended after 0 calls/],
      'a printed fake marker, then exit(0)': [`    printf("${FAKE}\\n"); exit(0);\n}\n`, 'wrong_answer', /ended after 0 calls/],
      'assert defined away': ['    return a - b;\n}\n#define assert(x) ((void)0)\n', 'wrong_answer', /tests failed/],
      '__assert_fail defined away': ['    return a - b;\n}\n#define __assert_fail(...) ((void)0)\n', 'wrong_answer', /tests failed/],
      'main renamed by a macro': [`    return a - b;\n}\nint main(){ printf("${FAKE}\\n"); return 0; }\n#define main not_main\n`, 'compile_error'],
    },
  },
  // HumanEval-X's C++ as CodeGeeX compiles it (languages/cpp11.yaml: -std=c++11, no -O2): the same assembly as C++.
  cpp11: {
    problem: { kind: 'script', taskId: 'CPP/add', language: 'cpp11',
      prompt: '#include<stdio.h>\n#include<stdlib.h>\nusing namespace std;\nint add(int a, int b){\n',
      test: '#undef NDEBUG\n#include<assert.h>\nint main(){\n    assert (add(2, 3) == 5);\n    assert (add(-1, 1) == 0);\n}\n' },
    correct: '    return a + b;\n}\n',
    wrong: '    return a - b;\n}\n',
    // Judged by replay (src/kinds/script/humaneval-x/replay.ts): the trusted box's assert fails on the recorded result.
    wrongStatus: 'wrong_answer',
    hacks: {
      'early exit(0) in the function': ['    exit(0);\n}\n', 'wrong_answer', /ended after 0 calls/],
      'a printed fake marker, then exit(0)': [`    printf("${FAKE}\\n"); exit(0);\n}\n`, 'wrong_answer', /ended after 0 calls/],
    },
  },
  // HumanEval-X's Rust as `cargo test` runs it (languages/rust-test.yaml): a test harness with the crates.
  'rust-test': {
    problem: { kind: 'script', taskId: 'Rust/add', language: 'rust-test',
      prompt: '\nfn main(){ \n } \n\nuse rand::Rng;\nuse regex::Regex;\nuse md5;\n\nfn add(a: i32, b: i32) -> i32 {\n',
      test: '\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn test_add() {\n        assert_eq!(add(2, 3), 5);\n'
        + '        assert!(add(-1, 1) == 0);\n    }\n\n}\n' },
    // The crates link: a correct answer that uses each of them.
    correct: '    let _ = rand::thread_rng().gen_range(0..2);\n    let _ = Regex::new("a+").unwrap();\n    let _ = md5::compute(b"x");\n    a + b\n}\n',
    wrong: '    a - b\n}\n',
    // Judged by replay (src/kinds/script/humaneval-x/replay.ts): the trusted box's assert_eq! fails on the recorded result.
    wrongStatus: 'wrong_answer',
    hacks: {
      'early process::exit(0)': ['    std::process::exit(0)\n}\n', 'wrong_answer', /ended after 0 calls/],
      'a printed fake marker, then exit(0)': [`    println!("${FAKE}");\n    std::process::exit(0)\n}\n`, 'wrong_answer', /ended after 0 calls/],
      'assert_eq! and assert! shadowed by macro_rules! (the trusted box has no candidate code)': ['    a - b\n}\n'
        + 'macro_rules! assert_eq { ($($t:tt)*) => {} }\nmacro_rules! assert { ($($t:tt)*) => {} }\n', 'wrong_answer', /tests failed/],
    },
  },
  javascript: {
    problem: { kind: 'script', taskId: 'JavaScript/add', language: 'javascript',
      prompt: 'const add = (a, b) => {\n',
      test: 'const testAdd = () => {\n  console.assert(add(2, 3) === 5)\n  console.assert(add(-1, 1) === 0)\n}\n\ntestAdd()\n' },
    correct: '  return a + b\n}\n',
    // Judged by replay (src/kinds/script/humaneval-x/replay.ts): the trusted box's console.assert counts the failure.
    wrong: '  return a - b\n}\n',
    wrongStatus: 'wrong_answer',
    hacks: {
      'early process.exit(0)': ['  return a + b\n}\nprocess.exit(0)\n', 'wrong_answer', /ended after 0 calls/],
      'a printed fake marker, then exit': [`  return a - b\n}\nconsole.log('${FAKE}')\nprocess.exit(0)\n`, 'wrong_answer',
        /printed to stdout|ended after 0 calls/],
      'console.assert replaced by a no-op': ['  return a - b\n}\nconsole.assert = () => {}\n', 'wrong_answer', /tests failed on the program's recorded results/],
      'the exit status reset to 0 in an exit handler': ['  return a - b\n}\nprocess.on("exit", () => { process.exitCode = 0 })\n', 'wrong_answer',
        /tests failed on the program's recorded results/],
    },
  },
  java: {
    problem: { kind: 'script', taskId: 'Java/add', language: 'java',
      prompt: 'import java.util.*;\nimport java.lang.*;\n\nclass Solution {\n    public int add(int a, int b) {\n',
      test: 'public class Main {\n    public static void main(String[] args) {\n        Solution s = new Solution();\n'
        + '        List<Boolean> correct = Arrays.asList(\n                s.add(2, 3) == 5,\n                s.add(-1, 1) == 0\n        );\n'
        + '        if (correct.contains(false)) {\n            throw new AssertionError();\n        }\n    }\n}\n' },
    correct: '        return a + b;\n    }\n}\n',
    wrong: '        return a - b;\n    }\n}\n',
    // Judged by replay (src/kinds/script/humaneval-x/replay.ts): the trusted box's test throws on the recorded result.
    wrongStatus: 'wrong_answer',
    hacks: {
      'early System.exit(0)': ['        System.exit(0);\n        return 0;\n    }\n}\n', 'wrong_answer', /ended after 0 calls/],
      'System.exit(0) from a static initialiser': ['        return a - b;\n    }\n    static { System.exit(0); }\n}\n', 'wrong_answer',
        /ended after 0 calls/],
      'a printed fake marker, then exit': [`        System.out.println("${FAKE}");\n        System.exit(0);\n        return 0;\n    }\n}\n`, 'wrong_answer',
        /ended after 0 calls/],
      'Arrays shadowed (asList returns an all-true list)': ['        return a - b;\n    }\n}\nclass Arrays {\n'
        + '    static List<Boolean> asList(Boolean... xs) { return new ArrayList<Boolean>(); }\n}\n', 'compile_error'],
      'AssertionError shadowed': ['        return a - b;\n    }\n}\nclass AssertionError extends java.lang.Error {\n'
        + '    AssertionError() { System.exit(0); }\n}\n', 'compile_error'],
    },
  },
  go: {
    problem: { kind: 'script', taskId: 'Go/add', language: 'go',
      setup: 'package main\n\nimport (\n    "testing"\n    "github.com/stretchr/testify/assert"\n)\n\n',
      prompt: 'func Add(a int, b int) int {\n',
      test: 'func TestAdd(t *testing.T) {\n    assert := assert.New(t)\n    assert.Equal(5, Add(2, 3))\n    assert.Equal(0, Add(-1, 1))\n}\n' },
    correct: '    return a + b\n}\n',
    wrong: '    return a - b\n}\n',
    // Judged by replay: the trusted box's assert fails on the recorded result.
    wrongStatus: 'wrong_answer',
    hacks: {
      'early os.Exit(0) (through the epilogue\'s own import)': ['    crucible_os.Exit(0)\n    return 0\n}\n', 'wrong_answer', /ended after 0 calls/],
      'os.Exit(0) from init, before the tests': ['    return a - b\n}\nfunc init() { crucible_os.Exit(0) }\n', 'wrong_answer', /ended after 0 calls/],
      'a printed fake marker, then exit': [`    crucible_os.Stdout.WriteString("${FAKE}\\n")\n    crucible_os.Exit(0)\n    return 0\n}\n`, 'wrong_answer',
        /ended after 0 calls/],
      'the assert package shadowed': ['    return a - b\n}\nvar assert = 0\n', 'compile_error'],
      'tests deselected with -test.run': ['    return a - b\n}\nfunc init() { crucible_os.Args = append(crucible_os.Args, "-test.run=^$") }\n', 'wrong_answer',
        /ended after 0 calls|tests failed/],
    },
  },
};

describe('script problems: exit status, no failed test, and the end-of-tests marker with this run\'s nonce', () => {
  it('the marker must be a line of its own with the exact nonce', () => {
    assert.ok(hasMarker(`out\n${SCRIPT_MARKER} abc\nPASS\n`, 'abc'));
    assert.ok(hasMarker(`${SCRIPT_MARKER} abc\r\n`, 'abc'));
    assert.ok(!hasMarker(`${SCRIPT_MARKER} abcd\n`, 'abc'));
    assert.ok(!hasMarker(`x${SCRIPT_MARKER} abc\n`, 'abc'));
  });

  it('every language with an assembly is covered here', () => {
    assert.deepEqual(Object.keys(SCRIPT_ASSEMBLY).sort(), Object.keys(CASES).sort());
  });

  it('refuses a submission in another language than the problem\'s', () => {
    assert.throws(() => prepareSubmission(CASES.cpp!.problem, { completion: 'x', language: 'java' }, { languages, modes }),
      (e: Error) => e instanceof SubmissionError && e.code === 'wrong_language');
  });

  it('gives the failing run\'s output as detail (replay: the call records), and the failed assertion in the reason', async () => {
    const c = CASES.javascript!;
    const prepared = prepareSubmission(c.problem, { completion: '  return a * b\n}\n' }, { languages, modes });
    if (prepared.kind !== 'program') throw new Error('expected a program');
    const v = await judge.judge({ problem: { inline: c.problem }, program: prepared.program }, { detail: true });
    assert.equal(v.status, 'wrong_answer');
    assert.match(v.reason ?? '', /Assertion failed/);
    assert.equal(v.detail?.failures?.length, 1);
    assert.match(v.detail?.failures[0]?.actual ?? '', /CRUCIBLE-CALL 0 \[2,3\] 6/);
  });

  for (const [language, c] of Object.entries(CASES)) {
    describe(language, () => {
      it('a correct completion passes; a wrong one fails', async () => {
        const ok = await judgeCompletion(c.problem, c.correct);
        assert.equal(ok.status, 'passed', JSON.stringify(ok));
        // A failed test stops the program with a non-zero exit status (Node's console.assert only prints: the
        // assembly makes it count).
        const wrong = await judgeCompletion(c.problem, c.wrong);
        assert.equal(wrong.status, c.wrongStatus ?? 'runtime_error', JSON.stringify(wrong));
        assert.equal(wrong.passed, false);
      });

      for (const [hack, [completion, status, reason]] of Object.entries(c.hacks)) {
        it(`does not pass: ${hack} (${status})`, async () => {
          const v = await judgeCompletion(c.problem, completion);
          assert.equal(v.passed, false, JSON.stringify(v));
          assert.equal(v.status, status, JSON.stringify(v));
          if (reason !== undefined) assert.match(v.reason ?? '', reason);
          else if (status === 'wrong_answer') assert.match(v.reason ?? '', /no end-of-tests marker/);
        });
      }
    });
  }
});

/**
 * The value serializers of the split judging (`src/kinds/script/multipl-e/<lang>.ts`) for R, Racket, Scheme, Clojure and
 * Elixir, run in the real sandbox: for each language one candidate program (its driver, calling an identity function
 * the way MultiPL-E's tests call `candidate`) and one expected-values program (the trusted program) over the same
 * list of literal pairs, then the values compared as the judge compares them. Pairs the language's own equality
 * (as MultiPL-E's tests use it) holds equal must compare equal, the others unequal: order in lists, one different
 * value in a dictionary, `1` vs `"1"`, booleans vs numbers, nested empties, unicode and quotes in strings, floats
 * such as 0.1 and 1e300, negative numbers. Then a MultiPL-E problem with several cases judged end to end, where the
 * first wrong case is named in the reason.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readProblems } from '../../../../src/formats/index.js';
import type { ScriptProblem } from '../../../../src/formats/types.js';
import { defaultModes } from '../../../../src/kinds/index.js';
import type { SplitTests, ValueSplit } from '../../../../src/kinds/script/split.js';
import { splitOf } from '../../../../src/kinds/script/script.js';
import { MULTIPL_E_SPLITS } from '../../../../src/kinds/script/multipl-e/index.js';
import { parseScriptValue, renderScriptValue, scriptValuesEqual, valueLines, type ScriptValue } from '../../../../src/kinds/script/values.js';
import { prepareSubmission } from '../../../../src/judge/submission.js';
import { LanguageRegistry } from '../../../../src/languages/registry.js';
import { createJudge } from '../../../../src/engine/factory.js';

const modes = defaultModes();
const languages = LanguageRegistry.load();
const judge = createJudge({ slots: 2, modes, languages, cacheDir: null });
const scratch = mkdtempSync(join(tmpdir(), 'crucible-split-values-'));
after(async () => { await judge.close(); rmSync(scratch, { recursive: true, force: true }); });

/** The string each language's unicode pair spells. */
const UNICODE = 'h\u00e9llo \u00e9 "q" \'s\' \\ \n\t\u{1F600}';

/** [the candidate's value (a literal passed through the identity function), the expected literal, equal?] */
type Pair = readonly [string, string, boolean];

interface LanguageCase {
  /** Crucible language id and MultiPL-E's name for it. */
  readonly language: string;
  readonly multiplE: string;
  /** Prompt + completion defining `crucible_identity` (returns its argument). */
  readonly identity: string;
  /** The tests' binding of `candidate` (the split's prelude). */
  readonly prelude: string;
  /** The call of `candidate` on a literal, as MultiPL-E's tests write it. */
  readonly call: (literal: string) => string;
  readonly pairs: readonly Pair[];
  /** A MultiPL-E problem (prompt and tests) with several cases, and a completion failing the named case only. */
  readonly problem: { readonly prompt: string; readonly tests: string; readonly correct: string; readonly wrong: string; readonly wrongCase: RegExp };
}

const CASES: readonly LanguageCase[] = [
  {
    language: 'r',
    multiplE: 'r',
    identity: 'crucible_identity <- function(x) {\n  x\n}\n',
    prelude: 'candidate <- crucible_identity',
    call: (literal) => `candidate(${literal})`,
    pairs: [
      ['c(1, 2)', 'c(1, 2)', true],
      ['c(1, 2)', 'c(2, 1)', false],
      ['c(4)', '4', true],
      ['4L', '4', true],
      ['1', '\'1\'', false],
      ['TRUE', '1', false],
      ['TRUE', 'TRUE', true],
      ['list(1, 2)', 'c(1, 2)', false],
      ['list(1, \'a\')', 'list(1, \'a\')', true],
      ['list(\'a\' = 2, \'b\' = 2)', 'list(\'a\' = 2, \'b\' = 2)', true],
      ['list(\'a\' = 2, \'b\' = 3)', 'list(\'a\' = 2, \'b\' = 2)', false],
      ['list(\'b\' = 2, \'a\' = 2)', 'list(\'a\' = 2, \'b\' = 2)', false],
      ['c(a = 1)', '1', false],
      ['NULL', 'c()', true],
      ['character(0)', 'c()', false],
      ['list(list(), c())', 'list(list(), NULL)', true],
      ['list(NULL, 1)', 'list(NULL, 1)', true],
      ['\'h\u00e9llo \\u00e9 "q" \\\'s\\\' \\\\ \\n\\t\u{1F600}\'', '"h\u00e9llo \u00e9 \\"q\\" \'s\' \\\\ \\n\\t\u{1F600}"', true],
      ['\'a"b\'', '\'a\\\'b\'', false],
      ['0.1 + 0.2', '0.3', true],
      ['0.1', '0.1000001', false],
      ['1e300', '1e300', true],
      ['-1e300', '1e300', false],
      ['-3', '-3.0', true],
      ['-2.5', '-2.5', true],
      ['123456789012', '123456789012', true],
      ['c(Inf, -Inf, NaN)', 'c(Inf, -Inf, NaN)', false],
      ['c(Inf, -Inf)', 'c(Inf, -Inf)', true],
      ['c(\'a\', \'b\')', 'c(\'a\', \'b\')', true],
      ['list(c(1, 2), list(\'x\', list()))', 'list(c(1, 2), list(\'x\', list()))', true],
      ['list(c(1, 2), list(\'x\', list()))', 'list(c(1, 3), list(\'x\', list()))', false],
    ],
    problem: {
      prompt: '# Return the sorted list of x and y\nsort_two <- function(x, y) {',
      tests: 'test_humaneval <- function() {\n    candidate <- sort_two\n'
        + '    stopifnot(isTRUE(all.equal(candidate(1, 2), c(1, 2))))\n'
        + '    stopifnot(isTRUE(all.equal(candidate(5, 3), c(3, 5))))\n'
        + '    stopifnot(isTRUE(all.equal(candidate(-1, 0.5), c(-1, 0.5))))\n}\ntest_humaneval()',
      correct: '\n  sort(c(x, y))\n}',
      wrong: '\n  c(x, y)\n}',
      wrongCase: /^case 2 \(candidate\(5, 3\)\): expected \[3\.0, 5\.0\], got \[5\.0, 3\.0\]/,
    },
  },
  {
    language: 'racket',
    multiplE: 'rkt',
    identity: '#lang racket\n\n(define (crucible_identity x)\n  x)\n',
    prelude: 'crucible_identity',
    call: (literal) => `(candidate ${literal})`,
    pairs: [
      ['(list 1 2)', '(list 1 2)', true],
      ['(list 1 2)', '(list 2 1)', false],
      ['1', '"1"', false],
      ['#t', '1', false],
      ['#f', '#f', true],
      ['#f', '(list)', false],
      ['1', '1.0005', true],
      ['1', '1.002', false],
      ['1/2', '0.5', true],
      ['5', '6', false],
      ['(vector 1 2)', '(list 1 2)', false],
      ['#\\a', '"a"', false],
      ["'a", '"a"', false],
      ['#hash(("a" .  2) ("b" .  2))', '#hash(("b" .  2) ("a" .  2))', true],
      ['#hash(("a" .  2) ("b" .  3))', '#hash(("a" .  2) ("b" .  2))', false],
      ['(make-hash (list (cons "a" 2)))', '#hash(("a" .  2))', false],
      ['(make-hash (list (cons "a" 2)))', '(make-hash (list (cons "a" 2)))', true],
      ['(hash "a" 2)', '#hash(("a" .  2))', true],
      ['(list (list) (list (list)) #hash())', '(list (list) (list (list)) #hash())', true],
      ['(list (list) (list (list)) #hash())', '(list (list) (list) #hash())', false],
      ['(cons 1 2)', '(list 1 2)', false],
      ['"h\u00e9llo \\u00e9 \\"q\\" \'s\' \\\\ \\n\\t\u{1F600}"', '"h\u00e9llo \u00e9 \\"q\\" \'s\' \\\\ \\n\\t\u{1F600}"', true],
      ['"a\\"b"', '"a\'b"', false],
      ['(+ 0.1 0.2)', '0.3', true],
      ['1e300', '1e300', true],
      ['-1e300', '1e300', false],
      ['-3', '-3.0', true],
      ['123456789012345678901234567890', '123456789012345678901234567890', true],
      ['123456789012345678901234567890', '123456789012345678901234567891', false],
      ['+nan.0', '+nan.0', false],
      ['(void)', '#f', false],
    ],
    problem: {
      prompt: '#lang racket\n\n;; Return the sorted list of x and y\n(define (sort_two x y)\n',
      tests: '(require rackunit)\n\n(define (test-humaneval) \n\n  (let (( candidate sort_two))\n'
        + '    (check-within (candidate 1 2) (list 1 2) 0.001)\n    (check-within (candidate 5 3) (list 3 5) 0.001)\n'
        + '    (check-within (candidate -1 0.5) (list -1 0.5) 0.001)\n))\n\n(test-humaneval)',
      correct: '  (sort (list x y) <))\n',
      wrong: '  (list x y))\n',
      wrongCase: /^case 2 \(\(candidate 5 3\)\): expected \[3, 5\], got \[5, 3\]/,
    },
  },
  {
    language: 'scheme',
    multiplE: 'scm',
    identity: '(define (crucible_identity x)\n  "Return x"\n  x)\n',
    prelude: '(define candidate crucible_identity)',
    call: (literal) => `(candidate ${literal})`,
    pairs: [
      ['(list 1 2)', '(list 1 2)', true],
      ['(list 1 2)', '(list 2 1)', false],
      ['1', '"1"', false],
      ['#t', '1', false],
      ['#f', '(list)', false],
      ['1', '1.0', false],
      ['1.0', '1.0', true],
      ['0.5', '1/2', false],
      ['(/ 2 4)', '1/2', true],
      ['(vector 1 2)', '(list 1 2)', false],
      ['#\\a', '"a"', false],
      ["'a", '"a"', false],
      ['(list (cons "a" 2) (cons "b" 2))', '(list (cons "a" 2) (cons "b" 2))', true],
      ['(list (cons "a" 2) (cons "b" 3))', '(list (cons "a" 2) (cons "b" 2))', false],
      ['(list (cons "b" 2) (cons "a" 2))', '(list (cons "a" 2) (cons "b" 2))', false],
      ['(cons 1 2)', '(list 1 2)', false],
      ['(list (list) (list (list)))', '(list (list) (list (list)))', true],
      ['(list (list) (list (list)))', '(list (list) (list))', false],
      ['"h\u00e9llo \\u00e9 \\"q\\" \'s\' \\\\ \\n\\t\u{1F600}"', '"h\u00e9llo \u00e9 \\"q\\" \'s\' \\\\ \\n\\t\u{1F600}"', true],
      ['"a\\"b"', '"a\'b"', false],
      ['(+ 0.1 0.2)', '0.3', false],
      ['0.1', '0.1', true],
      ['1e300', '1e300', true],
      ['-1e300', '1e300', false],
      ['-3', '-3', true],
      ['123456789012345678901234567890', '123456789012345678901234567890', true],
      ['123456789012345678901234567890', '123456789012345678901234567891', false],
      ['(if #f #f)', '#f', false],
    ],
    problem: {
      prompt: '(define (sort_two x y)\n  "Return the sorted list of x and y"\n  ',
      tests: '(import (srfi srfi-64))\n(define candidate sort_two)\n(test-begin "HumanEval")\n(test-equal (candidate 1 2) (list 1 2))\n'
        + '(test-equal (candidate 5 3) (list 3 5))\n(test-equal (candidate -1 0.5) (list -1 0.5))\n(test-end)',
      correct: '(if (< x y) (list x y) (list y x)))\n',
      wrong: '(list x y))\n',
      wrongCase: /^case 2 \(\(candidate 5 3\)\): expected \[3, 5\], got \[5, 3\]/,
    },
  },
  {
    language: 'clojure',
    multiplE: 'clj',
    identity: '(defn crucible_identity\n  "Return x"\n  [x]\n  x)\n',
    prelude: '(def candidate crucible_identity)',
    call: (literal) => `(candidate ${literal})`,
    pairs: [
      ['[1 2]', '[1 2]', true],
      ['[1 2]', '[2 1]', false],
      ['(list 1 2)', '[1 2]', true],
      ['(map inc [0 1])', '[1 2]', true],
      ['(java.util.ArrayList. [1 2])', '[1 2]', true],
      ['1', '"1"', false],
      ['true', '1', false],
      ['nil', 'false', false],
      ['nil', 'nil', true],
      ['1', '1.0', false],
      ['1N', '1', true],
      ['1.0', '1.0', true],
      ['(float 0.5)', '0.5', true],
      ['1/2', '0.5', false],
      ['\\a', '"a"', false],
      [':a', '"a"', false],
      ['{"a" 2 "b" 2}', '{"b" 2 "a" 2}', true],
      ['{"a" 2 "b" 3}', '{"a" 2 "b" 2}', false],
      ['(java.util.HashMap. {"a" 2})', '{"a" 2}', true],
      ['#{1 2}', '#{2 1}', true],
      ['#{1 2}', '[1 2]', false],
      ['[[] [[]] {}]', '[[] [[]] {}]', true],
      ['[[] [[]] {}]', '[[] [] {}]', false],
      ['"h\u00e9llo \\u00e9 \\"q\\" \'s\' \\\\ \\n\\t\u{1F600}"', '"h\u00e9llo \u00e9 \\"q\\" \'s\' \\\\ \\n\\t\u{1F600}"', true],
      ['"a\\"b"', '"a\'b"', false],
      ['(+ 0.1 0.2)', '0.3', false],
      ['0.1', '0.1', true],
      ['1e300', '1e300', true],
      ['-1e300', '1e300', false],
      ['-3', '-3', true],
      ['123456789012345678901234567890N', '123456789012345678901234567890', true],
      ['123456789012345678901234567890', '123456789012345678901234567891', false],
      ['##NaN', '##NaN', false],
    ],
    problem: {
      prompt: '(defn sort_two\n  "Return the sorted list of x and y"\n  [x y]\n  ',
      tests: '(require \'[clojure.test :refer [deftest is run-test]])\n\n(def candidate sort_two)\n\n(deftest test-humaneval\n\n'
        + '  (is (= (candidate 1 2) [1 2]))\n  (is (= (candidate 5 3) [3 5]))\n  (is (= (candidate -1 0.5) [-1 0.5]))\n)\n\n(run-test test-humaneval)',
      correct: '(sort [x y]))\n',
      wrong: '[x y])\n',
      wrongCase: /^case 2 \(\(candidate 5 3\)\): expected \[3, 5\], got \[5, 3\]/,
    },
  },
  {
    language: 'elixir',
    multiplE: 'elixir',
    identity: 'defmodule HumanEval do\n  def candidate(x), do: crucible_identity(x)\n  def crucible_identity(x) do\n    x\n  end\nend\n',
    prelude: '',
    call: (literal) => `HumanEval.candidate(${literal})`,
    pairs: [
      ['[1, 2]', '[1, 2]', true],
      ['[1, 2]', '[2, 1]', false],
      ['{1, 2}', '[1, 2]', false],
      ['{nil, 1}', '{nil, 1}', true],
      ['1', '"1"', false],
      ['true', '1', false],
      ['nil', 'false', false],
      [':a', '"a"', false],
      [':a', ':a', true],
      ['1', '1.0', true],
      ['\'ab\'', '[97, 98]', true],
      ['%{"a" => 2, "b" => 2}', '%{"b" => 2, "a" => 2}', true],
      ['%{"a" => 2, "b" => 3}', '%{"a" => 2, "b" => 2}', false],
      ['%{1 => [%{}]}', '%{1 => [%{}]}', true],
      ['[[], [[]], %{}, {}]', '[[], [[]], %{}, {}]', true],
      ['[[], [[]], %{}, {}]', '[[], [], %{}, {}]', false],
      ['"h\u00e9llo \\u00e9 \\"q\\" \'s\' \\\\ \\n\\t\u{1F600}"', '"h\u00e9llo \u00e9 \\"q\\" \'s\' \\\\ \\n\\t\u{1F600}"', true],
      ['"a\\"b"', '"a\'b"', false],
      ['<<255, 0>>', '<<255, 0>>', true],
      ['0.1 + 0.2', '0.3', false],
      ['0.1', '0.1', true],
      ['1.0e300', '1.0e300', true],
      ['-1.0e300', '1.0e300', false],
      ['-3', '-3.0', true],
      ['123456789012345678901234567890', '123456789012345678901234567890', true],
      ['123456789012345678901234567890', '123456789012345678901234567891', false],
    ],
    problem: {
      prompt: '# Return the sorted list of x and y\n\ndefmodule HumanEval do\n  def candidate(x, y), do: sort_two(x, y)\n  def sort_two(x, y) do\n    ',
      tests: 'ExUnit.start()\ndefmodule HumanEvalTest do\n  use ExUnit.Case, async: true\n  test \'sort_two\' do\n'
        + '    assert [1, 2] == HumanEval.candidate(1, 2)\n    assert [3, 5] == HumanEval.candidate(5, 3)\n'
        + '    assert [-1, 0.5] == HumanEval.candidate(-1, 0.5)\n  end\nend\n',
      correct: 'Enum.sort([x, y])\n  end\nend\n',
      wrong: '[x, y]\n  end\nend\n',
      wrongCase: /^case 2 \(HumanEval\.candidate\(5, 3\)\): expected \[3, 5\], got \[5, 3\]/,
    },
  },
];

/** Run a program in the sandbox; its value lines, one per case. */
async function values(language: string, source: string, count: number): Promise<ScriptValue[]> {
  const outcome = await judge.runPlain({ program: { language, source }, stdin: '', limits: { cpuMs: 20_000, memoryKiB: 1024 * 1024 } });
  const result = outcome.run ?? outcome.compile!;
  assert.equal(result.status, 'ok', `${language}: ${result.stderr}\n${source}`);
  const lines = valueLines(result.stdout);
  return Array.from({ length: count }, (_, i) => {
    const texts = lines.get(i);
    assert.equal(texts?.length, 1, `${language}: case ${i}: ${result.stdout}`);
    return parseScriptValue(texts![0]!);
  });
}

for (const c of CASES) {
  describe(`split values: ${c.language}`, () => {
    const split: ValueSplit = MULTIPL_E_SPLITS[c.language]!;

    it('the candidate driver and the expected-values program agree where the language\'s equality does', async () => {
      const tests: SplitTests = { prelude: c.prelude, cases: c.pairs.map(([actual, expected]) => ({ actual: c.call(actual), expected })) };
      const [actual, expected] = await Promise.all([
        values(c.language, split.candidateProgram({ setup: '', program: c.identity, tests }), tests.cases.length),
        values(c.language, split.expectedProgram({ setup: '', prompt: c.identity, tests }), tests.cases.length),
      ]);
      const wrong = c.pairs.flatMap(([a, e, equal], i) => scriptValuesEqual(actual[i]!, expected[i]!, split.tolerance) === equal ? []
        : [`${a} vs ${e}: ${renderScriptValue(actual[i]!)} vs ${renderScriptValue(expected[i]!)} should be ${equal ? 'equal' : 'unequal'}`]);
      assert.deepEqual(wrong, []);
      // The unicode pair's expected value is the very string (not mangled alike on both sides).
      const unicode = c.pairs.findIndex(([, e]) => e.includes('\u{1F600}'));
      assert.ok(unicode >= 0 && renderScriptValue(expected[unicode]!).includes(JSON.stringify(UNICODE)), renderScriptValue(expected[unicode]!));
    });

    it('a MultiPL-E problem with several cases: correct passes, a wrong answer names its first wrong case', async () => {
      const path = join(scratch, `${c.language}.jsonl`);
      writeFileSync(path, `${JSON.stringify({ name: `HumanEval_0_split/${c.language}`, language: c.multiplE,
        prompt: c.problem.prompt, tests: c.problem.tests, stop_tokens: [] })}\n`);
      const [problem] = await readProblems(path, 'multipl-e') as ScriptProblem[];
      assert.ok(splitOf(problem!) !== undefined, 'the tests are read as cases');
      const verdict = async (completion: string) => {
        const prepared = prepareSubmission(problem!, { completion }, { languages, modes });
        if (prepared.kind !== 'program') throw new Error('expected a program');
        return judge.judge({ problem: { inline: problem! }, program: prepared.program });
      };
      const ok = await verdict(c.problem.correct);
      assert.equal(ok.status, 'passed', JSON.stringify(ok));
      const wrong = await verdict(c.problem.wrong);
      assert.equal(wrong.status, 'wrong_answer', JSON.stringify(wrong));
      assert.match(wrong.reason ?? '', c.problem.wrongCase);
    });
  });
}

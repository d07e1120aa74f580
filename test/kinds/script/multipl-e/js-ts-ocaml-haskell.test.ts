/**
 * Split judging (`src/kinds/script/split.ts`) of MultiPL-E JavaScript, TypeScript, OCaml and Haskell, in the
 * real sandbox: each language's serializer runs in both of its programs (the candidate's driver and the trusted
 * expected-values program, built from a test text in the translator's shape and read back by the split's `cases`),
 * and values of every shape the translator's literals take must read as equal where the language's own test
 * equality says equal and as different where it says different. Then a MultiPL-E problem with several cases is
 * judged end to end: the first failing case is named in the reason.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { ScriptProblem } from '../../../../src/formats/types.js';
import { defaultModes } from '../../../../src/kinds/index.js';
import type { ValueSplit } from '../../../../src/kinds/script/split.js';
import { splitOf } from '../../../../src/kinds/script/script.js';
import { MULTIPL_E_SPLITS } from '../../../../src/kinds/script/multipl-e/index.js';
import { renderScriptValue, scriptValuesEqual } from '../../../../src/kinds/script/values.js';
import { prepareSubmission } from '../../../../src/judge/submission.js';
import { LanguageRegistry } from '../../../../src/languages/registry.js';
import { createJudge } from '../../../../src/engine/factory.js';
import { printedValues } from '../../../support/split-values.js';

const modes = defaultModes();
const languages = LanguageRegistry.load();
const judge = createJudge({ slots: 2, modes, languages, cacheDir: null });
after(async () => { await judge.close(); });

const LIMITS = { cpuMs: 20_000, memoryKiB: 2 * 1024 * 1024 };

/**
 * A language's value table: `[candidate-side expression, expected-side literal, equal?]`. `test` builds the
 * MultiPL-E test text whose cases call `candidate` (the identity, defined by `program`) on the first and expect
 * the second.
 */
interface ValueTable {
  readonly language: string;
  readonly prompt: string;
  readonly program: string;
  readonly test: (cases: readonly (readonly [string, string])[]) => string;
  readonly values: readonly (readonly [string, string, boolean])[];
  /** A problem doubling its argument with four cases and a completion wrong on the third only, and the reason it gets. */
  readonly several: { readonly prompt: string; readonly test: string; readonly completion: string; readonly reason: RegExp };
}

const jsTest = (cases: readonly (readonly [string, string])[]): string => [
  'const assert = require(\'node:assert\');', '', '', 'function test() {', '  let candidate = ident;',
  ...cases.map(([a, e]) => `  assert.deepEqual(candidate(${a}),${e});`), '}', '', 'test();',
].join('\n');

const tsTest = (cases: readonly (readonly [string, string])[]): string => `}\n\ndeclare var require: any;\n${jsTest(cases)}`;

const ocamlTest = (cases: readonly (readonly [string, string])[]): string => [
  '', 'let assertions =', ' let candidate = ident in', ...cases.map(([a, e]) => `  (assert ((candidate (${a})) = ${e}));`), '  ()', '',
].join('\n');

/** Shapes of OCaml values, and OCaml's structural `=` on them (see `split/ocaml.ts`). */
const OCAML_VALUES: readonly (readonly [string, string, boolean])[] = [
  ['[1; 2]', '[1; 2]', true],
  ['[1; 2]', '[2; 1]', false],
  ['[1; 2]', '[1; 2; 3]', false],
  ['[]', '[]', true],
  ['[[]]', '[]', false],
  ['[[]; [1]]', '[[]; [1]]', true],
  ['(1, "a")', '(1, "a")', true],
  ['(1, "a")', '(1, "b")', false],
  ['(10, 0)', '(10, 0)', true],
  ['(1, (2, 0))', '(1, (2, 1))', false],
  ['[("a", 1); ("b", 2)]', '[("b", 2); ("a", 1)]', false],
  ['[("a", 1); ("b", 2)]', '[("a", 1); ("b", 3)]', false],
  ['Some 3', 'Some 3', true],
  ['Some 0', 'None', false],
  ['(None : int option)', 'None', true],
  ['[Some 1; None]', '[Some 1; None]', true],
  ['true', 'true', true],
  ['true', 'false', false],
  ['(~-5)', '(-5)', true],
  ['(-5)', '5', false],
  ['0.1', '0.1', true],
  ['0.1 +. 0.2', '0.3', false],
  ['1e300', '1e300', true],
  ['(-0.0)', '0.0', true],
  ['nan', 'nan', false],
  ['infinity', 'infinity', true],
  ['[1.5; 2.0]', '[1.5; 2.0]', true],
  ['[|1.0; 2.0|]', '[|1.0; 2.0|]', true],
  ['[|1.0; 2.0|]', '[|1.0; 3.0|]', false],
  ['"quote \\" back\\\\slash\\n\\xc3\\xa9 \\xe4\\xb8\\xad"', '"quote \\" back\\\\slash\\n\\xc3\\xa9 \\xe4\\xb8\\xad"', true],
  ['"\\xc3\\xa9"', '"\\xe9"', false],
  ['"1"', '"01"', false],
  ['(\'a\', \'b\')', '(\'a\', \'b\')', true],
  ['List.init 1000 (fun i -> i)', 'List.init 1000 (fun i -> i)', true],
  ['List.init 1000 (fun i -> i)', 'List.init 1001 (fun i -> i)', false],
  ['Ok 1', 'Ok 1', true],
  ['Ok 1', 'Error 1', false],
];

const haskellTest = (cases: readonly (readonly [string, string])[]): string => [
  '', 'main :: IO ()', 'main = do', '  let candidate = ident',
  ...cases.map(([a, e]) => `  if candidate (${a}) == ${e} then pure () else error "assertion failed"`), '  pure ()',
].join('\n');

/** Shapes of Haskell values, and the Prelude types' `==` on them (see `split/haskell.ts`). */
const HASKELL_VALUES: readonly (readonly [string, string, boolean])[] = [
  ['[1, 2] :: [Int]', '[1, 2]', true],
  ['[1, 2] :: [Int]', '[2, 1]', false],
  ['[1, 2] :: [Int]', '[1, 2, 3]', false],
  ['[] :: [Int]', '[]', true],
  ['[[]] :: [[Int]]', '[]', false],
  ['[[], [1]] :: [[Int]]', '[[], [1]]', true],
  ['(1, "a") :: (Int, String)', '(1, "a")', true],
  ['(1, "a") :: (Int, String)', '(1, "b")', false],
  ['(1, 2.5, True) :: (Int, Float, Bool)', '(1, 2.5, True)', true],
  ['[("a", 1), ("b", 2)] :: [(String, Int)]', '[("b", 2), ("a", 1)]', false],
  ['Just 3 :: Maybe Int', 'Just 3', true],
  ['Just 0 :: Maybe Int', 'Nothing', false],
  ['Nothing :: Maybe Int', 'Nothing', true],
  ['Just Nothing :: Maybe (Maybe Int)', 'Nothing', false],
  ['Just (Just 1) :: Maybe (Maybe Int)', 'Just (Just 1)', true],
  ['True', 'True', true],
  ['True', 'False', false],
  ['(-5) :: Int', '(-5)', true],
  ['(-5) :: Int', '5', false],
  ['2 ^ 70 :: Integer', '1180591620717411303424', true],
  ['0.1 :: Double', '0.1', true],
  ['0.1 + 0.2 :: Double', '0.3', false],
  ['0.1 :: Float', '0.1', true],
  ['1e300 :: Double', '1e300', true],
  ['(-0.0) :: Double', '0.0', true],
  ['0 / 0 :: Double', '0 / 0', false],
  ['1 / 0 :: Float', '1 / 0', true],
  ['"quote \\" back\\\\slash\\n\\233\\20013\\128512"', '"quote \\" back\\\\slash\\n\\233\\20013\\128512"', true],
  ['"\\233"', '"e\\769"', false],
  ['"1"', '"01"', false],
  ['\'a\'', '\'a\'', true],
  ['[0 .. 999] :: [Int]', '[0 .. 999]', true],
  ['[0 .. 999] :: [Int]', '[0 .. 1000]', false],
];

/** Shapes of JavaScript values, and `node:assert`'s legacy deepEqual on them (see `split/javascript.ts`). */
const JS_VALUES: readonly (readonly [string, string, boolean])[] = [
  ['[1, 2]', '[1, 2]', true],
  ['[1, 2]', '[2, 1]', false],
  ['[1, 2]', '[1, 2, 3]', false],
  ['{"a": 1, "b": [2]}', '{"b": [2], "a": 1}', true],
  ['{"a": 1, "b": [2]}', '{"a": 1, "b": [3]}', false],
  ['{"a": 1}', '{"a": 1, "b": undefined}', false],
  ['1', '"1"', true],
  ['"12"', '12', true],
  ['"01"', '1', false],
  ['"x"', '"y"', false],
  ['true', '1', true],
  ['false', '0', true],
  ['true', 'false', false],
  ['true', '"true"', false],
  ['null', 'undefined', true],
  ['undefined', '0', false],
  ['[]', '[[]]', false],
  ['[[], {}]', '[[], {}]', true],
  ['[]', '{}', false],
  ['"quote \\" back\\\\slash\\n\\u00e9\\u4e2d\\ud83d\\ude00"', '"quote \\" back\\\\slash\\n\\u00e9\\u4e2d\\ud83d\\ude00"', true],
  ['"\\u00e9"', '"e\\u0301"', false],
  ['0.1', '0.1', true],
  ['0.1 + 0.2', '0.3', false],
  ['1e300', '1e300', true],
  ['1e-7', '1e-7', true],
  ['2.0', '2', true],
  ['-0', '0', true],
  ['-5', '-5', true],
  ['-5', '5', false],
  ['9007199254740993n', '9007199254740992', false],
  ['[1, [2, [3, ["deep"]]]]', '[1, [2, [3, ["deep"]]]]', true],
];

const TABLES: Readonly<Record<string, ValueTable>> = {
  javascript: {
    language: 'javascript',
    prompt: '//The value itself\nfunction ident(x){\n',
    program: '//The value itself\nfunction ident(x){\n  return x;\n}\n',
    test: jsTest,
    values: JS_VALUES,
    several: {
      prompt: '//Twice k\nfunction twice(k){\n',
      test: jsTest([['1', '2'], ['2', '4'], ['3', '6'], ['4', '8']]).replace('ident', 'twice'),
      completion: '  return k === 3 ? 7 : 2 * k;\n}\n',
      reason: /^case 3 \(candidate\(3\)\): expected 6, got 7$/,
    },
  },
  typescript: {
    language: 'typescript',
    prompt: '//The value itself\nfunction ident(x: any): any {\n',
    program: '//The value itself\nfunction ident(x: any): any {\n  return x;\n',
    test: tsTest,
    values: JS_VALUES,
    several: {
      prompt: '//Twice k\nfunction twice(k: number): number {\n',
      test: tsTest([['1', '2'], ['2', '4'], ['3', '6'], ['4', '8']]).replace('ident', 'twice'),
      completion: '  return k === 3 ? 7 : 2 * k;\n',
      reason: /^case 3 \(candidate\(3\)\): expected 6, got 7$/,
    },
  },
  ocaml: {
    language: 'ocaml',
    prompt: '(**The value itself\n*)\nlet ident (x : \'a) : \'a =',
    program: '(**The value itself\n*)\nlet ident (x : \'a) : \'a = x\n',
    test: ocamlTest,
    values: OCAML_VALUES,
    several: {
      prompt: '(**Twice k\n*)\nlet twice (k : int) : int =',
      test: ocamlTest([['1', '2'], ['2', '4'], ['3', '6'], ['4', '8']]).replace('ident', 'twice'),
      completion: ' if k = 3 then 7 else 2 * k\n',
      reason: /^case 3 \(\(candidate \(3\)\)\): expected 6, got 7$/,
    },
  },
  haskell: {
    language: 'haskell',
    prompt: '-- | The value itself\nident :: a -> a\nident x =',
    program: '-- | The value itself\nident :: a -> a\nident x = x\n',
    test: haskellTest,
    values: HASKELL_VALUES,
    several: {
      prompt: '-- | Twice k\ntwice :: Int -> Int\ntwice k =',
      test: haskellTest([['1', '2'], ['2', '4'], ['3', '6'], ['4', '8']]).replace('ident', 'twice'),
      completion: ' if k == 3 then 7 else 2 * k\n',
      reason: /^case 3 \(candidate \(3\)\): expected 6, got 7$/,
    },
  },
};

/** A `script` problem in MultiPL-E's shape (as the `multipl-e` reader makes it). */
function problemOf(language: string, prompt: string, test: string): ScriptProblem {
  return { kind: 'script', taskId: `split-${language}`, language, dialect: 'multipl-e', prompt, test };
}

describe('split judging of MultiPL-E JavaScript, TypeScript, OCaml and Haskell', () => {
  for (const [name, table] of Object.entries(TABLES)) {
    describe(name, () => {
      const split: ValueSplit = MULTIPL_E_SPLITS[table.language]!;

      it('both programs give equal values for equal data and different values for different data', async () => {
        const test = table.test(table.values.map(([a, e]) => [a, e]));
        const tests = split.cases(test);
        assert.ok(tests !== undefined, test);
        assert.equal(tests.cases.length, table.values.length);
        const candidate = split.candidateProgram({ setup: '', program: table.program, tests });
        const expected = split.expectedProgram({ setup: '', prompt: table.prompt, tests });
        const [actualValues, expectedValues] = await Promise.all([
          printedValues(judge, table.language, candidate, table.values.length, LIMITS), printedValues(judge, table.language, expected, table.values.length, LIMITS),
        ]);
        table.values.forEach(([a, e, equal], i) => {
          const got = scriptValuesEqual(actualValues[i]!, expectedValues[i]!, split.tolerance);
          assert.equal(got, equal, `${a} vs ${e}: ${renderScriptValue(actualValues[i]!)} vs ${renderScriptValue(expectedValues[i]!)}`);
        });
      });

      it('a problem with several cases: the first wrong case is named in the reason', async () => {
        const problem = problemOf(table.language, table.several.prompt, table.several.test);
        assert.ok(splitOf(problem) !== undefined);
        const prepared = prepareSubmission(problem, { completion: table.several.completion }, { languages, modes });
        if (prepared.kind !== 'program') throw new Error('expected a program');
        const verdict = await judge.judge({ problem: { inline: problem }, program: prepared.program });
        assert.equal(verdict.status, 'wrong_answer', JSON.stringify(verdict));
        assert.match(verdict.reason ?? '', table.several.reason);
      });
    });
  }
});

/**
 * Split judging of MultiPL-E's compiled languages Rust, C++, Go and D (`src/kinds/script/multipl-e/<lang>.ts`), in the
 * real sandbox. For each language, one test text in MultiPL-E's shape whose cases compare values of every shape
 * the translator can emit (and a few more) is read by the language's `cases`; its candidate program and its
 * expected-values program are both compiled and run, and the values they print are compared: equal data must give
 * equal values, different data different ones (`[1, 2]` / `[2, 1]`, a map with one other value, `1` / `"1"`,
 * `true` / `1`, nested empties, unicode and quotes, 0.1 + 0.2 / 0.3, NaN / NaN, `0.1f` / `0.1`, invalid UTF-8 bytes), and
 * what the language's own comparison conflates must stay conflated (Go compares `%v` renderings: `1` equals `"1"`
 * and `[]int{1, 2}` equals `[]string{"1", "2"}` there; C++ and D compare `2L == 2.0` by value). Then a MultiPL-E problem with several cases is judged end to end: a completion that is
 * wrong on one case only fails with a reason naming that case. Two compiles per language for the shapes (the two
 * programs), two or three for the problem.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ProblemBase, ScriptProblem } from '../../../../src/formats/types.js';
import { readProblems } from '../../../../src/formats/index.js';
import { defaultModes, defineMode, type JudgingMode } from '../../../../src/kinds/index.js';
import { splitOf } from '../../../../src/kinds/script/script.js';
import { EXPECTED_VALUES_LIMITS, type SplitTests, type ValueSplit } from '../../../../src/kinds/script/split.js';
import { MULTIPL_E_SPLITS } from '../../../../src/kinds/script/multipl-e/index.js';
import { parseScriptValue, scriptValuesEqual, valueLines, type ScriptValue } from '../../../../src/kinds/script/values.js';
import { prepareSubmission } from '../../../../src/judge/submission.js';
import { LanguageRegistry } from '../../../../src/languages/registry.js';
import { createJudge } from '../../../../src/engine/factory.js';
import type { TestResult, Verdict } from '../../../../src/verdict/index.js';

/** A toy kind: run the candidate program, then (through the judge's tools) the expected program; keep both stdouts. */
interface TwoProgramsProblem extends ProblemBase {
  readonly kind: 'split_two_programs';
  readonly language: string;
  readonly expectedSource: string;
}

const outputs = new Map<string, { readonly candidate: string; readonly expected: string; readonly failure?: string }>();

const twoPrograms: JudgingMode<TwoProgramsProblem, 'program_runs', null> = {
  kind: 'split_two_programs',
  description: 'toy: the two programs of a split, both run, both stdouts kept',
  language: (problem) => problem.language,
  assemble: (_problem, code) => code,
  testCount: () => 1,
  plan: (_problem, program, { limits, failFast }) => ({ kind: 'program_runs', program, runs: [{ stdin: '', check: null }], limits, failFast }),
  judgeRun: async (problem, _run, index, result, tools): Promise<TestResult> => {
    const expected = await tools.runProgram({ language: problem.language, source: problem.expectedSource }, '', EXPECTED_VALUES_LIMITS);
    const failure = result.status !== 'ok' ? `candidate: ${result.status} ${result.stderr.slice(0, 2000)}`
      : expected.status !== 'ok' ? `expected: ${expected.status} ${expected.stderr.slice(0, 2000)}` : undefined;
    outputs.set(problem.taskId, { candidate: result.stdout, expected: expected.stdout, ...(failure === undefined ? {} : { failure }) });
    return { index, status: failure === undefined ? 'passed' : 'runtime_error', ...(failure === undefined ? {} : { reason: failure }) };
  },
  verdict: (_problem, outcome): Verdict => {
    if (!outcome.compiled) return { status: 'compile_error', passed: false, tests: [], testCount: 1, cpuMs: 0, wallMs: 0, reason: outcome.compile!.stderr.slice(0, 3000) };
    const test = outcome.tests[0]!;
    return { status: test.status, passed: test.status === 'passed', tests: [test], testCount: 1, cpuMs: 0, wallMs: 0,
      ...(test.reason === undefined ? {} : { reason: test.reason }) };
  },
};

const modes = defaultModes().with(defineMode(twoPrograms));
const languages = LanguageRegistry.load();
const judge = createJudge({ slots: 2, modes, languages, cacheDir: null });
const scratch = mkdtempSync(join(tmpdir(), 'crucible-split-compiled-'));
after(async () => { await judge.close(); rmSync(scratch, { recursive: true, force: true }); });

/** A language's shapes: a test text in MultiPL-E's shape built from named cases (actual and expected text). */
interface Shapes {
  readonly split: ValueSplit;
  readonly setup?: string;
  readonly prompt: string;
  readonly completion: string;
  /** Case name -> [the candidate side's expression, the expected side's (the same when absent)]. */
  readonly values: Readonly<Record<string, readonly [string, string?]>>;
  readonly test: (cases: readonly (readonly [string, string])[]) => string;
  /** [candidate side of a, expected side of b] pairs that must be equal. */
  readonly equal: readonly (readonly [string, string])[];
  readonly different: readonly (readonly [string, string])[];
}

/** Values every language has (named alike), compared alike. */
const COMMON_EQUAL: readonly (readonly [string, string])[] = [['map', 'mapReordered']];
const COMMON_DIFFERENT: readonly (readonly [string, string])[] = [
  ['list12', 'list21'], ['map', 'mapOther'], ['int1', 'true'], ['nested', 'nestedOther'], ['unicode', 'unicodeOther'],
  ['neg', 'int1'], ['f01', 'f1e300'], ['empty', 'emptyString'],
];

const SHAPES: Readonly<Record<string, Shapes>> = {
  rust: {
    split: MULTIPL_E_SPLITS.rust!,
    prompt: 'use std::collections::HashMap;\n\nfn identity(x: isize) -> isize {\n',
    completion: '    x\n',
    values: {
      call: ['candidate(7)', '7'],
      list12: ['vec![1isize, 2]'], list21: ['vec![2isize, 1]'],
      map: ['HashMap::from([(String::from("a"), 1isize), (String::from("b"), 2)])'],
      mapReordered: ['HashMap::from([(String::from("b"), 2isize), (String::from("a"), 1)])'],
      mapOther: ['HashMap::from([(String::from("a"), 1isize), (String::from("b"), 3)])'],
      int1: ['1isize'], str1: ['String::from("1")'], true: ['true'], neg: ['-1isize'],
      nested: ['vec![Vec::<isize>::new(), vec![]]'], nestedOther: ['vec![Vec::<isize>::new(), vec![0]]'],
      empty: ['Vec::<String>::new()'], emptyString: ['String::new()'],
      unicode: ['String::from("é \\" \\\\ \\n ☃ 😀 \\t")'], unicodeOther: ['String::from("é \\" \\\\ \\n ☃ 😁 \\t")'],
      sum: ['0.1f64 + 0.2'], f03: ['0.3f64'], f01: ['0.1f64'], f1e300: ['1e300f64'], nan: ['f64::NAN'],
      max: ['u64::MAX'], min: ['i64::MIN'], some: ['Some(3isize)'], none: ['None::<isize>'],
      tuple: ['(1isize, String::from("x"), true, -2.5f64)'], optionTuple: ['(None::<isize>, Some(1isize))'],
      pairs: ['vec![(1isize, 2isize), (3, 4)]'], strings: ['vec![String::from(""), String::from("a b")]'],
    },
    test: (cases) => `}\n\nfn main() {\n    let candidate = identity;\n${cases.map(([a, e]) => `    assert_eq!(${a}, ${e});\n`).join('')}}\n`,
    equal: [...COMMON_EQUAL],
    different: [...COMMON_DIFFERENT, ['int1', 'str1'], ['sum', 'f03'], ['nan', 'nan'], ['some', 'none'], ['max', 'min'], ['optionTuple', 'pairs']],
  },
  cpp: {
    split: MULTIPL_E_SPLITS.cpp!,
    prompt: '#include<assert.h>\n#include<bits/stdc++.h>\nlong identity(long x) {\n',
    completion: '    return x;\n',
    values: {
      call: ['candidate(7)', '(7)'],
      list12: ['(std::vector<long>({(long)1, (long)2}))'], list21: ['(std::vector<long>({(long)2, (long)1}))'],
      map: ['(std::map<std::string,long>({{"a", 1}, {"b", 2}}))'],
      mapReordered: ['(std::unordered_map<std::string,long>({{"b", 2}, {"a", 1}}))'],
      mapOther: ['(std::map<std::string,long>({{"a", 1}, {"b", 3}}))'],
      int1: ['(1)'], str1: ['(std::string)"1"'], true: ['(true)'], neg: ['(-1)'], long2: ['2L'], double2: ['2.0'],
      nested: ['(std::vector<std::vector<long>>({std::vector<long>(), std::vector<long>()}))'],
      nestedOther: ['(std::vector<std::vector<long>>({std::vector<long>(), std::vector<long>({(long)0})}))'],
      empty: ['(std::vector<std::string>())'], emptyString: ['(std::string)""'],
      unicode: ['(std::string)"é \\" \\\\ \\n ☃ 😀 \\t"'], unicodeOther: ['"é \\" \\\\ \\n ☃ 😁 \\t"'],
      sum: ['0.1 + 0.2'], f03: ['0.3'], f01: ['(0.1f)'], double01: ['0.1'], f1e300: ['1e300'], nan: ['std::nan("")'],
      some: ['std::optional<long>(3)'], three: ['3'], none: ['std::optional<long>()'], nullopt: ['std::nullopt'],
      tuple: ['std::make_tuple(1, (std::string)"x", true, -2.5f)'],
      optionTuple: ['std::make_tuple(std::optional<long>(std::nullopt), std::optional<long>(1))'], intTuple: ['std::make_tuple(0, 1)'],
      bytes: ['(std::string)"\\xff"'], bytesOther: ['(std::string)"\\xfe"'], char: ["'x'"], strX: ['"x"'],
    },
    test: (cases) => `}\nint main() {\n    auto candidate = identity;\n${cases.map(([a, e]) => `    assert(${a} == ${e});\n`).join('')}}\n`,
    equal: [...COMMON_EQUAL, ['long2', 'double2'], ['some', 'three'], ['none', 'nullopt']],
    different: [...COMMON_DIFFERENT, ['int1', 'str1'], ['sum', 'f03'], ['nan', 'nan'], ['f01', 'double01'], ['some', 'none'], ['optionTuple', 'intTuple'], ['bytes', 'bytesOther']],
  },
  go: {
    split: MULTIPL_E_SPLITS.go!,
    setup: 'package main\n\nimport (\n    "testing"\n    "fmt"\n)\n\n',
    prompt: 'func identity(x int) int {\n',
    completion: '    return x\n}\n',
    values: {
      call: ['candidate(7)', '7'],
      list12: ['[]int{1, 2}'], list21: ['[]int{2, 1}'], strings12: ['[]string{"1", "2"}'],
      map: ['map[string]int{"a": 1, "b": 2}'], mapReordered: ['map[string]int{"b": 2, "a": 1}'], mapOther: ['map[string]int{"a": 1, "b": 3}'],
      int1: ['1'], str1: ['"1"'], str1x: ['"1 "'], true: ['true'], neg: ['-1'], float3: ['3.0'], int3: ['3'],
      nested: ['[][]int{[]int{}, []int{}}'], nestedOther: ['[][]int{[]int{}, []int{0}}'],
      empty: ['[]string{}'], emptyString: ['""'],
      unicode: ['"é \\" \\\\ \\n ☃ 😀 \\t"'], unicodeOther: ['"é \\" \\\\ \\n ☃ 😁 \\t"'],
      f01: ['0.1'], f1e300: ['1e300'], floats: ['[]float64{1.5, 2}'],
      nil: ['[]interface{}{nil, 1}'], nilOther: ['[]interface{}{1, nil}'], bytes: ['"\\xff"'], bytesOther: ['"\\xfe"'],
    },
    test: (cases) => 'func TestIdentity(t *testing.T) {\n  candidate := identity\n\ttype test struct {\n\t\tactual   interface{}\n\t\texpected interface{}\n\t}\n'
      + `   tests := []test{\n${cases.map(([a, e]) => `     { actual: ${a}, expected: ${e} },\n`).join('')}   }\n\n`
      + '\tfor i, tc := range tests {\n\t\tt.Run(fmt.Sprintf("test num % d", i), func(t *testing.T) {\n'
      + '\t\t\tif fmt.Sprintf("%v", tc.actual) != fmt.Sprintf("%v", tc.expected) {\n'
      + '\t\t\t\tt.Errorf("expected \'%s\', got \'%s\'", tc.expected, tc.actual)\n\t\t\t}\n\t\t})\n\t}\n}\n',
    // MultiPL-E's Go compares `%v` renderings: these are equal there, and so here.
    equal: [...COMMON_EQUAL, ['list12', 'strings12'], ['int1', 'str1'], ['float3', 'int3']],
    // (Go's `0.1 + 0.2` is a constant expression, computed exactly: it is 0.3.)
    different: [...COMMON_DIFFERENT, ['int1', 'str1x'], ['nil', 'nilOther'], ['bytes', 'bytesOther'], ['floats', 'list12']],
  },
  d: {
    split: MULTIPL_E_SPLITS.d!,
    prompt: 'import std.math;\nimport std.typecons;\nT identity(T)(T x) \n',
    completion: '{\n    return x;\n}\n',
    values: {
      list12: ['candidate([1L, 2L])', '[1L, 2L]'], list21: ['candidate([2L, 1L])', '[2L, 1L]'],
      map: ['candidate(["a": 1L, "b": 2L])', '["a": 1L, "b": 2L]'], mapReordered: ['candidate(["b": 2L, "a": 1L])', '["b": 2L, "a": 1L]'],
      mapOther: ['candidate(["a": 1L, "b": 3L])', '["a": 1L, "b": 3L]'],
      int1: ['candidate(1L)', '1L'], str1: ['candidate("1")', '"1"'], true: ['candidate(true)', 'true'], neg: ['candidate(-1L)', '-1L'],
      long2: ['candidate(2L)', '2L'], double2: ['candidate(2.0)', '2.0'],
      nested: ['candidate([[0L][0 .. 0], []])', '[[0L][0 .. 0], []]'], nestedOther: ['candidate([[0L][0 .. 0], [0L]])', '[[0L][0 .. 0], [0L]]'],
      empty: ['candidate(new string[](0))', '[]'], emptyString: ['candidate("")', '""'],
      unicode: ['candidate("é \\" \\\\ \\n ☃ 😀 \\t")', '"é \\" \\\\ \\n ☃ 😀 \\t"'],
      unicodeOther: ['candidate("é \\" \\\\ \\n ☃ 😁 \\t")', '"é \\" \\\\ \\n ☃ 😁 \\t"'],
      f01: ['candidate(0.1f)', '0.1f'], double01: ['candidate(0.1)', '0.1'],
      f1e300: ['candidate(1e300)', '1e300'], nan: ['candidate(double.nan)', 'double.nan'],
      tuple: ['candidate(tuple(1L, "x", true, -2.5))', 'tuple(1L, "x", true, -2.5)'],
      strings: ['candidate(["", "a b"])', '["", "a b"]'], pairs: ['candidate([tuple(1L, 2L), tuple(3L, 4L)])', '[tuple(1L, 2L), tuple(3L, 4L)]'],
      bytes: ['candidate("\\xff")', '"\\xff"'], bytesOther: ['candidate("\\xfe")', '"\\xfe"'],
    },
    test: (cases) => `unittest\n{\n    alias candidate = identity;\n\n${cases.map(([a, e]) => `    assert(${a} == ${e});\n`).join('')}`
      + '{\n        auto result = candidate(Nullable!long());\n        assert(result.isNull);\n}\n\n'
      + '{\n        auto result = candidate(nullable(3L));\n        assert(!result.isNull && result.get == 3L);\n}\n\n'
      + '{\n        auto result = candidate(tuple(Nullable!long(), nullable(1L)));\n        assert(result[0].isNull);\n'
      + '        assert(!result[1].isNull && result[1].get == 1L);\n}\n\n}\nvoid main(){}',
    equal: [...COMMON_EQUAL, ['long2', 'double2']],
    different: [...COMMON_DIFFERENT, ['int1', 'str1'], ['nan', 'nan'], ['f01', 'double01'], ['bytes', 'bytesOther'], ['pairs', 'strings']],
  },
};

/** The Nullable blocks D's test adds after the named cases: [their candidate-side value, expected-side value]. */
const D_NULLABLE_VALUES = ['null', '3', '[null,1]'];

/**
 * The cases of the shapes' test text. C++ reads literals of several kinds in one test as a union-returning
 * problem (judged as one program), so there each case is read from a test of its own and the reads are joined.
 */
function readCases(language: string, shapes: Shapes, cases: readonly (readonly [string, string])[]): SplitTests {
  const whole = shapes.split.cases(shapes.test(cases));
  if (whole !== undefined || language !== 'cpp') {
    assert.ok(whole !== undefined, 'the test text is read as cases');
    return whole;
  }
  const each = cases.map((c) => shapes.split.cases(shapes.test([c])));
  assert.ok(each.every((read) => read?.cases.length === 1 && read.prelude === each[0]!.prelude), 'each case is read');
  return { prelude: each[0]!.prelude, cases: each.map((read) => read!.cases[0]!) };
}

async function runTwoPrograms(taskId: string, language: string, candidateSource: string, expectedSource: string) {
  const problem: TwoProgramsProblem = { kind: 'split_two_programs', taskId, language, expectedSource };
  const prepared = prepareSubmission(problem, { code: candidateSource }, { languages, modes });
  if (prepared.kind !== 'program') throw new Error('expected a program');
  const verdict = await judge.judge({ problem: { inline: problem }, program: prepared.program });
  assert.equal(verdict.status, 'passed', JSON.stringify(verdict));
  return outputs.get(taskId)!;
}

function valuesOf(stdout: string, count: number): ScriptValue[] {
  const lines = valueLines(stdout);
  return Array.from({ length: count }, (_, i) => {
    const texts = lines.get(i);
    assert.equal(texts?.length, 1, `case ${i}: ${JSON.stringify(texts)} in ${stdout.slice(0, 2000)}`);
    return parseScriptValue(texts![0]!);
  });
}

for (const [language, shapes] of Object.entries(SHAPES)) {
  describe(`${language} split: the two programs give equal values for equal data, different for different`, () => {
    const names = Object.keys(shapes.values);
    const cases = names.map((name) => [shapes.values[name]![0], shapes.values[name]![1] ?? shapes.values[name]![0]] as const);
    let actual: ScriptValue[];
    let expected: ScriptValue[];
    before(async () => {
      const read = readCases(language, shapes, cases);
      const count = read.cases.length;
      const candidate = shapes.split.candidateProgram({ setup: shapes.setup ?? '', program: shapes.prompt + shapes.completion, tests: read });
      const expectedSource = shapes.split.expectedProgram({ setup: shapes.setup ?? '', prompt: shapes.prompt, tests: read });
      const out = await runTwoPrograms(`shapes/${language}`, language, candidate, expectedSource);
      actual = valuesOf(out.candidate, count);
      expected = valuesOf(out.expected, count);
    });
    it('every case of the test text is read, in order', () => {
      const read = readCases(language, shapes, cases);
      assert.deepEqual(read.cases.slice(0, names.length).map((c) => [c.actual, c.expected]), cases.map(([a, e]) => [a, e]));
    });
    it('each value equals itself across the two programs (NaN excepted: it equals nothing)', () => {
      names.forEach((name, i) => {
        if (name === 'nan') return;
        assert.ok(scriptValuesEqual(actual[i]!, expected[i]!), `${name}: ${JSON.stringify(actual[i], bigints)} vs ${JSON.stringify(expected[i], bigints)}`);
      });
    });
    it('equal data gives equal values', () => {
      for (const [a, b] of shapes.equal) {
        assert.ok(scriptValuesEqual(actual[names.indexOf(a)]!, expected[names.indexOf(b)]!), `${a} = ${b}`);
      }
    });
    it('different data gives different values', () => {
      for (const [a, b] of shapes.different) {
        assert.ok(names.includes(a) && names.includes(b), `${a}, ${b}`);
        assert.ok(!scriptValuesEqual(actual[names.indexOf(a)]!, expected[names.indexOf(b)]!), `${a} != ${b}: ${JSON.stringify(actual[names.indexOf(a)], bigints)}`);
      }
    });
    if (language === 'd') {
      it('a Nullable result is null or its value, a tuple of them an array', () => {
        D_NULLABLE_VALUES.forEach((text, k) => {
          const i = names.length + k;
          assert.ok(scriptValuesEqual(actual[i]!, parseScriptValue(text)), `${k}: ${JSON.stringify(actual[i], bigints)}`);
          assert.ok(scriptValuesEqual(expected[i]!, parseScriptValue(text)), `${k}: ${JSON.stringify(expected[i], bigints)}`);
        });
      });
    }
  });
}

function bigints(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

/** A running-sums problem in MultiPL-E's shape per language: four cases with list arguments, a wrong completion fails the third only. */
const PROBLEMS: Readonly<Record<string, { readonly name: string; readonly prompt: string; readonly tests: string; readonly correct: string; readonly wrongOnThird: string }>> = {
  rust: {
    name: 'rs',
    prompt: '/// The running sums of xs\nfn sums(xs: Vec<isize>) -> Vec<isize> {\n',
    tests: '}\n\nfn main() {\n    let candidate = sums;\n    assert_eq!(candidate(vec![]), Vec::<isize>::new());\n'
      + '    assert_eq!(candidate(vec![1, 2]), vec![1, 3]);\n    assert_eq!(candidate(vec![5, -5, 7]), vec![5, 0, 7]);\n'
      + '    assert_eq!(candidate(vec![2]), vec![2]);\n}\n',
    correct: '    let mut s = 0;\n    xs.iter().map(|x| { s += x; s }).collect()\n',
    wrongOnThird: '    let mut s = 0;\n    xs.iter().map(|x| { s += x; if s == 0 { 1 } else { s } }).collect()\n',
  },
  cpp: {
    name: 'cpp',
    prompt: '#include<assert.h>\n#include<bits/stdc++.h>\n// The running sums of xs\nstd::vector<long> sums(std::vector<long> xs) {\n',
    tests: '}\nint main() {\n    auto candidate = sums;\n    assert(candidate((std::vector<long>())) == (std::vector<long>()));\n'
      + '    assert(candidate((std::vector<long>({(long)1, (long)2}))) == (std::vector<long>({(long)1, (long)3})));\n'
      + '    assert(candidate((std::vector<long>({(long)5, (long)-5, (long)7}))) == (std::vector<long>({(long)5, (long)0, (long)7})));\n'
      + '    assert(candidate((std::vector<long>({(long)2}))) == (std::vector<long>({(long)2})));\n}\n',
    correct: '    long s = 0;\n    for (auto& x : xs) { s += x; x = s; }\n    return xs;\n',
    wrongOnThird: '    long s = 0;\n    for (auto& x : xs) { s += x; x = s == 0 ? 1 : s; }\n    return xs;\n',
  },
  go: {
    name: 'go_test.go',
    prompt: 'package sums_test\n\nimport (\n    "testing"\n    "fmt"\n)\n\n// The running sums of xs\nfunc sums(xs []int) []int {\n',
    tests: 'func TestSums(t *testing.T) {\n  candidate := sums\n\ttype test struct {\n\t\tactual   interface{}\n\t\texpected interface{}\n\t}\n'
      + '   tests := []test{\n     { actual: candidate([]int{}), expected: []int{} },\n     { actual: candidate([]int{1, 2}), expected: []int{1, 3} },\n'
      + '     { actual: candidate([]int{5, -5, 7}), expected: []int{5, 0, 7} },\n     { actual: candidate([]int{2}), expected: []int{2} },\n   }\n\n'
      + '\tfor i, tc := range tests {\n\t\tt.Run(fmt.Sprintf("test num % d", i), func(t *testing.T) {\n'
      + '\t\t\tif fmt.Sprintf("%v", tc.actual) != fmt.Sprintf("%v", tc.expected) {\n'
      + '\t\t\t\tt.Errorf("expected \'%s\', got \'%s\'", tc.expected, tc.actual)\n\t\t\t}\n\t\t})\n\t}\n}\n',
    correct: '    s := 0\n    out := []int{}\n    for _, x := range xs { s += x; out = append(out, s) }\n    return out\n}\n',
    wrongOnThird: '    s := 0\n    out := []int{}\n    for _, x := range xs { s += x; if s == 0 { out = append(out, 1) } else { out = append(out, s) } }\n    return out\n}\n',
  },
  d: {
    name: 'd',
    prompt: 'import std.math;\nimport std.typecons;\n/*\nThe running sums of xs\n*/\nlong[] sums(long[] xs) \n',
    tests: 'unittest\n{\n    alias candidate = sums;\n\n    assert(candidate([]) == []);\n    assert(candidate([1L, 2L]) == [1L, 3L]);\n'
      + '    assert(candidate([5L, -5L, 7L]) == [5L, 0L, 7L]);\n    assert(candidate([2L]) == [2L]);\n}\nvoid main(){}',
    correct: '{\n    long s = 0;\n    long[] out_;\n    foreach (x; xs) { s += x; out_ ~= s; }\n    return out_;\n}\n',
    wrongOnThird: '{\n    long s = 0;\n    long[] out_;\n    foreach (x; xs) { s += x; out_ ~= s == 0 ? 1 : s; }\n    return out_;\n}\n',
  },
};

for (const [language, p] of Object.entries(PROBLEMS)) {
  describe(`${language} split: a MultiPL-E problem with several cases`, () => {
    let problem: ScriptProblem;
    before(async () => {
      const path = join(scratch, `${language}.jsonl`);
      writeFileSync(path, `${JSON.stringify({ name: 'HumanEval_900_sums', language: p.name, prompt: p.prompt, tests: p.tests, stop_tokens: [] })}\n`);
      problem = (await readProblems(path, 'multipl-e'))[0] as ScriptProblem;
    });
    async function judgeCompletion(completion: string): Promise<Verdict> {
      const prepared = prepareSubmission(problem, { completion }, { languages, modes });
      if (prepared.kind !== 'program') throw new Error('expected a program');
      return judge.judge({ problem: { inline: problem }, program: prepared.program });
    }
    it('is judged split: four cases read', () => {
      assert.equal(splitOf(problem)?.tests.cases.length, 4);
    });
    it('a correct completion passes', async () => {
      const v = await judgeCompletion(p.correct);
      assert.equal(v.status, 'passed', JSON.stringify(v));
    });
    it('a completion wrong on the third case only fails there, and the reason names it', async () => {
      const v = await judgeCompletion(p.wrongOnThird);
      assert.equal(v.status, 'wrong_answer', JSON.stringify(v));
      assert.match(v.reason ?? '', /^case 3 \(candidate\(/);
      assert.match(v.reason ?? '', /expected .*5.*0.*7.*got .*5.*1.*7/);
    });
  });
}

describe('C++ split: a result of one of the translator\'s unions, its member chosen by the literal as the test\'s == does', () => {
  it('literals of two kinds compared with one function\'s result are read as union cases, unless one is std::nullopt; a float written float(3) is a number', () => {
    const union = '}\nint main() {\n    auto candidate = rounded_avg;\n    assert(candidate((1), (5)) == "0b11");\n    assert(candidate((7), (5)) == -1);\n}\n';
    assert.equal(MULTIPL_E_SPLITS.cpp!.cases(union)?.cases.length, 2);
    const vectorOrCount = '}\nint main() {\n    auto candidate = split_words;\n'
      + '    assert(candidate(("a b")) == std::vector<std::string>({(std::string)"a", (std::string)"b"}));\n    assert(candidate(("abcdef")) == 3);\n}\n';
    assert.equal(MULTIPL_E_SPLITS.cpp!.cases(vectorOrCount)?.cases.length, 2);
    const optionalMember = '}\nint main() {\n    auto candidate = compare_one;\n    assert(candidate(1, "2,3") == "2,3");\n'
      + '    assert(candidate(5, 6) == 6);\n    assert(candidate("1", 1) == std::nullopt);\n}\n';
    assert.equal(MULTIPL_E_SPLITS.cpp!.cases(optionalMember), undefined);
    const floats = '}\nint main() {\n    auto candidate = median;\n    assert(candidate((std::vector<long>({(long)5}))) == (float(5)));\n'
      + '    assert(candidate((std::vector<long>({(long)6, (long)5}))) == (5.5f));\n}\n';
    assert.equal(MULTIPL_E_SPLITS.cpp!.cases(floats)?.cases.length, 2);
    const optional = '}\nint main() {\n    auto candidate = next_smallest;\n    assert(candidate((std::vector<long>())) == std::nullopt);\n'
      + '    assert(candidate((std::vector<long>({(long)1, (long)2}))) == 2);\n}\n';
    assert.equal(MULTIPL_E_SPLITS.cpp!.cases(optional)?.cases.length, 2);
  });

  it('a union-returning problem with MultiPL-E\'s own includes, split: a correct completion passes, wrong ones fail, an always-true == does not help', async () => {
    const prompt = '#include<assert.h>\n#include<bits/stdc++.h>\nunion Union_std_string_long{\n    std::string f0;\n'
      + '    long f1;    Union_std_string_long(std::string _f0) : f0(_f0) {}\n    Union_std_string_long(long _f1) : f1(_f1) {}\n'
      + '    ~Union_std_string_long() {}\n    bool operator==(std::string f) {\n        return f0 == f ;\n    }    bool operator==(long f) {\n'
      + '        return f1 == f ;\n    }\n};\n// Average of n..m in binary, or -1\nUnion_std_string_long rounded_avg(long n, long m) {\n';
    const tests = '}\nint main() {\n    auto candidate = rounded_avg;\n    assert(candidate((1), (5)) == "0b11");\n    assert(candidate((7), (5)) == -1);\n}\n';
    const path = join(scratch, 'union.jsonl');
    writeFileSync(path, `${JSON.stringify({ name: 'HumanEval_103_rounded_avg', language: 'cpp', prompt, tests, stop_tokens: [] })}\n`);
    const problem = (await readProblems(path, 'multipl-e'))[0] as ScriptProblem;
    assert.notEqual(splitOf(problem), undefined);
    const judged = async (completion: string): Promise<Verdict> => {
      const prepared = prepareSubmission(problem, { completion }, { languages, modes });
      if (prepared.kind !== 'program') throw new Error('expected a program');
      return judge.judge({ problem: { inline: problem }, program: prepared.program });
    };
    const correct = '    if (n > m) return -1L;\n    long avg = (n + m) / 2;\n    std::string s;\n'
      + '    while (avg > 0) { s = char(\'0\' + avg % 2) + s; avg /= 2; }\n    return std::string("0b") + s;\n';
    const ok = await judged(correct);
    assert.equal(ok.status, 'passed', JSON.stringify(ok));
    // The first case reads the string member of a union holding a long, as the benchmark's own == would: undefined
    // behaviour (a crash, or a string made of whatever the long's bytes point to), never a pass.
    const wrong = await judged('    return -1L;\n');
    assert.ok(wrong.status === 'wrong_answer' || wrong.status === 'runtime_error', JSON.stringify(wrong));
    const offByOne = await judged(correct.replace('(n + m) / 2', '(n + m) / 2 + 1'));
    assert.equal(offByOne.status, 'wrong_answer', JSON.stringify(offByOne));
    assert.match(offByOne.reason ?? '', /^case 1 \(candidate\(\(1\), \(5\)\)\): expected "0b11", got "0b100"/);
    // In one program these free operators, exact matches for the literals, would be the ones the test's == picks.
    const alwaysEqual = await judged('    return std::string("0b0");\n}\n'
      + 'bool operator==(const Union_std_string_long&, const char*) { return true; }\n'
      + 'bool operator==(const Union_std_string_long&, int) { return true; }\nvoid crucible_unused() {\n');
    assert.equal(alwaysEqual.status, 'wrong_answer', JSON.stringify(alwaysEqual));
    assert.match(alwaysEqual.reason ?? '', /^case 1 /);
  });
});

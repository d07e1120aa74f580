/**
 * Split judging of MultiPL-E script problems in Ruby, Perl, PHP and Bash (`src/kinds/script/multipl-e/<lang>.ts`), in the
 * real sandbox. Per language, a table of shapes: the candidate-side value (returned by a function, printed by the
 * candidate program's driver) and the expected literal (printed by the trusted expected-values program), with
 * whether the language's own test comparison (Ruby `==`, Perl `eq_deeply`, PHP `===`, Bash `[[ a = "b" ]]`) finds
 * them equal; the value comparison outside the boxes must agree on every row. Both programs are built from a test
 * text in MultiPL-E's shape, read by the split's `cases`. Then values that are no values fail the case as a runtime
 * error, and a MultiPL-E problem with several cases names the first wrong case in its reason.
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
import { MULTIPL_E_SPLITS } from '../../../../src/kinds/script/multipl-e/index.js';
import { parseScriptValue, renderScriptValue, scriptValuesEqual, valueLines, type ScriptValue } from '../../../../src/kinds/script/values.js';
import { prepareSubmission } from '../../../../src/judge/submission.js';
import { runLimits } from '../../../../src/limits.js';
import { createJudge } from '../../../../src/engine/factory.js';
import { openExecutor } from '../../../support/sandbox.js';

const { sandbox, executor, languages } = openExecutor();
const modes = defaultModes();
const judge = createJudge({ slots: 2, modes, languages, cacheDir: null });
const scratch = mkdtempSync(join(tmpdir(), 'crucible-split-a-'));
after(async () => {
  await judge.close();
  await executor.close();
  sandbox.close();
  rmSync(scratch, { recursive: true, force: true });
});
const limits = runLimits({ cpuMs: 10_000 });

/** [candidate-side value, expected literal, equal under the language's own test comparison]. */
type Shape = readonly [string, string, boolean];

interface Language {
  /** MultiPL-E's name for it (a problem row's `language`). */
  readonly multiplE: string;
  readonly shapes: readonly Shape[];
  /** Prompt + completion of a function `shape` returning the k-th candidate-side value (k from 0). */
  program(values: readonly string[]): string;
  /** The test text in MultiPL-E's shape: case k calls the candidate with k and compares with `expected[k]`. */
  tests(expected: readonly string[]): string;
  /** Candidate-side values that are not values (each alone: the case must fail as a runtime error). */
  readonly notValues: readonly (readonly [string, RegExp])[];
}

const RUBY: Language = {
  multiplE: 'rb',
  shapes: [
    ['[1, 2]', '[1, 2]', true],
    ['[1, 2]', '[2, 1]', false],
    ['{"a" => 1, "b" => [2]}', '{"b" => [2], "a" => 1}', true],
    ['{"a" => 1, "b" => 2}', '{"a" => 1, "b" => 3}', false],
    ['1', '"1"', false],
    ['true', '1', false],
    ['nil', 'false', false],
    ['nil', 'nil', true],
    ['1', '1.0', true],
    ['[[], {}, [[]]]', '[[], {}, [[]]]', true],
    ['[[]]', '[{}]', false],
    ['"é \\" \' \\\\ \\n\\t\\u0001 ☃ 😀"', '"é \\" \' \\\\ \\n\\t\\u0001 ☃ 😀"', true],
    ['"é"', '"e"', false],
    ['"a".b', '"a"', true],
    ['0.1', '0.1', true],
    ['0.1 + 0.2', '0.3', false],
    ['1e300', '1e300', true],
    ['-5', '-5', true],
    ['-5', '5', false],
    ['2**100', '1267650600228229401496703205376', true],
    ['2**100 + 1', '1267650600228229401496703205376', false],
    ['Rational(5, 1)', '5', true],
    ['Rational(1, 2)', '0.5', true],
    ['Float::INFINITY', 'Float::INFINITY', true],
    ['Float::NAN', 'Float::NAN', false],
    ['Set[1]', '[1]', false],
  ],
  program: (values) => 'require \'set\'\n# Shapes.\ndef shape(k)\n'
    + `  case k\n${values.map((v, k) => `  when ${k} then (${v})\n`).join('')}  end\nend\n`,
  tests: (expected) => 'require \'test/unit\'\nclass TestHumanEval < Test::Unit::TestCase\n  def test_shape\n    candidate = method(:shape)\n'
    + expected.map((e, k) => `    assert_equal(${e}, candidate.call(${k}))\n`).join('') + '  end\nend\n',
  notValues: [[':a', /a Symbol cannot be given as a value/], ['1..2', /a Range cannot be given as a value/],
    ['Object.new.tap { |o| def o.==(other) = true }', /an? Object cannot be given as a value/]],
};

const PERL: Language = {
  multiplE: 'pl',
  shapes: [
    ['[1, 2]', '[1, 2]', true],
    ['[1, 2]', '[2, 1]', false],
    ['{a => 1, b => [2]}', '{b => [2], a => 1}', true],
    ['{a => 1, b => 2}', '{a => 1, b => 3}', false],
    ['1', '"1"', true],
    ['1.0', '1', true],
    ['"1.0"', '1', false],
    ['""', '0', false],
    ['undef', '""', false],
    ['undef', 'undef', true],
    ['!!1', '1', true],
    ['!!0', '""', true],
    ['0.1 + 0.2', '0.3', true],
    ['1e300', '1e300', true],
    ['-5', '-5', true],
    ['-5', '5', false],
    ['[[], {}, [[]]]', '[[], {}, [[]]]', true],
    ['[[]]', '[{}]', false],
    ['[undef]', '[]', false],
    ['"é \\" \' \\\\ \\n\\t\\x01 ☃ 😀"', '"é \\" \' \\\\ \\n\\t\\x01 ☃ 😀"', true],
    ['"\\x{263a}\\x{1F600}"', '"\\x{263a}\\x{1F600}"', true],
    ['"\\x{e9}"', '"é"', false],
    ['"é"', '"e"', false],
  ],
  program: (values) => '# Shapes.\nsub shape {\n    my ($k) = @_;\n' + values.map((v, k) => `    return (${v}) if $k == ${k};\n`).join('') + '}\n',
  tests: (expected) => 'use Test::Deep;\n\n\nsub testhumaneval {\n    my $candidate = \\&shape;\n'
    + expected.map((e, k) => `        if(eq_deeply($candidate->(${k}),${e})) {\n        print "ok!" }else{\n        exit 1;\n        }\n`).join('')
    + '}\n\ntesthumaneval();',
  notValues: [['bless([], "Crucible::Any")', /a blessed reference \(Crucible::Any\) cannot be given as a value/],
    ['sub { 1 }', /a reference to CODE cannot be given as a value/], ['\\"a"', /a reference to SCALAR cannot be given as a value/],
    ['(1, 1)', /returned a list of 2 values/]],
};

const PHP: Language = {
  multiplE: 'php',
  shapes: [
    ['array(1, 2)', 'array(1, 2)', true],
    ['array(1, 2)', 'array(2, 1)', false],
    ['array("a" => 1, "b" => array(2))', 'array("a" => 1, "b" => array(2))', true],
    ['array("a" => 1, "b" => 2)', 'array("b" => 2, "a" => 1)', false],
    ['array("a" => 1, "b" => 2)', 'array("a" => 1, "b" => 3)', false],
    ['array(1 => "a", 0 => "b")', 'array("b", "a")', false],
    ['array(0 => "b", 1 => "a")', 'array("b", "a")', true],
    ['array("1" => 5)', 'array(1 => 5)', true],
    ['array(1 => 5)', 'array(5)', false],
    ['1', '"1"', false],
    ['true', '1', false],
    ['null', 'false', false],
    ['null', 'null', true],
    ['1', '1.0', false],
    ['array(1)', 'array(1.0)', false],
    ['1.0', '1.0', true],
    ['-0.0', '0.0', true],
    ['0.1', '0.1', true],
    ['0.1 + 0.2', '0.3', false],
    ['1e300', '1e300', true],
    ['PHP_INT_MAX + 1', '9223372036854775808', true],
    ['-5', '-5', true],
    ['-5', '5', false],
    ['INF', 'INF', true],
    ['NAN', 'NAN', false],
    ['array(array(), array(array()))', 'array(array(), array(array()))', true],
    ['"é \\" \' \\\\ \\n\\t\\x01 ☃ 😀"', '"é \\" \' \\\\ \\n\\t\\x01 ☃ 😀"', true],
    ['"\\xff"', '"\\xff"', true],
    ['"\\xff"', '"ÿ"', false],
    ['"é"', '"e"', false],
  ],
  program: (values) => '<?php\n// Shapes.\nfunction shape($k) {\n'
    + `    switch ($k) {\n${values.map((v, k) => `        case ${k}: return ${v};\n`).join('')}    }\n}\n`,
  tests: (expected) => 'function candidate(...$args) {\n    return shape(...$args);\n}\n\nfunction test(): void {\n'
    + expected.map((e, k) => `    if (candidate(${k}) !== ${e}) { throw new Exception("Test failed!"); }\n`).join('') + '}\n\ntest();',
  notValues: [['new stdClass()', /a stdClass cannot be given as a value/], ['fn () => 1', /a Closure cannot be given as a value/]],
};

const BASH: Language = {
  multiplE: 'sh',
  shapes: [
    ['echo "1 2"', '"1 2"', true],
    ['echo "1 2"', '"2 1"', false],
    ['printf \'1\\n\\n\\n\'', '"1"', true],
    ['printf \'1 2\\n3 4\'', '"1 2\\n3 4"', false],
    ['printf \'%s\' \'1 2\\n3 4\'', '"1 2\\n3 4"', true],
    ['echo 1', '"1"', true],
    ['echo 1.0', '"1"', false],
    ['echo " 1"', '"1"', false],
    ['echo', '""', true],
    ['echo 5; return 1', '"5"', true],
    ['echo "é ☃ 😀"', '"é ☃ 😀"', true],
    ['echo "\\"q\\" \\\\ \\$x"', '"\\"q\\" \\\\ \\$x"', true],
    ['printf \'a\\tb\\001\'', '"a\tb\u0001"', true],
    ['echo "a\\!"', '"a\\!"', true],
    ['echo "a!"', '"a\\!"', false],
    ['echo "*"', '"*"', true],
    ['echo abc', '"*"', false],
    ['echo true', '"true"', true],
    ['echo None', '"None"', true],
  ],
  program: (values) => '#!/bin/bash\n# Shapes.\nshape() {\n' + `    case $1 in\n${values.map((v, k) => `        ${k}) ${v} ;;\n`).join('')}    esac\n`,
  tests: (expected) => '}\n\ncandidate() {\n    shape "$@"\n}\n\nset -e\nrun_test() {\n'
    + expected.map((e, k) => `    [[ $(candidate "${k}") = ${e} ]]\n`).join('') + '}\n\nrun_test',
  notValues: [],
};

const LANGUAGES: Readonly<Record<string, Language>> = { ruby: RUBY, perl: PERL, php: PHP, bash: BASH };

async function values(language: string, source: string, count: number): Promise<ScriptValue[]> {
  const r = await executor.runProgram(languages.get(language), source, '', limits);
  assert.equal(r.status, 'ok', `${r.reason ?? ''} ${r.stderr}`);
  const lines = valueLines(r.stdout);
  return Array.from({ length: count }, (_, i) => {
    const texts = lines.get(i);
    assert.equal(texts?.length, 1, `case ${i}: ${r.stdout}`);
    return parseScriptValue(texts![0]!);
  });
}

function testsOf(split: ValueSplit, text: string, count: number): SplitTests {
  const tests = split.cases(text);
  assert.ok(tests !== undefined, 'the tests are read as cases');
  assert.equal(tests.cases.length, count);
  return tests;
}

async function problemOf(name: string, lang: Language, prompt: string, tests: string): Promise<ScriptProblem> {
  const path = join(scratch, `${name}.jsonl`);
  writeFileSync(path, `${JSON.stringify({ name: `HumanEval_0_${name}`, language: lang.multiplE, prompt, tests, stop_tokens: [] })}\n`);
  const [problem] = await readProblems(path, 'multipl-e') as ScriptProblem[];
  return problem!;
}

for (const [id, lang] of Object.entries(LANGUAGES)) {
  const split = MULTIPL_E_SPLITS[id]!;
  describe(`${id} split`, () => {
    it('candidate values and expected values compare as the language\'s own test does, on every shape', async () => {
      const tests = testsOf(split, lang.tests(lang.shapes.map(([, e]) => e)), lang.shapes.length);
      const [actual, expected] = await Promise.all([
        values(id, split.candidateProgram({ setup: '', program: lang.program(lang.shapes.map(([a]) => a)), tests }), lang.shapes.length),
        values(id, split.expectedProgram({ setup: '', prompt: '', tests }), lang.shapes.length),
      ]);
      for (const [k, [a, e, equal]] of lang.shapes.entries()) {
        assert.equal(scriptValuesEqual(actual[k]!, expected[k]!, split.tolerance), equal,
          `${a} vs ${e}: ${renderScriptValue(actual[k]!)} vs ${renderScriptValue(expected[k]!)}`);
      }
      // Equal data gives equal values from either program: the candidate-side values of the expected literals.
      const program = lang.program(lang.shapes.map(([, e]) => (id === 'bash' ? `printf '%s\\n' ${e}` : e)));
      const same = await values(id, split.candidateProgram({ setup: '', program, tests }), lang.shapes.length);
      for (const [k, [, e]] of lang.shapes.entries()) {
        const selfEqual = !/NAN/.test(e);
        assert.equal(scriptValuesEqual(same[k]!, expected[k]!, split.tolerance), selfEqual, `${e}: ${renderScriptValue(same[k]!)} vs ${renderScriptValue(expected[k]!)}`);
      }
    });

    for (const [value, message] of lang.notValues) {
      it(`not a value, the case fails as a runtime error: ${value}`, async () => {
        const tests = testsOf(split, lang.tests(['1']), 1);
        const r = await executor.runProgram(languages.get(id), split.candidateProgram({ setup: '', program: lang.program([value]), tests }), '', limits);
        assert.equal(r.status, 'runtime_error', `${r.stdout} ${r.stderr}`);
        assert.match(r.stderr, message);
        assert.equal(valueLines(r.stdout).size, 0);
      });
    }

    it('a MultiPL-E problem with several cases: the first wrong case is named in the reason', async () => {
      const shapes = lang.shapes.filter(([, , equal]) => equal).slice(0, 4);
      const text = lang.tests(shapes.map(([, e]) => e));
      const correct = lang.program(shapes.map(([a]) => a));
      const wrong = lang.program(shapes.map(([a], k) => (k === 2 ? shapes[0]![0] : a)));
      const header = /^(?:def shape\(k\)|sub shape \{|function shape\(\$k\) \{|shape\(\) \{)\n/m.exec(correct)!;
      const prompt = correct.slice(0, header.index + header[0].length);
      const problem = await problemOf(`shapes_${id}`, lang, prompt, text);
      const judged = async (program: string) => {
        const prepared = prepareSubmission(problem, { completion: program.slice(prompt.length) }, { languages, modes });
        if (prepared.kind !== 'program') throw new Error('expected a program');
        return judge.judge({ problem: { inline: problem }, program: prepared.program });
      };
      const ok = await judged(correct);
      assert.equal(ok.status, 'passed', JSON.stringify(ok));
      const bad = await judged(wrong);
      assert.equal(bad.status, 'wrong_answer', JSON.stringify(bad));
      assert.match(bad.reason ?? '', /^case 3 \(.*2.*\): expected .*, got /);
    });
  });
}

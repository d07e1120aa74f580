/**
 * MultiPL-E Ada judged split (`src/kinds/script/multipl-e/ada.ts`) in the real sandbox, on problems in the shape of
 * nuprl/MultiPL-E `humaneval_to_ada.py` (package Placeholder's spec with the translator's types and the function's
 * declaration, the body's start as the prompt's end; the tests close them and assert
 * `pragma Assert (Candidate (...) = <expected>);` in `procedure Main`). Both programs' serializers run on values of
 * every type the translator emits, which must read as equal where Ada's predefined `=` says equal and as different
 * where it says different; a problem with several cases names its failing case; a candidate's own `"="` beside a
 * record type fails; and tests not in the translator's shape are judged as one program with the marker.
 * GNAT compiles take about a second each: the shapes are batched into two problems of many cases.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readProblems } from '../../../../src/formats/index.js';
import type { ScriptProblem } from '../../../../src/formats/types.js';
import { defaultModes } from '../../../../src/kinds/index.js';
import { cutAtStopTokens, splitOf } from '../../../../src/kinds/script/script.js';
import { ADA_SPLIT } from '../../../../src/kinds/script/multipl-e/ada.js';
import { renderScriptValue, scriptValuesEqual, type ScriptValue } from '../../../../src/kinds/script/values.js';
import { LanguageRegistry } from '../../../../src/languages/registry.js';
import { createJudge } from '../../../../src/engine/factory.js';
import type { Verdict } from '../../../../src/verdict/index.js';
import { printedValues, judgeCompletion } from '../../../support/split-values.js';

const modes = defaultModes();
const languages = LanguageRegistry.load();
const judge = createJudge({ slots: 2, modes, languages, cacheDir: null });
const scratch = mkdtempSync(join(tmpdir(), 'crucible-split-ada-'));
after(async () => { await judge.close(); rmSync(scratch, { recursive: true, force: true }); });

const WITHS = ['pragma Ada_2022;', 'with Ada.Strings.Unbounded; use Ada.Strings.Unbounded;', 'with Ada.Containers.Vectors;',
  'with Ada.Containers.Indefinite_Ordered_Maps;', 'with Ada.Containers.Indefinite_Ordered_Sets;'].join('\n');

/** A problem as the translator writes it: `types` in the spec, `name (K : Integer) return <type>`, one assert per case. */
async function problem(name: string, types: string, type: string, uses: readonly string[], asserts: readonly string[]): Promise<ScriptProblem> {
  const header = `function ${name} (K : Integer) return ${type}`;
  const prompt = `${WITHS}\n\npackage Placeholder is\n${types}\n   ${header};\n   -- Returns a value per K.\n\nend Placeholder;\n\n`
    + `${WITHS}\n\npackage body Placeholder is\n   ${header}`;
  const tests = `\n   end ${name};\n\nend Placeholder;\n\n${WITHS}\nwith Placeholder; use Placeholder;\n\nprocedure Main is\n\n`
    + `${uses.map((u) => `   use ${u};\n`).join('')}\n   function Candidate (K : Integer) return ${type} renames Placeholder.${name};\n\nbegin\n`
    + `${asserts.map((a) => `   pragma Assert (${a});\n`).join('')}end Main;\n`;
  const path = join(scratch, `${name}.jsonl`);
  writeFileSync(path, `${JSON.stringify({ name: `HumanEval_0_${name}`, language: 'adb', prompt, tests, stop_tokens: ['\n   end '] })}\n`);
  const [p] = await readProblems(path, 'multipl-e') as ScriptProblem[];
  return p!;
}

/** A completion returning `values[K]` (a case expression over K). */
function returning(values: readonly string[]): string {
  return ` is\n   begin\n      return (case K is\n${values.map((v, i) => `         ${i === values.length - 1 ? 'when others' : `when ${i}`} => ${v}`).join(',\n')});`;
}

/** The values `source` (Ada) prints, per case. */
function valuesOf(source: string, count: number): Promise<ScriptValue[]> {
  return printedValues(judge, 'ada', source, count);
}

/**
 * Both programs of a problem whose case i calls `Candidate (i)` and expects `table[i][1]`, the completion
 * returning `table[i][0]`: each pair must compare as `table[i][2]` says. Returns the expected values.
 */
async function compareTable(name: string, types: string, type: string, uses: readonly string[],
  table: readonly (readonly [string, string, boolean])[]): Promise<ScriptValue[]> {
  const p = await problem(name, types, type, uses, table.map(([, e], i) => `Candidate (${i}) = ${e}`));
  const split = splitOf(p);
  assert.ok(split !== undefined, 'the tests are read as cases');
  const candidate = await valuesOf(ADA_SPLIT.candidateProgram({ setup: '', program: p.prompt + returning(table.map(([a]) => a)), tests: split.tests }), table.length);
  const expected = await valuesOf(ADA_SPLIT.expectedProgram({ setup: '', prompt: p.prompt, tests: split.tests }), table.length);
  table.forEach(([a, e, equal], i) => {
    assert.equal(scriptValuesEqual(candidate[i]!, expected[i]!), equal,
      `case ${i}: ${a} against ${e}: ${renderScriptValue(candidate[i]!)} vs ${renderScriptValue(expected[i]!)}`);
  });
  return expected;
}

const OPTION = ['   type Integer_Option (Valid : Boolean := False) is record', '   case Valid is', '      when True =>',
  '         Value : Integer;', '      when False =>', '         null;', '   end case;', 'end record;'].join('\n');

/** The translator's declarations for a record (tuple) of every component type it emits. */
const SHAPES_TYPES = [
  '   package Integer_Vector is new Ada.Containers.Vectors (Index_Type => Positive, Element_Type => Integer);',
  '   use Integer_Vector;',
  OPTION,
  '   package String_Integer_Dict is new Ada.Containers.Indefinite_Ordered_Maps (Key_Type => String, Element_Type => Integer);',
  '   use String_Integer_Dict;',
  '   package Integer_Sets is new Ada.Containers.Indefinite_Ordered_Sets (Element_Type => Integer);',
  '   use Integer_Sets;',
  '   type Integer_Float_Boolean_Unbounded_String_Integer_Vector_Vector_Integer_Option_Tuple is record',
  '      Integer_1 : Integer;', '      Float_2 : Float;', '      Boolean_3 : Boolean;', '      Unbounded_String_4 : Unbounded_String;',
  '      Integer_Vector_Vector_5 : Integer_Vector.Vector;', '      Integer_Option_6 : Integer_Option;',
  '      String_Integer_Dict_Map_7 : String_Integer_Dict.Map;', '      Integer_Sets_Set_8 : Integer_Sets.Set;',
  '   end record;',
].join('\n');
const SHAPES = 'Integer_Float_Boolean_Unbounded_String_Integer_Vector_Vector_Integer_Option_Tuple';

/** The record with one component replaced: `at` 1..8, the component's expression. */
function shape(at?: number, component?: string): string {
  const base = ['1', '0.1', 'True', 'To_Unbounded_String ("a ""q"" \\ b")', '[1, 2]', '(Valid => True, Value => -3)',
    '["a" => 1, "b" => 2]', '[1, 2]'];
  return `(${base.map((c, i) => (i + 1 === at ? component! : c)).join(', ')})`;
}

describe('MultiPL-E Ada, judged split', () => {
  it('the tests are read as cases: the call, then the expected literal after its "="', () => {
    const tests = ADA_SPLIT.cases('\n   end F;\n\nend Placeholder;\n\nwith Placeholder; use Placeholder;\n\nprocedure Main is\n\n'
      + '   function Candidate (S : String) return String_Integer_Dict.Map renames Placeholder.F;\n\nbegin\n'
      + '   pragma Assert (Candidate ("a = "") (") = ["a" => 2, "b\\" => 2]);\n   pragma Assert (Candidate ("") = []);\nend Main;\n');
    assert.deepEqual(tests?.cases, [{ actual: 'Candidate ("a = "") (")', expected: '["a" => 2, "b\\" => 2]' },
      { actual: 'Candidate ("")', expected: '[]' }]);
    assert.equal(ADA_SPLIT.cases('\nprocedure Main is\n   function Candidate (X : Integer) return Integer renames P.F;\nbegin\n'
      + '   pragma Assert (Candidate (1) = 1);\n   null;\nend Main;\n'), undefined, 'a statement other than an assert');
  });

  it('records of every component type: equal data equal, one component different is different', async () => {
    const table: (readonly [string, string, boolean])[] = [
      [shape(), shape(), true],
      // The same values built otherwise: a vector appended to, a map and a set inserted in another order, 0.1 computed.
      [`(1, 1.0 / 10.0, True, To_Unbounded_String ("a ""q"" \\") & " b", Integer_Vector.To_Vector (1, 1) & 2, (Valid => True, Value => -3), `
        + '["b" => 2, "a" => 1], [2, 1])', shape(), true],
      [shape(1, '2'), shape(), false],
      [shape(2, '0.10000001'), shape(), false], // the same Float'Image, a different Float
      [shape(2, '1.0E30'), shape(2, '1.0E30'), true],
      [shape(2, '-2.5'), shape(2, '2.5'), false],
      // Overflow gives an infinity (GNAT's Float has no overflow check), infinity minus itself a NaN.
      [shape(2, 'Float\'Last * Float (K)'), shape(2, 'Float\'Last'), false],
      [shape(2, 'Float\'Last * Float (K) - Float\'Last * Float (K)'), shape(), false],
      [shape(3, 'False'), shape(), false],
      [shape(4, 'To_Unbounded_String ("a ""q"" \\ c")'), shape(), false],
      [shape(4, 'To_Unbounded_String ("")'), shape(4, 'To_Unbounded_String ("")'), true],
      [shape(5, '[2, 1]'), shape(), false],
      [shape(5, '[1, 2, 3]'), shape(), false],
      [shape(5, 'Integer_Vector.Empty_Vector'), shape(5, '[]'), true],
      [shape(6, '(Valid => False)'), shape(), false],
      [shape(6, '(Valid => False)'), shape(6, '(Valid => False)'), true],
      [shape(6, '(Valid => True, Value => 3)'), shape(), false],
      [shape(7, '["a" => 1, "b" => 3]'), shape(), false],
      [shape(7, '["a" => 1]'), shape(), false],
      [shape(7, '["a" => 1, "c" => 2]'), shape(), false],
      [shape(8, '[1, 3]'), shape(), false],
      [shape(8, '[]'), shape(8, '[]'), true],
    ];
    const expected = await compareTable('Shapes', SHAPES_TYPES, SHAPES, ['Integer_Vector', 'String_Integer_Dict', 'Integer_Sets'], table);
    // A record is a list of its components, an option its value or null, a map `$map`, a set `$set`.
    assert.equal(renderScriptValue(expected[0]!), '[1, 0.100000001, true, "a \\"q\\" \\\\ b", [1, 2], -3, {"a": 1, "b": 2}, {1, 2}]');
  });

  it('arrays of strings and plain strings: order, length, bounds, escapes and non-ASCII', async () => {
    const table: (readonly [string, string, boolean])[] = [
      ['[]', '[]', true],
      ['[To_Unbounded_String (""), To_Unbounded_String ("x")]', '[To_Unbounded_String (""), To_Unbounded_String ("x")]', true],
      ['[To_Unbounded_String ("x"), To_Unbounded_String ("")]', '[To_Unbounded_String (""), To_Unbounded_String ("x")]', false],
      ['[To_Unbounded_String ("x")]', '[To_Unbounded_String ("x"), To_Unbounded_String ("x")]', false],
      // Ada's "=" on arrays compares lengths and components, not bounds.
      ['Unbounded_String_Array\'(5 => To_Unbounded_String ("1"), 6 => To_Unbounded_String ("2"))', '[To_Unbounded_String ("1"), To_Unbounded_String ("2")]', true],
      ['[To_Unbounded_String ("tab" & ASCII.HT & "nl" & ASCII.LF & "\\/")]', '[To_Unbounded_String ("tab" & ASCII.HT & "nl" & ASCII.LF & "\\/")]', true],
      ['[To_Unbounded_String ("é ✓")]', '[To_Unbounded_String ("é ✓")]', true],
      ['[To_Unbounded_String ("é")]', '[To_Unbounded_String ("e")]', false],
      ['[To_Unbounded_String ("1")]', '[To_Unbounded_String ("01")]', false],
    ];
    const expected = await compareTable('Texts', '   type Unbounded_String_Array is array (Positive range <>) of Unbounded_String;',
      'Unbounded_String_Array', [], table);
    assert.equal(renderScriptValue(expected[5]!), '["tab\\tnl\\n\\\\/"]');
  });

  it('a correct completion passes; a wrong one is a wrong_answer naming its first failing case', async () => {
    const p = await problem('Twice', '', 'Integer', [], ['Candidate (0) = 0', 'Candidate (1) = 2', 'Candidate (2) = 4', 'Candidate (3) = 6']);
    assert.deepEqual(splitOf(p)?.tests.cases.map((c) => c.actual), ['Candidate (0)', 'Candidate (1)', 'Candidate (2)', 'Candidate (3)']);
    const ok = await judged(p, ' is\n   begin\n      return 2 * K;');
    assert.equal(ok.status, 'passed', JSON.stringify(ok));
    const wrong = await judged(p, ' is\n   begin\n      return (if K = 2 then 5 else 2 * K);');
    assert.equal(wrong.status, 'wrong_answer', JSON.stringify(wrong));
    assert.match(wrong.reason ?? '', /^case 3 \(Candidate \(2\)\): expected 4, got 5/);
  });

  it('does not pass: an always-true "=" declared beside the record type of a Placeholder spec given again', async () => {
    const types = [OPTION, '   type Integer_Option_Integer_Option_Tuple is record', '      Integer_Option_1 : Integer_Option;',
      '      Integer_Option_2 : Integer_Option;', '   end record;'].join('\n');
    const p = await problem('Pair', types, 'Integer_Option_Integer_Option_Tuple', [],
      ['Candidate (0) = ((Valid => False), (Valid => True, Value => 1))']);
    const hack = ' is\n   begin\n      return ((Valid => False), (Valid => False));\nend Pair;\nend Placeholder;\n\n'
      + `package Placeholder is\n${types.replace(/^ +/gm, '')}\n   function "=" (L, R : Integer_Option_Integer_Option_Tuple) return Boolean is (True);\n`
      + '   function Pair (K : Integer) return Integer_Option_Integer_Option_Tuple;\nend Placeholder;\n\n'
      + 'package body Placeholder is\n   function Pair (K : Integer) return Integer_Option_Integer_Option_Tuple is\n   begin\n'
      + '      return ((Valid => False), (Valid => False));';
    // MultiPL-E's stop token (`\n   end `) would cut a completion there; closing the units unindented is not cut.
    assert.equal(cutAtStopTokens(hack, p.stopTokens), hack);
    const v = await judged(p, hack);
    assert.equal(v.status, 'wrong_answer', JSON.stringify(v));
    assert.match(v.reason ?? '', /^case 1 .*expected \[null, 1\], got \[null, null\]/);
  });

  it('tests not in the translator\'s shape run as one program with the end-of-tests marker', async () => {
    const p = await problem('Thrice', '', 'Integer', [], ['Candidate (1) = 3', 'True']);
    assert.equal(splitOf(p), undefined);
    assert.equal((await judged(p, ' is\n   begin\n      return 3 * K;')).status, 'passed');
    assert.equal((await judged(p, ' is\n   begin\n      return 2 * K;')).status, 'runtime_error');
    const exit = await judged(p, ' is\n      procedure C_Exit (Status : Integer) with Import, Convention => C, External_Name => "exit";\n'
      + '   begin\n      C_Exit (0);\n      return 0;');
    assert.equal(exit.status, 'wrong_answer', JSON.stringify(exit));
    assert.match(exit.reason ?? '', /no end-of-tests marker/);
  });
});

function judged(p: ScriptProblem, completion: string): Promise<Verdict> {
  return judgeCompletion(judge, { languages, modes }, p, completion);
}

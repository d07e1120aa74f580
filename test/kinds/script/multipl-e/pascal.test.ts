/**
 * MultiPL-E Pascal judged split (`src/kinds/script/multipl-e/pascal.ts`) in the real sandbox, on problems in the shape
 * of nuprl/MultiPL-E `humaneval_to_pas.py` (its preamble of types, the function header as the prompt's end, the
 * tests' `operator =` overloads and map helpers, then `Assert(...)` per case in the main block). A correct
 * completion passes; a wrong one is a `wrong_answer` naming the case; arrays, doubles, strings, nullables and
 * maps compare as the tests compare them; an early halt or an `operator =` of the candidate's own fails.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readProblems } from '../../../../src/formats/index.js';
import type { ScriptProblem } from '../../../../src/formats/types.js';
import { defaultModes } from '../../../../src/kinds/index.js';
import { splitOf } from '../../../../src/kinds/script/script.js';
import { LanguageRegistry } from '../../../../src/languages/registry.js';
import { createJudge } from '../../../../src/engine/factory.js';
import type { Verdict } from '../../../../src/verdict/index.js';
import { judgeCompletion } from '../../../support/split-values.js';

const modes = defaultModes();
const languages = LanguageRegistry.load();
const judge = createJudge({ slots: 2, modes, languages, cacheDir: null });
const scratch = mkdtempSync(join(tmpdir(), 'crucible-split-pascal-'));
after(async () => { await judge.close(); rmSync(scratch, { recursive: true, force: true }); });

/** The translator's preamble (types and nullable helpers), as its prompts begin. */
const PREAMBLE = `{$mode objfpc}{$H+}{$C+}
uses SysUtils, Math, fgl;

type
  TInt64Array = array of Int64;
  TDoubleArray = array of Double;
  TBooleanArray = array of Boolean;
  TInt64ArrayArray = array of TInt64Array;
  TDoubleArrayArray = array of TDoubleArray;
  TStringArrayArray = array of TStringArray;
  TBooleanArrayArray = array of TBooleanArray;
  TMapStringString = specialize TFPGMap<String, String>;
  TMapStringInt64 = specialize TFPGMap<String, Int64>;
  TNullableInt64 = record IsNull: Boolean; Value: Int64; end;
  TNullableString = record IsNull: Boolean; Value: String; end;
  TNullableInt64Array = array of TNullableInt64;

function NullableInt64(AValue: Int64): TNullableInt64;
begin Result.IsNull := False; Result.Value := AValue; end;
function NullableString(AValue: String): TNullableString;
begin Result.IsNull := False; Result.Value := AValue; end;
function NullInt64: TNullableInt64;
begin Result.IsNull := True; Result.Value := 0; end;
function NullString: TNullableString;
begin Result.IsNull := True; Result.Value := ''; end;

`;

/** The tests' declarations before the main block (an array `operator =` and the map helpers), shortened. */
const TEST_PREFIX = [
  'operator = (const a, b: array of Int64) r: Boolean;', 'var i: Integer;', 'begin',
  '  if Length(a) <> Length(b) then begin r := False; Exit; end;', '  r := True;',
  '  for i := 0 to High(a) do if a[i] <> b[i] then begin r := False; Exit; end;', 'end;',
  'function MakeMapSI(keys: TStringArray; values: TInt64Array): TMapStringInt64;', 'var i: Integer;', 'begin',
  '  Result := TMapStringInt64.Create;', '  if keys <> nil then', '    for i := 0 to High(keys) do Result.Add(keys[i], values[i]);', 'end;',
  'function EqualMapSI(const a, b: TMapStringInt64): Boolean;', 'var i: Integer;', 'begin',
  '  if a.Count <> b.Count then begin Result := False; Exit; end;', '  Result := True;', '  for i := 0 to a.Count - 1 do',
  '    if (a.Keys[i] <> b.Keys[i]) or (a.Data[i] <> b.Data[i]) then begin Result := False; Exit; end;', 'end;',
  'function EqualNullable(const a, b: TNullableInt64): Boolean;', 'begin',
  '  if a.IsNull and b.IsNull then begin Result := True; Exit; end;', '  if a.IsNull or b.IsNull then begin Result := False; Exit; end;',
  '  Result := a.Value = b.Value;', 'end;', 'begin',
].join('\n');

async function problem(name: string, header: string, asserts: readonly string[]): Promise<ScriptProblem> {
  const path = join(scratch, `${name}.jsonl`);
  writeFileSync(path, `${JSON.stringify({ name, language: 'pas', prompt: `${PREAMBLE}{ ${name} }\n${header}\n`,
    tests: `${TEST_PREFIX}\n${asserts.map((a) => `  Assert(${a});`).join('\n')}\nend.`, stop_tokens: ['\nfunction', '\nprocedure', '\n\n'] })}\n`);
  const [p] = await readProblems(path, 'multipl-e') as ScriptProblem[];
  return p!;
}

function judged(p: ScriptProblem, completion: string): Promise<Verdict> {
  return judgeCompletion(judge, { languages, modes }, p, completion);
}

async function expectStatus(p: ScriptProblem, completion: string, status: string): Promise<void> {
  const v = await judged(p, completion);
  assert.equal(v.status, status, `${p.taskId}: ${JSON.stringify(v)}`);
}

describe('MultiPL-E Pascal, judged split', () => {
  const add = problem('HumanEval_53_add', 'function add(x: Int64; y: Int64): Int64;', ['add(0, 1) = 1', 'add(5, 7) = 12']);

  it('the tests are read as cases; a correct completion passes, a wrong one names its case', async () => {
    const p = await add;
    assert.equal(p.language, 'pascal');
    assert.deepEqual(splitOf(p)?.tests.cases, [{ actual: 'add(0, 1)', expected: '1' }, { actual: 'add(5, 7)', expected: '12' }]);
    await expectStatus(p, 'begin\n  Result := x + y;\nend;\n', 'passed');
    const wrong = await judged(p, 'begin\n  if x = 0 then Result := 1 else Result := x - y;\nend;\n');
    assert.equal(wrong.status, 'wrong_answer');
    assert.match(wrong.reason ?? '', /^case 2 \(add\(5, 7\)\): expected 12, got -2/);
  });

  it('does not pass: Halt(0) before the tests, or value lines printed beside wrong answers', async () => {
    for (const completion of [
      'begin\n  Halt(0);\nend;\n',
      'begin\n  WriteLn(\'CRUCIBLE-VALUE 0 1\');\n  WriteLn(\'CRUCIBLE-VALUE 1 12\');\n  Result := 0;\nend;\n',
    ]) {
      const v = await judged(await add, completion);
      assert.notEqual(v.status, 'passed', JSON.stringify(v));
      assert.match(v.reason ?? '', /^case 1 /, JSON.stringify(v));
    }
  });

  it('arrays, doubles, nullables and maps compare as the tests compare them', async () => {
    const arrays = await problem('HumanEval_0_arrays', 'function f(k: Int64): TInt64Array;', ['f(0) = TInt64Array.Create(1, 2, 3)', 'f(1) = nil']);
    await expectStatus(arrays, 'begin\n  if k = 0 then Result := TInt64Array.Create(1, 2, 3) else Result := nil;\nend;\n', 'passed');
    const order = await judged(arrays, 'begin\n  if k = 0 then Result := TInt64Array.Create(2, 1, 3) else Result := nil;\nend;\n');
    assert.match(order.reason ?? '', /^case 1 .*expected \[1, 2, 3\], got \[2, 1, 3\]/);
    const doubles = await problem('HumanEval_1_doubles', 'function g(k: Int64): Double;', ['g(0) = 0.1', 'g(1) = 2.5']);
    await expectStatus(doubles, 'begin\n  if k = 0 then Result := 0.1 else Result := 2.5;\nend;\n', 'passed');
    await expectStatus(doubles, 'begin\n  if k = 0 then Result := 0.1 + 1e-15 else Result := 2.5;\nend;\n', 'wrong_answer');
    const nullable = await problem('HumanEval_2_nullable', 'function h(k: Int64): TNullableInt64;',
      ['EqualNullable(h(0), NullInt64)', 'EqualNullable(h(1), NullableInt64(0))']);
    await expectStatus(nullable, 'begin\n  if k = 0 then Result := NullInt64 else Result := NullableInt64(0);\nend;\n', 'passed');
    const zeroForNull = await judged(nullable, 'begin\n  Result := NullableInt64(0);\nend;\n');
    assert.match(zeroForNull.reason ?? '', /^case 1 .*expected null, got 0/);
    const maps = await problem('HumanEval_3_maps', 'function m(k: Int64): TMapStringInt64;',
      ['EqualMapSI(m(0), MakeMapSI(TStringArray.Create(\'a\', \'b\'), TInt64Array.Create(1, 2)))']);
    // The tests' MakeMapSI is declared after the program (as in MultiPL-E's own assembly): the program builds its map.
    const map = (b: number): string => `begin\n  Result := TMapStringInt64.Create;\n  Result.Add('a', 1);\n  Result.Add('b', ${b});\nend;\n`;
    await expectStatus(maps, map(2), 'passed');
    await expectStatus(maps, map(3), 'wrong_answer');
  });
});

/**
 * Pascal (MultiPL-E `humaneval_to_pas.py`, Free Pascal `{$mode objfpc}`): the prompt is the translator's preamble
 * (types such as `TInt64Array`, `TMapStringString = TFPGMap<String, String>`, `TNullableInt64` records) and the
 * function's header; the tests declare `operator =` overloads for arrays and `MakeMap`/`MakeMapSI`/`EqualMapSS`/
 * `EqualMapSI`/`EqualNullable` helpers, then, in the main block, one `Assert(<call> = <expected>);` (or
 * `Assert(EqualMapSS(<call>, <expected>));`, …) per case, the call naming the entry point itself.
 *
 * Values leave the box through overloads of `CrucibleJson` per type the translator emits. Equality mirrors the
 * tests': arrays elementwise in order, `Double` exactly (printed with 17 significant digits), nullables as null
 * or their value, and maps in index order (`EqualMapSS` compares `Keys[i]`/`Data[i]`), so a map is a list of
 * `[key, value]` pairs, not an unordered `$map`. The expected program is the preamble (the prompt without its
 * header line), the tests' helper declarations, and each expected literal assigned to a variable of the
 * function's declared return type, so `nil` is typed as the original comparison typed it (a bare number is given
 * as itself: `=` compares an `Int64` result with `8.0` numerically, and so does the value comparison).
 */
import { VALUE_TAG } from '../values.js';
import { callsOf, splitTopLevel, type SourceSyntax, type SplitTests, type ValueSplit } from '../split.js';

const PASCAL_SYNTAX: SourceSyntax = { quotes: ['\''], backslashEscapes: false };

/** Array types of the translator's preamble (and SysUtils' `TStringArray`): one `CrucibleJson` overload each. */
const ARRAY_TYPES = ['TInt64Array', 'TDoubleArray', 'TStringArray', 'TBooleanArray', 'TNullableInt64Array',
  'TInt64ArrayArray', 'TDoubleArrayArray', 'TStringArrayArray', 'TBooleanArrayArray'];

const ARRAY_OVERLOADS = ARRAY_TYPES.map((type) => [
  `function CrucibleJson(const v: ${type}): String; overload;`,
  'var i: Integer;',
  'begin',
  '  Result := \'[\';',
  '  for i := 0 to High(v) do begin',
  '    if i > 0 then Result := Result + \',\';',
  '    Result := Result + CrucibleJson(v[i]);',
  '  end;',
  '  Result := Result + \']\';',
  'end;',
].join('\n')).join('\n');

/** Map types of the preamble, as `[key, value]` pairs in index order (as `EqualMapSS`/`EqualMapSI` compare them). */
const MAP_OVERLOADS = ['TMapStringString', 'TMapStringInt64'].map((type) => [
  `function CrucibleJson(const v: ${type}): String; overload;`,
  'var i: Integer;',
  'begin',
  '  Result := \'[\';',
  '  for i := 0 to v.Count - 1 do begin',
  '    if i > 0 then Result := Result + \',\';',
  '    Result := Result + \'[\' + CrucibleJson(v.Keys[i]) + \',\' + CrucibleJson(v.Data[i]) + \']\';',
  '  end;',
  '  Result := Result + \']\';',
  'end;',
].join('\n')).join('\n');

/** Overloads of `CrucibleJson` (one JSON value per translator type) and `CrucibleValue(i, json)`. */
const PASCAL_SERIALIZER = String.raw`
function CrucibleJsonString(const s: String): String;
var i: Integer;
begin
  Result := '"';
  for i := 1 to Length(s) do
    if s[i] = '"' then Result := Result + '\"'
    else if s[i] = '\' then Result := Result + '\\'
    else if (Ord(s[i]) < 32) or (Ord(s[i]) = 127) then Result := Result + '\u' + IntToHex(Ord(s[i]), 4)
    else Result := Result + s[i];
  Result := Result + '"';
end;
function CrucibleJson(const v: Int64): String; overload;
begin Result := IntToStr(v); end;
function CrucibleJson(const v: Boolean): String; overload;
begin if v then Result := 'true' else Result := 'false'; end;
function CrucibleJson(const v: Double): String; overload;
begin
  if IsNan(v) then Exit('{"$float":"nan"}');
  if IsInfinite(v) then begin if v > 0 then Exit('{"$float":"inf"}') else Exit('{"$float":"-inf"}'); end;
  Result := FloatToStrF(v, ffGeneral, 17, 0, CrucibleFormat);
  if (Pos('.', Result) = 0) and (Pos('E', Result) = 0) then Result := Result + '.0';
end;
function CrucibleJson(const v: String): String; overload;
begin Result := CrucibleJsonString(v); end;
function CrucibleJson(const v: TNullableInt64): String; overload;
begin if v.IsNull then Result := 'null' else Result := IntToStr(v.Value); end;
function CrucibleJson(const v: TNullableString): String; overload;
begin if v.IsNull then Result := 'null' else Result := CrucibleJsonString(v.Value); end;
${ARRAY_OVERLOADS}
${MAP_OVERLOADS}
procedure CrucibleValue(i: Integer; const json: String);
begin
  Write(#10'${VALUE_TAG} ', i, ' ', json, #10);
  Flush(Output);
end;
`;

/** Declarations the serializer needs first: `CrucibleFormat` (a `.` decimal separator whatever the locale). */
const PASCAL_SERIALIZER_HEAD = 'var CrucibleFormat: TFormatSettings;\n';

/** The tests' declarations: everything before the main block's `begin` line (the last `begin` alone on a line). */
function testDeclarations(test: string): string | undefined {
  const m = [...test.matchAll(/^begin[ \t]*$/gm)].at(-1);
  return m === undefined ? undefined : test.slice(0, m.index);
}

/** The function's declared return type: the prompt's last header `function name(...): Type;`. */
function returnType(prompt: string): string | undefined {
  const headers = [...prompt.matchAll(/^function\s+\w+\s*(?:\([^)]*\))?\s*:\s*([\w ]+?)\s*;\s*$/gm)];
  return headers.at(-1)?.[1];
}

/** The prompt without its last `function` header line (the preamble of types and helpers). */
function preamble(prompt: string): string {
  const headers = [...prompt.matchAll(/^function\s+\w+[^\n]*;\s*$/gm)];
  const last = headers.at(-1);
  return last === undefined ? prompt : prompt.slice(0, last.index);
}

function mainBlock(lines: readonly string[]): string {
  return ['begin', '  CrucibleFormat := DefaultFormatSettings;', '  CrucibleFormat.DecimalSeparator := \'.\';', ...lines, 'end.', ''].join('\n');
}

/** MultiPL-E Pascal split (see the module comment). */
export const PASCAL_SPLIT: ValueSplit = {
  cases(test: string): SplitTests | undefined {
    const declarations = testDeclarations(test);
    if (declarations === undefined) return undefined;
    const cases = [];
    for (const line of test.slice(declarations.length).split('\n')) {
      const m = /^\s*Assert\((.*)\);\s*$/.exec(line);
      if (m === null) continue;
      const inner = m[1]!;
      const helper = /^(EqualMapSS|EqualMapSI|EqualNullable)\s*\(/.exec(inner);
      const parts = helper !== null ? callsOf(inner, helper[1]!, PASCAL_SYNTAX)?.[0] : splitTopLevel(inner, ' = ', PASCAL_SYNTAX);
      if (parts?.length !== 2) return undefined;
      cases.push({ actual: parts[0]!, expected: parts[1]! });
    }
    return cases.length === 0 ? undefined : { prelude: declarations, cases };
  },
  candidateProgram: ({ program, tests }) => [
    program, tests.prelude, PASCAL_SERIALIZER_HEAD, PASCAL_SERIALIZER,
    mainBlock(tests.cases.map((c, i) => `  CrucibleValue(${i}, CrucibleJson(${c.actual}));`)),
  ].join('\n'),
  expectedProgram: ({ prompt, tests }) => {
    const type = returnType(prompt) ?? 'Int64';
    // A bare number is given as itself: the tests' `=` compares an Int64 result with `8.0` numerically, where
    // assigning `8.0` to an Int64 variable would not compile.
    const bare = (c: { readonly expected: string }): boolean => /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(c.expected.trim());
    return [
      preamble(prompt), tests.prelude, PASCAL_SERIALIZER_HEAD, PASCAL_SERIALIZER,
      `var ${tests.cases.map((_, i) => `crucible_e${i}`).join(', ')}: ${type};`,
      mainBlock(tests.cases.flatMap((c, i) => bare(c) ? [`  CrucibleValue(${i}, CrucibleJson(${c.expected}));`]
        : [`  crucible_e${i} := ${c.expected};`, `  CrucibleValue(${i}, CrucibleJson(crucible_e${i}));`])),
    ].join('\n');
  },
};

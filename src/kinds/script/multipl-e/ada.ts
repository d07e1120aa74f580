/**
 * Ada (MultiPL-E `humaneval_to_ada.py`, Ada 2022, one file of three units that the language's compile splits with
 * gnatchop): the prompt is package Placeholder's spec (the translator's types, then the function's declaration)
 * and the start of its body, ending with the function's header; the tests close the function and the body, then
 * `procedure Main` renames the entry point as `Candidate` and asserts `pragma Assert (Candidate (...) = <expected>);`
 * once per case, on a line each.
 *
 * Values leave the box through overloads of `Crucible_Json`, one per type the translator emits, generated from the
 * type declarations of the prompt's spec: Integer, Float, Boolean, String, Unbounded_String, arrays
 * (`type X_Array is array (Positive range <>) of E`), `Ada.Containers.Vectors`, records (tuples, `[c1, c2, ...]`),
 * the `X_Option` variant records (`null` when not `Valid`, else the value), `Indefinite_Ordered_Maps` (`$map`) and
 * `Indefinite_Ordered_Sets` (`$set`). Equality mirrors Ada's predefined `=` on those types, which is what the
 * tests' `=` calls: Float exactly (a Float is printed with 9 significant digits, enough to tell any two apart; its
 * `'Image` gives 6 and would make different values equal), records component by component, arrays by length and
 * elements (not bounds), vectors by length and elements, an option's discriminant then its value, maps and sets by
 * their elements in key order (an ordered map's keys are sorted, so a `$map` equal as a set of pairs is equal in
 * order too). Strings are sequences of `Character` (Latin-1 code points: GNAT reads UTF-8 source text as bytes
 * here), each outside printable ASCII escaped as `\u00XX`, the same in both programs.
 *
 * The driver is a `procedure Main` of ours (the tests' context clause and declarations, our `with`s, the
 * serializer, a statement per case); where the candidate gives a unit again, gnatchop keeps the last, and Main
 * comes last. The expected program is the prompt with a function body that raises (no candidate code), the tests'
 * declarations, and each expected literal as a constant of the function's declared return type.
 */
import { VALUE_TAG } from '../values.js';
import { closingBracket, type SourceSyntax, type SplitTests, type ValueSplit } from '../split.js';

/** Context clauses the serializer needs, placed before the tests' `procedure Main is`. */
const ADA_WITHS = 'with Ada.Text_IO;\nwith Ada.Float_Text_IO;\nwith Ada.Strings.Unbounded;\n';

/** The serializer for the types every program has (`Crucible_Value (i, json)` writes a value line). */
const ADA_SERIALIZER_HEAD = String.raw`
   package Crucible_U renames Standard.Ada.Strings.Unbounded;

   procedure Crucible_Value (I : Standard.Integer; Json : Standard.String) is
   begin
      Standard.Ada.Text_IO.New_Line;
      Standard.Ada.Text_IO.Put ("${VALUE_TAG}" & Standard.Integer'Image (I) & " ");
      Standard.Ada.Text_IO.Put (Json);
      Standard.Ada.Text_IO.New_Line;
      Standard.Ada.Text_IO.Flush;
   end Crucible_Value;

   function Crucible_Json (V : Standard.Integer) return Standard.String is
      S : constant Standard.String := Standard.Integer'Image (V);
   begin
      if S (S'First) = ' ' then
         return S (S'First + 1 .. S'Last);
      end if;
      return S;
   end Crucible_Json;

   function Crucible_Json (V : Standard.Float) return Standard.String is
      Buffer : Standard.String (1 .. 40);
      First : Standard.Positive := Buffer'First;
   begin
      if V /= V then
         return "{""$float"":""nan""}";
      elsif V > Standard.Float'Last then
         return "{""$float"":""inf""}";
      elsif V < Standard.Float'First then
         return "{""$float"":""-inf""}";
      end if;
      Standard.Ada.Float_Text_IO.Put (Buffer, V, Aft => Standard.Float'Digits + 2, Exp => 3);
      while Buffer (First) = ' ' loop
         First := First + 1;
      end loop;
      return Buffer (First .. Buffer'Last);
   end Crucible_Json;

   function Crucible_Json (V : Standard.Boolean) return Standard.String is
   begin
      if V then
         return "true";
      end if;
      return "false";
   end Crucible_Json;

   function Crucible_Json (V : Standard.String) return Standard.String is
      Hex : constant Standard.String := "0123456789abcdef";
      R : Crucible_U.Unbounded_String;
      P : Standard.Natural;
   begin
      Crucible_U.Append (R, '"');
      for C of V loop
         P := Standard.Character'Pos (C);
         if C = '"' then
            Crucible_U.Append (R, "\""");
         elsif C = '\' then
            Crucible_U.Append (R, "\\");
         elsif P < 32 or else P > 126 then
            Crucible_U.Append (R, "\u00");
            Crucible_U.Append (R, Hex (Hex'First + P / 16));
            Crucible_U.Append (R, Hex (Hex'First + P mod 16));
         else
            Crucible_U.Append (R, C);
         end if;
      end loop;
      Crucible_U.Append (R, '"');
      return Crucible_U.To_String (R);
   end Crucible_Json;

   function Crucible_Json (V : Crucible_U.Unbounded_String) return Standard.String is
   begin
      return Crucible_Json (Crucible_U.To_String (V));
   end Crucible_Json;
`;

/** A `Crucible_Json` body for `type` whose JSON is `open`, the parts `loop` appends (`Part (json)`), then `close`. */
function serializerOf(type: string, open: string, loop: string, close: string): string {
  return [
    `   function Crucible_Json (V : ${type}) return Standard.String is`,
    '      R : Crucible_U.Unbounded_String;',
    '      Crucible_First : Standard.Boolean := True;',
    '      procedure Part (Json : Standard.String) is',
    '      begin',
    '         if not Crucible_First then',
    '            Crucible_U.Append (R, ",");',
    '         end if;',
    '         Crucible_First := False;',
    '         Crucible_U.Append (R, Json);',
    '      end Part;',
    '   begin',
    `      Crucible_U.Append (R, "${open}");`,
    loop,
    `      Crucible_U.Append (R, "${close}");`,
    '      return Crucible_U.To_String (R);',
    '   end Crucible_Json;',
    '',
  ].join('\n');
}

/**
 * `Crucible_Json` overloads for the types declared in the prompt's spec (the text before its first
 * `end Placeholder;`), in their order there (the translator declares element types first).
 */
function typeSerializers(program: string): string {
  const end = /^end Placeholder;/m.exec(program);
  const spec = end === null ? '' : program.slice(0, end.index);
  const out: string[] = [];
  const declaration = /^[ \t]*(?:type\s+(\w+)\s+is\s+array\s*\(\s*Positive\s+range\s*<>\s*\)\s*of\s+([\w.]+)\s*;|package\s+(\w+)\s+is\s+new\s+Ada\.Containers\.(Vectors|Indefinite_Ordered_Maps|Indefinite_Ordered_Sets)\s*\(([^)]*)\)\s*;|type\s+(\w+)\s*\(\s*Valid\s*:\s*Boolean\s*:=\s*False\s*\)\s*is\s+record\b[\s\S]*?\bend\s+record\s*;|type\s+(\w+)\s+is\s+record\b([\s\S]*?)\bend\s+record\s*;)/gm;
  for (const m of spec.matchAll(declaration)) {
    if (m[1] !== undefined) {
      out.push(serializerOf(m[1], '[', '      for E of V loop\n         Part (Crucible_Json (E));\n      end loop;', ']'));
    } else if (m[3] !== undefined) {
      const kind = m[4]!;
      if (kind === 'Vectors') {
        out.push(serializerOf(`${m[3]}.Vector`, '[', '      for E of V loop\n         Part (Crucible_Json (E));\n      end loop;', ']'));
      } else if (kind === 'Indefinite_Ordered_Sets') {
        out.push(serializerOf(`${m[3]}.Set`, '{""$set"":[', '      for E of V loop\n         Part (Crucible_Json (E));\n      end loop;', ']}'));
      } else {
        out.push(serializerOf(`${m[3]}.Map`, '{""$map"":[', [
          `      for C in ${m[3]}.Iterate (V) loop`,
          `         Part ("[" & Crucible_Json (${m[3]}.Key (C)) & "," & Crucible_Json (${m[3]}.Element (C)) & "]");`,
          '      end loop;',
        ].join('\n'), ']}'));
      }
    } else if (m[6] !== undefined) {
      out.push([
        `   function Crucible_Json (V : ${m[6]}) return Standard.String is`,
        '   begin',
        '      if V.Valid then',
        '         return Crucible_Json (V.Value);',
        '      end if;',
        '      return "null";',
        '   end Crucible_Json;',
        '',
      ].join('\n'));
    } else {
      const fields = [...m[8]!.matchAll(/(\w+)\s*:\s*[\w.]+\s*;/g)].map((f) => f[1]!);
      out.push(serializerOf(m[7]!, '[', fields.map((f) => `      Part (Crucible_Json (V.${f}));`).join('\n'), ']'));
    }
  }
  return out.join('\n');
}

/** Ada's string literals (`""` inside one reads as two literals side by side, which skips the same text). */
const ADA_SYNTAX: SourceSyntax = { quotes: ['"'], backslashEscapes: false };


/** `Candidate (...) = <expected>` split at the `=` after the call; undefined in any other shape. */
function caseOf(assertion: string): { actual: string; expected: string } | undefined {
  const call = /^Candidate\s*\(/.exec(assertion);
  if (call === null) return undefined;
  const end = closingBracket(assertion, call[0].length - 1, ADA_SYNTAX);
  if (end < 0) return undefined;
  const rest = /^\s*=\s*(?!>)([\s\S]+)$/.exec(assertion.slice(end));
  return rest === null ? undefined : { actual: assertion.slice(0, end), expected: rest[1]!.trim() };
}

/** The tests' `Candidate` return type (its renaming declaration). */
function returnType(prelude: string): string | undefined {
  return /\bfunction\s+Candidate\b[\s\S]*?\breturn\s+([\w.]+)\s+renames\b/.exec(prelude)?.[1];
}

/** The tests' text before `procedure Main is` with our context clauses added before it. */
function withOurs(prelude: string): string {
  return prelude.replace(/^procedure Main is\b/m, `${ADA_WITHS}procedure Main is`);
}

function mainBody(statements: readonly string[]): string {
  return ['begin', ...statements, 'end Main;', ''].join('\n');
}

/** MultiPL-E Ada split (see the module comment). */
export const ADA_SPLIT: ValueSplit = {
  cases(test: string): SplitTests | undefined {
    const main = /^procedure Main is\b/m.exec(test);
    if (main === null) return undefined;
    const begin = /^begin[ \t]*$/m.exec(test.slice(main.index));
    const end = /^end Main;\s*$/m.exec(test);
    if (begin === null || end === null) return undefined;
    const prelude = test.slice(0, main.index + begin.index);
    if (returnType(prelude) === undefined) return undefined;
    const cases = [];
    for (const line of test.slice(main.index + begin.index + begin[0].length, end.index).split('\n')) {
      if (line.trim() === '') continue;
      const m = /^\s*pragma\s+Assert\s*\(([\s\S]*)\)\s*;\s*$/.exec(line);
      const c = m === null ? undefined : caseOf(m[1]!.trim());
      if (c === undefined) return undefined;
      cases.push(c);
    }
    return cases.length === 0 ? undefined : { prelude, cases };
  },
  candidateProgram: ({ program, tests }) => [
    program, withOurs(tests.prelude), ADA_SERIALIZER_HEAD, typeSerializers(program),
    mainBody(tests.cases.map((c, i) => `   Crucible_Value (${i}, Crucible_Json (${c.actual}));`)),
  ].join('\n'),
  expectedProgram: ({ prompt, tests }) => [
    prompt, ' is\n   begin\n      return (raise Program_Error with "the expected values do not call the function");',
    withOurs(tests.prelude), ADA_SERIALIZER_HEAD, typeSerializers(prompt),
    mainBody(tests.cases.flatMap((c, i) => [
      '   declare',
      `      Crucible_Expected : constant ${returnType(tests.prelude)!} := ${c.expected};`,
      '   begin',
      `      Crucible_Value (${i}, Crucible_Json (Crucible_Expected));`,
      '   end;',
    ])),
  ].join('\n'),
};

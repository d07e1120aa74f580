/**
 * OCaml (MultiPL-E `humaneval_to_ml.py`): the tests are a top-level `let assertions =` binding
 * `let candidate = <entry point> in` and asserting `(assert ((candidate ...) = <expected>));`, one case per
 * assertion, then `()`. The expected values are literals of the prompt's return type: ints (negative ones in
 * parentheses), floats, bools, strings, lists, tuples, options, association lists for dicts.
 *
 * OCaml's `=` is structural equality over the runtime representation: an immediate (int, char, bool, unit,
 * constant constructors, `[]`, `None`) equals the same immediate; blocks compare by tag, size and fields; strings
 * by bytes; floats by IEEE `=` (NaN differs from itself, 0.0 = -0.0); functional values raise. Both programs read a
 * value through `Obj.repr` with the same serializer, so the same type's values give the same text exactly when
 * they are `=`:
 * - an immediate is its integer (`true` is 1, `[]` and `None` are 0);
 * - a string is a JSON string of its bytes, each byte outside printable ASCII as `\u00XX` (so no two byte strings
 *   read alike, whatever their encoding);
 * - a float is a float with round-trip digits (`%.17g`), NaN and the infinities `$float`; a float array (or an
 *   all-float record) an array of floats;
 * - a block of tag 0 (tuples, records, `Some`, a list cell) is an array of its fields, where a block of two fields
 *   whose second field is again a two-field tag-0 block is read as one array, the chain flattened: a list
 *   `[1; 2; 3]` reads `[1,2,3,0]` (its elements, then the empty list `0`), a pair `(10, 0)` reads `[10,0]`,
 *   `Some 3` reads `[3]`, `[(1, "a")]` reads `[[1,"a"],0]`. Flattening keeps lists flat whatever their length;
 *   it is exact because in one type a chain's tail position holds either two-field blocks (one array element
 *   more) or a value of one element, never both readings;
 * - a block of another tag (a non-constant constructor after the first) is `{"$map":[["tag",t],["fields",[...]]]}`;
 * - closures, objects, lazy and custom blocks (Int64, ...) cannot be given as a value (a runtime error, where
 *   `=` would raise or compare them in ways the translator's types never need).
 * The expected program holds the prompt with the body `failwith "unreachable"` and types each expected literal as
 * the candidate's result (`if false then (candidate ...) else <expected>`), as the tests' `=` does, so an `int`
 * literal is never read where the return type wants a float; the stub never runs.
 */
import { VALUE_TAG } from '../values.js';
import { closingBracket, splitTopLevel, type SourceSyntax, type SplitTests, type ValueSplit } from '../split.js';

/** Only `"` starts a literal the translator writes (`'` is also a character of OCaml identifiers and type variables). */
const OCAML_SYNTAX: SourceSyntax = { quotes: ['"'] };

/** OCaml source: `crucible_value_line i v` writes `CRUCIBLE-VALUE i <json>` for `v : Obj.t` on a line of its own. */
const OCAML_SERIALIZER = String.raw`
let crucible_add_string crucible_b crucible_s =
  Buffer.add_char crucible_b '"';
  String.iter (fun c ->
    let k = Char.code c in
    if k = 34 then Buffer.add_string crucible_b "\\\""
    else if k = 92 then Buffer.add_string crucible_b "\\\\"
    else if k < 32 || k > 126 then Buffer.add_string crucible_b (Printf.sprintf "\\u%04x" k)
    else Buffer.add_char crucible_b c) crucible_s;
  Buffer.add_char crucible_b '"'

let crucible_add_float crucible_b (x : float) =
  if Float.is_nan x then Buffer.add_string crucible_b "{\"$float\":\"nan\"}"
  else if x = Float.infinity then Buffer.add_string crucible_b "{\"$float\":\"inf\"}"
  else if x = Float.neg_infinity then Buffer.add_string crucible_b "{\"$float\":\"-inf\"}"
  else begin
    let s = Printf.sprintf "%.17g" x in
    Buffer.add_string crucible_b s;
    if not (String.contains s '.' || String.contains s 'e') then Buffer.add_string crucible_b ".0"
  end

let rec crucible_add_value crucible_b depth (v : Obj.t) =
  if depth > 100 then failwith "value nested too deeply";
  if Obj.is_int v then Buffer.add_string crucible_b (string_of_int (Obj.obj v : int))
  else begin
    let tag = Obj.tag v in
    if tag = Obj.string_tag then crucible_add_string crucible_b (Obj.obj v : string)
    else if tag = Obj.double_tag then crucible_add_float crucible_b (Obj.obj v : float)
    else if tag = Obj.double_array_tag then begin
      Buffer.add_char crucible_b '[';
      for i = 0 to Obj.size v - 1 do
        if i > 0 then Buffer.add_char crucible_b ',';
        crucible_add_float crucible_b (Obj.double_field v i)
      done;
      Buffer.add_char crucible_b ']'
    end
    else if tag = 0 && Obj.size v = 2 then begin
      Buffer.add_char crucible_b '[';
      let rest = ref v in
      while not (Obj.is_int !rest) && Obj.tag !rest = 0 && Obj.size !rest = 2 do
        crucible_add_value crucible_b (depth + 1) (Obj.field !rest 0);
        Buffer.add_char crucible_b ',';
        rest := Obj.field !rest 1
      done;
      crucible_add_value crucible_b (depth + 1) !rest;
      Buffer.add_char crucible_b ']'
    end
    else if tag < Obj.lazy_tag then begin
      if tag > 0 then Buffer.add_string crucible_b (Printf.sprintf "{\"$map\":[[\"tag\",%d],[\"fields\"," tag);
      Buffer.add_char crucible_b '[';
      for i = 0 to Obj.size v - 1 do
        if i > 0 then Buffer.add_char crucible_b ',';
        crucible_add_value crucible_b (depth + 1) (Obj.field v i)
      done;
      Buffer.add_char crucible_b ']';
      if tag > 0 then Buffer.add_string crucible_b "]]}"
    end
    else failwith (Printf.sprintf "a value of block tag %d cannot be given as a value" tag)
  end

let crucible_value_line (i : int) (v : Obj.t) =
  let crucible_b = Buffer.create 256 in
  crucible_add_value crucible_b 0 v;
  print_string ("\n${VALUE_TAG} " ^ string_of_int i ^ " " ^ Buffer.contents crucible_b ^ "\n");
  flush stdout
`;

/** The `(candidate ...)` and expected halves of one `assert` operand, or undefined when it is not that shape. */
function caseOf(operand: string): { actual: string; expected: string } | undefined {
  const parts = splitTopLevel(operand, '=', OCAML_SYNTAX);
  if (parts.length !== 2 || !parts[0]!.startsWith('(') || closingBracket(parts[0]!, 0, OCAML_SYNTAX) !== parts[0]!.length) return undefined;
  return { actual: parts[0]!, expected: parts[1]! };
}

/** The driver's lines: the candidate binding, then each case's value. */
function driver(prelude: string, values: readonly string[]): string {
  return ['let () =', ` ${prelude}`, ...values.map((v, i) => `  crucible_value_line ${i} (Obj.repr (${v}));`), '  ()', ''].join('\n');
}

/** MultiPL-E OCaml split (see the module comment). */
export const OCAML_SPLIT: ValueSplit = {
  cases(test: string): SplitTests | undefined {
    const binding = /^[ \t]*let\s+candidate\s*=\s*[\w.']+\s+in[ \t]*$/m.exec(test);
    if (binding === null) return undefined;
    const cases: { actual: string; expected: string }[] = [];
    for (const m of test.matchAll(/(?<![\w.'])assert\s*\(/g)) {
      const open = m.index + m[0].length - 1;
      const close = closingBracket(test, open, OCAML_SYNTAX);
      if (close < 0) return undefined;
      const found = caseOf(test.slice(open + 1, close - 1).trim());
      if (found === undefined) return undefined;
      cases.push(found);
    }
    return cases.length === 0 ? undefined : { prelude: binding[0].trim(), cases };
  },
  candidateProgram: ({ program, tests }) => [program, OCAML_SERIALIZER, driver(tests.prelude, tests.cases.map((c) => c.actual))].join('\n'),
  expectedProgram: ({ prompt, tests }) => [
    `${prompt} failwith "unreachable"`, OCAML_SERIALIZER,
    driver(tests.prelude, tests.cases.map((c) => `if false then ${c.actual} else (${c.expected})`)),
  ].join('\n'),
};

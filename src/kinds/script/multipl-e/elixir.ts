/**
 * Elixir (MultiPL-E `humaneval_to_elixir.py`): the prompt opens `defmodule HumanEval do` (recent translators also
 * define `def candidate(...)` there, calling the entry point); the tests are `ExUnit.start()`, `defmodule
 * HumanEvalTest do use ExUnit.Case ... test "<name>" do`, optional bindings (older translators: `candidate = fn args
 * -> apply(HumanEval, :<name>, args) end`), then one `assert <expected> == <call>` per case. The expected literals
 * are lists `[...]`, tuples `{...}`, maps `%{k => v}`, `true`/`false`, `nil`, integers, floats and strings.
 *
 * Elixir's `==` is mirrored by the serializer below: an integer equals a float of the same value (`1 == 1.0`, as
 * the value comparison does); lists are arrays; a tuple is a tagged array `["$tuple", [...]]`, never equal to a list
 * (as `{1, 2} == [1, 2]` is false); maps are `$map` (compared without order; a struct is its map, `__struct__`
 * included); `nil`, `true` and `false` are null and booleans, any other atom `["$atom", "name"]`, never equal to a
 * string; strings (UTF-8 binaries) are strings and other binaries `["$binary", [bytes]]`; a charlist is a list of
 * integers, as in Elixir. Functions, pids, references, ports and improper lists cannot be given (the candidate's run
 * fails at that case).
 */
import { VALUE_TAG } from '../values.js';
import { splitTopLevel, type SourceSyntax, type SplitCase, type SplitTests, type ValueSplit } from '../split.js';

const ELIXIR_SYNTAX: SourceSyntax = { quotes: ['"', '\''], lineComment: '#' };

/** Elixir: `CrucibleValues.line(i, v)` writes `CRUCIBLE-VALUE i <json>` on a line of its own. */
const ELIXIR_SERIALIZER = String.raw`
defmodule CrucibleValues do
  def json(_, depth) when depth > 100, do: raise("value nested too deeply")
  def json(nil, _), do: "null"
  def json(true, _), do: "true"
  def json(false, _), do: "false"
  def json(v, _) when is_integer(v), do: Integer.to_string(v)
  def json(v, _) when is_float(v), do: Float.to_string(v)
  def json(v, _) when is_atom(v), do: tagged("$atom", [string(Atom.to_string(v))])
  def json(v, _) when is_binary(v) do
    if String.valid?(v), do: string(v), else: tagged("$binary", ["[" <> Enum.map_join(:binary.bin_to_list(v), ",", &Integer.to_string/1) <> "]"])
  end
  def json(v, d) when is_list(v), do: "[" <> Enum.map_join(v, ",", &json(&1, d + 1)) <> "]"
  def json(v, d) when is_tuple(v), do: tagged("$tuple", ["[" <> Enum.map_join(Tuple.to_list(v), ",", &json(&1, d + 1)) <> "]"])
  def json(v, d) when is_map(v) do
    "{\"$map\":[" <> Enum.map_join(Map.to_list(v), ",", fn {k, x} -> "[" <> json(k, d + 1) <> "," <> json(x, d + 1) <> "]" end) <> "]}"
  end
  def json(v, _), do: raise("this value cannot be given: " <> inspect(v))
  def string(s) do
    chars = s |> String.to_charlist() |> Enum.map_join(fn c ->
      cond do
        c == 34 -> "\\\""
        c == 92 -> "\\\\"
        c < 32 or c == 127 -> "\\u" <> String.pad_leading(Integer.to_string(c, 16), 4, "0")
        true -> <<c::utf8>>
      end
    end)
    "\"" <> chars <> "\""
  end
  defp tagged(tag, parts), do: "[" <> string(tag) <> Enum.map_join(parts, fn p -> "," <> p end) <> "]"
  def line(i, v) do
    text = json(v, 0)
    IO.write(:stdio, "\n${VALUE_TAG} " <> Integer.to_string(i) <> " " <> text <> "\n")
  end
end
`;

/** The `<expected> == <call>` of an assertion (either side may hold the call), or undefined. */
function caseOf(assertion: string): SplitCase | undefined {
  const parts = splitTopLevel(assertion, '==', ELIXIR_SYNTAX);
  if (parts.length !== 2 || parts.some((p) => p === '' || p.startsWith('=')) || /[=!<>]$/.test(parts[0]!)) return undefined;
  const calls = parts.map((p) => /\bcandidate\b/.test(p));
  if (calls[0] === calls[1]) return undefined;
  return calls[1] ? { actual: parts[1]!, expected: parts[0]! } : { actual: parts[0]!, expected: parts[1]! };
}

/** `text`'s lines, a line that leaves a `"` string open joined with the next (a string literal with a newline). */
function logicalLines(text: string): string[] {
  const out: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    pending = pending === '' ? raw : `${pending}\n${raw}`;
    const quotes = pending.replace(/\\./g, '').split('"').length - 1;
    if (quotes % 2 === 0) { out.push(pending); pending = ''; }
  }
  if (pending !== '') out.push(pending);
  return out;
}

/** MultiPL-E Elixir split (see the module comment). */
export const ELIXIR_SPLIT: ValueSplit = {
  cases(test: string): SplitTests | undefined {
    const open = /^[ \t]*test\s+(?:"[^"\n]*"|'[^'\n]*')\s+do[ \t]*$/m.exec(test);
    if (open === null) return undefined;
    const lines = logicalLines(test.slice(open.index + open[0].length));
    const prelude: string[] = [];
    const cases: SplitCase[] = [];
    let ends = 0;
    for (const raw of lines) {
      const line = raw.trim();
      if (line === '') continue;
      const assertion = /^assert\s+(.+)$/s.exec(line);
      if (assertion !== null && ends === 0) {
        const c = caseOf(assertion[1]!);
        if (c === undefined) return undefined;
        cases.push(c);
      } else if (line === 'end') {
        ends++;
      } else if (cases.length === 0 && ends === 0) {
        prelude.push(line);
      } else {
        return undefined;
      }
    }
    if (cases.length === 0 || ends !== 2) return undefined;
    return { prelude: prelude.join('\n'), cases };
  },
  candidateProgram: ({ program, tests }) => [
    program, ELIXIR_SERIALIZER, tests.prelude, ...tests.cases.map((c, i) => `CrucibleValues.line(${i}, (${c.actual}))`), '',
  ].join('\n'),
  expectedProgram: ({ tests }) => [
    ELIXIR_SERIALIZER, ...tests.cases.map((c, i) => `CrucibleValues.line(${i}, (${c.expected}))`), '',
  ].join('\n'),
};

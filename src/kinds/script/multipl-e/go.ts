/**
 * Go (MultiPL-E `humaneval_to_go.py`, language `go_test.go`): the prompt opens `package <name>_test` with
 * `import ("testing"; "fmt")` (the reader makes them the setup, as `package main`: `src/formats/multipl-e.ts`);
 * the tests are one `func TestF(t *testing.T)` that binds `candidate := f`, builds
 * `tests := []test{ { actual: candidate(...), expected: <literal> }, ... }` with both fields `interface{}`, and
 * fails a case when `fmt.Sprintf("%v", tc.actual) != fmt.Sprintf("%v", tc.expected)`.
 *
 * That comparison is of `%v` renderings, not of values: `[]int{1, 2}` equals `[]string{"1", "2"}`, `3.0` equals
 * `3`, a map's entries are rendered in sorted key order. The honest value is therefore the rendering itself: both
 * programs print, for each case, the JSON string of `fmt.Sprintf("%v", x)` with `x` converted to `interface{}`
 * exactly as the struct field converted it (so an untyped constant becomes `int` or `float64` as it did there),
 * and Crucible compares the strings. Bytes of a rendering that are not UTF-8 are written as lone surrogates
 * `\udcXX` (PEP 383's surrogateescape), so different bytes never read as the same text.
 *
 * The candidate's program keeps the setup's imports (the tests used `fmt` and `testing`; Go refuses an unused
 * import, so the driver refers to them) and adds none the program might want: MultiPL-E compiles the prompt's own
 * import block only, as the one-program assembly does (`./one-program.ts`). The expected program needs no
 * prompt text: a Go literal states its type.
 */
import { VALUE_TAG } from '../values.js';
import { closingBracket, splitTopLevel, type SourceSyntax, type SplitTests, type ValueSplit } from '../split.js';

const GO_SYNTAX: SourceSyntax = { quotes: ['"', '`', '\''], lineComment: '//' };

/** Go source: its own imports (aliased, so they never clash with the program's) and `crucibleValueLine(i, v)`. */
const GO_IMPORTS = 'import (\n\tcrucible_fmt "fmt"\n\tcrucible_os "os"\n\tcrucible_strconv "strconv"\n\tcrucible_utf8 "unicode/utf8"\n)\n';
const GO_SERIALIZER = String.raw`
func crucibleValueLine(i int, v interface{}) {
	s := crucible_fmt.Sprintf("%v", v)
	b := []byte("\n${VALUE_TAG} " + crucible_strconv.Itoa(i) + " \"")
	for at := 0; at < len(s); {
		r, n := crucible_utf8.DecodeRuneInString(s[at:])
		switch {
		case r == crucible_utf8.RuneError && n == 1:
			b = append(b, crucible_fmt.Sprintf("\\udc%02x", s[at])...)
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r < 0x20 || r == 0x7f:
			b = append(b, crucible_fmt.Sprintf("\\u%04x", r)...)
		default:
			b = append(b, s[at:at+n]...)
		}
		at += n
	}
	crucible_os.Stdout.Write(append(b, '"', '\n'))
}
`;

/**
 * The test function: group 1 is the text before it, 2 the binding, 3 the elements of `tests`; the loop after it
 * must be MultiPL-E's `%v` comparison, word for word up to white space.
 */
const TEST = new RegExp([
  String.raw`^([\s\S]*?)\bfunc\s+Test\w*\s*\(\s*t\s+\*testing\.T\s*\)\s*\{\s*(candidate\s*:=\s*\w+)\s*`,
  String.raw`type\s+test\s+struct\s*\{\s*actual\s+interface\{\}\s*expected\s+interface\{\}\s*\}\s*tests\s*:=\s*\[\]test\{([\s\S]*)\}\s*`,
  String.raw`for\s+i\s*,\s*tc\s*:=\s*range\s+tests\s*\{\s*t\.Run\(fmt\.Sprintf\("test num % d",\s*i\),\s*func\s*\(t\s+\*testing\.T\)\s*\{\s*`,
  String.raw`if\s+fmt\.Sprintf\("%v",\s*tc\.actual\)\s*!=\s*fmt\.Sprintf\("%v",\s*tc\.expected\)\s*\{\s*`,
  String.raw`t\.Errorf\("expected '%s', got '%s'",\s*tc\.expected,\s*tc\.actual\)\s*\}\s*\}\)\s*\}\s*\}\s*$`,
].join(''));

/** The prelude's parts (the text before the test function, the binding) are joined with this (never in Go source). */
const PARTS = '\u0000';

/** `{ actual: <a>, expected: <e> }` elements of the `tests` slice, or undefined when one is in another shape. */
function elements(list: string): { actual: string; expected: string }[] | undefined {
  const found: { actual: string; expected: string }[] = [];
  for (const element of splitTopLevel(list, ',', GO_SYNTAX)) {
    if (element === '') continue;
    if (!element.startsWith('{') || closingBracket(element, 0, GO_SYNTAX) !== element.length) return undefined;
    const fields = splitTopLevel(element.slice(1, -1), ',', GO_SYNTAX).filter((f) => f !== '');
    const actual = /^actual\s*:\s*([\s\S]+)$/.exec(fields[0] ?? '');
    const expected = /^expected\s*:\s*([\s\S]+)$/.exec(fields[1] ?? '');
    if (fields.length !== 2 || actual === null || expected === null) return undefined;
    found.push({ actual: actual[1]!.trim(), expected: expected[1]!.trim() });
  }
  return found.length === 0 ? undefined : found;
}

/** MultiPL-E Go split (see the module comment). */
export const GO_SPLIT: ValueSplit = {
  cases(test: string): SplitTests | undefined {
    const m = TEST.exec(test);
    const cases = m === null ? undefined : elements(m[3]!);
    if (m === null || cases === undefined) return undefined;
    return { prelude: `${m[1]!}${PARTS}${m[2]!}`, cases };
  },
  candidateProgram: ({ setup, program, tests }) => {
    const [before, binding] = tests.prelude.split(PARTS) as [string, string];
    // The setup's imports were used by the tests; Go refuses an import nobody uses.
    const keep = [...setup.matchAll(/"(testing|fmt)"/g)].map((m) => m[1] === 'testing' ? 'var _ = testing.Short' : 'var _ = fmt.Sprintf');
    return [
      setup, GO_IMPORTS, program, before, ...keep, GO_SERIALIZER, 'func main() {', `\t${binding}`,
      ...tests.cases.map((c, i) => `\tcrucibleValueLine(${i}, ${c.actual})`), '}', '',
    ].join('\n');
  },
  expectedProgram: ({ tests }) => [
    'package main', GO_IMPORTS, GO_SERIALIZER, 'func main() {',
    ...tests.cases.map((c, i) => `\tcrucibleValueLine(${i}, ${c.expected})`), '}', '',
  ].join('\n'),
};

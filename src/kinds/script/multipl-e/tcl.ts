/**
 * Tcl (MultiPL-E `humaneval_to_tcl.py`): the tests define `proc assert_equal {actual expected}` (fails when
 * `$actual ne $expected`), alias `candidate` to the entry point (`interp alias {} candidate {} <entry point>`)
 * and assert `assert_equal [candidate ...] <expected>`, one case per line. Every Tcl value is a string and
 * `ne` compares strings, so a value leaves the box as the JSON string of its string representation
 * (`[list 1 2]` is `"1 2"`, `[dict create a 1]` is `"a 1"`, None is `""`), stdout forced to UTF-8 so that two
 * different strings never print alike.
 */
import { VALUE_TAG } from '../values.js';
import { splitTopLevel, type SourceSyntax, type SplitTests, type ValueSplit } from '../split.js';

const TCL_SYNTAX: SourceSyntax = { quotes: ['"'] };

/** Tcl 8.6 source: `crucible_value_line i v` writes `CRUCIBLE-VALUE i <json string of v>` on a line of its own. */
const TCL_SERIALIZER = String.raw`
fconfigure stdout -encoding utf-8 -translation lf
proc crucible_json_string {s} {
    set out "\""
    foreach c [split $s ""] {
        scan $c %c code
        if {$c eq "\""} {
            append out "\\\""
        } elseif {$c eq "\\"} {
            append out "\\\\"
        } elseif {$code < 32 || $code == 127} {
            append out [format "\\u%04x" $code]
        } else {
            append out $c
        }
    }
    return "$out\""
}
proc crucible_value_line {i v} {
    puts "\n${VALUE_TAG} $i [crucible_json_string $v]"
    flush stdout
}
`;

/** MultiPL-E Tcl split (see the module comment). */
export const TCL_SPLIT: ValueSplit = {
  cases(test: string): SplitTests | undefined {
    const alias = /^[ \t]*interp\s+alias\s+\{\}\s+candidate\s+\{\}\s+[\w:]+[ \t]*$/m.exec(test);
    if (alias === null) return undefined;
    const cases = [];
    for (const line of test.split('\n')) {
      const m = /^\s*assert_equal\s+(.*?)\s*$/.exec(line);
      if (m === null) continue;
      const words = splitTopLevel(m[1]!, ' ', TCL_SYNTAX).filter((w) => w !== '');
      if (words.length !== 2) return undefined;
      cases.push({ actual: words[0]!, expected: words[1]! });
    }
    return cases.length === 0 ? undefined : { prelude: alias[0].trim(), cases };
  },
  candidateProgram: ({ program, tests }) => [
    program, TCL_SERIALIZER, tests.prelude, ...tests.cases.map((c, i) => `crucible_value_line ${i} ${c.actual}`), '',
  ].join('\n'),
  expectedProgram: ({ tests }) => [
    TCL_SERIALIZER, ...tests.cases.map((c, i) => `crucible_value_line ${i} ${c.expected}`), '',
  ].join('\n'),
};

/**
 * Bash (MultiPL-E `humaneval_to_sh.py`): the prompt opens the function and the tests begin by closing it (`}`),
 * then define `candidate() { <entry point> "$@"; }`, `set -e`, and `run_test() { ... }` with one
 * `[[ $(candidate "arg" ...) = "<expected>" ]]` per line; every value is a string (a list is space-separated, a
 * nested list's rows newline-separated, a dict `key,value` lines, booleans `true`/`false`, None `None`).
 *
 * `[[ left = right ]]` with a fully quoted right side compares strings, byte for byte: the left side is the
 * output of the command substitution with its trailing newlines removed (its exit status is not looked at), the
 * right side the quoted word as bash expands it (inside double quotes `\"`, `\\` and `\$` are unescaped, but
 * `\n` and `\!` stay two characters, as the tests have them). The split evaluates the same words the same way:
 * the call by assignment (`crucible_v=$(candidate ...)`: command substitution, no word splitting, no globbing,
 * as between `[[ ]]`), the expected word as an assignment too, in a script with no candidate code; each is given
 * as a JSON string (`"`, `\` and control characters escaped; other bytes as they are, UTF-8 text read as such).
 * A right side that is not one double-quoted word (a glob pattern, in `[[ ]]`) is not read as a case: such tests
 * are judged as one script.
 */
import { VALUE_TAG } from '../values.js';
import { closingBracket, type SourceSyntax, type SplitTests, type ValueSplit } from '../split.js';

const BASH_SYNTAX: SourceSyntax = { quotes: ['"'] };

const CONTROL_CHARACTERS = [...Array.from({ length: 31 }, (_, i) => i + 1), 0x7f];

/**
 * Bash source: `crucible_value_line i "$v"` writes `CRUCIBLE-VALUE i <json string>` on a line of its own.
 * `set +e` first: a program's own `set -e` must not stop the cases (the tests ignore the call's exit status).
 */
const BASH_SERIALIZER = [
  'set +e',
  'crucible_value_line() {',
  '    local crucible_s=$2 crucible_bs=\'\\\' crucible_q=\'"\' crucible_c crucible_e',
  '    crucible_s=${crucible_s//"$crucible_bs"/"$crucible_bs$crucible_bs"}',
  '    crucible_s=${crucible_s//"$crucible_q"/"$crucible_bs$crucible_q"}',
  `    for crucible_c in ${CONTROL_CHARACTERS.map((c) => `$'\\x${c.toString(16).padStart(2, '0')}'`).join(' ')}; do`,
  '        builtin printf -v crucible_e \'\\\\u%04x\' "\'$crucible_c"',
  '        crucible_s=${crucible_s//"$crucible_c"/"$crucible_e"}',
  '    done',
  `    builtin printf '\\n%s %s "%s"\\n' '${VALUE_TAG}' "$1" "$crucible_s"`,
  '}',
].join('\n');

/** The tests' opening: the prompt's function closed, `candidate` defined, `set -e`, `run_test() {`. */
const TEST_HEAD = /^\s*\}\s*\n\s*candidate\s*\(\s*\)\s*\{\s*\n\s*[A-Za-z_]\w*\s+"\$@"\s*\n\s*\}\s*\n\s*set -e\s*\nrun_test\s*\(\s*\)\s*\{\s*\n/;
/** The tests' end: `run_test` closed and called. */
const TEST_TAIL = /\n\}\s*\n\s*run_test\s*$/;
/** A whole double-quoted word (bash expands `$`, backquotes and `\` escapes inside it, no globbing). */
const QUOTED_WORD = /^"(?:[^"\\]|\\[\s\S])*"$/;

/** MultiPL-E Bash split (see the module comment). */
export const BASH_SPLIT: ValueSplit = {
  cases(test: string): SplitTests | undefined {
    const head = TEST_HEAD.exec(test);
    const tail = TEST_TAIL.exec(test);
    if (head === null || tail === null || tail.index < head[0].length) return undefined;
    const cases: { actual: string; expected: string }[] = [];
    for (const raw of test.slice(head[0].length, tail.index).split('\n')) {
      const line = raw.trim();
      if (line === '') continue;
      if (!line.startsWith('[[ $(')) return undefined;
      const close = closingBracket(line, 4, BASH_SYNTAX);
      if (close < 0) return undefined;
      const rest = /^ = (.*) \]\]$/.exec(line.slice(close));
      if (rest === null || !QUOTED_WORD.test(rest[1]!)) return undefined;
      cases.push({ actual: line.slice(3, close), expected: rest[1]! });
    }
    if (cases.length === 0) return undefined;
    const prelude = test.slice(0, head[0].length).replace(/\n\s*set -e\s*\nrun_test\s*\(\s*\)\s*\{\s*\n$/, '\n');
    return { prelude, cases };
  },
  candidateProgram: ({ program, tests }) => [
    program, tests.prelude, BASH_SERIALIZER,
    ...tests.cases.map((c, i) => `crucible_v=${c.actual}\ncrucible_value_line ${i} "$crucible_v"`), '',
  ].join('\n'),
  expectedProgram: ({ tests }) => [
    BASH_SERIALIZER, ...tests.cases.map((c, i) => `crucible_v=${c.expected}\ncrucible_value_line ${i} "$crucible_v"`), '',
  ].join('\n'),
};

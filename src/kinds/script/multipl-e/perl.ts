/**
 * Perl (MultiPL-E `humaneval_to_pl.py`): the tests are `sub testhumaneval` binding `my $candidate = \&<entry point>;`
 * and checking `if(eq_deeply($candidate->(...),<expected>)) { print "ok!" }else{ exit 1; }`, one case per
 * `eq_deeply`; booleans are `1` and `""`, None is `undef`, lists and tuples array refs, dicts hash refs. The
 * candidate's box runs plain Perl (no Test::Deep).
 *
 * Test::Deep's `eq_deeply` compares two defined plain scalars with `eq` — as strings, so `1`, `1.0` and `"1"` are
 * equal, `"1.0"` and `1` are not, `0.1 + 0.2` equals `0.3` (both print as `0.3`); `undef` equals only `undef`;
 * array refs by length and element, hash refs by key set and values; a blessed reference never equals an
 * unblessed one, nor a reference a plain scalar. The value conventions (`src/kinds/script/values.ts`) mirror
 * that: every defined plain scalar is given as the JSON string of its Perl stringification (so the comparison
 * outside is `eq`), each character as its code point (`\u00XX` for a byte of a string without `use utf8`: a
 * character string and the same text as UTF-8 bytes differ, as under `eq`); `undef` is `null`; an array ref is
 * an array; a hash ref is a `$map` with string keys. A blessed, code, scalar or glob reference is not a value:
 * the case fails as a runtime error naming it.
 *
 * The call is evaluated in list context, as in the tests (`eq_deeply($candidate->(...), ...)`): an empty list is
 * `undef` (the tests compare the expected value with `undef` then). A list of two or more values would make
 * `eq_deeply` compare them with each other and ignore the expected value (so `return (1, 1)` passed every case
 * in one process); here it fails the case as a runtime error.
 */
import { VALUE_TAG } from '../values.js';
import { callsOf, type SourceSyntax, type SplitTests, type ValueSplit } from '../split.js';

const PERL_SYNTAX: SourceSyntax = { quotes: ['"', '\''], lineComment: '#' };

/**
 * Perl 5 source (strict-clean): `crucible_value_line(i, [LIST])` writes `CRUCIBLE-VALUE i <json>` on a line of its
 * own, the value being the list's only element (`undef` when it is empty).
 */
const PERL_SERIALIZER = String.raw`
package main;
require Scalar::Util;
sub crucible_string {
    my ($s) = @_;
    $s =~ s/([\x00-\x1f"\\\x7f-\x{ffff}])/sprintf('\\u%04x', ord $1)/ge;
    $s =~ s/([^\x00-\x7f])/my $c = ord($1) - 0x10000; sprintf('\\u%04x\\u%04x', 0xd800 + ($c >> 10), 0xdc00 + ($c & 0x3ff))/ge;
    return '"' . $s . '"';
}
sub crucible_json {
    my ($v, $depth) = @_;
    die "value nested too deeply\n" if $depth > 100;
    return 'null' unless defined $v;
    return crucible_string("$v") if ref($v) eq '';
    my $type = Scalar::Util::reftype($v);
    my $class = Scalar::Util::blessed($v);
    die "a blessed reference ($class) cannot be given as a value\n" if defined $class;
    return '[' . join(',', map { crucible_json($_, $depth + 1) } @$v) . ']' if $type eq 'ARRAY';
    if ($type eq 'HASH') {
        return '{"$map":[' . join(',', map { '[' . crucible_string($_) . ',' . crucible_json($v->{$_}, $depth + 1) . ']' } sort keys %$v) . ']}';
    }
    die "a reference to $type cannot be given as a value\n";
}
sub crucible_value_line {
    my ($i, $list) = @_;
    my $n = scalar @$list;
    die "the call returned a list of $n values (its test would compare them with each other, not with the expected value)\n" if $n > 1;
    my $json = crucible_json($n == 0 ? undef : $list->[0], 0);
    local ($\, $,) = ('', '');
    my $previous = select(STDOUT);
    $| = 1;
    select($previous);
    print STDOUT "\n${VALUE_TAG} $i $json\n";
}
`;

/** MultiPL-E Perl split (see the module comment). */
export const PERL_SPLIT: ValueSplit = {
  cases(test: string): SplitTests | undefined {
    const binding = /^[ \t]*my\s+\$candidate\s*=\s*\\&[A-Za-z_][\w:]*\s*;[ \t]*$/m.exec(test);
    const calls = callsOf(test, 'eq_deeply', PERL_SYNTAX);
    if (binding === null || calls === undefined || calls.length === 0 || calls.some((args) => args.length !== 2)) return undefined;
    return { prelude: binding[0].trim(), cases: calls.map(([actual, expected]) => ({ actual: actual!, expected: expected! })) };
  },
  candidateProgram: ({ program, tests }) => [
    program, PERL_SERIALIZER, tests.prelude,
    ...tests.cases.map((c, i) => `crucible_value_line(${i}, [${c.actual}]);`), '',
  ].join('\n'),
  expectedProgram: ({ tests }) => [
    PERL_SERIALIZER, ...tests.cases.map((c, i) => `crucible_value_line(${i}, [${c.expected}]);`), '',
  ].join('\n'),
};

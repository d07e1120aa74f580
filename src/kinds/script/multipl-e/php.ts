/**
 * PHP (MultiPL-E `humaneval_to_php.py`): the tests define `function candidate(...$args) { return <entry point>(...$args); }`
 * and, in `function test(): void`, one `if (candidate(...) !== <expected>) { throw new Exception("Test failed!"); }`
 * per case; lists, tuples and dicts are `array(...)`, None is `null`.
 *
 * `!==` is PHP's identity: `1 !== 1.0` (an int is never a float), strings byte for byte, arrays by the same
 * key/value pairs IN THE SAME ORDER with identical keys and values (`array(1 => "a", 0 => "b") !== array("b", "a")`),
 * an object only by instance (so never a literal). The value conventions (`src/kinds/script/values.ts`) would
 * conflate some of these (int and float of equal value; maps without order), so PHP values are given as:
 * null, booleans, ints as JSON integers; a float as `{"$map":[["float", <round-trip text>]]}` (NaN and the
 * infinities as `{"$float":…}` inside: NaN is identical to nothing, as in PHP); a string that is valid UTF-8 as a
 * JSON string, any other as `{"$map":[["bytes", "<hex>"]]}`; an array whose keys are 0..n-1 in order as a JSON
 * array, any other as `{"$map":[["array", [[key, value], ...]]]}` (an ordered list of pairs, keys as ints or
 * strings as PHP holds them). No PHP array is given as a `$map`, so a tag cannot be forged by an array; an
 * object, closure or resource is not a value (the case fails as a runtime error naming its type on stderr).
 *
 * The cases run inside a function of their own, as the tests run inside `test()` (a `"$a"` in a literal
 * interpolates a local, not a global).
 */
import { VALUE_TAG } from '../values.js';
import { closingBracket, splitTopLevel, type SourceSyntax, type SplitTests, type ValueSplit } from '../split.js';

const PHP_SYNTAX: SourceSyntax = { quotes: ['"', '\''], lineComment: '//' };

/**
 * PHP 8 source: `crucible_value_line(i, v)` writes `CRUCIBLE-VALUE i <json>` on a line of its own to STDOUT. PHP's
 * own error messages go to stderr from here on (the CLI prints them on stdout), so a failed case's reason shows them.
 */
const PHP_SERIALIZER = String.raw`
ini_set('display_errors', 'stderr');
function crucible_json_string(string $s): string {
    if (preg_match('//u', $s) !== 1) return '{"$map":[["bytes","' . bin2hex($s) . '"]]}';
    return '"' . preg_replace_callback('/[\x00-\x1f"\\\\\x7f]/', fn ($m) => sprintf('\\u%04x', ord($m[0])), $s) . '"';
}
function crucible_json($v, int $depth): string {
    if ($depth > 100) throw new Exception('value nested too deeply');
    if ($v === null) return 'null';
    if ($v === true) return 'true';
    if ($v === false) return 'false';
    if (is_int($v)) return (string) $v;
    if (is_float($v)) {
        if (is_nan($v)) $f = '{"$float":"nan"}';
        elseif (is_infinite($v)) $f = $v > 0 ? '{"$float":"inf"}' : '{"$float":"-inf"}';
        else {
            $f = sprintf('%.17G', $v);
            foreach ([15, 16] as $digits) {
                if ((float) sprintf("%.{$digits}G", $v) === $v) { $f = sprintf("%.{$digits}G", $v); break; }
            }
            if (strpbrk($f, '.E') === false) $f .= '.0';
        }
        return '{"$map":[["float",' . $f . ']]}';
    }
    if (is_string($v)) return crucible_json_string($v);
    if (is_array($v)) {
        $parts = [];
        $next = 0;
        $list = true;
        foreach ($v as $key => $x) {
            if ($key !== $next++) { $list = false; break; }
        }
        if ($list) {
            foreach ($v as $x) $parts[] = crucible_json($x, $depth + 1);
            return '[' . implode(',', $parts) . ']';
        }
        foreach ($v as $key => $x) $parts[] = '[' . crucible_json($key, $depth + 1) . ',' . crucible_json($x, $depth + 1) . ']';
        return '{"$map":[["array",[' . implode(',', $parts) . ']]]}';
    }
    throw new Exception('a ' . get_debug_type($v) . ' cannot be given as a value');
}
function crucible_value_line(int $i, $v): void {
    try {
        $json = crucible_json($v, 0);
    } catch (Exception $e) {
        fwrite(STDERR, $e->getMessage() . "\n");
        exit(255);
    }
    fwrite(STDOUT, "\n${VALUE_TAG} " . $i . ' ' . $json . "\n");
    fflush(STDOUT);
}
`;

const CANDIDATE_BINDING = /function\s+candidate\s*\(\s*\.\.\.\$args\s*\)\s*\{\s*return\s+[A-Za-z_]\w*\s*\(\s*\.\.\.\$args\s*\)\s*;\s*\}/;

/** MultiPL-E PHP split (see the module comment). */
export const PHP_SPLIT: ValueSplit = {
  cases(test: string): SplitTests | undefined {
    const binding = CANDIDATE_BINDING.exec(test);
    if (binding === null) return undefined;
    const cases: { actual: string; expected: string }[] = [];
    for (const m of test.matchAll(/(?<![\w$>:-])if\s*\(/g)) {
      const open = m.index + m[0].length - 1;
      const close = closingBracket(test, open, PHP_SYNTAX);
      if (close < 0) return undefined;
      const sides = splitTopLevel(test.slice(open + 1, close - 1), '!==', PHP_SYNTAX);
      if (sides.length !== 2 || !/^\s*\{\s*throw\b/.test(test.slice(close))) return undefined;
      cases.push({ actual: sides[0]!, expected: sides[1]! });
    }
    if (cases.length === 0) return undefined;
    return { prelude: binding[0], cases };
  },
  candidateProgram: ({ program, tests }) => [
    program, PHP_SERIALIZER, tests.prelude,
    'function crucible_candidate_values(): void {',
    ...tests.cases.map((c, i) => `    crucible_value_line(${i}, ${c.actual});`),
    '}',
    'crucible_candidate_values();', '',
  ].join('\n'),
  expectedProgram: ({ tests }) => [
    '<?php', PHP_SERIALIZER,
    'function crucible_expected_values(): void {',
    ...tests.cases.map((c, i) => `    crucible_value_line(${i}, ${c.expected});`),
    '}',
    'crucible_expected_values();', '',
  ].join('\n'),
};

/**
 * Ruby (MultiPL-E `humaneval_to_rb.py`): the tests are a test-unit case, `class TestHumanEval < Test::Unit::TestCase`
 * with one method that binds `candidate = method(:<entry point>)` and asserts
 * `assert_equal(<expected>, candidate.call(...))` (expected first), one case per call. The candidate's box runs
 * plain Ruby (no test-unit).
 *
 * `assert_equal` is Ruby's `expected == actual`: `1 == 1.0`, arrays element-wise, hashes by key set and values
 * (without order), `nil`, `true` and `false` equal only themselves, a Symbol never equals a String. The value
 * conventions (`src/kinds/script/values.ts`) mirror that: Integer (exact, any size), Float (round-trip text,
 * `{"$float":…}` for NaN and infinities), String (UTF-8 text; a string in another encoding with non-ASCII bytes,
 * or with invalid bytes, is not a value), Array, Hash (`$map`), Set (`$set`: never equal to an Array, as in
 * Ruby), and a Rational or Complex equal to a number as Ruby's `==` finds it (`Rational(5, 1) == 5`: an Integer
 * when its denominator is 1, else its Float). Anything else (a Symbol, a Range, an object of the program's own
 * class, whatever its `==`) is not a value: the case fails as a runtime error naming the class. One difference
 * is kept: a Hash compares its keys with `eql?` (`{1 => 0} != {1.0 => 0}`), the value comparison with `==`; the
 * translator's keys are strings.
 */
import { VALUE_TAG } from '../values.js';
import { callsOf, type SourceSyntax, type SplitTests, type ValueSplit } from '../split.js';

const RUBY_SYNTAX: SourceSyntax = { quotes: ['"', '\''], lineComment: '#' };

/** Ruby source: `crucible_value_line(i, v)` writes `CRUCIBLE-VALUE i <json>` on a line of its own to STDOUT. */
const RUBY_SERIALIZER = String.raw`
def crucible_json(v, depth)
  raise ArgumentError, 'value nested too deeply' if depth > 100
  case v
  when nil then 'null'
  when true then 'true'
  when false then 'false'
  when Integer then Integer.instance_method(:to_s).bind_call(v)
  when Float
    return '{"$float":"nan"}' if v.nan?
    return(v > 0 ? '{"$float":"inf"}' : '{"$float":"-inf"}') if v.infinite?
    Float.instance_method(:to_s).bind_call(v)
  when Rational then v.denominator == 1 ? crucible_json(v.numerator, depth) : crucible_json(v.to_f, depth)
  when Complex
    raise ArgumentError, 'a Complex with an imaginary part cannot be given as a value' unless v.imaginary.zero?
    crucible_json(v.real, depth)
  when String
    s = String.new(v)
    raise ArgumentError, "a String in #{s.encoding} cannot be given as a value" unless s.encoding == Encoding::UTF_8 || s.ascii_only?
    s = s.dup.force_encoding(Encoding::UTF_8)
    raise ArgumentError, 'a String with invalid UTF-8 cannot be given as a value' unless s.valid_encoding?
    '"' + s.gsub(/[\u0000-\u001f"\\\u007f\u2028\u2029]/) { |c| format('\\u%04x', c.ord) } + '"'
  when Array then '[' + Array.instance_method(:map).bind_call(v) { |x| crucible_json(x, depth + 1) }.join(',') + ']'
  when Hash
    '{"$map":[' + Hash.instance_method(:map).bind_call(v) { |k, x| '[' + crucible_json(k, depth + 1) + ',' + crucible_json(x, depth + 1) + ']' }.join(',') + ']}'
  else
    if defined?(::Set) && v.is_a?(::Set)
      '{"$set":[' + v.to_a.map { |x| crucible_json(x, depth + 1) }.join(',') + ']}'
    else
      raise ArgumentError, "a #{v.class} cannot be given as a value"
    end
  end
end
def crucible_value_line(i, v)
  STDOUT.write("\n${VALUE_TAG} #{i} #{crucible_json(v, 0)}\n")
  STDOUT.flush
end
`;

/** MultiPL-E Ruby split (see the module comment). */
export const RUBY_SPLIT: ValueSplit = {
  cases(test: string): SplitTests | undefined {
    const binding = /^[ \t]*candidate\s*=\s*method\(:[A-Za-z_]\w*[?!]?\)[ \t]*$/m.exec(test);
    const calls = callsOf(test, 'assert_equal', RUBY_SYNTAX);
    if (binding === null || calls === undefined || calls.length === 0 || calls.some((args) => args.length !== 2)) return undefined;
    return { prelude: binding[0].trim(), cases: calls.map(([expected, actual]) => ({ actual: actual!, expected: expected! })) };
  },
  candidateProgram: ({ program, tests }) => [
    program, RUBY_SERIALIZER, tests.prelude,
    ...tests.cases.map((c, i) => `crucible_value_line(${i}, (${c.actual}))`), '',
  ].join('\n'),
  expectedProgram: ({ tests }) => [
    RUBY_SERIALIZER, ...tests.cases.map((c, i) => `crucible_value_line(${i}, (${c.expected}))`), '',
  ].join('\n'),
};

/**
 * JavaScript (MultiPL-E `humaneval_to_js.py`): the tests bind `let candidate = <entry point>;` inside
 * `function test()` and assert `assert.deepEqual(candidate(...),<expected>);` with `node:assert`, one case per
 * call. The expected values are literals: numbers, strings, `true`/`false`, `undefined` (Python's None), arrays
 * (lists and tuples) and object literals with string keys (dicts).
 *
 * `assert.deepEqual` is Node's LEGACY loose deep equality: primitives compare with `==`, arrays element by element
 * (same length), objects by their own enumerable keys in any order, prototypes ignored. The value conventions
 * (`src/kinds/script/values.ts`) mirror it on what the translator's literals can meet:
 * - `null` and `undefined` are both JSON null (`null == undefined`);
 * - a boolean is the integer 1 or 0 (`true == 1`, `false == 0`, `true == "1"`);
 * - a number is an integer when it is one (exact digits; -0 is 0, as `-0 == 0`), else a float with round-trip
 *   digits; a bigint is an integer (`1n == 1`); NaN and the infinities are `$float` (NaN equals nothing here,
 *   unlike deepEqual's NaN rule; a translated literal is never NaN);
 * - a string that is the canonical text of a finite number or of ±Infinity (`String(Number(s)) === s`, e.g. "12",
 *   "-0.5") is that number (`"12" == 12`); every other string is a string (so `"" == 0` and `"01" == 1`, which
 *   `==` accepts, do not match here: the two values are not of one type in any translated test);
 * - an array is a list (a hole reads as null); any other object whose `Object.prototype.toString` is
 *   `[object Object]` (plain objects, class instances) is a `$map` from its own enumerable keys (strings, not
 *   converted) to values; a Map, Set, function, symbol, boxed primitive, cyclic or too deep value cannot be given
 *   as a value (the candidate's run fails: a runtime error).
 * The serializer runs after the candidate's code in the candidate's process: a candidate that patches the
 * built-ins it uses only misreports its own values.
 */
import { VALUE_TAG } from '../values.js';
import { callsOf, type SourceSyntax, type SplitTests, type ValueSplit } from '../split.js';

export const JAVASCRIPT_SYNTAX: SourceSyntax = { quotes: ['"', '\'', '`'], lineComment: '//' };

/**
 * JavaScript source (also valid TypeScript syntax, for the transpile-only TypeScript toolchain):
 * `crucible_value_line(i, v)` writes `CRUCIBLE-VALUE i <json>` on a line of its own, the JSON built first.
 */
export const JAVASCRIPT_SERIALIZER = String.raw`
function crucible_number(x) {
  if (Number.isNaN(x)) return '{"$float":"nan"}';
  if (x === Infinity) return '{"$float":"inf"}';
  if (x === -Infinity) return '{"$float":"-inf"}';
  if (Number.isInteger(x)) return x === 0 ? '0' : BigInt(x).toString();
  return String(x);
}
function crucible_json(v, depth, stack) {
  if (depth > 100) throw new Error('value nested too deeply');
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'boolean': return v ? '1' : '0';
    case 'number': return crucible_number(v);
    case 'bigint': return v.toString();
    case 'string': {
      const n = Number(v);
      return v !== '' && !Number.isNaN(n) && String(n) === v ? crucible_number(n) : JSON.stringify(v);
    }
    case 'object': break;
    default: throw new Error('a ' + typeof v + ' cannot be given as a value');
  }
  if (stack.includes(v)) throw new Error('a cyclic value cannot be given as a value');
  stack.push(v);
  const parts = [];
  let text;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) parts.push(crucible_json(v[i], depth + 1, stack));
    text = '[' + parts.join(',') + ']';
  } else if (Object.prototype.toString.call(v) === '[object Object]') {
    for (const k of Object.keys(v)) parts.push('[' + JSON.stringify(k) + ',' + crucible_json(v[k], depth + 1, stack) + ']');
    text = '{"$map":[' + parts.join(',') + ']}';
  } else {
    throw new Error('a ' + Object.prototype.toString.call(v) + ' cannot be given as a value');
  }
  stack.pop();
  return text;
}
function crucible_value_line(i, v) {
  const text = crucible_json(v, 0, []);
  process.stdout.write('\n${VALUE_TAG} ' + i + ' ' + text + '\n');
}
`;

/**
 * The tests of a MultiPL-E JavaScript or TypeScript suite (the same shape: see the module comment). The prelude is
 * the suite's text before `function test()` (where a published suite closes the prompt's function with `}` and
 * declares `require`), then the `let candidate = ...;` line.
 */
export function javascriptCases(test: string): SplitTests | undefined {
  const start = /^function\s+test\s*\(\s*\)\s*\{/m.exec(test);
  const binding = /^[ \t]*let\s+candidate\s*=\s*[\w$.]+\s*;?[ \t]*$/m.exec(test);
  const calls = callsOf(test, 'assert.deepEqual', JAVASCRIPT_SYNTAX);
  if (start === null || binding === null || binding.index < start.index || calls === undefined || calls.length === 0
    || calls.some((args) => args.length !== 2)) return undefined;
  return { prelude: `${test.slice(0, start.index).trimEnd()}\n${binding[0].trim()}`,
    cases: calls.map(([actual, expected]) => ({ actual: actual!, expected: expected! })) };
}

/** MultiPL-E JavaScript split (see the module comment); TypeScript's is the same after transpiling. */
export const JAVASCRIPT_SPLIT: ValueSplit = {
  cases: javascriptCases,
  // The calls run in a function of their own, as in the suite's `test()`: its `let candidate` cannot clash with the program.
  candidateProgram: ({ program, tests }) => {
    const cut = tests.prelude.lastIndexOf('\n');
    return [
      program, tests.prelude.slice(0, cut), JAVASCRIPT_SERIALIZER, '(function () {', tests.prelude.slice(cut + 1),
      ...tests.cases.map((c, i) => `crucible_value_line(${i}, (${c.actual}));`), '})();', '',
    ].join('\n');
  },
  expectedProgram: ({ tests }) => [
    JAVASCRIPT_SERIALIZER, ...tests.cases.map((c, i) => `crucible_value_line(${i}, (${c.expected}));`), '',
  ].join('\n'),
};

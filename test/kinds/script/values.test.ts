/**
 * The value lines of split script judging (`src/kinds/script/values.ts`) and the scanners that read a benchmark's
 * tests into cases (`src/kinds/script/split.ts`): parsing is exact (big integers, floats, tags), refuses
 * what is not a value with the offset, and equality follows the languages' `==` on those shapes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callsOf, closingBracket, splitTopLevel } from '../../../src/kinds/script/split.js';
import {
  isValueLine, parseScriptValue, renderScriptValue, ScriptValueError, scriptValuesEqual, valueLines,
} from '../../../src/kinds/script/values.js';

const eq = (a: string, b: string, tolerance?: { absolute: number; relative: number }): boolean =>
  scriptValuesEqual(parseScriptValue(a), parseScriptValue(b), tolerance);

describe('script values: parsing', () => {
  it('reads every shape, integers exactly', () => {
    assert.deepEqual(parseScriptValue('123456789012345678901234567890'), { t: 'int', v: 123456789012345678901234567890n });
    assert.deepEqual(parseScriptValue('-0.5e3'), { t: 'float', v: -500 });
    assert.deepEqual(parseScriptValue(' [1, "a\\"b\\u00e9", null, true] '),
      { t: 'list', v: [{ t: 'int', v: 1n }, { t: 'str', v: 'a"bé' }, { t: 'null' }, { t: 'bool', v: true }] });
    assert.deepEqual(parseScriptValue('{"$map": [["k", 2]]}'), { t: 'map', v: [[{ t: 'str', v: 'k' }, { t: 'int', v: 2n }]] });
    assert.deepEqual(parseScriptValue('{"$set":[]}'), { t: 'set', v: [] });
    assert.ok(Number.isNaN((parseScriptValue('{"$float":"nan"}') as { v: number }).v));
    assert.deepEqual(parseScriptValue('{"$float":"-inf"}'), { t: 'float', v: Number.NEGATIVE_INFINITY });
  });

  it('refuses what is not a value, naming the offset', () => {
    for (const bad of ['', '[1,', '[1 2]', '"abc', '{"$map":[[1]]}', '{"k": 1}', '01', 'nul', '[1] x', '{"$float":"big"}']) {
      assert.throws(() => parseScriptValue(bad), (e: unknown) => e instanceof ScriptValueError && /offset \d+/.test(e.message), bad);
    }
    assert.throws(() => parseScriptValue('['.repeat(300) + ']'.repeat(300)), /nested too deeply/);
  });
});

describe('script values: equality', () => {
  it('numbers: integers exactly, an integer equals a float of its value, NaN equals nothing, booleans are not numbers', () => {
    assert.ok(eq('9007199254740993', '9007199254740993'));
    assert.ok(!eq('9007199254740993', '9007199254740992'));
    assert.ok(eq('2', '2.0'));
    assert.ok(!eq('0.30000000000000004', '0.3'));
    assert.ok(!eq('{"$float":"nan"}', '{"$float":"nan"}'));
    assert.ok(!eq('true', '1'));
    assert.ok(!eq('"1"', '1'));
  });

  it('a tolerance applies to floats only, |a - b| <= absolute + relative * |b|', () => {
    const t = { absolute: 0.001, relative: 0 };
    assert.ok(eq('1.0005', '1.0', t));
    assert.ok(!eq('1.002', '1.0', t));
    assert.ok(eq('[1.0005, "x"]', '[1, "x"]', t));
    assert.ok(!eq('{"$float":"inf"}', '{"$float":"inf"}', t) === false);
  });

  it('lists in order; maps and sets without order; nesting', () => {
    assert.ok(eq('[1, [2, 3]]', '[1, [2, 3]]'));
    assert.ok(!eq('[2, 1]', '[1, 2]'));
    assert.ok(!eq('[1]', '[1, 1]'));
    assert.ok(eq('{"$map":[["a",1],["b",[2]]]}', '{"$map":[["b",[2]],["a",1]]}'));
    assert.ok(!eq('{"$map":[["a",1],["b",2]]}', '{"$map":[["a",1],["b",3]]}'));
    assert.ok(!eq('{"$map":[["a",1]]}', '{"$map":[["a",1],["b",2]]}'));
    assert.ok(eq('{"$set":[3,1,2]}', '{"$set":[1,2,3]}'));
    assert.ok(!eq('{"$set":[1,1]}', '{"$set":[1,2]}'));
    assert.ok(!eq('[1, 2]', '{"$set":[1,2]}'));
    assert.ok(eq('[]', '[]') && !eq('[]', 'null'));
  });

  it('value lines are read by case index, every text kept; other lines are not value lines', () => {
    const lines = valueLines('hello\nCRUCIBLE-VALUE 0 1\r\nCRUCIBLE-VALUE 1 [2]\nCRUCIBLE-VALUE 1 3\nCRUCIBLE-VALUE x 4\n CRUCIBLE-VALUE 2 5');
    assert.deepEqual([...lines.entries()], [[0, ['1']], [1, ['[2]', '3']]]);
    assert.ok(isValueLine('CRUCIBLE-VALUE 3 null\r') && !isValueLine('value'));
    assert.equal(renderScriptValue(parseScriptValue('[1.0, "a", {"$map":[[1,null]]}]')), '[1.0, "a", {1: null}]');
    assert.equal(renderScriptValue(parseScriptValue(`"${'x'.repeat(300)}"`), 20).length, 20);
  });
});

describe('script split: reading tests', () => {
  const lua = { quotes: ['"', '\''], lineComment: '--' };
  it('finds each call and its top-level arguments, skipping strings, brackets and comments', () => {
    const text = 'lu.assertEquals(candidate({1, 2}, "a,)"), {[\'k\'] = 1})\n-- lu.assertEquals(x\n  lu.assertEquals(candidate(f(1, 2)), true)';
    assert.deepEqual(callsOf(text, 'lu.assertEquals', lua), [['candidate({1, 2}, "a,)")', '{[\'k\'] = 1}'], ['candidate(f(1, 2))', 'true']]);
    assert.equal(callsOf('x.lu.assertEquals(1, 2)', 'lu.assertEquals', lua)!.length, 0);
    assert.equal(callsOf('lu.assertEquals(1, (2)', 'lu.assertEquals', lua), undefined);
  });

  it('closingBracket and splitTopLevel', () => {
    assert.equal(closingBracket('f(a, [b], "(")x', 1, lua), 14);
    assert.equal(closingBracket('(]', 0, lua), -1);
    assert.deepEqual(splitTopLevel('a, {b, c}, "d, e"', ',', lua), ['a', '{b, c}', '"d, e"']);
  });
  it('a backslash is an ordinary character in literals of languages without backslash escapes (Pascal, Ada)', () => {
    const pascal = { quotes: ['\''], backslashEscapes: false };
    assert.equal(closingBracket("f('a\\', b)", 1, pascal), 10);
    assert.deepEqual(splitTopLevel("'a\\', 'it''s, ok'", ',', pascal), ["'a\\'", "'it''s, ok'"]);
    // With backslash escapes (the default) the same text reads the quote after the backslash as escaped.
    assert.equal(closingBracket("f('a\\', b)", 1, { quotes: ['\''] }), -1);
  });
});

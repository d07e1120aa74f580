import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePyJson, toPyValue } from '../../src/formats/index.js';

test('ints stay exact, floats are floats, NaN/Infinity tokens are read', () => {
  const v = toPyValue(parsePyJson('[123456789012345678901234567890, -0, 1.0, 1e400, NaN, -Infinity, Infinity, 2e-3]'));
  assert.deepEqual(v, {
    l: [{ i: '123456789012345678901234567890' }, { i: '0' }, { f: 1 }, { f: 'inf' }, { f: 'nan' }, { f: '-inf' }, { f: 'inf' }, { f: 0.002 }],
  });
});

test('objects keep key order (integer-like keys too), last duplicate wins; strings unescape', () => {
  const v = toPyValue(parsePyJson('{"b": 1, "2": true, "1": null, "b": "x\\u00e9\\n"}'));
  assert.deepEqual(v, { d: [['b', 'x\u00e9\n'], ['2', true], ['1', null]] });
});

test('only NaN/Infinity are tolerated beyond JSON', () => {
  assert.throws(() => parsePyJson('[1, 2,]'), SyntaxError);
  assert.throws(() => parsePyJson("{'a': 1}"), SyntaxError);
  assert.throws(() => parsePyJson('[nan]'), SyntaxError);
  assert.throws(() => parsePyJson('[1] 2'), SyntaxError);
});

/** Python's value semantics for SQL cells: repr, str, ==, code-point order, UTF-8 'ignore' decoding. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  compareCodePoints, decodeText, decodeUtf8Ignoring, fromWire, int, pyBytesRepr, pyEquals, pyFloatRepr, pyStr, real,
  sortedBy, text, toWire, valueKey,
} from '../../../src/kinds/sql/values.js';

describe('sql values', () => {
  it('pyFloatRepr gives what Python 3.11 repr() prints', () => {
    // Pairs printed by /usr/bin/python3 (Debian bookworm, 3.11).
    const cases: [number, string][] = [
      [0.1 + 0.2, '0.30000000000000004'], [1e16, '1e+16'], [1e15, '1000000000000000.0'],
      [1234567890123456.0, '1234567890123456.0'], [12345678901234567.0, '1.2345678901234568e+16'], [0.0001, '0.0001'],
      [0.00001, '1e-05'], [1.5e-5, '1.5e-05'], [1e-100, '1e-100'], [1e300, '1e+300'], [-0, '-0.0'], [2.5, '2.5'],
      [100, '100.0'], [5e-324, '5e-324'], [1.7976931348623157e308, '1.7976931348623157e+308'],
      [123456789.125, '123456789.125'], [0.1, '0.1'], [1 / 3, '0.3333333333333333'], [Infinity, 'inf'], [NaN, 'nan'],
    ];
    for (const [x, repr] of cases) assert.equal(pyFloatRepr(x), repr, String(x));
  });
  it('bytes repr picks its quotes and escapes as Python does', () => {
    const hex = (s: string): string => Buffer.from(s, 'latin1').toString('hex');
    assert.equal(pyBytesRepr(hex("a'b")), 'b"a\'b"');
    assert.equal(pyBytesRepr(hex('a"b')), "b'a\"b'");
    assert.equal(pyBytesRepr(hex('a\'"b')), "b'a\\'\"b'");
    assert.equal(pyBytesRepr('00090a0d5c7fc841'), "b'\\x00\\t\\n\\r\\\\\\x7f\\xc8A'");
  });
  it('== follows Python: ints and floats by exact value, text never equals a number', () => {
    assert.ok(pyEquals(int(7), real(7)));
    assert.ok(pyEquals(real(-0), int(0)));
    assert.ok(!pyEquals(text('1'), int(1)));
    assert.ok(!pyEquals(int(9007199254740993n), real(9007199254740992)));
    assert.ok(pyEquals(int(9007199254740992n), real(9007199254740992)));
    assert.ok(pyEquals(null, null));
    assert.ok(!pyEquals(null, text('None')));
    assert.notEqual(valueKey(real(0.1 + 0.2)), valueKey(real(0.3)));
  });
  it('str() of cells', () => {
    assert.equal(pyStr(null), 'None');
    assert.equal(pyStr(int(-12)), '-12');
    assert.equal(pyStr(real(3)), '3.0');
    assert.equal(pyStr(text('x')), 'x');
  });
  it('strings sort by code point, stably', () => {
    assert.ok(compareCodePoints('\u{1F600}', '\uFFFD') > 0); // UTF-16 order would put the emoji first
    assert.ok(compareCodePoints('a', 'b') < 0);
    assert.ok(compareCodePoints('ab', 'a') > 0);
    assert.deepEqual(sortedBy(['b1', 'a', 'b2'], (s) => s[0]!), ['a', 'b1', 'b2']);
  });
  it('wire form round-trips and tags floats', () => {
    for (const w of [null, 'x', 5, { int: '9007199254740993' }, { real: 1 }, { real: 'inf' }, { blob: '00ff' }, { badtext: '41ff' }] as const) {
      assert.deepEqual(toWire(fromWire(w)), w);
    }
    assert.deepEqual(fromWire({ real: 1 }), real(1));
    assert.deepEqual(fromWire(1), int(1));
  });
  it("decodes bad UTF-8 as Python's errors='ignore' does, or fails", () => {
    assert.equal(decodeUtf8Ignoring(Buffer.from('416e6eff', 'hex')), 'Ann');
    // E2 82 is a truncated 3-byte sequence: one maximal subpart, dropped whole; the A after it stays.
    assert.equal(decodeUtf8Ignoring(Buffer.from('e28241', 'hex')), 'A');
    assert.equal(decodeUtf8Ignoring(Buffer.from('c3a9', 'hex')), 'é');
    assert.equal(decodeUtf8Ignoring(Buffer.from('eda080', 'hex')), ''); // a surrogate: three bad bytes
    assert.deepEqual(decodeText({ t: 'badtext', hex: '416e6eff' }, 'ignore'), text('Ann'));
    assert.equal(decodeText({ t: 'badtext', hex: '416e6eff' }, 'raise'), undefined);
  });
});

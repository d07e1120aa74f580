/** Hand-checkable cases for Python `==` on PyValues and the EvalPlus float rule. */
import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { allClose, equalPyValues, isFloats, pyEquals, show } from '../../../src/kinds/python/compare-pyvalue.js';
import { checkPyValue, pyValueSchema, type PyValue } from '../../../src/verdict/index.js';

const i = (n: number | string): PyValue => ({ i: String(n) });
const f = (x: number | 'nan' | 'inf' | '-inf'): PyValue => ({ f: x });

describe('pyEquals: Python ==', () => {
  it('1 == 1.0 == True, 0 == False, 1 == (1+0j)', () => {
    assert.ok(pyEquals(i(1), f(1)));
    assert.ok(pyEquals(f(1), true));
    assert.ok(pyEquals(i(1), true));
    assert.ok(pyEquals(false, i(0)));
    assert.ok(pyEquals({ c: [1, 0] }, i(1)));
    assert.ok(!pyEquals({ c: [1, 1] }, i(1)));
  });
  it('int and float compare exactly: 2**53 + 1 != 2.0**53', () => {
    assert.ok(!pyEquals(i('9007199254740993'), f(2 ** 53)));
    assert.ok(pyEquals(i('9007199254740992'), f(2 ** 53)));
    assert.ok(!pyEquals(i(1), f(1.5)));
  });
  it('NaN != NaN, inf == inf, None only equals None, "1" != 1', () => {
    assert.ok(!pyEquals(f('nan'), f('nan')));
    assert.ok(pyEquals(f('inf'), f('inf')));
    assert.ok(!pyEquals(f('inf'), f('-inf')));
    assert.ok(pyEquals(null, null));
    assert.ok(!pyEquals(null, false));
    assert.ok(!pyEquals('1', i(1)));
  });
  it('list != tuple; elementwise equality', () => {
    assert.ok(!pyEquals({ l: [i(1)] }, { t: [i(1)] }));
    assert.ok(pyEquals({ l: [i(1), { t: [true] }] }, { l: [f(1), { t: [i(1)] }] }));
    assert.ok(!pyEquals({ l: [i(1)] }, { l: [i(1), i(2)] }));
  });
  it('sets are unordered, set == frozenset, {1, 1.0} has one element', () => {
    assert.ok(pyEquals({ s: [i(1), i(2)] }, { s: [i(2), f(1)] }));
    assert.ok(pyEquals({ s: [i(1)] }, { fs: [true] }));
    assert.ok(!pyEquals({ s: [i(1)] }, { l: [i(1)] }));
    assert.ok(pyEquals({ s: [{ t: [i(1), 'a'] }] }, { s: [{ t: [f(1), 'a'] }] }));
    assert.ok(!pyEquals({ s: [f('nan')] }, { s: [f('nan')] }));
  });
  it('dicts compare by key, order ignored', () => {
    const a: PyValue = { d: [['a', i(1)], [i(2), { l: [] }]] };
    const b: PyValue = { d: [[f(2), { l: [] }], ['a', true]] };
    assert.ok(pyEquals(a, b));
    assert.ok(!pyEquals(a, { d: [['a', i(1)]] }));
    assert.ok(!pyEquals(a, { d: [['a', i(2)], [i(2), { l: [] }]] }));
  });
  it('opaque values equal nothing, not even themselves', () => {
    const o: PyValue = { o: 'builtins.Yes', r: '<Yes>' };
    assert.ok(!pyEquals(o, o));
    assert.ok(!pyEquals({ l: [o] }, { l: [o] }));
  });
});

describe('equalPyValues: EvalPlus rule', () => {
  it('is_floats: float, or non-empty list/tuple of floats only', () => {
    assert.ok(isFloats(f(1)));
    assert.ok(isFloats({ l: [f(1), f(2)] }));
    assert.ok(!isFloats({ l: [] }));
    assert.ok(!isFloats({ l: [f(1), i(2)] }));
    assert.ok(!isFloats(i(1)));
  });
  it('float outputs get atol 1e-6 when the problem atol is 0', () => {
    assert.ok(equalPyValues(f(1 + 5e-7), f(1), { atol: 0 }).ok);
    assert.ok(!equalPyValues(f(1 + 5e-6), f(1), { atol: 0 }).ok);
    assert.ok(equalPyValues({ l: [f(0.30000000000000004)] }, { l: [f(0.3)] }).ok);
  });
  it('rtol 1e-7 scales with the expected value', () => {
    assert.ok(equalPyValues(f(1e9 + 50), f(1e9), { atol: 0 }).ok);
    assert.ok(!equalPyValues(f(1e9 + 500), f(1e9), { atol: 0 }).ok);
  });
  it('the tolerance path needs the same type and length', () => {
    assert.ok(!equalPyValues(i(1), f(1.0000001), { atol: 0 }).ok); // int vs float: type differs
    assert.ok(equalPyValues(i(1), f(1), { atol: 0 }).ok); // but exact == passes first
    assert.ok(!equalPyValues({ t: [f(1)] }, { l: [f(1)] }, { atol: 1e-3 }).ok);
    assert.ok(!equalPyValues({ l: [f(1)] }, { l: [f(1), f(2)] }, { atol: 1e-3 }).ok);
  });
  it('says what differs in Python\'s words (a model reads the reason as feedback), never in internal tags', () => {
    const r = equalPyValues(i(3), f(3.5), { atol: 0 });
    assert.deepEqual(r, { ok: false, reason: 'expected a float (3.5), got an int (3)' });
    const t = equalPyValues({ t: [f(1)] }, { l: [f(2)] }, { atol: 1e-3 });
    assert.ok(!t.ok && t.reason === 'expected a list ([2.0]), got a tuple ((1.0,))', JSON.stringify(t));
  });
  it('non-float outputs are exact when atol is 0', () => {
    assert.ok(!equalPyValues(i(2), i(3)).ok);
    assert.ok(!equalPyValues({ l: [f(1), i(2)] }, { l: [f(1.0000001), i(2)] }).ok); // not is_floats
    assert.ok(equalPyValues({ l: [f(1), i(2)] }, { l: [f(1.0000001), i(2)] }, { atol: 1e-3 }).ok);
  });
  it('NaN is never close; equal infinities are', () => {
    assert.ok(!equalPyValues(f('nan'), f('nan')).ok);
    assert.ok(equalPyValues({ l: [f('inf')] }, { l: [f('inf')] }).ok);
    assert.ok(!allClose(f('inf'), f('-inf'), 1e-7, 1));
  });
});

describe('PyValue validation of untrusted JSON', () => {
  it('accepts well-formed values and rejects garbage', () => {
    assert.equal(checkPyValue({ d: [[{ i: '-1' }, { c: ['nan', 1] }]] }), null);
    assert.notEqual(checkPyValue({ i: 1 }), null);
    assert.notEqual(checkPyValue({ i: '1e3' }), null);
    assert.notEqual(checkPyValue({ f: 'NaN' }), null);
    assert.notEqual(checkPyValue({ l: [{}] }), null);
    assert.notEqual(checkPyValue([1]), null);
    assert.notEqual(checkPyValue(1.5), null);
    assert.notEqual(checkPyValue({ d: [[1]] }), null);
    assert.notEqual(checkPyValue({ b: 'not base64!' }), null);
  });
  // The check walks a valid value without building paths; a refused one is walked again for its message.
  it('names the path of the first fault, in walk order, whatever follows it', () => {
    assert.equal(checkPyValue({ l: [{ i: '1' }, { t: [null, { f: 'NaN' }] }, { i: 'x' }] }), 'bad float at $.l[1].t[1]');
    assert.equal(checkPyValue({ d: [[{ i: '1' }, { s: [true] }], [{ b: 'AAAA' }, { x: 1 }]] }), 'unknown tag "x" at $.d[1][1]');
    assert.equal(checkPyValue({ d: [[null, null], [1]] }), 'bad dict entry at $.d[1]');
    assert.equal(checkPyValue({ l: [null, 2] }), 'unexpected number at $.l[1]');
    assert.equal(checkPyValue({ l: [null, null, null] }, { maxDepth: 5, maxNodes: 3, maxIntDigits: 10 }), 'more than 3 values');
    assert.equal(checkPyValue({ l: [{ l: [null] }] }, { maxDepth: 1, maxNodes: 10, maxIntDigits: 10 }), 'nested deeper than 1 at $.l[0].l[0]');
  });
  it('caps depth and size', () => {
    let deep: PyValue = null;
    for (let k = 0; k < 200; k++) deep = { l: [deep] };
    assert.match(String(checkPyValue(deep)), /deeper/);
    const wide: PyValue = { l: Array.from({ length: 20 }, () => null) };
    assert.match(String(checkPyValue(wide, { maxDepth: 5, maxNodes: 10, maxIntDigits: 5 })), /more than 10/);
    assert.notEqual(checkPyValue({ i: '1'.repeat(50_001) }), null);
  });
  it('zod schema', () => {
    assert.ok(pyValueSchema.safeParse({ t: [{ i: '1' }] }).success);
    assert.ok(!pyValueSchema.safeParse({ t: 1 }).success);
  });
});

test('show renders only as far as its cut: the same text as the whole rendering cut, never past it on a million-element answer', () => {
  // The whole rendering, written out plainly, to compare with.
  const whole = (v: PyValue, depth = 0): string => {
    if (depth > 20) return '…';
    if (v === null) return 'None';
    if (typeof v === 'boolean') return v ? 'True' : 'False';
    if (typeof v === 'string') return JSON.stringify(v);
    const r = (xs: readonly PyValue[]): string => xs.map((x) => whole(x, depth + 1)).join(', ');
    if ('i' in v) return v.i;
    if ('f' in v) return typeof v.f === 'number' ? (Number.isInteger(v.f) ? v.f.toFixed(1) : String(v.f)) : v.f;
    if ('l' in v) return `[${r(v.l)}]`;
    if ('t' in v) return v.t.length === 1 ? `(${r(v.t)},)` : `(${r(v.t)})`;
    if ('s' in v) return `{${r(v.s)}}`;
    if ('d' in v) return `{${v.d.map(([k, x]) => `${whole(k, depth + 1)}: ${whole(x, depth + 1)}`).join(', ')}}`;
    throw new Error('not generated here');
  };
  let seed = 7;
  const rand = (n: number): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const gen = (depth: number): PyValue => {
    const k = rand(depth > 3 ? 5 : 10);
    const items = (): PyValue[] => Array.from({ length: rand(6) }, () => gen(depth + 1));
    switch (k) {
      case 0: return null;
      case 1: return rand(2) === 0;
      case 2: return 'ab"c'.slice(0, rand(5));
      case 3: return { i: String(rand(1e6) - 5e5) };
      case 4: return { f: rand(100) / 8 };
      case 5: return { l: items() };
      case 6: return { t: items() };
      case 7: return { s: items() };
      case 8: return { d: items().map((x) => [{ i: String(rand(9)) }, x] as [PyValue, PyValue]) };
      default: return { t: [gen(depth + 1)] };
    }
  };
  for (let trial = 0; trial < 500; trial++) {
    const v = gen(0);
    const text = whole(v);
    for (const max of [1, 2, 5, 20, 120, 301]) {
      assert.equal(show(v, max), text.length <= max ? text : `${text.slice(0, max - 1)}…`, `${text} at ${max}`);
    }
  }
  // A million-element answer whose element 1,000 must never be looked at: the cut comes after ~40 elements.
  const items: PyValue[] = Array.from({ length: 1_000_000 }, (_, k) => ({ i: String(k) }));
  Object.defineProperty(items, 1000, { get: () => { throw new Error('show rendered past its cut'); } });
  assert.equal(show({ l: items }), `[${Array.from({ length: 40 }, (_, k) => k).join(', ')}`.slice(0, 119) + '…');
});

/**
 * The published harnesses' output rules (`src/kinds/io/published-comparators.ts`), case by case against what the
 * Python originals decide: LiveCodeBench's stripped lines with Decimal equality, APPS/TACO's cascade (down to its
 * set-of-token-sets leniency), CodeContests' lowercased tokens with 1e-5 absolute float tolerance. (The APPS and
 * LiveCodeBench expectations were checked against transcriptions of the Python originals run under python3.11.)
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareOutput } from '../../../src/kinds/io/comparators.js';
import { parseDecimal, pyRound3, pySplitlines } from '../../../src/kinds/io/published-comparators.js';

const ok = (kind: 'livecodebench' | 'apps' | 'codecontests', actual: string, expected: string) =>
  compareOutput(actual, expected, { kind }).ok;

describe('published comparators', () => {
  it('livecodebench: strip, per-line strip, equal line counts, Decimal-equal numbers, NaN never', () => {
    assert.ok(ok('livecodebench', '  Yes  \n\n', 'Yes\n'));
    assert.ok(ok('livecodebench', '1.0 2\n', '1 2.000\n'));
    assert.ok(ok('livecodebench', '1e2\n', '100\n'));
    assert.ok(ok('livecodebench', '-0\n', '0\n'));
    assert.ok(!ok('livecodebench', '0.30000000000000004\n', '0.3\n'), 'exact decimals, no tolerance');
    assert.ok(!ok('livecodebench', 'nan\n', 'NaN\n'));
    assert.ok(!ok('livecodebench', '1 2\n3\n', '1 2 3\n'), 'line structure counts');
    assert.ok(!ok('livecodebench', 'yes\n', 'Yes\n'));
    assert.ok(ok('livecodebench', 'a  b\n', 'a  b'), 'equal lines');
    assert.ok(!ok('livecodebench', 'a  b\n', 'a b'), 'inner spaces of a non-numeric line count');
    assert.deepEqual(parseDecimal('1_000.50'), { kind: 'finite', negative: false, digits: '10005', exponent: -1 });
    assert.equal(parseDecimal('0x10'), undefined);
  });

  it('apps: joined-and-stripped, per-line, float allclose, then sets of token sets', () => {
    assert.ok(ok('apps', '3\n4\n', '3\n4'));
    assert.ok(ok('apps', ' 3 \n\n 4\n', '3\n4\n'));
    assert.ok(ok('apps', '0.3333333\n', '0.33333333\n'), 'np.allclose, rtol 1e-5');
    assert.ok(ok('apps', '0.3334\n', '0.3333\n'), 'outside allclose, but equal rounded to 3 places');
    assert.ok(!ok('apps', '0.334\n', '0.333\n'));
    assert.ok(ok('apps', '2 1\n4 3\n', '3 4\n1 2\n'), 'APPS ignores line and token order (set of sets)');
    assert.ok(ok('apps', '1 1 2\n', '2 1\n'), 'and repeats');
    assert.ok(ok('apps', '0.12345 2\n', '2 0.1234999\n'), 'rounded to 3 places in the last try');
    assert.ok(!ok('apps', '1 2\n', '1 2 3\n'));
    assert.ok(!ok('apps', 'YES\n', 'yes\n'));
    assert.deepEqual(pySplitlines('a\r\nb\rc\n'), ['a', 'b', 'c']);
    assert.equal(pyRound3(0.0625), 0.062, 'an exact tie rounds to even, as Python');
    assert.equal(pyRound3(0.1875), 0.188);
    assert.equal(pyRound3(2.5e-4), 0);
  });

  it('codecontests: lowercase tokens; numbers within 1e-5 absolute; strings exact', () => {
    assert.ok(ok('codecontests', 'abc DEF', 'abc def'));
    assert.ok(ok('codecontests', 'abc 123', 'abc 123.000001'));
    assert.ok(!ok('codecontests', 'abc 123', 'abc 123.1'));
    assert.ok(!ok('codecontests', 'abc deg', 'abc def'));
    assert.ok(!ok('codecontests', 'abc def', 'abc def 123'));
    assert.ok(ok('codecontests', '1\n\n2\t\r\n', '1 2'));
    assert.ok(ok('codecontests', '1e0', '1'));
  });
});

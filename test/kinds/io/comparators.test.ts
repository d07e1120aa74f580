/** Stdin/stdout comparators, hand cases. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compareExact, compareOutput, compareTokens, parseFiniteToken } from '../../../src/kinds/io/comparators.js';

describe('comparators', () => {
  it('exact reports the first differing position', () => {
    assert.ok(compareExact('a\nb\n', 'a\nb\n').ok);
    const r = compareExact('a\nbc\n', 'a\nbd\n');
    assert.ok(!r.ok);
    assert.match(r.reason!, /line 2, column 2/);
    assert.ok(!compareExact('a\n', 'a').ok);
  });
  it('tokens ignore the amount of whitespace, not its absence', () => {
    assert.ok(compareTokens('1  2\n3\n\n', '1 2 3').ok);
    assert.ok(!compareTokens('12 3', '1 2 3').ok);
    const r = compareTokens('1 2', '1 2 3');
    assert.match(r.reason!, /2 tokens, expected 3/);
    assert.match(compareTokens('1 x 3', '1 2 3').reason!, /token 2/);
  });
  it('caseInsensitive', () => {
    assert.ok(compareOutput('YES\n', 'yes', { kind: 'tokens', caseInsensitive: true }).ok);
    assert.ok(!compareOutput('YES\n', 'yes', { kind: 'tokens' }).ok);
  });
  it('float_tokens: absolute or relative tolerance, strings otherwise', () => {
    const c = { kind: 'float_tokens' as const, absTol: 1e-6, relTol: 1e-6 };
    assert.ok(compareOutput('0.3000001 abc', '0.3 abc', c).ok);
    assert.ok(!compareOutput('0.30001', '0.3', c).ok);
    assert.ok(compareOutput('1000000.5', '1000000', c).ok); // relative: 0.5 <= 1e-6 * 1e6
    assert.ok(!compareOutput('abc', 'abd', c).ok);
    assert.ok(!compareOutput('nan', '1.0', c).ok);
    assert.ok(compareOutput('nan', 'nan', c).ok); // not a finite float: compared as strings
    assert.ok(compareOutput('1e400', '1e400', c).ok); // overflows: compared as the strings they are
  });
  it('parseFiniteToken accepts decimal literals only', () => {
    assert.equal(parseFiniteToken('-1.5e3'), -1500);
    assert.equal(parseFiniteToken('.5'), 0.5);
    assert.equal(parseFiniteToken('0x10'), undefined);
    assert.equal(parseFiniteToken('inf'), undefined);
    assert.equal(parseFiniteToken('1e400'), undefined);
  });
});

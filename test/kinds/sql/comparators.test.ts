/** SQL comparators and judging, hand cases (the reference agreement is in reference-agreement.test.ts). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  ComparatorError, compareResults, softF1, spiderResultEq,
} from '../../../src/kinds/sql/comparators.js';
import { comparatorQueries, goldQueries, judgeSql, SqlJudgingError, type QueryOutcome } from '../../../src/kinds/sql/judging.js';
import { int, real, text, type SqlRow } from '../../../src/kinds/sql/values.js';

const rows = (...r: (number | string | null)[][]): SqlRow[] =>
  r.map((row) => row.map((v) => (v === null ? null : typeof v === 'string' ? text(v) : Number.isInteger(v) ? int(v) : real(v))));

describe('sql comparators', () => {
  it('spider-testsuite: bags, any column order, order only when asked', () => {
    assert.ok(spiderResultEq(rows(['a', 1], ['b', 2]), rows([2, 'b'], [1, 'a']), false));
    assert.ok(!spiderResultEq(rows(['a', 1], ['b', 2]), rows([2, 'b'], [1, 'a']), true));
    assert.ok(spiderResultEq(rows(['a', 1], ['b', 2]), rows([1, 'a'], [2, 'b']), true));
    assert.ok(!spiderResultEq(rows(['a'], ['a'], ['b']), rows(['a'], ['b'], ['b']), false));
    assert.ok(spiderResultEq([], [], true));
    assert.ok(!spiderResultEq(rows(['a']), [], false));
  });
  it('spider-testsuite gives up loudly past its step limit', () => {
    const zeros = rows([0, 0, 0, 0]);
    assert.ok(spiderResultEq(zeros, zeros, false));
    assert.throws(() => spiderResultEq(zeros, zeros, false, 3), ComparatorError);
  });
  it('floatDecimals is the optional float tolerance', () => {
    const g = rows([0.3]);
    const p = [[real(0.1 + 0.2)]];
    for (const c of ['spider-testsuite', 'bird-ex', 'bird-ex-sorted', 'soft-f1', 'bag-ordered'] as const) {
      assert.equal(compareResults(c, g, p, { orderMatters: false }).match, false, c);
      assert.equal(compareResults(c, g, p, { orderMatters: false, floatDecimals: 9 }).match, true, c);
    }
  });
  it('bag-ordered: multiplicities, columns in place, order when the gold orders', () => {
    const opts = { orderMatters: false };
    assert.ok(compareResults('bag-ordered', rows(['a'], ['b']), rows(['b'], ['a']), opts).match);
    assert.ok(!compareResults('bag-ordered', rows(['a'], ['b']), rows(['b'], ['a']), { orderMatters: true }).match);
    assert.ok(!compareResults('bag-ordered', rows(['a'], ['a']), rows(['a']), opts).match);
    assert.ok(!compareResults('bag-ordered', rows(['a', 1]), rows([1, 'a']), opts).match);
  });
  it('soft-f1 pairs rows by position after dropping duplicates', () => {
    assert.equal(softF1([], []), 1);
    assert.equal(softF1(rows(['a']), []), 0);
    // gold (a,1),(b,2); pred (a,9),(b,2): row 1 matches 1/2 cells, 1/2 only-pred, 1/2 only-gold; row 2 all.
    const f = softF1(rows(['a', 1], ['b', 2]), rows(['a', 9], ['b', 2]));
    assert.equal(f, 0.75);
  });
});

describe('sql judging', () => {
  const ok = (...r: (number | string | null)[][]): QueryOutcome => ({ ok: true, rows: rows(...r) });
  it('spider and BIRD comparators execute different texts', () => {
    const q = comparatorQueries({ comparators: ['spider-testsuite', 'bird-ex'] }, 'SELECT DISTINCT a FROM t', 'SELECT a FROM t');
    assert.equal(q[0]!.gold, 'SELECT  a FROM t');
    assert.equal(q[1]!.gold, 'SELECT DISTINCT a FROM t');
    assert.deepEqual(goldQueries({ comparators: ['spider-testsuite', 'bird-ex'] }, 'SELECT DISTINCT a FROM t'),
      ['SELECT  a FROM t', 'SELECT DISTINCT a FROM t']);
  });
  it('passes, fails and flags disagreements', () => {
    const q = comparatorQueries({ comparators: ['spider-testsuite', 'bird-ex'] }, 'SELECT a, b FROM t', 'SELECT b, a FROM t');
    const gold = new Map([['SELECT a, b FROM t', [ok(['x', 1])]]]);
    const pred = new Map([['SELECT b, a FROM t', [ok([1, 'x'])]]]);
    const j = judgeSql(q, gold, pred, 1);
    assert.equal(j.status, 'passed');
    assert.equal(j.disagreement, true);
    assert.deepEqual(j.comparisons.map((c) => c.match), [true, false]);
  });
  it('the test suite: every instance must match, and the reason says which did not', () => {
    const q = comparatorQueries({ comparators: ['spider-testsuite'] }, 'SELECT count(*) FROM t', 'SELECT 4');
    const gold = new Map([['SELECT count(*) FROM t', [ok([4]), ok([2])]]]);
    const pred = new Map([['SELECT 4', [ok([4]), ok([4])]]]);
    const j = judgeSql(q, gold, pred, 2);
    assert.equal(j.status, 'wrong_answer');
    assert.match(j.reason!, /instance 2 of 2/);
  });
  it('failed predictions keep their kind; a failed gold is never a verdict', () => {
    const q = comparatorQueries({ comparators: ['bird-ex'] }, 'SELECT 1', 'SELECT x');
    const gold = new Map([['SELECT 1', [ok([1])]]]);
    for (const [outcome, status] of [
      [{ ok: false, failure: 'timeout' }, 'time_limit_exceeded'],
      [{ ok: false, failure: 'too_large', message: 'more than 100000 rows' }, 'output_limit_exceeded'],
      [{ ok: false, failure: 'error', message: 'no such column: x' }, 'runtime_error'],
    ] as const) {
      const j = judgeSql(q, gold, new Map([['SELECT x', [outcome]]]), 1);
      assert.equal(j.status, status);
      assert.equal(j.score, 0);
    }
    const broken = new Map([['SELECT 1', [{ ok: false, failure: 'error', message: 'boom' } as const]]]);
    assert.throws(() => judgeSql(q, broken, new Map([['SELECT x', [ok([1])]]]), 1), SqlJudgingError);
  });
});

/**
 * Spider's `remove_distinct` as Crucible does it, against the reference itself: test/fixtures/sql/remove-distinct.json
 * holds what taoyds/test-suite-sql-eval's `parse.remove_distinct` (sqlparse 0.4.2) returned for 1,500 seeded random
 * strings of SQL-ish pieces (quotes, comments, brackets, `;`, `END`, `CREATE`, non-ASCII letters) and, for every
 * Spider dev gold query (read from ../shared/data, which the fixture does not copy), 16 hex digits of the output's
 * SHA-256. Made by scripts/sql-reference-agreement.py. `null`: the reference raised (no statement).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeDistinct } from '../../../src/kinds/sql/spider-query.js';
import { sqlparseTokens } from '../../../src/kinds/sql/sqlparse-lexer.js';
import { PROJECT_ROOT } from '../../../src/paths.js';

const fixture = JSON.parse(readFileSync(join(PROJECT_ROOT, 'test/fixtures/sql/remove-distinct.json'), 'utf8')) as {
  dev: { index: number; sha256: string | null }[];
  fuzz: { input: string; output: string | null }[];
};
const DEV = join(PROJECT_ROOT, '../shared/data/spider/spider/evaluation_examples/examples/dev.json');

describe('remove_distinct agrees with the reference', () => {
  it('on the random strings', () => {
    const wrong = fixture.fuzz.filter((c) => (removeDistinct(c.input) ?? null) !== c.output);
    assert.deepEqual(wrong.slice(0, 5).map((c) => ({ ...c, crucible: removeDistinct(c.input) ?? null })), []);
    assert.equal(fixture.fuzz.length, 1500);
  });
  it('on every Spider dev gold query', { skip: !existsSync(DEV) && 'needs ../shared/data/spider' }, () => {
    const dev = JSON.parse(readFileSync(DEV, 'utf8')) as { query: string }[];
    assert.equal(dev.length, fixture.dev.length);
    const digest = (s: string | undefined): string | null => (s === undefined ? null : createHash('sha256').update(s).digest('hex').slice(0, 16));
    const wrong = fixture.dev.filter((c) => digest(removeDistinct(dev[c.index]!.query)) !== c.sha256);
    assert.deepEqual(wrong.map((c) => c.index), []);
  });
  it('tokens concatenate back to the text', () => {
    for (const c of fixture.fuzz) assert.equal(sqlparseTokens(c.input).map((t) => t.value).join(''), c.input);
  });
  it('hand cases: strings, dotted names, second statements', () => {
    assert.equal(removeDistinct("SELECT DISTINCT a FROM t WHERE b = 'distinct'"), "SELECT  a FROM t WHERE b = 'distinct'");
    assert.equal(removeDistinct('SELECT t.distinct FROM t'), 'SELECT t. FROM t');
    assert.equal(removeDistinct('SELECT 1;  -- c\n SELECT 2'), 'SELECT 1;  -- c\n ');
    assert.equal(removeDistinct('SELECT count(1; SELECT 2'), 'SELECT count(1; SELECT 2');
    assert.equal(removeDistinct('   '), undefined);
  });
});

/**
 * A kind that needs a file per run, added from one folder and one registry line (`./toy-sql.ts`;
 * docs/ARCHITECTURE.md "How to add"): SQLite databases made here, each given to its run as `data.db`, the gold
 * query's rows computed once as the kind's reference, candidates judged in the real sandbox.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { createJudge } from '../../../src/engine/factory.js';
import { defaultModes } from '../../../src/kinds/index.js';
import { toySqlMode, type ToySqlProblem } from './toy-sql.js';

/** A database of singers (name, age) as a SQLite file, base64. */
function singers(rows: readonly (readonly [string, number])[]): string {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE singer (name TEXT, age INTEGER)');
  const insert = db.prepare('INSERT INTO singer VALUES (?, ?)');
  for (const [name, age] of rows) insert.run(name, age);
  const bytes = db.serialize();
  db.close();
  return bytes.toString('base64');
}

const problem: ToySqlProblem = {
  kind: 'toy_sql', taskId: 'older-singers', gold: 'SELECT name FROM singer WHERE age > 30 ORDER BY name;',
  databases: [singers([['Ann', 25], ['Bob', 41], ['Cy', 31]]), singers([['Dee', 30], ['Eve', 64]])],
};

const modes = defaultModes().with(toySqlMode);
const judge = createJudge({ slots: 2, cacheDir: null, modes });
after(async () => {
  await judge.close();
});
const judged = (query: string) => judge.judge({ problem: { inline: problem }, program: { language: 'sql', source: query } });

describe('a toy SQL kind from one folder', () => {
  test('the query\'s rows on each run\'s database against the gold query\'s, computed once', async () => {
    const before = judge.stats().groundTruthRuns;
    const right = await judged('SELECT name FROM singer WHERE age >= 31;');
    assert.deepEqual([right.status, right.tests.length], ['passed', 2], right.reason);
    const wrong = await judged('SELECT name FROM singer WHERE age > 40;');
    assert.deepEqual(wrong.tests.map((t) => t.status), ['wrong_answer', 'passed']);
    assert.equal(judge.stats().groundTruthRuns - before, 1, 'the gold rows are one reference, made once');
  });

  test('a query that does not run is a runtime error; the gold query is nowhere in the candidate\'s box', async () => {
    const broken = await judged('SELEKT name FROM singer;');
    assert.equal(broken.status, 'runtime_error');
    // Counts the files of its box and /tmp that hold the gold query's text (built at run time, so its own source
    // does not): none.
    const looking = await judged('.shell p="ORDER BY"; cat /box/* /tmp/* 2>/dev/null | grep -a -c "$p name" || true\nSELECT 1 WHERE 0;');
    assert.equal(looking.status, 'wrong_answer');
    assert.match(looking.tests[0]?.reason ?? '', /rows \["0"\]/);
  });
});

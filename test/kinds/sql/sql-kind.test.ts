/**
 * The `sql` kind end to end in the real sandbox, on Spider's official `student_transcripts_tracking` database
 * (../shared/data/spider, read in place): every gold query of its 78 dev questions passes as its own sample, wrong
 * queries fail, and hostile queries (ATTACH, writes, DDL, two statements, a never-ending query, a huge result) get
 * their status, never a pass; the database file is unchanged afterwards.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createJudge } from '../../../src/engine/factory.js';
import { readSpider } from '../../../src/formats/spider.js';
import type { SqlProblem } from '../../../src/formats/types.js';
import { SHARED_DATA } from '../../support/data.js';

const SPIDER = join(SHARED_DATA, 'spider');
const DEV = join(SPIDER, 'spider', 'evaluation_examples', 'examples', 'dev.json');
const DB_FILE = join(SPIDER, 'database', 'student_transcripts_tracking', 'student_transcripts_tracking.sqlite');
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

const judge = createJudge({ slots: 2, cacheDir: null });
let problems: SqlProblem[] = [];
let dbHash = '';

before(async () => {
  dbHash = sha(DB_FILE);
  problems = await readSpider(DEV, { missingDatabases: 'skip' });
});
after(async () => {
  await judge.close();
});

const judged = (problem: SqlProblem, query: string, limits?: { cpuMs?: number; outputBytes?: number }) =>
  judge.judge({ problem: { inline: problem }, program: { language: 'sql', source: query }, ...(limits === undefined ? {} : { limits }) });

describe('the sql kind in the sandbox (Spider, student_transcripts_tracking)', () => {
  test('the questions whose database is present are read, the database found in an ancestor folder', () => {
    assert.equal(problems.length, 78);
    assert.ok(problems.every((p) => p.dbId === 'student_transcripts_tracking' && p.databases.length === 1));
  });

  test('every gold query passes as its own sample (spider-testsuite)', async () => {
    const verdicts = await Promise.all(problems.map((p) => judged(p, p.gold)));
    const failed = verdicts.map((v, i) => [problems[i]!.taskId, v.status, v.reason] as const).filter(([, s]) => s !== 'passed');
    assert.deepEqual(failed, []);
  });

  test('a wrong query is wrong_answer; a column permutation passes; a query that does not parse is runtime_error', async () => {
    const p = problems.find((x) => x.gold === 'SELECT line_1 ,  line_2 FROM addresses')!;
    assert.equal((await judged(p, 'SELECT line_2, line_1 FROM addresses')).status, 'passed');
    const wrong = await judged(p, 'SELECT line_1 FROM addresses');
    assert.equal(wrong.status, 'wrong_answer', wrong.reason);
    assert.equal((await judged(p, 'SELEKT line_1 FROM addresses')).status, 'runtime_error');
  });

  test('several comparators in one verdict, and their disagreement reported', async () => {
    const p = problems.find((x) => x.gold === 'SELECT line_1 ,  line_2 FROM addresses')!;
    const both: SqlProblem = { ...p, comparators: ['spider-testsuite', 'bird-ex'] };
    const v = await judged(both, 'SELECT line_1, line_2 FROM addresses UNION ALL SELECT line_1, line_2 FROM addresses');
    assert.equal(v.status, 'wrong_answer');
    assert.match(v.reason ?? '', /comparators disagree: spider-testsuite no match, bird-ex match/);
  });

  test('hostile queries get their status, never a pass, and the database file is unchanged', async () => {
    const p = problems.find((x) => /count\(\*\) FROM Courses/i.test(x.gold))!;
    const hostile: [string, string][] = [
      ["ATTACH DATABASE '/tmp/x.db' AS x", 'runtime_error'],
      ['DROP TABLE Courses', 'runtime_error'],
      ['DELETE FROM Courses', 'runtime_error'],
      ["INSERT INTO Courses (course_name) VALUES ('x')", 'runtime_error'],
      ['PRAGMA query_only = 0', 'runtime_error'],
      ['PRAGMA writable_schema = 1', 'runtime_error'],
      ["SELECT load_extension('/tmp/evil.so')", 'runtime_error'],
    ];
    for (const [query, status] of hostile) {
      const v = await judged(p, query);
      assert.equal(v.status, status, `${query}: ${v.status} ${v.reason}`);
    }
    // Two statements: the database refuses them (sqlite3's one-statement rule) where the text runs as given; Spider's
    // rewriting keeps only the first statement (parse.remove_distinct), so spider-testsuite judges that one alone.
    const two = 'SELECT count(*) FROM Courses; DROP TABLE Courses';
    assert.equal((await judged({ ...p, comparators: ['bird-ex'] }, two)).status, 'runtime_error');
    assert.equal((await judged({ ...p, comparators: ['spider-testsuite'], keepDistinct: true }, two)).status, 'runtime_error');
    assert.equal((await judged(p, two)).status, 'passed');
    assert.equal(sha(DB_FILE), dbHash);
  });

  test('a query that would run for long is stopped at its time limit', async () => {
    const p = problems.find((x) => /count\(\*\) FROM Courses/i.test(x.gold))!;
    const started = Date.now();
    const v = await judged(p, 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c', { cpuMs: 1000 });
    assert.equal(v.status, 'time_limit_exceeded', v.reason);
    assert.ok(Date.now() - started < 15_000, 'stopped, not run to the end');
  });

  test('a huge result is output_limit_exceeded', async () => {
    const p = problems.find((x) => /count\(\*\) FROM Courses/i.test(x.gold))!;
    const v = await judged(p, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 300000) SELECT x, 'padding padding' FROM c", { outputBytes: 1 << 20 });
    assert.equal(v.status, 'output_limit_exceeded', v.reason);
  });

  test('a database given as SQL text, and a gold query that fails is reference_failed, not a verdict on the sample', async () => {
    const inline: SqlProblem = {
      kind: 'sql', taskId: 'inline', dbId: 'toy', engine: 'sqlite', comparators: ['spider-testsuite', 'bird-ex'],
      databases: [{ sql: "CREATE TABLE t (a INTEGER, b TEXT); INSERT INTO t VALUES (1, 'x'), (2, 'y'), (2, 'y');" }],
      gold: 'SELECT b FROM t WHERE a = 2',
    };
    assert.equal((await judged(inline, 'SELECT b FROM t WHERE a > 1')).status, 'passed');
    assert.equal((await judged(inline, 'SELECT DISTINCT b FROM t WHERE a > 1')).status, 'passed', 'Spider removes DISTINCT from both');
    assert.equal((await judged(inline, 'SELECT b FROM t')).status, 'wrong_answer');
    const broken = await judged({ ...inline, taskId: 'inline-broken', gold: 'SELECT nope FROM t' }, 'SELECT b FROM t');
    assert.equal(broken.status, 'reference_failed', broken.reason);
    const postgres = await judged({ ...inline, taskId: 'inline-postgres', engine: 'postgres' }, 'SELECT b FROM t');
    assert.equal(postgres.status, 'internal_error', 'an engine Crucible lacks is its own failure, not the problem\'s');
    assert.match(postgres.reason ?? "", /no "postgres" SQL server on this judge/);
  });
});

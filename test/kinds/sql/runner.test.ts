/**
 * The in-box SQL runner (harness/sql/crucible_sql.py), run here directly on a database this test builds, with
 * queries this test wrote (trusted): values in wire form, TEXT that is not UTF-8, the one-statement rule, the
 * read-only rules (ATTACH, PRAGMA writes, writes refused), the per-query time limit and the result-size limit.
 * In judging it runs inside the sandbox (test/kinds/sql/sql-mode.test.ts).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { PROJECT_ROOT } from '../../../src/paths.js';

const RUNNER = join(PROJECT_ROOT, 'harness/sql/crucible_sql.py');
let dir = '';
let db = '';

function run(queries: string[], extra: Record<string, number> = {}): Record<string, unknown>[] {
  const r = spawnSync('/usr/bin/python3', ['-s', '-P', '-S', '-B', RUNNER], {
    input: JSON.stringify({ databases: [db], queries, timeLimitMs: 500, ...extra }), encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sql-runner-'));
  db = join(dir, 'x.sqlite');
  const d = new Database(db);
  d.exec("CREATE TABLE t (i int, r real, s text, b blob); INSERT INTO t VALUES (1, 0.5, 'a', x'00ff'), (9007199254740993, 0.0, CAST(x'41ff' AS TEXT), NULL);");
  d.close();
});
after(async () => rm(dir, { recursive: true, force: true }));

describe('in-box SQL runner', () => {
  it('prints exact values: big ints, tagged reals, blobs, non-UTF-8 text', () => {
    const [res, done] = run(['SELECT i, r, s, b FROM t ORDER BY rowid']);
    assert.deepEqual(res, { q: 0, db: 0, rows: [[1, { real: 0.5 }, 'a', { blob: '00ff' }], [{ int: '9007199254740993' }, { real: 0 }, { badtext: '41ff' }, null]] });
    assert.deepEqual(done, { done: true });
  });
  it('runs one statement per query, as Python\'s sqlite3 does', () => {
    const [res] = run(['SELECT 1; SELECT 2']);
    assert.match(String(res!.error), /one statement at a time/);
    assert.deepEqual(run(['SELECT 1;  -- trailing comment'])[0], { q: 0, db: 0, rows: [[1]] });
  });
  it('refuses ATTACH, PRAGMA writes, writes, load_extension and fts3_tokenizer (its pointer forms)', () => {
    const results = run([`ATTACH '${join(dir, 'other.sqlite')}' AS o`, 'PRAGMA journal_mode = DELETE', 'DROP TABLE t',
      "INSERT INTO t VALUES (2, 1, 'b', NULL)", 'CREATE TEMP TABLE z (a)', "SELECT load_extension('/lib/x86_64-linux-gnu/libc.so.6', 'exit')",
      "SELECT hex(fts3_tokenizer('simple'))", "SELECT FTS3_TOKENIZER('x', x'4141414141414141')", 'PRAGMA table_info(t)']);
    for (const r of results.slice(0, 8)) assert.match(String(r.error), /not authorized|readonly|read-only/i, JSON.stringify(r));
    assert.ok(Array.isArray(results[8]!.rows));
    assert.equal(new Database(db, { readonly: true }).prepare('SELECT count(*) AS n FROM t').get() !== undefined, true);
  });
  it('interrupts a query at its time limit, and stops huge results', () => {
    const slow = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';
    const t0 = Date.now();
    const [res] = run([slow], { timeLimitMs: 300 });
    assert.deepEqual(res, { q: 0, db: 0, timeout: true });
    assert.ok(Date.now() - t0 < 5000);
    const [big] = run(['WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 50) SELECT x FROM c'], { maxRows: 10 });
    assert.deepEqual(big, { q: 0, db: 0, tooLarge: 'more than 10 rows' });
  });
});

describe('runner protocol', () => {
  it('reads the lines back into outcomes per text and instance, and refuses disorder', async () => {
    const { readRunnerOutput, RunnerOutputError } = await import('../../../src/kinds/sql/runner-protocol.js');
    const job = { databases: ['/a', '/b'], queries: ['SELECT 1', 'SELECT x'], timeLimitMs: 100, maxRows: 10, maxBytes: 100 };
    const out = ['{"q":0,"db":0,"rows":[[1]]}', '{"q":0,"db":1,"rows":[[{"real":1.5}]]}', '{"q":1,"db":0,"error":"OperationalError: no such column: x"}',
      '{"q":1,"db":1,"timeout":true}', '{"done":true}'].join('\n');
    const r = readRunnerOutput(job, out);
    assert.equal(r.complete, true);
    assert.deepEqual(r.results.get('SELECT x')!.map((o) => (o.ok ? 'ok' : o.failure)), ['error', 'timeout']);
    const partial = readRunnerOutput(job, out.split('\n').slice(0, 2).join('\n'));
    assert.deepEqual([partial.complete, partial.next], [false, { q: 1, db: 0 }]);
    assert.throws(() => readRunnerOutput(job, '{"q":1,"db":0,"rows":[]}'), RunnerOutputError);
    assert.throws(() => readRunnerOutput(job, '{"done":true}'), RunnerOutputError);
  });
});

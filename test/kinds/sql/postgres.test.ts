/**
 * The `sql` kind's `postgres` engine (src/environments/postgres/) on a real server this file starts on a loopback
 * port (one for the file): right, wrong, erroring, slow and huge queries get their statuses; the hard kill from
 * outside stops a query that ignores its `statement_timeout`; the candidate's role cannot read server files, use
 * large objects, COPY, dblink, write, or see or signal other sessions; values reach the comparators as the SQLite
 * engine's do; a database text that does not build is the problem's fault.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { createJudge } from '../../../src/engine/factory.js';
import { PostgresEngine } from '../../../src/environments/postgres/engine.js';
import { startPostgresServer, type PostgresServer } from '../../../src/environments/postgres/server.js';
import type { SqlProblem } from '../../../src/formats/types.js';
import { readRunnerOutput } from '../../../src/kinds/sql/runner-protocol.js';

const missing = existsSync('/usr/lib/postgresql') ? false : 'PostgreSQL server binaries missing (run ./scripts/setup)';
let server: PostgresServer;
let engine: PostgresEngine;
let judge: ReturnType<typeof createJudge>;

const SCHEMA = `CREATE TABLE t (a INTEGER, b TEXT, x DOUBLE PRECISION, n NUMERIC, f BOOLEAN, raw BYTEA);
INSERT INTO t VALUES (1, 'x', 0.5, 1.25, true, '\\x0102'), (2, 'y', 1.5, 3, false, NULL), (2, 'y', NULL, NULL, NULL, NULL);`;

const problem = (gold: string, extra: Partial<SqlProblem> = {}): SqlProblem => ({
  kind: 'sql', taskId: `pg/${gold}`, dbId: 'toy', engine: 'postgres', comparators: ['spider-testsuite', 'bird-ex'],
  databases: [{ sql: SCHEMA }], gold, timeLimitMs: 1000, ...extra,
});

const judged = (p: SqlProblem, query: string, limits?: { outputBytes?: number }) =>
  judge.judge({ problem: { inline: p }, program: { language: 'sql', source: query }, ...(limits === undefined ? {} : { limits }) });

before(async () => {
  if (missing !== false) return;
  server = await startPostgresServer();
  engine = new PostgresEngine(server);
  judge = createJudge({ slots: 2, cacheDir: null, sqlEngines: [engine] });
});
after(async () => {
  if (missing !== false) return;
  await judge.close();
  await engine.close();
  server.stop();
});

describe('the sql kind on PostgreSQL', { skip: missing }, () => {
  test('right, wrong and erroring queries; Spider\'s DISTINCT rule; the gold is the reference', async () => {
    const p = problem('SELECT b FROM t WHERE a = 2');
    assert.equal((await judged(p, 'SELECT b FROM t WHERE a > 1')).status, 'passed');
    assert.equal((await judged(p, 'SELECT DISTINCT b FROM t WHERE a > 1;')).status, 'passed', 'Spider removes DISTINCT from both');
    assert.equal((await judged(p, 'SELECT b FROM t')).status, 'wrong_answer');
    const missingTable = await judged(p, 'SELECT b FROM nope');
    assert.equal(missingTable.status, 'runtime_error');
    assert.match(missingTable.reason ?? '', /42P01/);
    assert.equal((await judged(p, 'SELEC b FROM t')).status, 'runtime_error');
    // Spider executes the first statement only (its sqlparse rule); BIRD's sqlite3 refuses two: so does the engine.
    const two = await judged({ ...p, comparators: ['bird-ex'] }, "SELECT b FROM t WHERE a = 2; SELECT 'x'");
    assert.equal(two.status, 'runtime_error');
    assert.match(two.reason ?? '', /one statement/);
    const broken = await judged(problem('SELECT nope FROM t'), 'SELECT b FROM t');
    assert.equal(broken.status, 'reference_failed', broken.reason);
  });

  test('values reach the comparators as SQLite\'s do: ints, reals, integral numerics, booleans as 1/0, NULL, bytea', async () => {
    const p = problem('SELECT a, x, n, f, raw FROM t ORDER BY a, x', { comparators: ['bag-ordered', 'bird-ex'] });
    assert.equal((await judged(p, 'SELECT a, x, n, f, raw FROM t ORDER BY a, x')).status, 'passed');
    const literal = problem('SELECT a, x FROM t WHERE a = 1', { comparators: ['bird-ex'] });
    assert.equal((await judged(literal, 'SELECT 1, 0.5')).status, 'passed', 'numeric 0.5 equals float 0.5; 1 equals 1');
    assert.equal((await judged(literal, "SELECT '1', 0.5")).status, 'wrong_answer', "'1' is not 1");
    const bool = problem('SELECT f FROM t WHERE a = 1', { comparators: ['bird-ex'] });
    assert.equal((await judged(bool, 'SELECT 1')).status, 'passed', 'true is 1, as SQLite stores it');
    const job = await engine.run({ databases: [SCHEMA], queries: ["SELECT 9007199254740993::int8, 'NaN'::float8, 12345678901234567890::numeric, NULL"],
      timeLimitMs: 1000, maxRows: 10, maxBytes: 1000 });
    assert.ok('stdout' in job);
    const out = readRunnerOutput({ databases: ['0'], queries: ['q'], timeLimitMs: 0, maxRows: 0, maxBytes: 0 }, job.stdout);
    assert.deepEqual(out.results.get('q')?.[0], { ok: true, rows: [[{ t: 'int', v: 9007199254740993n }, { t: 'real', v: NaN },
      { t: 'int', v: 12345678901234567890n }, null]] });
  });

  test('a slow query is time_limit_exceeded; one that turns its own statement_timeout off is killed from outside within 1.2 s', async () => {
    const p = problem('SELECT b FROM t WHERE a = 2');
    for (const query of ['SELECT pg_sleep(20)', "SELECT set_config('statement_timeout', '0', false), pg_sleep(20)",
      'SELECT count(*) FROM (SELECT generate_series(1, 10000000000)) AS s']) {
      const v = await judged(p, query);
      assert.equal(v.status, 'time_limit_exceeded', `${query}: ${v.reason}`);
    }
    // The kill itself, timed on the engine: a query on one instance (the template is built by now) under 1 s.
    const baseline = performance.now();
    await engine.run({ databases: [SCHEMA], queries: ['SELECT 1'], timeLimitMs: 1000, maxRows: 10, maxBytes: 1000 });
    const overheadMs = performance.now() - baseline;
    const started = performance.now();
    const r = await engine.run({ databases: [SCHEMA], queries: ["SELECT set_config('statement_timeout', '0', false), pg_sleep(20)"],
      timeLimitMs: 1000, maxRows: 10, maxBytes: 1000 });
    const elapsedMs = performance.now() - started - overheadMs;
    assert.ok('stdout' in r && r.stdout.includes('"timeout":true'), JSON.stringify(r));
    assert.ok(elapsedMs < 1200, `the query ended ${Math.round(elapsedMs)} ms after it started (limit 1000 ms)`);
    const admin = new pg.Client(server.connection(server.admin, 'postgres'));
    await admin.connect();
    try {
      const left = await admin.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE '%pg_sleep%' AND pid <> pg_backend_pid()");
      assert.equal(left.rows[0].n, 0, 'no backend still runs the query');
      const leftovers = await admin.query("SELECT count(*)::int AS n FROM pg_database WHERE datname LIKE 'crucible_j_%'");
      assert.equal(leftovers.rows[0].n, 0, 'every throw-away database is dropped');
    } finally {
      await admin.end();
    }
  });

  test('a huge result is output_limit_exceeded', async () => {
    const p = problem('SELECT b FROM t WHERE a = 2', { timeLimitMs: 10_000 });
    assert.equal((await judged(p, 'SELECT g FROM generate_series(1, 200000) g')).status, 'output_limit_exceeded');
    assert.equal((await judged(p, "SELECT repeat('x', 100000) FROM generate_series(1, 100)", { outputBytes: 1 << 20 })).status, 'output_limit_exceeded');
  });

  test('the role lacks the rights: server files, large objects, COPY, dblink, writes, other sessions', async () => {
    const forbidden = [
      "SELECT pg_read_file('/etc/passwd')", "SELECT pg_read_binary_file('/etc/passwd')", "SELECT pg_ls_dir('/')",
      "SELECT lo_import('/etc/passwd')", "SELECT lo_export(1, '/tmp/x')", "COPY t TO '/tmp/crucible-pg-copy'",
      "COPY t FROM PROGRAM 'id'", "SELECT * FROM dblink('dbname=postgres', 'SELECT 1') AS x(a int)", 'CREATE EXTENSION dblink',
      "INSERT INTO t (a) VALUES (3)", 'DELETE FROM t', 'CREATE TABLE u (a int)', 'CREATE TEMP TABLE u (a int)', 'SET ROLE crucible_admin',
      "SELECT set_config('default_transaction_read_only', 'off', false), pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid()",
      "SELECT pg_reload_conf()", "SELECT * FROM pg_authid", "SELECT * FROM pg_stat_file('/etc/passwd')",
    ];
    // One job, one throw-away database: every statement is answered by an error line, none by rows.
    const r = await engine.run({ databases: [SCHEMA], queries: forbidden, timeLimitMs: 2000, maxRows: 10, maxBytes: 10_000 });
    assert.ok('stdout' in r, JSON.stringify(r));
    const out = readRunnerOutput({ databases: ['0'], queries: forbidden, timeLimitMs: 0, maxRows: 0, maxBytes: 0 }, r.stdout);
    assert.ok(out.complete);
    for (const query of forbidden) {
      const o = out.results.get(query)?.[0];
      assert.ok(o !== undefined && !o.ok && o.failure === 'error', `${query}: ${JSON.stringify(o)}`);
    }
    assert.ok(!existsSync('/tmp/crucible-pg-copy'));
    const p = problem("SELECT 'root:x:0:0'");
    for (const query of ["SELECT pg_read_file('/etc/passwd')", "COPY t TO '/tmp/crucible-pg-copy'"]) {
      assert.equal((await judged(p, query)).status, 'runtime_error', query);
    }
    // Other sessions' query texts are hidden from a judgement's role.
    const hidden = await engine.run({ databases: [SCHEMA], timeLimitMs: 2000, maxRows: 10, maxBytes: 10_000,
      queries: ["SELECT count(*) FROM pg_stat_activity WHERE usename <> current_user AND query <> '<insufficient privilege>' AND query <> ''"] });
    assert.ok('stdout' in hidden && hidden.stdout.includes('"rows":[[0]]'), JSON.stringify(hidden));
    // Writes never reach the template: the data is unchanged for the next judgement.
    assert.equal((await judged(problem('SELECT count(*) FROM t'), 'SELECT 3')).status, 'passed');
  });

  test('a database text that does not build is reference_failed; a file instance is refused', async () => {
    const bad = await judged(problem('SELECT 1', { databases: [{ sql: 'CREATE TABLE oops (' }] }), 'SELECT 1');
    assert.equal(bad.status, 'reference_failed', bad.reason);
    const file = await judged(problem('SELECT 1', { databases: [{ path: '/etc/hostname' }] }), 'SELECT 1');
    assert.equal(file.status, 'reference_failed', file.reason);
  });
});

/**
 * `npm run bench:sql-postgres`: PostgreSQL judgements per second (the `sql` kind's `postgres` engine, issue #26)
 * on a small database, against the bare client: `psql -c <query>` on a database built once, outside any sandbox.
 * Both sequential, 40 samples each, half right (the gold query) and half wrong; the gold's reference made first.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createJudge } from '../src/engine/factory.js';
import { PostgresEngine } from '../src/environments/postgres/engine.js';
import { postgresBinDir, startPostgresServer } from '../src/environments/postgres/server.js';
import type { SqlProblem } from '../src/formats/types.js';
import pg from 'pg';

const SCHEMA = `CREATE TABLE student (id INTEGER PRIMARY KEY, name TEXT, age INTEGER);
INSERT INTO student SELECT g, 'student ' || g, 18 + g % 10 FROM generate_series(1, 1000) g;`;
const GOLD = 'SELECT name FROM student WHERE age = 20 ORDER BY id';
const COUNT = 40;

const server = await startPostgresServer();
const engine = new PostgresEngine(server);
const judge = createJudge({ slots: 2, cacheDir: null, sqlEngines: [engine] });
const problem: SqlProblem = { kind: 'sql', taskId: 'bench/pg', dbId: 'bench', engine: 'postgres', databases: [{ sql: SCHEMA }],
  gold: GOLD, comparators: ['spider-testsuite', 'bird-ex'], timeLimitMs: 5000 };
// Distinct texts (the judge deduplicates identical samples): right ones for even i, wrong ones for odd.
const samples = Array.from({ length: COUNT }, (_, i) => `SELECT name FROM student WHERE age = ${i % 2 === 0 ? 20 : 21} AND id > -${i} ORDER BY id`);
await judge.judge({ problem: { inline: problem }, program: { language: 'sql', source: GOLD } });
let started = performance.now();
let passed = 0;
for (const source of samples) {
  const v = await judge.judge({ problem: { inline: problem }, program: { language: 'sql', source } });
  if (v.passed) passed++;
}
const judgedS = (performance.now() - started) / 1000;

const admin = new pg.Client(server.connection(server.admin, 'postgres'));
await admin.connect();
await admin.query('CREATE DATABASE bench_bare');
await admin.end();
const bare = new pg.Client(server.connection(server.admin, 'bench_bare'));
await bare.connect();
await bare.query(SCHEMA);
await bare.end();
const env = { ...process.env, PGPASSWORD: server.admin.password };
started = performance.now();
for (const source of samples) {
  const r = spawnSync(join(postgresBinDir(), 'psql'), ['-h', '127.0.0.1', '-p', String(server.port), '-U', server.admin.user, '-d', 'bench_bare',
    '-At', '-c', source], { env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
}
const bareS = (performance.now() - started) / 1000;
console.log(JSON.stringify({ samples: COUNT, passed, judgedS: +judgedS.toFixed(2), judgementsPerS: +(COUNT / judgedS).toFixed(1),
  psqlS: +bareS.toFixed(2), psqlPerS: +(COUNT / bareS).toFixed(1), server: server.version }));
await judge.close();
await engine.close();
server.stop();

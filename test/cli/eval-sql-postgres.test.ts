/**
 * PostgreSQL problems from the command line: `crucible eval --format sql-jsonl` on problems whose `engine` is
 * `postgres` starts a PostgreSQL server on its first such judgement (src/environments/postgres/on-demand.ts) and
 * judges the samples there; a SQLite problem of the same file runs in the sandbox as always; a postgres problem given
 * a SQLite file is refused naming the line and field.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { cliWorkspace } from '../support/cli.js';

const ws = cliWorkspace('sql-postgres');
const missing = existsSync('/usr/lib/postgresql') ? false : 'PostgreSQL server binaries missing (run ./scripts/setup)';
const SCHEMA = "CREATE TABLE pets (id INTEGER PRIMARY KEY, name TEXT, age INTEGER); INSERT INTO pets VALUES (1, 'Rex', 3), (2, 'Tom', 5), (3, 'Kit', 1);";

function statuses(out: string): Record<string, string> {
  const rows = readFileSync(join(out, 'verdicts.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { taskId: string; sampleIndex: number; status: string });
  return Object.fromEntries(rows.map((r) => [`${r.taskId}#${r.sampleIndex}`, r.status]));
}

describe('crucible eval on PostgreSQL problems', { skip: missing }, () => {
  test('judges postgres and sqlite problems of one file, each on its engine', async () => {
    const problems = join(ws.dir, 'problems.jsonl');
    writeFileSync(problems, [
      { task_id: 'pg/count', engine: 'postgres', databases: [{ sql: SCHEMA }], gold: 'SELECT count(*) FROM pets' },
      { task_id: 'pg/oldest', engine: 'postgres', databases: [{ sql: SCHEMA }], gold: 'SELECT name FROM pets ORDER BY age DESC LIMIT 1' },
      { task_id: 'lite/count', databases: [{ sql: SCHEMA }], gold: 'SELECT count(*) FROM pets' },
    ].map((r) => JSON.stringify(r)).join('\n') + '\n');
    const samples = join(ws.dir, 'samples.jsonl');
    writeFileSync(samples, [
      { task_id: 'pg/count', completion: 'SELECT COUNT(id) FROM pets' },
      { task_id: 'pg/count', completion: 'SELECT count(*) FROM pets WHERE age > 1' },
      // PostgreSQL-only syntax: passes on postgres
      { task_id: 'pg/oldest', completion: 'SELECT name FROM pets ORDER BY age DESC FETCH FIRST 1 ROWS ONLY' },
      { task_id: 'pg/oldest', completion: 'SELECT nme FROM pets' },
      { task_id: 'lite/count', completion: 'SELECT count(*) FROM pets' },
    ].map((r) => JSON.stringify(r)).join('\n') + '\n');
    const out = join(ws.dir, 'run');
    const r = await ws.crucible(['eval', '--json', '--no-progress', '--k', '1', '--reps', '50', '--format', 'sql-jsonl', '--problems', problems,
      '--samples', samples, '--out', out, '--no-store']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(statuses(out), {
      'pg/count#0': 'passed', 'pg/count#1': 'wrong_answer', 'pg/oldest#0': 'passed', 'pg/oldest#1': 'runtime_error', 'lite/count#0': 'passed',
    });
  });

  test('a postgres problem with a SQLite file is refused naming the line and field', async () => {
    const problems = join(ws.dir, 'bad.jsonl');
    writeFileSync(problems, JSON.stringify({ task_id: 'ok', databases: [{ sql: SCHEMA }], gold: 'SELECT 1' }) + '\n'
      + JSON.stringify({ task_id: 'pg', engine: 'postgres', databases: [{ path: 'x.sqlite' }], gold: 'SELECT 1' }) + '\n');
    const samples = join(ws.dir, 'bad-samples.jsonl');
    writeFileSync(samples, JSON.stringify({ task_id: 'ok', completion: 'SELECT 1' }) + '\n');
    const r = await ws.crucible(['eval', '--no-progress', '--format', 'sql-jsonl', '--problems', problems, '--samples', samples, '--out', join(ws.dir, 'bad-run')]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /bad\.jsonl:2/);
    assert.match(r.stderr, /databases/);
    assert.match(r.stderr, /SQL text/);
  });
});

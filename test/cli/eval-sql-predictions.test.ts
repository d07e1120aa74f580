/**
 * `crucible eval --samples` with the benchmarks' own prediction files, judged in the sandbox on a database written
 * here: Spider's one SQL per line (optional tab + db_id) in dev.json order, and BIRD's `{question_id: SQL}` object
 * written in another order than the questions (matched by key: a positional pairing would score it wrongly).
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { cliWorkspace } from '../support/cli.js';

const ws = cliWorkspace('sql-predictions');

before(() => {
  mkdirSync(join(ws.dir, 'database', 'pets'), { recursive: true });
  const db = new Database(join(ws.dir, 'database', 'pets', 'pets.sqlite'));
  db.exec("CREATE TABLE Pets (id INTEGER PRIMARY KEY, name TEXT, age INTEGER); INSERT INTO Pets VALUES (1, 'Rex', 3), (2, 'Tom', 5), (3, 'Kit', 1);");
  db.close();
  mkdirSync(join(ws.dir, 'dev_databases', 'pets'), { recursive: true });
  copyFileSync(join(ws.dir, 'database', 'pets', 'pets.sqlite'), join(ws.dir, 'dev_databases', 'pets', 'pets.sqlite'));
  writeFileSync(join(ws.dir, 'dev.json'), JSON.stringify([
    { db_id: 'pets', question: 'How many pets?', query: 'SELECT count(*) FROM Pets' },
    { db_id: 'pets', question: 'Oldest age?', query: 'SELECT max(age) FROM Pets' },
    { db_id: 'pets', question: 'Name of pet 1?', query: 'SELECT name FROM Pets WHERE id = 1' },
  ]));
  writeFileSync(join(ws.dir, 'bird.json'), JSON.stringify([
    { question_id: 7, db_id: 'pets', question: 'How many pets?', evidence: '', SQL: 'SELECT count(*) FROM Pets' },
    { question_id: 3, db_id: 'pets', question: 'Oldest age?', evidence: '', SQL: 'SELECT max(age) FROM Pets' },
    { question_id: 11, db_id: 'pets', question: 'Name of pet 1?', evidence: '', SQL: 'SELECT name FROM Pets WHERE id = 1' },
  ]));
});

/** Status per task id of a finished run's verdicts. */
function statuses(out: string): Record<string, string> {
  const rows = readFileSync(join(out, 'verdicts.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { taskId: string; status: string });
  return Object.fromEntries(rows.map((r) => [r.taskId, r.status]));
}

describe('eval --samples with SQL prediction files', () => {
  test('Spider: one query per line in dev.json order, an optional tab and db_id', async () => {
    const pred = join(ws.dir, 'pred.txt');
    writeFileSync(pred, 'SELECT count(*) FROM Pets\nSELECT min(age) FROM Pets\tpets\nSELECT name FROM Pets WHERE id = 1\tpets\n');
    const out = join(ws.dir, 'run-spider');
    const r = await ws.crucible(['eval', '--json', '--no-progress', '--k', '1', '--reps', '50', '--format', 'spider', '--problems', join(ws.dir, 'dev.json'), '--samples', pred, '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).sampleFormat, 'spider-lines');
    assert.deepEqual(statuses(out), { 0: 'passed', 1: 'wrong_answer', 2: 'passed' });
  });

  test('Spider: a line count other than the questions\' is an error naming the file and both counts', async () => {
    const pred = join(ws.dir, 'short.txt');
    writeFileSync(pred, 'SELECT count(*) FROM Pets\nSELECT max(age) FROM Pets\n');
    const r = await ws.crucible(['eval', '--no-progress', '--format', 'spider', '--problems', join(ws.dir, 'dev.json'), '--samples', pred, '--out', join(ws.dir, 'run-short')]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /short\.txt/);
    assert.match(r.stderr, /2 predictions for 3 questions/);
    const shifted = join(ws.dir, 'shifted.txt');
    writeFileSync(shifted, 'SELECT 1\tpets\nSELECT 2\tcars\nSELECT 3\tpets\n');
    const s = await ws.crucible(['eval', '--no-progress', '--format', 'spider', '--problems', join(ws.dir, 'dev.json'), '--samples', shifted, '--out', join(ws.dir, 'run-shifted')]);
    assert.notEqual(s.code, 0);
    assert.match(s.stderr, /shifted\.txt.*names database "cars"/);
  });

  test('BIRD: a prediction object in another order than the questions is matched by question_id', async () => {
    const pred = join(ws.dir, 'predict_dev.json');
    // Keys in the order 11, 3, 7 (the questions are 7, 3, 11); pairing by position would judge 11's query against 7.
    writeFileSync(pred, [
      '{',
      '    "11": "SELECT name FROM Pets WHERE id = 1\\t----- bird -----\\tpets",',
      '    "3": "SELECT max(age) + 1 FROM Pets\\t----- bird -----\\tpets",',
      '    "7": "SELECT count(*) FROM Pets\\t----- bird -----\\tpets"',
      '}',
    ].join('\n'));
    const out = join(ws.dir, 'run-bird');
    const r = await ws.crucible(['eval', '--json', '--no-progress', '--k', '1', '--reps', '50', '--format', 'bird', '--problems', join(ws.dir, 'bird.json'), '--samples', pred, '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).sampleFormat, 'bird-predictions');
    assert.deepEqual(statuses(out), { 7: 'passed', 3: 'wrong_answer', 11: 'passed' });
  });

  test('BIRD soft F1 (bird-f1): the partial score reaches the verdicts', async () => {
    const pred = join(ws.dir, 'predict_f1.json');
    // Question 7's gold gives (3); (3, 0) has one cell of two right: precision 1/2, recall 1, F1 2/3.
    writeFileSync(pred, JSON.stringify({ 7: 'SELECT count(*), 0 FROM Pets', 3: 'SELECT max(age) FROM Pets', 11: 'SELECT name FROM Pets WHERE id = 1' }));
    const out = join(ws.dir, 'run-bird-f1');
    const r = await ws.crucible(['eval', '--json', '--no-progress', '--k', '1', '--reps', '50', '--format', 'bird-f1', '--problems', join(ws.dir, 'bird.json'), '--samples', pred, '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const rows = readFileSync(join(out, 'verdicts.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { taskId: string; status: string; score?: number });
    const seven = rows.find((x) => x.taskId === '7')!;
    assert.equal(seven.status, 'wrong_answer');
    assert.ok(Math.abs(seven.score! - 2 / 3) < 1e-12, JSON.stringify(seven));
    assert.equal(rows.find((x) => x.taskId === '3')!.score, 1);
  });
});

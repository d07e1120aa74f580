/** Spider and BIRD readers: layouts, test-suite instances, prediction files as their evaluators read them. */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSpider, readSpiderPredictions } from '../../src/formats/spider.js';
import { readBird, readBirdPredictions } from '../../src/formats/bird.js';
import { DatasetError } from '../../src/formats/errors.js';

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sql-formats-'));
  await mkdir(join(dir, 'database', 'pets'), { recursive: true });
  for (const f of ['pets.sqlite', 'pets_1.sqlite', 'aaa.sqlite', 'notes.txt']) await writeFile(join(dir, 'database', 'pets', f), '');
  await writeFile(join(dir, 'dev.json'), JSON.stringify([
    { db_id: 'pets', question: 'How many?', query: 'SELECT count(*) FROM Pets' },
    { db_id: 'gone', question: 'Where?', query: 'SELECT 1' },
    { db_id: 'pets', question: 'Values?', query: 'SELECT value FROM Pets' },
  ]));
  await mkdir(join(dir, 'dev_databases', 'pets'), { recursive: true });
  await writeFile(join(dir, 'dev_databases', 'pets', 'pets.sqlite'), '');
  await writeFile(join(dir, 'bird.json'), JSON.stringify([
    { question_id: 7, db_id: 'pets', question: 'q', evidence: 'e', SQL: 'SELECT 1', difficulty: 'simple' },
    { question_id: 3, db_id: 'pets', question: 'q2', evidence: '', SQL: 'SELECT 2', difficulty: 'moderate' },
  ]));
});
after(async () => rm(dir, { recursive: true, force: true }));

describe('spider reader', () => {
  it('names every *.sqlite* file of the db folder, the original first', async () => {
    const problems = await readSpider(join(dir, 'dev.json'), { missingDatabases: 'skip' });
    assert.deepEqual(problems.map((p) => p.taskId), ['0', '2']);
    assert.deepEqual(problems[0]!.databases.map((d) => ('path' in d ? d.path.split('/').pop() : '')), ['pets.sqlite', 'aaa.sqlite', 'pets_1.sqlite']);
    assert.deepEqual(problems[0]!.comparators, ['spider-testsuite']);
  });
  it('names the missing databases unless told to skip them', async () => {
    await assert.rejects(readSpider(join(dir, 'dev.json')), (e: unknown) => e instanceof DatasetError && /gone/.test(e.message));
  });
  it('reads predictions as evaluation.py does: strip, cut at a tab, value -> 1', async () => {
    const p = join(dir, 'pred.txt');
    await writeFile(p, '  SELECT count(*) FROM Pets\textra\r\nSELECT 1\nSELECT value FROM values_t\n');
    const samples = await readSpiderPredictions(p, 3);
    assert.deepEqual(samples.map((s) => [s.taskId, s.solution]), [['0', 'SELECT count(*) FROM Pets'], ['1', 'SELECT 1'], ['2', 'SELECT 1 FROM 1s_t']]);
  });
  it('an empty line or a wrong count is an error, not a shifted file', async () => {
    const p = join(dir, 'pred2.txt');
    await writeFile(p, 'SELECT 1\n\nSELECT 2\n');
    await assert.rejects(readSpiderPredictions(p, 3), /:2: empty line/);
    await writeFile(p, 'SELECT 1\n');
    await assert.rejects(readSpiderPredictions(p, 3), /1 predictions for 3 questions/);
  });
});

describe('bird reader', () => {
  it('keys problems by question_id', async () => {
    const problems = await readBird(join(dir, 'bird.json'));
    assert.deepEqual(problems.map((p) => [p.taskId, p.gold, p.difficulty, p.evidence]), [['7', 'SELECT 1', 'simple', 'e'], ['3', 'SELECT 2', 'moderate', '']]);
    assert.deepEqual(problems[0]!.comparators, ['bird-ex']);
  });
  it('matches predictions by key, whatever their order', async () => {
    const p = join(dir, 'predict_dev.json');
    // Written in the other order than the questions; a value without the separator is its stripped text.
    await writeFile(p, '{"7": " SELECT 1 ", "3": "SELECT 2\\t----- bird -----\\tpets"}');
    const ids = new Map([['7', 'pets'], ['3', 'pets']]);
    const samples = await readBirdPredictions(p, ids);
    assert.deepEqual(samples.map((s) => [s.taskId, s.solution]), [['3', 'SELECT 2'], ['7', 'SELECT 1']]);
  });
  it('a key that is no question, or another database, is an error', async () => {
    const p = join(dir, 'predict_bad.json');
    await writeFile(p, JSON.stringify({ 0: 'SELECT 1\t----- bird -----\tpets' }));
    await assert.rejects(readBirdPredictions(p, new Map([['7', 'pets']])), /matched by key/);
    await writeFile(p, JSON.stringify({ 7: 'SELECT 1\t----- bird -----\tcars' }));
    await assert.rejects(readBirdPredictions(p, new Map([['7', 'pets']])), /names database "cars"/);
  });
});

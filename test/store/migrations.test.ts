/**
 * Versioned migrations on SQLite: a store written by Crucible at 4707476 (schema version 1, made by that commit's
 * CLI: test/fixtures/store/) opens, migrates, keeps every value, and shows its runs in `crucible store list`, the
 * store's queries and the dashboard; a new database runs every step; a failing step leaves the store as it was;
 * a store at version 4 (before difficulty tracking) runs step 5 alone and fills problem_steps from its events;
 * a store newer than the code is refused in one line. PostgreSQL: postgres.test.ts.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { startDashboard } from '../../src/dashboard/server.js';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { migrateStore, schemaVersion } from '../../src/store/db/migrate.js';
import { MIGRATIONS, SCHEMA_VERSION, type Migration } from '../../src/store/db/migrations.js';
import { openSqlite } from '../../src/store/db/sqlite-driver.js';
import { StoreError } from '../../src/store/errors.js';
import { openResultStore } from '../../src/store/open.js';
import { columnsOf, copyV1Store, rawRows, V1_TABLES } from './v1-store.js';

const run = promisify(execFile);
const CLI = join(PROJECT_ROOT, 'bin', 'crucible');
const dir = mkdtempSync(join(tmpdir(), 'crucible-migrations-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function meta(file: string): Record<string, string> {
  const db = new Database(file, { readonly: true });
  try {
    return Object.fromEntries((db.prepare('SELECT key, value FROM crucible_meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
  } finally {
    db.close();
  }
}

describe('a store written by Crucible at 4707476 (schema version 1)', () => {
  it('migrates on open to this version and keeps every row and value of every table', async () => {
    const file = copyV1Store(dir, 'keep.db');
    assert.equal(meta(file)['schema_version'], '1');
    const before = Object.fromEntries(Object.keys(V1_TABLES).map((t) => [t, { columns: columnsOf(file, t), rows: rawRows(file, t) }]));
    const store = await openResultStore(file);
    await store.close();
    const after = meta(file);
    assert.equal(after['schema_version'], String(SCHEMA_VERSION));
    for (const step of MIGRATIONS.filter((m) => m.version > 1)) {
      assert.equal((JSON.parse(after[`migration:${step.version}`]!) as { description: string }).description, step.description);
    }
    assert.equal(after['migration:1'], undefined, 'step 1 was there already');
    for (const [table, { columns, rows }] of Object.entries(before)) {
      assert.deepEqual(columnsOf(file, table).slice(0, columns.length), columns, `${table}: the old columns, in order`);
      assert.deepEqual(rawRows(file, table, columns.join(', ')), rows, `${table}: every value`);
      assert.ok(rows.length > 0, `${table}: the fixture has rows`);
    }
    assert.deepEqual(columnsOf(file, 'samples').slice(before['samples']!.columns.length), ['score', 'completion_kind', 'completion', 'formal_json'],
      'step 3 added the score column, step 8 the sample\'s text, step 10 the formal check');
    assert.ok(rawRows(file, 'samples', 'score, completion_kind, completion, formal_json').every((r) => Object.values(r as object).every((v) => v === null)), 'empty for old samples');
  });

  it('shows its runs: crucible store list, the store queries, export', async () => {
    const file = copyV1Store(dir, 'show.db');
    const { stdout } = await run(CLI, ['store', 'list', '--store', file]);
    assert.deepEqual(stdout.split('\n').slice(1).filter((l) => l !== '').map((l) => l.trim().split(/\s+/).filter((_, i) => [0, 1, 2, 5].includes(i))), [
      ['4', 'finished', '40/40', 'default-import'], ['3', 'finished', '12/12', 'plus-import'], ['2', 'finished', '9/9', 'run-toy'], ['1', 'finished', '40/40', 'run-default'],
    ]);
    const store = await openResultStore(file);
    try {
      const runs = await store.listRuns();
      assert.deepEqual(runs.map((r) => [r.id, r.name, r.status, r.doneSamples, r.passedSamples, r.model, r.dataset]), [
        [4, 'default-import', 'finished', 40, 21, 'samples.jsonl', 'problems.json'],
        [3, 'plus-import', 'finished', 12, 6, 'model-x.jsonl', 'HumanEvalPlus.jsonl.gz'],
        [2, 'run-toy', 'finished', 9, 3, 'toy-samples.jsonl', 'toy-humaneval.jsonl'],
        [1, 'run-default', 'finished', 40, 21, 'samples.jsonl', 'problems.json'],
      ]);
      const counts = await store.problemCounts(1);
      assert.deepEqual(counts.map((p) => [p.taskId, p.kind, p.n, p.c]),
        [['sum-two', 'io', 10, 6], ['count-primes', 'io', 10, 4], ['circle-area', 'io', 10, 5], ['reverse-words', 'io', 10, 6]]);
      const overflow = (await store.samplesOf(1, 'sum-two')).find((s) => s.status === 'wrong_answer' && s.testsPassed === 2)!;
      const sample = (await store.sample(1, 'sum-two', overflow.sampleIndex))!;
      assert.match(sample.source ?? '', /scanf\("%d %d"/);
      assert.deepEqual(sample.tests.map((t) => [t.index, t.input, t.expected, t.actual]), [[2, '1000000000000 1\n', '1000000000001\n', '-727379967\n']]);
      const toy = (await store.sample(2, 'Toy/1', 1))!;
      assert.equal(toy.status, 'wrong_answer');
      assert.equal(toy.source, 'def longest(words):\n    """Return the longest word; the first one on a tie."""\n    return None\n',
        'the program rebuilt from the prompt kept once');
      assert.equal(toy.tests[0]?.expected, 'check(longest) returns without raising', 'the failing test, from test_cases');
      const plus = await store.records(3, { taskId: 'HumanEval/1' });
      assert.deepEqual(plus.map((r) => [r.sampleIndex, r.passed, r.plusPassed, r.judgedBy?.worker]),
        [[0, false, false, 'w0'], [1, true, true, 'w1'], [2, false, false, 'w0'], [3, true, true, 'w1']]);
      assert.deepEqual(plus[0]!.tests.map((t) => [t.index, t.status]), [[0, 'passed'], [1, 'passed'], [2, 'wrong_answer'], [3, 'wrong_answer']]);
      assert.deepEqual(plus.map((r) => r.score), [undefined, undefined, undefined, undefined], 'version 1 never kept a score');
      const training = await store.listTrainingRuns();
      assert.deepEqual(training.map((t) => [t.name, t.events]), [['grpo-toy', 6]]);
      const series = await store.trainingSeries(training[0]!.id);
      assert.deepEqual(series.buckets.map((b) => [b.bucket, b.events, b.passed, b.groups]), [[0, 3, 2, 1], [1, 3, 2, 1]]);
      // Step 5 filled the per-problem, per-step counts (difficulty tracking) from the stored events.
      const steps = await store.problemSteps(training[0]!.id);
      assert.equal(steps.reduce((k, s) => k + s.rollouts, 0), 6);
      assert.deepEqual([...new Set(steps.map((s) => s.step))].sort(), [0, 1]);
      assert.equal(steps.reduce((k, s) => k + s.passed, 0), 4);
      const created = await store.createRun({ name: 'after', model: 'm', dataset: 'd', problemsHash: 'h', samplesHash: 'h', crucibleVersion: 'x',
        options: {}, provenance: {}, keepTests: 'failing', totalSamples: 0 });
      assert.equal(created, 5, 'new runs are numbered after the old ones');
    } finally {
      await store.close();
    }
    const out = join(dir, 'exported');
    await run(CLI, ['export', 'run-toy', '--out', out, '--store', file]);
    const { stdout: report } = await run(CLI, ['report', out]);
    assert.match(report, /3 problems, 9 samples, 3 passed/);
  });

  it('shows its runs on the dashboard: runs list, run, problem and sample pages, training', async () => {
    const file = copyV1Store(dir, 'dashboard.db');
    const store = await openResultStore(file);
    const dashboard = await startDashboard({ store, pollMs: 1000 });
    try {
      const page = async (path: string): Promise<string> => {
        const response = await fetch(dashboard.url + path);
        assert.equal(response.status, 200, path);
        return response.text();
      };
      const runs = await page('');
      for (const name of ['run-default', 'run-toy', 'plus-import', 'default-import']) assert.ok(runs.includes(name), name);
      assert.match(await page('runs/1'), /<span data-testid="done">40<\/span> of 40 samples judged, <span data-testid="passed">21<\/span> passed/);
      assert.match(await page('runs/3'), /data-series="base \+ plus"/);
      assert.match(await page(`runs/2/problem?task=${encodeURIComponent('Toy/2')}`), /3 samples, <span data-testid="c">1<\/span> passed/);
      assert.match(await page(`runs/1/sample?task=sum-two&index=0`), /sample-facts/);
      assert.match(await page('training/1'), /grpo-toy/);
    } finally {
      await dashboard.close();
      await store.close();
    }
  });
});

describe('migrations', () => {
  it('take a store at schema version 4 (main before difficulty tracking) through step 5 alone, filling problem_steps from its events', async () => {
    const file = copyV1Store(dir, 'v4.db');
    const driver = openSqlite(file);
    try {
      assert.deepEqual((await migrateStore(driver, file, { to: 4 })).applied.map((s) => s.version), [2, 3, 4]);
    } finally {
      await driver.close();
    }
    const atFour = meta(file);
    assert.equal(atFour['schema_version'], '4');
    assert.equal(atFour['migration:5'], undefined);
    const store = await openResultStore(file);
    try {
      const m = meta(file);
      assert.equal(m['schema_version'], String(SCHEMA_VERSION));
      assert.equal((JSON.parse(m['migration:5']!) as { description: string }).description, MIGRATIONS[4]!.description);
      for (const v of [2, 3, 4]) assert.equal(m[`migration:${v}`], atFour[`migration:${v}`], `step ${v} was not run again`);
      const [training] = await store.listTrainingRuns();
      const steps = await store.problemSteps(training!.id);
      assert.deepEqual([steps.reduce((k, s) => k + s.rollouts, 0), steps.reduce((k, s) => k + s.passed, 0)], [6, 4]);
    } finally {
      await store.close();
    }
  });

  it('give a new database every step, numbered 1, 2, … and recorded', async () => {
    const file = join(dir, 'new.db');
    const store = await openResultStore(file);
    await store.close();
    const m = meta(file);
    assert.equal(m['schema_version'], String(SCHEMA_VERSION));
    assert.deepEqual(MIGRATIONS.map((s) => s.version), MIGRATIONS.map((_, i) => i + 1));
    for (const step of MIGRATIONS) assert.ok(m[`migration:${step.version}`], `step ${step.version} recorded`);
    const again = await openResultStore(file);
    await again.close();
    assert.equal(meta(file)['migration:1'], m['migration:1'], 'a current store is left alone');
  });

  it('roll back every step of a migration when one fails, and say which', async () => {
    const file = copyV1Store(dir, 'failing.db');
    const steps: Migration[] = [
      ...MIGRATIONS,
      { version: SCHEMA_VERSION + 1, description: 'a column that would be added', sql: { sqlite: 'ALTER TABLE runs ADD COLUMN probe INTEGER', postgres: '' } },
      { version: SCHEMA_VERSION + 2, description: 'a step that fails', apply: async (tx) => { await tx.run('UPDATE no_such_table SET x = 1'); } },
    ];
    const driver = openSqlite(file);
    try {
      await assert.rejects(migrateStore(driver, file, { steps }), (e: unknown) => e instanceof StoreError && e.code === 'store_migration_failed' &&
        e.message.includes(`step ${SCHEMA_VERSION + 2} (a step that fails)`) && e.message.includes('no_such_table') &&
        e.message.includes('left unchanged at version 1') && !e.message.includes('\n'));
      assert.equal(await schemaVersion(driver, file), 1);
    } finally {
      await driver.close();
    }
    assert.ok(!columnsOf(file, 'runs').includes('probe'));
    assert.deepEqual(Object.keys(meta(file)), ['schema_version']);
    assert.deepEqual(rawRows(file, 'samples'), rawRows(copyV1Store(dir, 'pristine.db'), 'samples'));
  });

  it('refuse a store written by a newer Crucible, in one line, and leave it alone', async () => {
    const file = copyV1Store(dir, 'newer.db');
    const db = new Database(file);
    db.prepare("UPDATE crucible_meta SET value = '99' WHERE key = 'schema_version'").run();
    db.close();
    await assert.rejects(openResultStore(file), (e: unknown) => e instanceof StoreError && e.code === 'store_schema_newer' &&
      e.message === `${file} was written by a newer Crucible (store schema version 99, this Crucible reads up to ${SCHEMA_VERSION}): upgrade Crucible, or use another --store`);
    const cli = await run(CLI, ['store', 'list', '--store', file]).catch((e: { code: number; stderr: string }) => e);
    assert.equal((cli as { code: number }).code, 2);
    assert.equal((cli as { stderr: string }).stderr.trim().split('\n').length, 1, (cli as { stderr: string }).stderr);
    assert.deepEqual(columnsOf(file, 'samples'), columnsOf(copyV1Store(dir, 'pristine-2.db'), 'samples'));
  });

  it('refuse steps that are not numbered 1, 2, …', async () => {
    const driver = openSqlite(':memory:');
    try {
      await assert.rejects(migrateStore(driver, 'mem', { steps: [MIGRATIONS[1]!] }), /numbered 1, 2/);
    } finally {
      await driver.close();
    }
  });
});

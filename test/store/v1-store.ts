/**
 * The store written by Crucible at commit 4707476 (`test/fixtures/store/`, schema version 1): copies of it for
 * the migration tests, the same data on PostgreSQL, its raw rows, and everything the store's readers see.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { openPostgres } from '../../src/store/db/postgres-driver.js';
import { migrateStore } from '../../src/store/db/migrate.js';
import type { ResultStore } from '../../src/store/result-store.js';

/** The fixture file. Never opened in place (tests open copies): even a read-only connection leaves WAL files beside it. */
export const V1_STORE = join(PROJECT_ROOT, 'test', 'fixtures', 'store', 'v1-4707476.db');

/** The tables of a version-1 store with the columns that order their rows (their primary keys). */
export const V1_TABLES: Readonly<Record<string, string>> = {
  runs: 'id',
  problems: 'run_id, problem_id',
  programs: 'run_id, program_id',
  samples: 'run_id, problem_id, sample_index',
  judges: 'run_id, judge_id',
  sample_judges: 'run_id, problem_id, sample_index',
  test_cases: 'problems_hash, task_id',
  training_runs: 'id',
  training_events: 'training_run_id, seq',
};

/** A copy of the fixture at `dir/name`. */
export function copyV1Store(dir: string, name: string): string {
  const file = join(dir, name);
  copyFileSync(V1_STORE, file);
  return file;
}

/** Every row of `table` in key order, as better-sqlite3 reads it; `columns` limits the columns (default all). */
export function rawRows(file: string, table: string, columns = '*'): unknown[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(`SELECT ${columns} FROM ${table} ORDER BY ${V1_TABLES[table]}`).all();
  } finally {
    db.close();
  }
}

/** The column names of `table` in a SQLite file. */
export function columnsOf(file: string, table: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
  } finally {
    db.close();
  }
}

/**
 * Make the PostgreSQL database at `url` what Crucible at 4707476 made of it, holding the fixture's rows: that
 * commit created the tables of migration steps 1 and 2 in one script and recorded version 1 (no step rows);
 * every row of the SQLite fixture is copied, and the identity sequences moved past the copied ids as a dump
 * would. `dir`: a temporary folder for a copy of the fixture.
 */
export async function postgresV1(url: string, dir: string): Promise<void> {
  const driver = await openPostgres(url);
  const sqlite = new Database(copyV1Store(dir, 'for-postgres.db'), { readonly: true });
  try {
    await migrateStore(driver, url, { to: 2 });
    await driver.run('DELETE FROM crucible_meta');
    await driver.run("INSERT INTO crucible_meta (key, value) VALUES ('schema_version', '1')");
    for (const table of Object.keys(V1_TABLES)) {
      const rows = sqlite.prepare(`SELECT * FROM ${table}`).all() as Record<string, string | number | null | Buffer>[];
      if (rows.length === 0) continue;
      const columns = Object.keys(rows[0]!);
      await driver.insertMany(table, columns, rows.map((r) => columns.map((c) => r[c]!)), false);
    }
    for (const table of ['runs', 'training_runs']) {
      await driver.get(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT MAX(id) FROM ${table}))`);
    }
  } finally {
    sqlite.close();
    await driver.close();
  }
}

/**
 * What the store's readers see (the runs list, each run with its counts, records, samples and sample pages, the
 * cached analysis, training runs and their series), in one value for `deepEqual`.
 */
export async function storeSnapshot(store: ResultStore): Promise<unknown> {
  const runs = [];
  for (const row of await store.listRuns()) {
    const tasks = [];
    for (const taskId of await store.taskIds(row.id)) {
      const samples = await store.samplesOf(row.id, taskId);
      const pages = await Promise.all(samples.map((s) => store.sample(row.id, taskId, s.sampleIndex)));
      tasks.push({ taskId, samples, pages });
    }
    runs.push({
      row, run: await store.getRun(row.id), counts: await store.problemCounts(row.id), records: await store.records(row.id),
      analysis: await store.cachedAnalysis(row.id), tasks,
    });
  }
  const training = [];
  for (const t of await store.listTrainingRuns()) training.push({ run: t, series: await store.trainingSeries(t.id) });
  return { runs, training };
}

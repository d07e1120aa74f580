/**
 * Brings a store's schema to this code's version by running the migration steps it lacks (`migrations.ts`).
 *
 * - The version lives in the database: `crucible_meta` row `schema_version` (0 when the table or row is absent,
 *   i.e. a new database). Each applied step also leaves a row `migration:<version>` with its description, the
 *   time and the Crucible version that ran it.
 * - Every missing step runs in ONE transaction with the version update: a step that fails rolls all of them
 *   back, so a store is always at a version some Crucible wrote, never between two.
 * - Two processes opening an old store at once: the transaction takes the write lock first (SQLite's
 *   `BEGIN IMMEDIATE`; on PostgreSQL a transaction-scoped advisory lock), then reads the version again, so the
 *   second one finds the work done.
 * - A store newer than the code (a later Crucible migrated it) is refused, never written to: its tables may
 *   mean something this code does not know.
 * - A store already at this version costs one read and no lock (the dashboard opens it while an eval writes).
 */
import { CRUCIBLE_VERSION } from '../../version.js';
import { StoreError } from '../errors.js';
import type { SqlDriver } from './driver.js';
import { MIGRATIONS, type Migration } from './migrations.js';
import { META_TABLE } from './schema.js';

/** Key of the PostgreSQL advisory lock migrations hold ("Cruc" in ASCII). */
const MIGRATION_LOCK = 0x43727563;

/** Options of `migrateStore`, for tests: another list of steps, or a target below the last step. */
export interface MigrateOptions {
  /** The steps (default `MIGRATIONS`); versions must be 1, 2, … in order. */
  readonly steps?: readonly Migration[];
  /** The version to stop at (default: the last step's). */
  readonly to?: number;
}

/** What a migration did: the version found, the version left, and the steps run (none when it was current). */
export interface MigrationResult {
  readonly from: number;
  readonly to: number;
  readonly applied: readonly Migration[];
}

/** @throws Error when the steps are not numbered 1, 2, … (a programming error, caught by the tests). */
function checkSteps(steps: readonly Migration[]): void {
  steps.forEach((step, i) => {
    if (step.version !== i + 1) throw new Error(`migration steps must be numbered 1, 2, …: step ${i + 1} says ${step.version}`);
  });
}

async function metaTableExists(db: SqlDriver): Promise<boolean> {
  const sql = db.dialect === 'sqlite'
    ? `SELECT name AS "name" FROM sqlite_master WHERE type = 'table' AND name = ?`
    : `SELECT table_name AS "name" FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?`;
  return (await db.get(sql, ['crucible_meta'])) !== undefined;
}

/**
 * The store's schema version (0 for a database without one).
 * @throws StoreError `store_unavailable` when the recorded version is not a whole number (not a Crucible store).
 */
export async function schemaVersion(db: SqlDriver, location: string): Promise<number> {
  if (!(await metaTableExists(db))) return 0;
  const row = await db.get<{ value: string }>('SELECT value AS "value" FROM crucible_meta WHERE key = ?', ['schema_version']);
  if (row === undefined) return 0;
  const version = Number(row.value);
  if (!Number.isSafeInteger(version) || version < 0) {
    throw new StoreError('store_unavailable', `${location}: crucible_meta.schema_version is ${JSON.stringify(row.value)}, not a version: is this a Crucible store?`);
  }
  return version;
}

function refuseNewer(location: string, version: number, latest: number): StoreError {
  return new StoreError('store_schema_newer',
    `${location} was written by a newer Crucible (store schema version ${version}, this Crucible reads up to ${latest}): upgrade Crucible, or use another --store`);
}

async function setMeta(tx: SqlDriver, key: string, value: string): Promise<void> {
  await tx.run('INSERT INTO crucible_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value]);
}

async function applyStep(tx: SqlDriver, step: Migration): Promise<void> {
  if ('sql' in step) await tx.exec(step.sql[tx.dialect]);
  else await step.apply(tx);
  await setMeta(tx, `migration:${step.version}`, JSON.stringify({ description: step.description, appliedMs: Date.now(), crucibleVersion: CRUCIBLE_VERSION }));
  await setMeta(tx, 'schema_version', String(step.version));
}

/**
 * Run the steps the store at `db` lacks, up to `options.to` (default the last), in one transaction (see the module
 * comment). `location` names the store in errors.
 * @throws StoreError `store_schema_newer` for a store newer than the steps; `store_migration_failed` naming the
 * step that failed and its cause (nothing was changed); `store_unavailable` for an unreadable version.
 */
export async function migrateStore(db: SqlDriver, location: string, options: MigrateOptions = {}): Promise<MigrationResult> {
  const steps = options.steps ?? MIGRATIONS;
  checkSteps(steps);
  const latest = steps.length;
  const target = options.to ?? latest;
  const found = await schemaVersion(db, location);
  if (found > latest) throw refuseNewer(location, found, latest);
  if (found >= target) return { from: found, to: found, applied: [] };
  return db.transaction(async (tx) => {
    if (tx.dialect === 'postgres') await tx.get('SELECT pg_advisory_xact_lock(?)', [MIGRATION_LOCK]);
    await tx.exec(META_TABLE);
    const from = await schemaVersion(tx, location);
    if (from > latest) throw refuseNewer(location, from, latest);
    const todo = steps.filter((s) => s.version > from && s.version <= target);
    for (const step of todo) {
      try {
        await applyStep(tx, step);
      } catch (error) {
        throw new StoreError('store_migration_failed', `${location}: migrating the store from schema version ${from} to ${target} failed ` +
          `at step ${step.version} (${step.description}): ${(error as Error).message}; the store was left unchanged at version ${from}`);
      }
    }
    return { from, to: Math.max(from, target), applied: todo };
  });
}

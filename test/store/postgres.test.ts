/**
 * The store conformance suite on PostgreSQL: a throw-away cluster (Debian's server, free loopback port, temp
 * folder) started once for this file, a fresh database per test. Also the migrations on PostgreSQL: a database
 * holding what Crucible at 4707476 wrote (the SQLite fixture's rows, `v1-store.ts`) migrates and shows what the
 * migrated SQLite copy shows.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { migrateStore, schemaVersion } from '../../src/store/db/migrate.js';
import { MIGRATIONS, SCHEMA_VERSION, type Migration } from '../../src/store/db/migrations.js';
import { openPostgres } from '../../src/store/db/postgres-driver.js';
import { StoreError } from '../../src/store/errors.js';
import { openResultStore } from '../../src/store/open.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';
import { storeConformance } from './conformance.js';
import { copyV1Store, postgresV1, storeSnapshot } from './v1-store.js';

let cluster: PostgresCluster;
before(async () => {
  cluster = await startPostgres();
});
after(() => cluster?.stop());
let n = 0;

storeConformance('postgres', async () => {
  const url = cluster.database(`conformance_${++n}`);
  return () => openResultStore(url);
});

describe('PostgreSQL store location', () => {
  it('is shown without its password, and an unreachable server is store_unavailable', async () => {
    const store = await openResultStore(cluster.url);
    assert.equal(store.backend, 'postgres');
    await store.close();
    const closed = cluster.url.replace(/:(\d+)\//, ':1/').replace('crucible@', 'crucible:secret@');
    await assert.rejects(openResultStore(closed), (e: unknown) => e instanceof StoreError && e.code === 'store_unavailable' &&
      e.message.includes('crucible:***@') && !e.message.includes('secret'));
  });
});

describe('PostgreSQL migrations', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crucible-pg-migrations-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('open a store written by Crucible at 4707476 and show every value the migrated SQLite copy shows', async () => {
    const url = cluster.database('v1_store');
    await postgresV1(url, dir);
    const pg = await openResultStore(url);
    const sqlite = await openResultStore(copyV1Store(dir, 'v1.db'));
    try {
      const shown = await storeSnapshot(pg);
      assert.deepEqual(shown, await storeSnapshot(sqlite));
      assert.equal((shown as { runs: unknown[] }).runs.length, 4);
      const created = await pg.createRun({ name: 'after', model: 'm', dataset: 'd', problemsHash: 'h', samplesHash: 'h', crucibleVersion: 'x',
        options: {}, provenance: {}, keepTests: 'failing', totalSamples: 0 });
      assert.equal(created, 5, 'new runs are numbered after the old ones');
    } finally {
      await pg.close();
      await sqlite.close();
    }
    const driver = await openPostgres(url);
    try {
      assert.equal(await schemaVersion(driver, url), SCHEMA_VERSION);
    } finally {
      await driver.close();
    }
  });

  it('migrate once when two processes open an old store at the same time', async () => {
    const url = cluster.database('v1_twice');
    await postgresV1(url, dir);
    const stores = await Promise.all([openResultStore(url), openResultStore(url), openResultStore(url)]);
    try {
      const runs = await Promise.all(stores.map(async (s) => (await s.listRuns()).length));
      assert.deepEqual(runs, [4, 4, 4]);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it('roll back every step when one fails, and say which', async () => {
    const url = cluster.database('v1_failing');
    await postgresV1(url, dir);
    const steps: Migration[] = [
      ...MIGRATIONS,
      { version: SCHEMA_VERSION + 1, description: 'a column that would be added', sql: { sqlite: '', postgres: 'ALTER TABLE runs ADD COLUMN probe INTEGER' } },
      { version: SCHEMA_VERSION + 2, description: 'a step that fails', apply: async (tx) => { await tx.run('UPDATE no_such_table SET x = 1'); } },
    ];
    const driver = await openPostgres(url);
    try {
      await assert.rejects(migrateStore(driver, 'pg', { steps }), (e: unknown) => e instanceof StoreError && e.code === 'store_migration_failed' &&
        e.message.includes(`step ${SCHEMA_VERSION + 2} (a step that fails)`) && e.message.includes('no_such_table'));
      assert.equal(await schemaVersion(driver, url), 1);
      const probe = await driver.get(`SELECT column_name FROM information_schema.columns WHERE table_name = 'runs' AND column_name = 'probe'`);
      assert.equal(probe, undefined);
      assert.deepEqual(await driver.all('SELECT key AS "key" FROM crucible_meta'), [{ key: 'schema_version' }]);
    } finally {
      await driver.close();
    }
  });
});

/**
 * The store conformance suite on PostgreSQL: a throw-away cluster (Debian's server, free loopback port, temp
 * folder) started once for this file, a fresh database per test.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { StoreError } from '../../src/store/errors.js';
import { openResultStore } from '../../src/store/open.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';
import { storeConformance } from './conformance.js';

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

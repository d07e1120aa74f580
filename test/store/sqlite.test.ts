/** The store conformance suite on SQLite (a fresh database file per test), plus what is SQLite's own. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { StoreError } from '../../src/store/errors.js';
import { openResultStore } from '../../src/store/open.js';
import { storeConformance } from './conformance.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-sqlite-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

storeConformance('sqlite', async () => {
  const file = join(dir, `store-${++n}.db`);
  return () => openResultStore(file);
});

describe('SQLite store file', () => {
  it('is created with its folder, and refuses a store written by a newer schema', async () => {
    const file = join(dir, 'nested', 'deeper', 'crucible.db');
    const store = await openResultStore(file);
    assert.equal(store.backend, 'sqlite');
    assert.equal(store.location, file);
    await store.close();
    const db = new Database(file);
    db.prepare("UPDATE crucible_meta SET value = '99' WHERE key = 'schema_version'").run();
    db.close();
    await assert.rejects(openResultStore(file), (e: unknown) => e instanceof StoreError && e.code === 'store_schema_newer' && e.message.includes(file));
  });

  it('names the location when it cannot be opened', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a folder');
    await assert.rejects(openResultStore(join(file, 'crucible.db')),
      (e: unknown) => e instanceof StoreError && e.code === 'store_unavailable' && e.message.includes(join(file, 'crucible.db')));
  });
});

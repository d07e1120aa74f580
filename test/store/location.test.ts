/** Where the store is: --store > $CRUCIBLE_STORE > $XDG_DATA_HOME > ~/.local/share. */
import assert from 'node:assert/strict';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { defaultStorePath, redactUrl, resolveStoreLocation } from '../../src/store/open.js';

describe('store location', () => {
  it('follows --store, then CRUCIBLE_STORE, then the XDG data folder', () => {
    assert.deepEqual(resolveStoreLocation('runs.db', { CRUCIBLE_STORE: '/x/y.db' }), { backend: 'sqlite', target: resolve('runs.db'), display: resolve('runs.db') });
    assert.equal(resolveStoreLocation(undefined, { CRUCIBLE_STORE: '/x/y.db' }).target, '/x/y.db');
    assert.equal(resolveStoreLocation(undefined, { XDG_DATA_HOME: '/xdg' }).target, '/xdg/crucible/crucible.db');
    assert.equal(resolveStoreLocation(undefined, {}).target, join(homedir(), '.local', 'share', 'crucible', 'crucible.db'));
    assert.equal(defaultStorePath({ XDG_DATA_HOME: '' }), join(homedir(), '.local', 'share', 'crucible', 'crucible.db'));
    assert.equal(resolveStoreLocation('sqlite:/a/b.db', {}).target, '/a/b.db');
  });

  it('takes postgres:// and postgresql:// URLs and never shows their password', () => {
    const location = resolveStoreLocation('postgres://me:hunter2@db.local:5433/crucible', {});
    assert.equal(location.backend, 'postgres');
    assert.equal(location.target, 'postgres://me:hunter2@db.local:5433/crucible');
    assert.equal(location.display, 'postgres://me:***@db.local:5433/crucible');
    assert.equal(resolveStoreLocation(undefined, { CRUCIBLE_STORE: 'postgresql://u@h/d' }).backend, 'postgres');
    assert.equal(redactUrl('postgres://u@h/d'), 'postgres://u@h/d');
  });
});

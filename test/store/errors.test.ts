/** The store's error catalog and docs/STORE.md ("Errors") list the same codes. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { STORE_ERROR_CODES } from '../../src/store/errors.js';

test('every store error code is documented, and every documented code exists', () => {
  const doc = readFileSync(join(PROJECT_ROOT, 'docs', 'STORE.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Errors'));
  const documented = [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
  assert.deepEqual([...documented].sort(), Object.keys(STORE_ERROR_CODES).sort());
});

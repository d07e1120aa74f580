/**
 * The generation cache on both engines (a SQLite file; a throw-away PostgreSQL cluster): rows written are read
 * back whole (null content, reasoning, usage and request JSON), a key is written once (a second write of the
 * same key keeps the first), lookups of many keys are batched, prompts and sampling specs are kept by hash, the
 * cache shares the file with the result store, and a store that cannot be opened is `store_unavailable`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { StoreError } from '../../src/store/errors.js';
import { openGenerationCache, type GenerationRow } from '../../src/store/generation-cache.js';
import { openResultStore } from '../../src/store/open.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-generation-cache-'));
let cluster: PostgresCluster;
before(async () => {
  cluster = await startPostgres();
});
after(() => {
  cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function row(key: string, index: number, content: string | null): GenerationRow {
  return { key, endpoint: 'http://127.0.0.1:8000/v1', model: 'm', promptHash: 'p'.repeat(64), samplingHash: 's'.repeat(64), sampleIndex: index,
    content, reasoning: content === null ? 'thinking' : null, finishReason: content === null ? 'length' : 'stop',
    usage: { promptTokens: 10, completionTokens: 20, choices: 2 }, request: { n: 2, seed: 5, temperature: 0.8 }, responseId: 'r1', createdMs: 1_700_000_000_000 };
}

async function conformance(spec: string): Promise<void> {
  const cache = await openGenerationCache(spec);
  try {
    await cache.addPrompts([{ hash: 'p'.repeat(64), api: 'chat', prompt: { api: 'chat', messages: [{ role: 'user', content: 'hi' }] } }]);
    await cache.addPrompts([{ hash: 'p'.repeat(64), api: 'chat', prompt: { api: 'chat', messages: [] } }]);
    await cache.addSampling([{ hash: 's'.repeat(64), sampling: { params: { temperature: 0.8 }, stop: [] } }]);
    await cache.put([row('a', 0, 'print(1)'), row('b', 1, null)]);
    await cache.put([row('a', 0, 'something else')]);
    const found = await cache.lookup(['a', 'b', 'missing']);
    assert.deepEqual([...found.keys()].sort(), ['a', 'b']);
    assert.deepEqual(found.get('a'), row('a', 0, 'print(1)'), 'the first write of a key stays');
    assert.deepEqual(found.get('b'), row('b', 1, null));
    const many = Array.from({ length: 1203 }, (_, i) => row(`k${i}`, i, `t${i}`));
    await cache.put(many);
    const all = await cache.lookup(many.map((r) => r.key));
    assert.equal(all.size, 1203);
    assert.equal(all.get('k1202')?.content, 't1202');
  } finally {
    await cache.close();
  }
}

describe('generation cache', () => {
  it('keeps rows, prompts and sampling specs in SQLite, beside the result store\'s tables', async () => {
    const path = join(dir, 'store.db');
    const store = await openResultStore(path);
    await store.close();
    await conformance(path);
    const db = new Database(path, { readonly: true });
    try {
      const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((t) => t.name);
      assert.ok(['runs', 'generation_prompts', 'generation_sampling', 'generation_samples'].every((t) => tables.includes(t)), tables.join());
      const prompt = db.prepare('SELECT prompt_json FROM generation_prompts').get() as { prompt_json: string };
      assert.deepEqual(JSON.parse(prompt.prompt_json), { api: 'chat', messages: [{ role: 'user', content: 'hi' }] });
    } finally {
      db.close();
    }
  });

  it('keeps the same in PostgreSQL', async () => {
    await conformance(cluster.database('generation_cache'));
  });

  it('names the store that cannot be opened', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a folder');
    await assert.rejects(openGenerationCache(join(file, 'x.db')),
      (e: unknown) => e instanceof StoreError && e.code === 'store_unavailable' && e.message.startsWith(`cannot open the generation cache in ${file}/x.db: `));
  });
});

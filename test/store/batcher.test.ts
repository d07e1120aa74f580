import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WriteBatcher } from '../../src/store/batcher.js';

describe('WriteBatcher', () => {
  it('writes full batches at once and the rest on flush, one write at a time and in order', async () => {
    const written: number[][] = [];
    let active = 0;
    const batcher = new WriteBatcher<number>(async (batch) => {
      active++;
      assert.equal(active, 1, 'writes never overlap');
      await new Promise((resolve) => setTimeout(resolve, 5));
      written.push([...batch]);
      active--;
    }, { flushMs: 60_000, maxBatch: 3, onError: () => assert.fail('no write fails') });
    for (let i = 0; i < 7; i++) batcher.push(i);
    await batcher.flush();
    assert.deepEqual(written, [[0, 1, 2], [3, 4, 5], [6]]);
  });

  it('writes a partial batch after flushMs without a flush call', async () => {
    const written: string[][] = [];
    const batcher = new WriteBatcher<string>(async (batch) => { written.push([...batch]); },
      { flushMs: 10, maxBatch: 100, onError: () => assert.fail('no write fails') });
    batcher.push('a');
    batcher.push('b');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(written, [['a', 'b']]);
  });

  it('hands a failed write and its items to onError and goes on with the next batch', async () => {
    const failed: number[][] = [];
    const written: number[][] = [];
    const batcher = new WriteBatcher<number>(async (batch) => {
      if (batch.includes(1)) throw new Error('disk full');
      written.push([...batch]);
    }, { flushMs: 60_000, maxBatch: 2, onError: (error, batch) => {
      assert.equal(error.message, 'disk full');
      failed.push([...batch]);
    } });
    for (let i = 0; i < 4; i++) batcher.push(i);
    await batcher.flush();
    assert.deepEqual(failed, [[0, 1]]);
    assert.deepEqual(written, [[2, 3]]);
  });
});

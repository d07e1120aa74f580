/**
 * Conformance with the trainers' clients, the time-out case (the rest is clients.test.ts): a time-limited run on a
 * real `crucible serve` is answered within each client's own wall-clock request time-out, so the client sees a
 * time-out verdict and not an API error (verl waits compile_timeout + run_timeout + 10 s; open-r1's Piston session
 * gives up after 30 s without an answer byte). The server is bin/crucible, spawned by ./serve.ts.
 */
// crucible-test: alone — a time-out is answered within a client's own wall-clock request time-out (test/run.ts runs it with no other file).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pistonClient, pistonExecute, verlCheckCorrectness } from './drivers.js';
import { servedForFile } from './serve.js';

const context = servedForFile();

describe('trainers\' clients, replayed from their contracts, against crucible serve', () => {
  test('time-outs: a time-limited run is answered within each client\'s own request time-out', async () => {
    const ctx = context();
    // verl waits compile_timeout + run_timeout + 10 s; past that its case would be an API error (-1), not a time-out.
    const started = performance.now();
    const [verlCase] = await verlCheckCorrectness(ctx, { inputs: [''], outputs: [''] }, 'import time\ntime.sleep(30)', { timeout: 1 });
    assert.deepEqual(verlCase, { result: -3, status: 'timeout' });
    assert.ok(performance.now() - started < 12_000);
    // open-r1's session gives up after 30 s without an answer byte; Codeforces jobs ask for (time limit + 10) s.
    const piston = await pistonExecute(pistonClient(ctx), { files: [{ name: 'main.py', content: 'import time\ntime.sleep(60)' }], run_timeout: 2000 }, 'python', 0);
    assert.equal((piston?.['run'] as Record<string, unknown>)['status'], 'TO');
    assert.deepEqual(ctx.problems, []);
  });
});

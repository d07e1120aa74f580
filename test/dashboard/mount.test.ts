/**
 * The dashboard mounted on a standalone fastify instance under `/ui` (as `crucible serve` mounts it): routes,
 * redirects and links under the prefix, validation of every input, escaping of hostile program text, the
 * training-event ingestion API, and server-sent events. A hand-written store (test/store/conformance.ts) keeps
 * every figure checkable by eye; the real-data pages are in dashboard.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerDashboard } from '../../src/dashboard/routes.js';
import { openResultStore } from '../../src/store/open.js';
import type { ResultStore } from '../../src/store/result-store.js';
import { fixtureSamples, newRun } from '../store/conformance.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-mount-'));
let store: ResultStore;
let app: FastifyInstance;
let base = '';
let runId = 0;
const HOSTILE = '</pre><script>alert(1)</script><img src=x onerror=alert(2)>';

before(async () => {
  store = await openResultStore(join(dir, 'crucible.db'));
  runId = await store.createRun(newRun({ name: 'mounted <run>' }));
  await store.addProblems(runId, [{ taskId: 'add', kind: 'call', prompt: 'def add(a, b):\n', testCount: 3 }, { taskId: 'mul', kind: 'call', testCount: 2 }]);
  const samples = fixtureSamples();
  samples[3] = { ...samples[3]!, program: { source: HOSTILE, completion: HOSTILE } };
  await store.appendSamples(runId, samples);
  await store.finishRun(runId, 'finished');
  app = Fastify();
  app.get('/health', async () => ({ ok: true }));
  await registerDashboard(app, { store, prefix: '/ui', pollMs: 100 });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
});

after(async () => {
  await app?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('dashboard mounted at /ui', () => {
  it('serves its pages under the prefix and leaves other routes alone', async () => {
    const redirect = await fetch(`${base}/ui`, { redirect: 'manual' });
    assert.equal(redirect.status, 302);
    assert.equal(redirect.headers.get('location'), '/ui/');
    const list = await fetch(`${base}/ui/`);
    assert.equal(list.status, 200);
    assert.match(list.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    const html = await list.text();
    assert.match(html, /<base href="\/ui\/">/);
    assert.match(html, /mounted &lt;run&gt;/);
    assert.match(html, new RegExp(`href="runs/${runId}"`));
    assert.equal((await fetch(`${base}/ui/runs/${runId}`)).status, 200);
    assert.equal((await fetch(`${base}/ui/runs/${runId}/problem?task=add`)).status, 200);
    assert.equal((await fetch(`${base}/ui/static/dashboard.js`)).headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal((await fetch(`${base}/ui/static/vega-embed.min.js`)).status, 200);
    assert.equal((await fetch(`${base}/ui/static/nope.js`)).status, 404);
    assert.deepEqual(await (await fetch(`${base}/health`)).json(), { ok: true });
  });

  it('answers bad input with the field and unknown things with 404', async () => {
    const bad = await fetch(`${base}/ui/runs/abc`);
    assert.equal(bad.status, 400);
    assert.match(await bad.text(), /id: a run id is a number/);
    const index = await fetch(`${base}/ui/runs/${runId}/sample?task=add&index=x`);
    assert.equal(index.status, 400);
    assert.match(await index.text(), /index: index is a number/);
    assert.equal((await fetch(`${base}/ui/runs/999`)).status, 404);
    assert.equal((await fetch(`${base}/ui/runs/${runId}/sample?task=add&index=9`)).status, 404);
    assert.equal((await fetch(`${base}/ui/runs/${runId}/problem?task=nope`)).status, 404);
    assert.equal((await fetch(`${base}/ui/api/runs/999`)).status, 404);
    const compare = await fetch(`${base}/ui/compare?a=${runId}&b=999`);
    assert.equal(compare.status, 404);
  });

  it('shows hostile program text as text', async () => {
    const html = await (await fetch(`${base}/ui/runs/${runId}/sample?task=mul&index=1`)).text();
    assert.ok(!html.includes('<script>alert(1)'), 'no script from the program');
    assert.ok(!html.includes('<img src=x'), 'no element from the program');
    assert.match(html, /&lt;\/pre&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  });

  it('takes training events over HTTP, validates them, and streams updates', async () => {
    const events = await fetch(`${base}/ui/events`);
    assert.equal(events.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    const reader = events.body!.getReader();
    const invalid = await fetch(`${base}/ui/api/training/rl-1/events`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ events: [{ taskId: 'add', reward: 'high', status: 'passed' }] }) });
    assert.equal(invalid.status, 400);
    assert.match((await invalid.json() as { error: { message: string } }).error.message, /^events\.0\.reward: /);
    const unknownStatus = await fetch(`${base}/ui/api/training/rl-1/events`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ events: [{ taskId: 'add', reward: 1, status: 'great' }] }) });
    assert.match((await unknownStatus.json() as { error: { message: string } }).error.message, /events\.0\.status: status must be one of passed/);
    const ok = await fetch(`${base}/ui/api/training/rl-1/events`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ events: [{ taskId: 'add', reward: 1, status: 'passed', step: 0, groupId: 'g' }, { taskId: 'add', reward: 0, status: 'wrong_answer', step: 0, groupId: 'g' }] }) });
    assert.equal(ok.status, 202);
    const { trainingRunId, accepted } = await ok.json() as { trainingRunId: number; accepted: number };
    assert.equal(accepted, 2);
    const series = await store.trainingSeries(trainingRunId);
    assert.deepEqual(series.buckets.map((b) => [b.events, b.passed, b.rewardMean, b.groups, b.zeroVarianceGroups]), [[2, 1, 0.5, 1, 0]]);
    let text = '';
    const decoder = new TextDecoder();
    while (!/event: training\ndata: \{[^\n]*"name":"rl-1"/.test(text)) {
      const { value, done } = await reader.read();
      assert.equal(done, false, `stream ended before the training event: ${text}`);
      text += decoder.decode(value);
    }
    assert.match(text, /"events":2/);
    await reader.cancel();
    const api = await (await fetch(`${base}/ui/api/training/${trainingRunId}/series`)).json() as { series: { unit: string } };
    assert.equal(api.series.unit, 'step');
  });

  it('can be mounted without the ingestion route', async () => {
    const other = Fastify();
    await registerDashboard(other, { store, prefix: '/dash', ingest: false });
    const response = await other.inject({ method: 'POST', url: '/dash/api/training/x/events', payload: { events: [] } });
    assert.equal(response.statusCode, 404);
    assert.equal((await other.inject({ method: 'GET', url: '/dash/' })).statusCode, 200);
    await other.close();
  });
});

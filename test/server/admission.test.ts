/** Admission queue, metrics exposition and error catalog: pure pieces, checked by hand. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { AdmissionQueue, ShutdownError } from '../../src/server/admission.js';
import { ERROR_CATALOG } from '../../src/server/errors.js';
import { Counter, Histogram, Registry } from '../../src/server/metrics.js';
import { fieldPath } from '../../src/server/validate.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => { resolve = r; });
  return { promise, resolve };
}

test('admission reserves all or nothing and bounds in-flight work', async () => {
  const q = new AdmissionQueue({ maxInFlight: 2, capacity: 3 });
  assert.equal(q.limit, 5);
  assert.equal(q.tryReserve(4), true);
  assert.equal(q.tryReserve(2), false, 'a batch that does not fit is refused whole');
  assert.equal(q.tryReserve(1), true);
  assert.equal(q.stats.rejectedRequests, 1);
  const gates = Array.from({ length: 5 }, deferred);
  let maxRunning = 0;
  const runs = gates.map((g, i) => q.run(async () => {
    maxRunning = Math.max(maxRunning, q.running);
    await g.promise;
    return i;
  }));
  await new Promise((r) => setImmediate(r));
  assert.equal(q.running, 2);
  assert.equal(q.depth, 3);
  for (const g of gates) g.resolve();
  assert.deepEqual(await Promise.all(runs), [0, 1, 2, 3, 4]);
  assert.equal(maxRunning, 2);
  assert.equal(q.outstanding, 0);
  assert.equal(q.running, 0);
  assert.ok(q.retryAfterSeconds() >= 1);
});

test('maxQueueWaitMs refuses a request whose estimated wait is too long, however much room is left', async () => {
  // Mean item time starts at 200 ms: with 2 in flight, each item waiting ahead adds 100 ms.
  const q = new AdmissionQueue({ maxInFlight: 2, capacity: 100, maxQueueWaitMs: 300 });
  assert.equal(q.tryReserve(2), true, 'free places: no wait');
  assert.equal(q.waitAheadMs(), 100);
  assert.equal(q.tryReserve(1), true);
  assert.equal(q.tryReserve(1), true);
  assert.equal(q.waitAheadMs(), 300);
  assert.equal(q.tryReserve(1), true, '300 ms ahead is within the bound');
  assert.equal(q.waitAheadMs(), 400);
  assert.equal(q.tryReserve(1), false, '400 ms ahead > 300 ms although 95 places are free');
  assert.equal(q.stats.rejectedRequests, 1);
  assert.equal(q.outstanding, 5);
  // Instant items pull the mean down: the same depth then fits.
  const runs = Array.from({ length: 5 }, () => q.run(async () => undefined));
  await Promise.all(runs);
  assert.equal(q.outstanding, 0);
  assert.ok(q.tryReserve(60), 'an empty queue takes a whole batch: the bound is on the wait before it starts');
  assert.ok(q.waitAheadMs() < 200 * 59 / 2, 'the mean item time has fallen');
  assert.throws(() => new AdmissionQueue({ maxInFlight: 1, capacity: 0, maxQueueWaitMs: -1 }), RangeError);
});

test('Retry-After spreads refused callers over the drain time instead of sending them all back together', () => {
  // Mean item time 200 ms over 2 in flight: each refusal books 100 ms after the previous appointment.
  const q = new AdmissionQueue({ maxInFlight: 2, capacity: 0 });
  const answers = Array.from({ length: 40 }, () => q.retryAfterSeconds());
  assert.equal(answers[0], 1);
  for (let i = 1; i < answers.length; i++) assert.ok(answers[i]! >= answers[i - 1]!, 'appointments never move earlier');
  assert.ok(answers.at(-1)! >= 4, `40 refusals span about 4 s, got ${answers.at(-1)}`);
  const many = Array.from({ length: 2000 }, () => q.retryAfterSeconds(8));
  assert.equal(many.at(-1), 60, 'capped at a minute');
});

test('a cancelled waiting item leaves the queue without starting and gives its place back', async () => {
  const q = new AdmissionQueue({ maxInFlight: 1, capacity: 2 });
  assert.equal(q.tryReserve(3), true);
  const gate = deferred();
  const started: number[] = [];
  const first = q.run(async () => { started.push(0); await gate.promise; });
  const controller = new AbortController();
  const second = q.run(async () => { started.push(1); }, controller.signal);
  const third = q.run(async () => { started.push(2); });
  await new Promise((r) => setImmediate(r));
  assert.equal(q.depth, 2);
  controller.abort(new Error('client gone'));
  await assert.rejects(second, /client gone/);
  assert.equal(q.depth, 1);
  assert.equal(q.outstanding, 2, 'the cancelled item no longer counts');
  gate.resolve();
  await Promise.all([first, third]);
  assert.deepEqual(started, [0, 2], 'the cancelled item never started');
  assert.equal(q.outstanding, 0);
  assert.equal(q.running, 0);
  assert.equal(q.stats.cancelledItems, 1);
  assert.equal(q.tryReserve(1), true);
  await assert.rejects(q.run(async () => started.push(3), AbortSignal.abort()), 'an item cancelled before its turn never starts');
  assert.equal(q.outstanding, 0);
  assert.deepEqual(started, [0, 2]);
});

test('admission fails waiting items on shutdown, running ones finish', async () => {
  const q = new AdmissionQueue({ maxInFlight: 1, capacity: 2 });
  assert.ok(q.tryReserve(3));
  const gate = deferred();
  const first = q.run(async () => { await gate.promise; return 'done'; });
  const second = q.run(async () => 'never');
  const third = q.run(async () => 'never');
  await new Promise((r) => setImmediate(r));
  assert.equal(q.failWaiting('stopping'), 2);
  await assert.rejects(second, ShutdownError);
  await assert.rejects(third, ShutdownError);
  gate.resolve();
  assert.equal(await first, 'done');
  assert.equal(q.outstanding, 0);
});

test('metrics render the Prometheus text format', () => {
  const r = new Registry();
  const c = r.add(new Counter('x_total', 'Things.'));
  c.inc({ route: '/a"b' });
  c.inc({ route: '/a"b' }, 2);
  const h = r.add(new Histogram('lat_seconds', 'Latency.', [0.1, 1]));
  h.observe({}, 0.05);
  h.observe({}, 0.5);
  h.observe({}, 5);
  const text = r.render();
  assert.match(text, /# TYPE x_total counter\nx_total\{route="\/a\\"b"\} 3/);
  assert.match(text, /lat_seconds_bucket\{le="0.1"\} 1\nlat_seconds_bucket\{le="1"\} 2\nlat_seconds_bucket\{le="\+Inf"\} 3\nlat_seconds_sum 5.55\nlat_seconds_count 3/);
});

test('field paths read like JavaScript', () => {
  assert.equal(fieldPath(['items', 3, 'tests', 0, 'output']), 'items[3].tests[0].output');
  assert.equal(fieldPath([]), 'body');
});

test('every error code is documented in docs/API.md', () => {
  const doc = readFileSync(join(PROJECT_ROOT, 'docs', 'API.md'), 'utf8');
  for (const [code, entry] of Object.entries(ERROR_CATALOG)) {
    assert.match(doc, new RegExp(`\\| \`${code}\` \\| ${entry.status} \\|`), `docs/API.md lacks a row for ${code} (${entry.status})`);
  }
});

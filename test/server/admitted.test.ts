/**
 * `JudgeService.admitted`, the one path of every route's work (admission, cancellation, metrics): a Piston contest
 * package job whose client hangs up is cancelled like any other item (its run killed, its slot and queue place
 * freed, counted as cancelled; the route's answer is the one disconnect answer, 499 with no body, which nobody is
 * left to read), and the next job is served. The real server on
 * 127.0.0.1:0, a real sandbox.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, test } from 'node:test';
import { Sandbox } from '../../src/sandbox/index.js';
import { startServer, type ServerHandle } from '../../src/server/index.js';
import { createLogger } from '../../src/server/logging.js';
import { httpCall } from '../support/http.js';

let sandbox: Sandbox;
let server: ServerHandle;

before(async () => {
  sandbox = Sandbox.create({ slots: 2 });
  server = await startServer({ port: 0, inFlightPerSlot: 1, queueCapacity: 16, logLevel: 'silent' }, { sandbox, logger: createLogger('silent') });
});

after(async () => {
  await server.shutdown(1000);
  sandbox.close();
});

/** Poll `condition` every 50 ms until it holds; fail with `what` after `limitMs`. */
async function until(condition: () => boolean, what: string, limitMs = 90_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > limitMs) assert.fail(`${what} did not happen`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const contestJob = (solution: string): unknown => ({ language: 'cf_python3', version: '*', run_timeout: 60_000, files: [
  { name: 'main.py', content: solution }, { name: 'input.txt', content: '2 3\n' }, { name: 'correct_output.txt', content: '5\n' },
  { name: 'grader_config', content: 'TIME_LIMIT=60\nMEMORY_LIMIT=256\n' }] });

test('a contest package job whose client hangs up is killed, counted as cancelled, and frees its slot', async () => {
  const { service } = server.context;
  const cancelledBefore = service.cancelledItems;

  const body = JSON.stringify(contestJob('import time\ntime.sleep(150)\nprint(5)\n'));
  const url = new URL('/api/v2/execute', server.url);
  const client = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
  client.on('error', () => undefined);
  client.end(body);
  await until(() => sandbox.busySlots === 1 && service.admission.running === 1, 'the sleeper running');
  client.destroy();
  await until(() => service.admission.outstanding === 0 && sandbox.busySlots === 0, 'release of its slot and queue place');
  assert.equal(service.cancelledItems - cancelledBefore, 1);
  const served = await httpCall(server.url, 'POST', '/api/v2/execute', contestJob('a, b = map(int, input().split())\nprint(a + b)\n'));
  assert.equal(served.status, 200, served.text);
  assert.equal(served.body.run.stdout, '1\n');
});

/**
 * Static analysis through the server (issue #27 item 3): `/v1/judge` with an `analysis` option answers the
 * program's findings next to its verdict, and `/v1/rewards` with a reward spec's `analysis` term analyses each
 * rollout and subtracts the term's penalty. The analysers run in the sandbox (pyflakes, Debian's).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { IoProblem } from '../../src/formats/types.js';
import { Sandbox } from '../../src/sandbox/index.js';
import { startServer, type ServerHandle } from '../../src/server/index.js';
import { createLogger } from '../../src/server/logging.js';
import { httpCall, type Answer } from '../support/http.js';

const TOKEN = 'test-token';
const SUM: IoProblem = {
  kind: 'io', taskId: 'sum', comparator: { kind: 'tokens' }, tests: [{ input: '1 2\n', output: '3\n' }],
};
/** Passes, with two pyflakes warnings (an unused import, an unused variable). */
const SUM_UNCLEAN = 'import os\n\ndef main():\n    unused = 1\n    a, b = map(int, input().split())\n    print(a + b)\n\nmain()\n';
const SUM_CLEAN = 'a, b = map(int, input().split())\nprint(a + b)\n';

let sandbox: Sandbox;
let server: ServerHandle;
const post = (path: string, body: unknown): Promise<Answer> => httpCall(server.url, 'POST', path, body, { authorization: `Bearer ${TOKEN}` });

before(async () => {
  sandbox = Sandbox.create({ slots: 2 });
  server = await startServer({ port: 0, token: TOKEN, logLevel: 'silent' }, { sandbox, problems: [SUM], logger: createLogger('silent') });
});
after(async () => {
  await server.shutdown(1000);
  sandbox.close();
});

describe('static analysis through the server', () => {
  test('/v1/judge with analysis: the findings beside the verdict; none asked, none given', async () => {
    const r = await post('/v1/judge', { code: SUM_UNCLEAN, problem: 'sum', language: 'python', analysis: ['pyflakes'] });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.status, 'passed');
    assert.equal(r.body.analysis.findings, 2);
    assert.equal(r.body.analysis.warnings, 2);
    assert.deepEqual(r.body.analysis.failed, []);
    assert.deepEqual(r.body.analysis.outcomes.map((o: { tool: string }) => o.tool), ['pyflakes']);
    assert.deepEqual(r.body.analysis.outcomes[0].findings.map((f: { rule: string }) => f.rule).sort(), ['UnusedImport', 'UnusedVariable']);
    const plain = await post('/v1/judge', { code: SUM_UNCLEAN, problem: 'sum', language: 'python' });
    assert.equal(plain.body.analysis, undefined);
  });

  test('an unknown analyser is a 400 that names the field', async () => {
    const r = await post('/v1/judge', { code: SUM_CLEAN, problem: 'sum', analysis: ['lint9000'] });
    assert.equal(r.status, 400);
    assert.match(JSON.stringify(r.body), /analysis/);
  });

  test('/v1/rewards: a spec with an analysis term pays per finding, from the verdict\'s reward', async () => {
    const r = await post('/v1/rewards', {
      reward: { kind: 'binary', analysis: { tools: ['pyflakes'], penalties: { warning: 0.125 } } },
      items: [{ id: 'unclean', code: SUM_UNCLEAN, problem: 'sum', language: 'python' }, { id: 'clean', code: SUM_CLEAN, problem: 'sum', language: 'python' }],
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const byId = new Map(r.body.items.map((i: { id: string }) => [i.id, i]));
    const unclean = byId.get('unclean') as { reward: number; status: string; details: { analysis: { findings: number } } };
    assert.equal(unclean.status, 'passed');
    assert.equal(unclean.reward, 1 - 2 * 0.125);
    assert.equal(unclean.details.analysis.findings, 2);
    assert.equal((byId.get('clean') as { reward: number }).reward, 1);
  });
});

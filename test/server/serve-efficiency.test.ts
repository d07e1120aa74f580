/**
 * The `efficiency` reward term on `/v1/rewards` (issue #28, item 7), end to end on a real server and sandbox: two
 * correct C programs of an io problem with a C reference are measured by callgrind in the box, the faster gets the
 * larger term, each reward equals the spec's `1 + weight · min(cap, referenceCost / cost)` from the reported costs,
 * a wrong program gets no term, and a spec with `efficiency` on inline tests (no reference) is refused up front.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { IoProblem } from '../../src/formats/types.js';
import { Sandbox } from '../../src/sandbox/index.js';
import { startServer, type ServerHandle } from '../../src/server/index.js';
import { createLogger } from '../../src/server/logging.js';
import { httpCall } from '../support/http.js';

const loop = (times: number): string => `#include <stdio.h>
int main(void){long n,s=0;if(scanf("%ld",&n)!=1)return 1;
for(int r=0;r<${times};r++){s=0;for(long i=0;i<n;i++)s+=i*i;}
printf("%ld\\n",s);return 0;}
`;
/** The reference: one pass of the loop. */
const REFERENCE = loop(1);
/** Correct and much faster: the closed form n(n-1)(2n-1)/6. */
const FAST = '#include <stdio.h>\nint main(void){long n;if(scanf("%ld",&n)!=1)return 1;printf("%ld\\n",n*(n-1)/6*(2*n-1));return 0;}\n';
/** Correct and slower: the loop three times. */
const SLOW = loop(3);
const WRONG = '#include <stdio.h>\nint main(void){long n;if(scanf("%ld",&n)!=1)return 1;printf("%ld\\n",n);return 0;}\n';

const problem: IoProblem = {
  kind: 'io', taskId: 'squares', comparator: { kind: 'tokens' },
  tests: [{ input: '10\n', output: '285\n' }, { input: '1000000\n', output: '333332833333500000\n' }],
  referenceSolution: { language: 'c', code: REFERENCE },
};

let sandbox: Sandbox;
let server: ServerHandle;

before(async () => {
  sandbox = Sandbox.create({ slots: 2 });
  server = await startServer({ port: 0, logLevel: 'silent' }, { sandbox, problems: [problem], logger: createLogger('silent') });
});

after(async () => {
  await server.shutdown(5000);
  sandbox.close();
});

interface Item {
  readonly id: string;
  readonly reward: number | null;
  readonly status: string;
  readonly details: { readonly efficiency?: { ok: boolean; unit?: string; cost?: number; referenceCost?: number; error?: string } };
}

const SPEC = { kind: 'binary', efficiency: { weight: 0.5, cap: 2 } };

describe('efficiency as a reward term on /v1/rewards', () => {
  test('the faster correct program gets the larger term; rewards follow the spec from the measured costs', async () => {
    const r = await httpCall(server.url, 'POST', '/v1/rewards', { reward: SPEC, items: [
      { id: 'fast', problem: 'squares', language: 'c', code: FAST },
      { id: 'slow', problem: 'squares', language: 'c', code: SLOW },
      { id: 'wrong', problem: 'squares', language: 'c', code: WRONG },
    ] });
    assert.equal(r.status, 200, r.text);
    const items = new Map((r.body.items as Item[]).map((i) => [i.id, i]));
    const fast = items.get('fast')!;
    const slow = items.get('slow')!;
    for (const item of [fast, slow]) {
      assert.equal(item.status, 'passed');
      const e = item.details.efficiency!;
      assert.equal(e.ok, true, e.error);
      assert.equal(e.unit, 'instructions');
      assert.equal(item.reward, 1 + 0.5 * Math.min(2, e.referenceCost! / e.cost!));
    }
    const fe = fast.details.efficiency!;
    const se = slow.details.efficiency!;
    assert.equal(fe.referenceCost, se.referenceCost, 'one reference measurement per problem');
    assert.ok(fe.cost! < fe.referenceCost! && se.cost! > se.referenceCost!, `fast ${fe.cost}, slow ${se.cost}, reference ${fe.referenceCost}`);
    assert.equal(fast.reward, 2, 'the closed form is far cheaper than the loop: the ratio is capped at 2');
    assert.ok(slow.reward! > 1 && slow.reward! < 1.25, `three loops cost about three times one: ${slow.reward}`);
    const wrong = items.get('wrong')!;
    assert.equal(wrong.status, 'wrong_answer');
    assert.equal(wrong.reward, 0);
    assert.equal(wrong.details.efficiency, undefined, 'a failing rollout is not measured');
  });

  test('a second request gets the same count (deterministic) from the cached reference', async () => {
    const r = await httpCall(server.url, 'POST', '/v1/rewards', { reward: SPEC, items: [{ id: 'slow', problem: 'squares', language: 'c', code: SLOW }] });
    assert.equal(r.status, 200, r.text);
    const first = await httpCall(server.url, 'POST', '/v1/rewards', { reward: SPEC, items: [{ id: 'slow', problem: 'squares', language: 'c', code: SLOW }] });
    assert.deepEqual(first.body.items[0].details.efficiency, r.body.items[0].details.efficiency);
  });

  test('an efficiency term without a loaded problem\'s reference is a 400 naming the field', async () => {
    const r = await httpCall(server.url, 'POST', '/v1/rewards', { reward: SPEC, items: [
      { id: 1, language: 'c', code: FAST, tests: [{ input: '10\n', output: '285\n' }] },
    ] });
    assert.equal(r.status, 400, r.text);
    assert.match(r.text, /reward\.efficiency/);
    assert.match(r.text, /loaded problem/);
  });
});

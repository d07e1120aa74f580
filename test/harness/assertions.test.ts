/** The in-box Python judge in `assertions` mode (CodeT generated tests, each judged on its own), inside bubblewrap. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HarnessBox, type HarnessResponse } from './harness-box.js';

const LIMITS = { cpuMs: 100, wallMs: 2300, memoryKiB: 256 * 1024, outputBytes: 64 * 1024 };
const PROMPT = 'def twice(x):\n    return 2 * x\n\ndef add(a, b):\n    """Add two numbers."""\n';
const ASSERTIONS = [
  'assert add(1, 2) == 3',
  'assert add(2, 2) == 5',
  'assert add(0, 0) == twice(0)',
  'assert add(10**6, 0) == 10**6',
  'assert add("a", 1) == 2',
  'assert add(1, 1) == 2',
];
let seq = 0;

interface AssertionResult { status: string; signature?: string; reason?: string }

function job(body: string, assertions = ASSERTIONS) {
  return { op: 'run', id: `a-${++seq}`, mode: 'assertions', program: PROMPT + body, prelude: PROMPT, entryPoint: 'add', assertions, ...LIMITS };
}

function statuses(r: HarnessResponse): string[] {
  assert.equal(r.status, 'ok', JSON.stringify(r));
  return (r.results as AssertionResult[]).map((x) => x.status);
}

describe('python harness, assertions mode', () => {
  let box: HarnessBox;
  before(() => { box = new HarnessBox(); });
  after(async () => { await box.close(); });

  it('judges every assertion on its own: a failure does not stop the rest; prompt helpers are visible', async () => {
    const r = await box.request(job('    return a + b\n'));
    assert.deepEqual(statuses(r), ['passed', 'wrong_answer', 'passed', 'passed', 'runtime_error', 'passed']);
  });

  it('an endless loop on one input costs that assertion only (CPU limit per assertion), the others still run', async () => {
    const r = await box.request(job('    if a == 10**6:\n        while True: pass\n    return a + b\n'));
    assert.deepEqual(statuses(r), ['passed', 'wrong_answer', 'passed', 'time_limit_exceeded', 'runtime_error', 'passed']);
  });

  it('a program that kills its process fails every assertion, each after a fresh start', async () => {
    const r = await box.request(job('    import os\n    os._exit(0)\n'));
    assert.deepEqual(statuses(r), ASSERTIONS.map(() => 'runtime_error'));
  });

  it('a program that does not load fails every assertion', async () => {
    const r = await box.request(job('    return (\n'));
    assert.deepEqual(statuses(r), ASSERTIONS.map(() => 'runtime_error'));
    assert.match((r.results as AssertionResult[])[0]!.reason ?? '', /SyntaxError/);
  });

  it('cannot fake a pass by rigging equality: results cross as plain data', async () => {
    const rigged = '    class Yes:\n        def __eq__(self, other):\n            return True\n    return Yes()\n';
    const r = await box.request(job(rigged, ['assert add(1, 2) == 3', 'assert add(1, 2) == 4']));
    assert.deepEqual(statuses(r), ['wrong_answer', 'wrong_answer']);
  });

  it('signatures: equal answers give equal signatures, different answers different ones, whatever the assertion says', async () => {
    const sum = (await box.request(job('    return a + b\n'))).results as AssertionResult[];
    const alsoSum = (await box.request(job('    return b + a\n'))).results as AssertionResult[];
    const product = (await box.request(job('    return a * b\n'))).results as AssertionResult[];
    assert.deepEqual(sum.map((x) => x.signature), alsoSum.map((x) => x.signature));
    // add(1, 2): 3 vs 2 differ; add(2, 2): 4 vs 4 agree although both fail "== 5".
    assert.notEqual(sum[0]!.signature, product[0]!.signature);
    assert.equal(sum[1]!.signature, product[1]!.signature);
    assert.equal(sum[1]!.status, 'wrong_answer');
  });

  it('set-valued answers have one signature whatever the iteration order', async () => {
    const a = (await box.request(job('    return {"x", "y", "z", a, b}\n', ['assert add("p", "q") is not None']))).results as AssertionResult[];
    const b = (await box.request(job('    return set(sorted({"x", "y", "z", a, b}, reverse=True))\n', ['assert add("p", "q") is not None']))).results as AssertionResult[];
    assert.equal(a[0]!.signature, b[0]!.signature);
  });
});

describe('python harness, verdicts independent of the zygote', () => {
  it('set iteration order and the random stream are the same in fresh boxes (fixed hash and random seeds)', async () => {
    const program = 'import random\ndef f():\n    return [list({"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"}), random.random()]\n';
    const answers = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const box = new HarnessBox();
      try {
        const r = await box.request({ op: 'run', id: `seed-${i}`, mode: 'call', program, entryPoint: 'f', inputs: [[]], ...LIMITS, cpuMs: 1000 });
        assert.equal(r.status, 'ok', JSON.stringify(r));
        answers.add(JSON.stringify((r.results as { value?: unknown }[]).map((x) => x.value)));
      } finally {
        await box.close();
      }
    }
    assert.equal(answers.size, 1, [...answers].join('\n'));
  });
});

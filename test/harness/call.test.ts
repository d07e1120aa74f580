/** The in-box Python judge in call mode (EvalPlus style), run inside bubblewrap. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HarnessBox } from './harness-box.js';
import { pyEquals } from '../../src/kinds/python/compare-pyvalue.js';
import { checkPyValue, type PyValue } from '../../src/verdict/index.js';

const LIMITS = { cpuMs: 1000, wallMs: 3000, memoryKiB: 256 * 1024, outputBytes: 64 * 1024 };
let seq = 0;

function callJob(program: string, inputs: PyValue[][], overrides: Record<string, unknown> = {}) {
  return { op: 'run', id: `call-${++seq}`, mode: 'call', program, entryPoint: 'f', inputs, ...LIMITS, ...overrides };
}

interface CallResult { status: string; value?: PyValue; reason?: string; cpuMs?: number }

const VALUES: PyValue[] = [
  null, true, false, '', 'héllo\u0000\ud83d\ude00',
  { i: '0' }, { i: '-7' }, { i: '123456789012345678901234567890123456789012345678901234567890' },
  { f: 0.1 }, { f: -0 }, { f: 1e308 }, { f: 5e-324 }, { f: 'nan' }, { f: 'inf' }, { f: '-inf' },
  { c: [1.5, 'nan'] },
  { l: [{ i: '1' }, { t: [{ i: '2' }, { f: 2.5 }] }] },
  { t: [] }, { t: [{ i: '1' }] },
  { s: [{ i: '3' }, { t: [{ i: '1' }, 'a'] }] }, { fs: [{ i: '1' }] },
  { d: [['k', { d: [[{ i: '1' }, { l: [{ f: 'nan' }] }], [{ t: [{ i: '2' }] }, null]] }], [{ i: '5' }, { s: [] }]] },
  { b: 'AAEC/w==' },
];

describe('python harness, call mode', () => {
  let box: HarnessBox;
  before(() => { box = new HarnessBox(); });
  after(async () => { await box.close(); });

  it('values round-trip exactly through the candidate', async () => {
    const r = await box.request(callJob('def f(x):\n    return x\n', VALUES.map((v) => [v])));
    assert.equal(r.status, 'ok', JSON.stringify(r));
    const results = r.results as CallResult[];
    assert.equal(results.length, VALUES.length);
    results.forEach((res, i) => {
      assert.equal(res.status, 'ok');
      assert.equal(checkPyValue(res.value), null);
      const expected = VALUES[i]!;
      const hasNan = JSON.stringify(expected).includes('nan');
      // NaN is never == NaN, so containers holding one compare by their JSON encoding instead
      if (hasNan) assert.deepEqual(res.value, expected);
      else assert.ok(pyEquals(res.value!, expected), `${JSON.stringify(res.value)} != ${JSON.stringify(expected)}`);
    });
    assert.deepEqual(results[7]!.value, VALUES[7]);
  });

  it('floats leave the box repr-exact, -0.0 included (JSON.stringify cannot send -0 in)', async () => {
    const r = await box.request(callJob('def f(k):\n    return [-0.0, 0.1 + 0.2, 1/3, 2.0**-1074, float(2**53 + 1)]\n', [[null]]));
    const v = (r.results as CallResult[])[0]!.value as { l: { f: number }[] };
    assert.ok(Object.is(v.l[0]!.f, -0));
    assert.deepEqual(v.l.slice(1).map((x) => x.f), [0.1 + 0.2, 1 / 3, 5e-324, 2 ** 53]);
  });

  it('each call gets a fresh copy of its arguments', async () => {
    const program = 'def f(xs):\n    xs.append(1)\n    return len(xs)\n';
    const r = await box.request(callJob(program, [[{ l: [] }], [{ l: [] }]]));
    assert.deepEqual((r.results as CallResult[]).map((x) => x.value), [{ i: '1' }, { i: '1' }]);
  });

  it('objects with a custom __eq__ come back opaque; stdlib dict subclasses as dicts', async () => {
    const program = [
      'import collections',
      'class Yes:',
      '    def __eq__(self, o): return True',
      'class I(int):',
      '    def __eq__(self, o): return True',
      'def f(k):',
      '    if k == 0: return Yes()',
      '    if k == 1: return I(5)',
      '    if k == 2: return [1, Yes()]',
      '    if k == 3: return collections.Counter("aab")',
      '    return (x for x in range(3))',
      '',
    ].join('\n');
    const r = await box.request(callJob(program, [0, 1, 2, 3, 4].map((k) => [{ i: String(k) }])));
    const values = (r.results as CallResult[]).map((x) => x.value as Record<string, unknown>);
    assert.ok('o' in values[0]!);
    assert.ok('o' in values[1]!);
    assert.ok('o' in ((values[2] as { l: Record<string, unknown>[] }).l[1]!));
    assert.deepEqual(values[3], { d: [['a', { i: '2' }], ['b', { i: '1' }]] });
    assert.ok('o' in values[4]!);
  });

  it('exceptions are per-input results; failFast stops at the first failure', async () => {
    const program = 'def f(x):\n    return 10 // x\n';
    const inputs = [[{ i: '1' }], [{ i: '0' }], [{ i: '2' }]];
    const fast = await box.request(callJob(program, inputs));
    assert.equal(fast.status, 'runtime_error');
    assert.deepEqual((fast.results as CallResult[]).map((x) => x.status), ['ok', 'runtime_error']);
    assert.match(String((fast.results as CallResult[])[1]!.reason), /ZeroDivisionError/);
    const all = await box.request(callJob(program, inputs, { failFast: false }));
    assert.deepEqual((all.results as CallResult[]).map((x) => x.status), ['ok', 'runtime_error', 'ok']);
  });

  it('a per-input time-out; with failFast false the candidate is re-forked and the rest still run', async () => {
    const program = 'def f(x):\n    while x: pass\n    return 7\n';
    const r = await box.request(callJob(program, [[false], [true], [false]], { cpuMs: 300, failFast: false }));
    assert.equal(r.status, 'time_limit_exceeded');
    assert.deepEqual((r.results as CallResult[]).map((x) => x.status), ['ok', 'time_limit_exceeded', 'ok']);
    const stop = await box.request(callJob(program, [[false], [true], [false]], { cpuMs: 300 }));
    assert.deepEqual((stop.results as CallResult[]).map((x) => x.status), ['ok', 'time_limit_exceeded']);
  });

  it('stopAfterTimeouts k: after the k-th time-out the rest are not run, and the response says so', async () => {
    const program = 'def f(x):\n    while x: pass\n    return 7\n';
    const inputs = [[false], [true], [false], [true], [true], [false]];
    const one = await box.request(callJob(program, inputs, { cpuMs: 200, failFast: false, stopAfterTimeouts: 1 }));
    assert.equal(one.status, 'time_limit_exceeded');
    assert.deepEqual((one.results as CallResult[]).map((x) => x.status), ['ok', 'time_limit_exceeded']);
    assert.equal(one['stoppedAfterTimeouts'], 1);
    const two = await box.request(callJob(program, inputs, { cpuMs: 200, failFast: false, stopAfterTimeouts: 2 }));
    assert.deepEqual((two.results as CallResult[]).map((x) => x.status), ['ok', 'time_limit_exceeded', 'ok', 'time_limit_exceeded']);
    assert.equal(two['stoppedAfterTimeouts'], 2);
    // A time-out on the last input leaves nothing unrun: no stop is reported.
    const last = await box.request(callJob(program, [[false], [true]], { cpuMs: 200, failFast: false, stopAfterTimeouts: 1 }));
    assert.deepEqual((last.results as CallResult[]).map((x) => x.status), ['ok', 'time_limit_exceeded']);
    assert.equal(last['stoppedAfterTimeouts'], undefined);
    // Other failures do not count: an exception on every input still runs them all.
    const raising = await box.request(callJob('def f(x):\n    raise ValueError(x)\n', inputs, { failFast: false, stopAfterTimeouts: 1 }));
    assert.equal((raising.results as CallResult[]).length, inputs.length);
    const bad = await box.request(callJob(program, inputs, { failFast: false, stopAfterTimeouts: 0 }));
    assert.equal(bad.status, 'internal_error');
  });

  it('calls sent ahead: answers stay in order, each input is charged its own CPU, a failure mid-stream stops or re-forks', async () => {
    // 200 inputs: far more than the calls Z sends ahead (CALLS_AHEAD), so answers stream while calls are queued in C.
    const program = 'def f(x):\n    if x == 150:\n        n = 0\n        while n < 10_000_000: n += 1\n    if x == 170:\n        raise ValueError(x)\n    return [x] * 3\n';
    const inputs = Array.from({ length: 200 }, (_, i) => [{ i: String(i) }]);
    const all = await box.request(callJob(program, inputs, { failFast: false }));
    const results = all.results as CallResult[];
    assert.equal(results.length, 200);
    results.forEach((r, i) => {
      if (i === 170) return assert.equal(r.status, 'runtime_error');
      assert.equal(r.status, 'ok', `input ${i}`);
      assert.deepEqual(r.value, { l: [{ i: String(i) }, { i: String(i) }, { i: String(i) }] });
    });
    // The busy input's CPU is charged to it, not to the quick inputs answered around it.
    const slow = results[150]!.cpuMs!;
    const quick = Math.max(...results.filter((_, i) => i !== 150).map((r) => r.cpuMs ?? 0));
    assert.ok(slow >= 20 && slow > 3 * quick, `busy input ${slow} ms, quickest neighbours at most ${quick} ms`);
    const fast = await box.request(callJob(program, inputs));
    assert.equal(fast.status, 'runtime_error');
    assert.equal((fast.results as CallResult[]).length, 171);
  });

  it('a never-ending input among calls sent ahead is a time-out of that input; the rest run in a fresh candidate', async () => {
    const program = 'def f(x):\n    while x == 40: pass\n    return x\n';
    const inputs = Array.from({ length: 100 }, (_, i) => [{ i: String(i) }]);
    const r = await box.request(callJob(program, inputs, { cpuMs: 300, failFast: false }));
    const statuses = (r.results as CallResult[]).map((x) => x.status);
    assert.equal(statuses.length, 100);
    assert.equal(statuses[40], 'time_limit_exceeded');
    assert.deepEqual(statuses.filter((s) => s !== 'ok'), ['time_limit_exceeded']);
    assert.deepEqual((r.results as CallResult[])[99]!.value, { i: '99' });
  });

  it('a crash, a memory bomb and a load failure', async () => {
    const crash = await box.request(callJob('import os\ndef f(x):\n    os._exit(3)\n', [[null]]));
    assert.equal(crash.status, 'runtime_error');
    const mem = await box.request(callJob('def f(x):\n    return bytearray(10**11)\n', [[null]]));
    assert.equal(mem.status, 'memory_limit_exceeded');
    const load = await box.request(callJob('def f(x) return 1\n', [[null]]));
    assert.equal(load.status, 'runtime_error');
    assert.deepEqual(load.results, []);
    assert.match(String(load.reason), /SyntaxError/);
  });

  it('rejects a malformed request as internal_error without running it', async () => {
    const r = await box.request({ ...callJob('def f(x):\n    return x\n', [[{ q: 1 } as unknown as PyValue]]) });
    assert.equal(r.status, 'internal_error');
  });
});

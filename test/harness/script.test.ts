/**
 * The in-box harness's `script` mode (MBPP's assert lines, src/kinds/python/python-script.ts), driven directly:
 * the candidate process receives the program and the calls into it, never test code or an expected value (a
 * program that logs every frame it reads shows exactly what crosses); its answers are data the tester checks
 * strictly (a malformed list of names or value is the program's failure, never the harness's); statuses for
 * every way an assert can end.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HarnessBox } from './harness-box.js';

const LIMITS = { cpuMs: 2000, wallMs: 6000, memoryKiB: 256 * 1024, outputBytes: 64 * 1024 };
let seq = 0;

function job(program: string, asserts: string[]) {
  return { op: 'run', id: `script-${++seq}`, mode: 'script', program, asserts, ...LIMITS };
}

/**
 * Python that rewires a function `name` of the candidate's own harness module `frames` (the call channel) in place
 * (its `__code__`, so references taken before the program ran see it too): `body` runs with `_orig` (a copy of the
 * original), `fd` and the frame `obj` (writes) or the frame read (reads).
 */
function rewire(name: 'read_frame' | 'write_frame', body: string): string {
  const args = name === 'read_frame' ? 'fd, *rest' : 'fd, obj';
  return [
    'import sys, types',
    'for _m in list(sys.modules.values()):',
    `    if getattr(_m, "__name__", "").endswith("frames") and hasattr(_m, "${name}"):`,
    `        _f = _m.${name}`,
    '        _m._orig = types.FunctionType(_f.__code__, _f.__globals__, "orig", _f.__defaults__, _f.__closure__)',
    '        _m._sys = sys',
    `        def _new(${args}):`,
    ...body.split('\n').map((l) => `            ${l}`),
    '        _f.__code__ = _new.__code__',
    '',
  ].join('\n');
}

/** Every frame the candidate reads goes to its stderr. */
const SPY = rewire('read_frame', 'frame = _orig(fd, *rest)\n_sys.stderr.write("FRAME %r\\n" % (frame,))\n_sys.stderr.flush()\nreturn frame');

describe('harness script mode', () => {
  const box = new HarnessBox();
  after(() => box.close());

  it('the candidate reads the calls into the program, never an expected value', async () => {
    const program = `${SPY}def twice(x):\n    return 2 * x\n`;
    const r = await box.request(job(program, ['assert twice(21) == 42', 'assert sorted([twice(3), 1]) == [1, 6]',
      'assert twice(0.5) in (1.0, 7777)']));
    assert.equal(r.status, 'passed', JSON.stringify(r));
    assert.equal(r.assertions, 3);
    assert.equal(r.calls, 3);
    const frames = String(r.stderr).split('\n').filter((l) => l.startsWith('FRAME'));
    assert.deepEqual(frames, ["FRAME {'eval': 'twice(21)'}", "FRAME {'eval': 'twice(3)'}", "FRAME {'eval': 'twice(0.5)'}"]);
    assert.doesNotMatch(String(r.stderr), /42|7777/);
  });

  it('a failing assert is a wrong answer naming it; later asserts do not run', async () => {
    const r = await box.request(job('def twice(x):\n    return x\n', ['assert twice(0) == 0', 'assert twice(2) == 4', 'assert twice(1 // 0) == 0']));
    assert.equal(r.status, 'wrong_answer', JSON.stringify(r));
    assert.match(String(r.reason), /test 1 failed: assert twice\(2\) == 4/);
    assert.equal(r.assertions, 2);
  });

  it('an exception in the program is its runtime error, naming the test; one in the expected side a wrong answer', async () => {
    const raised = await box.request(job('def f(x):\n    return 1 // x\n', ['assert f(0) == 1']));
    assert.equal(raised.status, 'runtime_error', JSON.stringify(raised));
    assert.match(String(raised.reason), /ZeroDivisionError.*test 0: assert f\(0\) == 1/);
    const expected = await box.request(job('def f(x):\n    return 1\n', ['assert f(0) == undefined_name']));
    assert.equal(expected.status, 'wrong_answer', JSON.stringify(expected));
    assert.match(String(expected.reason), /NameError/);
  });

  it('a program that never defines the function fails with NameError from the tester, as MBPP would', async () => {
    const r = await box.request(job('x = 1\n', ['assert f(1) == 2']));
    assert.equal(r.status, 'wrong_answer', JSON.stringify(r));
    assert.match(String(r.reason), /NameError/);
  });

  it('no asserts is no_tests; a line that is not an assert is the test\'s fault (internal_error), never a pass', async () => {
    assert.equal((await box.request(job('def f():\n    return 1\n', []))).status, 'no_tests');
    const bad = await box.request(job('def f():\n    return 1\n', ['x = f()']));
    assert.equal(bad.status, 'internal_error', JSON.stringify(bad));
    assert.match(String(bad.reason), /not a sequence of assert statements/);
  });

  it('answers the tester cannot trust as data are the program\'s failure: a forged names list, a forged value frame', async () => {
    // The program rewires the harness's reply writer in its own process: the names list, then the values it sends.
    const forgeNames = `${rewire('write_frame', 'return _orig(fd, {"ready": True, "names": [[1, 2]]} if "ready" in obj else obj)')}def f():\n    return 1\n`;
    const names = await box.request(job(forgeNames, ['assert f() == 1']));
    assert.equal(names.status, 'runtime_error', JSON.stringify(names));
    assert.match(String(names.reason), /malformed list of names/);
    const forgeValue = `${rewire('write_frame', 'return _orig(fd, obj if "ready" in obj else {"v": {"i": "x1"}})')}def f():\n    return 1\n`;
    const value = await box.request(job(forgeValue, ['assert f() == 1']));
    assert.equal(value.status, 'runtime_error', JSON.stringify(value));
    assert.match(String(value.reason), /malformed value/);
  });

  it('a standard module the program binds under its own name is the tester\'s; under another name it is the program\'s', async () => {
    const asserts = ['assert size((1, 2)) == sys.getsizeof((1, 2))'];
    const own = await box.request(job('import sys\ndef size(t):\n    return sys.getsizeof(t)\n', asserts));
    assert.equal(own.status, 'passed', JSON.stringify(own));
    const other = await box.request(job('import os as sys\ndef size(t):\n    return 0\n', asserts));
    assert.equal(other.status, 'wrong_answer', JSON.stringify(other));
    assert.match(String(other.reason), /cannot be judged without trusting the program/);
  });
});

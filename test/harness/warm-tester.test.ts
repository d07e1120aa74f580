/**
 * The warm tester of unit_test mode: one tester process T serves consecutive judgements of one problem
 * (harness/python/crucible_harness/zygote.py `WarmTester`, tester.py `serve`). These tests pin down what a
 * judgement must not inherit from the previous one in the same T — random state, builtins, timers and signal
 * handlers, a stopped or killed T, a half-finished judgement — and when T is replaced. `testerJob` in each
 * response is the job's index in its tester (1 = a freshly forked tester).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HarnessBox, type HarnessResponse } from './harness-box.js';

const LIMITS = { cpuMs: 1000, wallMs: 3000, memoryKiB: 256 * 1024, outputBytes: 64 * 1024 };
const IDENTITY = 'def identity(x):\n    return x\n';
let seq = 0;

/** A unit_test job on a one-function problem whose test code is `test`. */
function job(test: string, program = IDENTITY, overrides: Record<string, unknown> = {}) {
  return { op: 'run', id: `w${++seq}`, mode: 'unit_test', program, entryPoint: 'identity', prelude: '', test,
    ...LIMITS, ...overrides };
}

function expectStatus(r: HarnessResponse, status: string, testerJob?: number): void {
  assert.equal(r.status, status, JSON.stringify(r));
  if (testerJob !== undefined) assert.equal(r.testerJob, testerJob, JSON.stringify(r));
}

const PLAIN_TEST = 'def check(candidate):\n    assert candidate(3) == 3\n';

describe('python harness, warm tester', () => {
  let box: HarnessBox;
  before(() => { box = new HarnessBox(); });
  after(async () => { await box.close(); });

  it('serves consecutive jobs of one problem and is replaced when the problem changes', async () => {
    expectStatus(await box.request(job(PLAIN_TEST)), 'passed', 1);
    expectStatus(await box.request(job(PLAIN_TEST)), 'passed', 2);
    expectStatus(await box.request(job(PLAIN_TEST, 'def identity(x):\n    return 4\n')), 'wrong_answer', 3);
    const other = 'def check(candidate):\n    assert candidate(5) == 5\n';
    expectStatus(await box.request(job(other)), 'passed', 1);
    expectStatus(await box.request(job(PLAIN_TEST)), 'passed', 1);
    // a different memory limit is a different tester (its address-space limit is set when it starts)
    expectStatus(await box.request(job(PLAIN_TEST, IDENTITY, { memoryKiB: 300 * 1024 })), 'passed', 1);
  });

  it('every judgement draws the same random numbers (unseeded random in test code)', async () => {
    // random.seed(0); random.random() == 0.8444218515250481 (CPython's Mersenne Twister)
    const test = 'import random\ndef check(candidate):\n    x = random.random()\n    assert candidate(x) == 0.8444218515250481, x\n';
    for (let i = 1; i <= 3; i++) expectStatus(await box.request(job(test)), 'passed', i);
  });

  it('builtins, timers and signal handlers changed by test code do not reach the next judgement', async () => {
    // The first run (marked by an attribute it leaves on a module: module state is what a warm tester keeps,
    // see docs/SECURITY.md) breaks len() and arms a timer whose handler raises; the second run sleeps past
    // the timer and uses len().
    const test = [
      'import builtins, signal, sys, time',
      'def check(candidate):',
      '    assert candidate(1) == 1',
      '    if not hasattr(sys, "_crucible_warm_test_ran"):',
      '        sys._crucible_warm_test_ran = True',
      '        builtins.len = lambda x: -1',
      '        builtins.crucible_extra = 1',
      '        del builtins.abs',
      '        signal.signal(signal.SIGALRM, lambda *a: 1 / 0)',
      '        signal.setitimer(signal.ITIMER_REAL, 0.05)',
      '        sys.setrecursionlimit(50)',
      '    else:',
      '        time.sleep(0.2)',
      '        assert len([1, 2]) == 2',
      '        assert abs(-2) == 2 and not hasattr(builtins, "crucible_extra")',
      '        def deep(n): return 0 if n == 0 else 1 + deep(n - 1)',
      '        assert deep(200) == 200',
    ].join('\n') + '\n';
    expectStatus(await box.request(job(test)), 'passed', 1);
    expectStatus(await box.request(job(test)), 'passed', 2);
  });

  it('a test that leaves a thread running gets a fresh tester next time', async () => {
    const test = 'import threading, time\ndef check(candidate):\n    assert candidate(2) == 2\n'
      + '    threading.Thread(target=time.sleep, args=(30,), daemon=True).start()\n';
    expectStatus(await box.request(job(test)), 'passed', 1);
    expectStatus(await box.request(job(test)), 'passed', 1);
  });

  it('a time-out retires the tester mid-judgement; the next candidate gets a fresh one', async () => {
    const loop = 'def identity(x):\n    while True:\n        pass\n';
    expectStatus(await box.request(job(PLAIN_TEST)), 'passed', 1);
    expectStatus(await box.request(job(PLAIN_TEST, loop)), 'time_limit_exceeded', 2);
    expectStatus(await box.request(job(PLAIN_TEST)), 'passed', 1);
  });

  for (const signalName of ['SIGSTOP', 'SIGKILL']) {
    for (const when of ['during', 'after'] as const) {
      it(`a candidate that sends ${signalName} to every process ${when} its judgement cannot change the next verdict`, async () => {
        // The attacker leaves a child that keeps signalling every other process of the box (the tester
        // included) until the zygote's sweep kills it. 'during': it answers only after the child has started,
        // so the tester is hit mid-judgement; 'after': it answers at once, racing the child against the
        // tester's report and the sweep (a race the child may lose; the next verdicts must hold either way).
        const attacker = [
          'def identity(x):',
          '    import os, signal, time',
          '    if os.fork() == 0:',
          '        for _ in range(100000):',
          '            for p in os.listdir("/proc"):',
          '                if p.isdigit() and int(p) != os.getpid():',
          `                    try: os.kill(int(p), signal.${signalName})`,
          '                    except OSError: pass',
          '        os._exit(0)',
          when === 'during' ? '    time.sleep(0.1)' : '',
          '    return x',
        ].join('\n') + '\n';
        expectStatus(await box.request(job(PLAIN_TEST)), 'passed');
        const attacked = await box.request(job(PLAIN_TEST, attacker, { wallMs: 1000 }));
        if (when === 'during') assert.notEqual(attacked.status, 'passed', JSON.stringify(attacked));
        for (let i = 0; i < 3; i++) expectStatus(await box.request(job(PLAIN_TEST)), 'passed');
      });
    }
  }

  it('CPU that test code spends in a tester is bounded per judgement, not over the tester\'s life', async () => {
    // 0.4 s of test CPU per judgement, 8 judgements: 3.2 s, past the per-judgement allowance (1 s + 2 s).
    const test = 'import time\ndef check(candidate):\n    t = time.process_time()\n'
      + '    while time.process_time() - t < 0.4:\n        pass\n    assert candidate(1) == 1\n';
    for (let i = 1; i <= 8; i++) expectStatus(await box.request(job(test)), 'passed', i);
  });
});

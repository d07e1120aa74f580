/**
 * Cancellation: a caller that gives up (a client disconnected) aborts its AbortSignal, and the run's processes
 * are killed at once, its slot is freed, and the result says "cancelled" (internal_error with `cancelled: true`),
 * never a verdict on the program. Both one-shot paths, a run still waiting for a slot, and harness jobs.
 */
// crucible-test: alone — cancellation is timed against runs still under way (aborts after 700 ms and 1.5 s, answered within 10-15 s) (test/run.ts runs it with no other file).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runLimits } from '../../src/limits.js';
import { PythonHarnessPool } from '../../src/engine/harness-pool.js';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { CANCELLED_REASON, type ExecutionResult } from '../../src/sandbox/types.js';
import { runProcessesOf } from '../support/processes.js';
import { openExecutor, pythonInterpreter } from '../support/sandbox.js';

const programs = join(PROJECT_ROOT, 'test', 'hostile', 'programs');
const PYTHON = '/usr/bin/python3.11';
const limits = runLimits({ cpuMs: 20_000 });

function assertCancelled(result: ExecutionResult, startedAt: number): void {
  assert.equal(result.status, 'internal_error', JSON.stringify(result));
  assert.equal(result.cancelled, true);
  assert.equal(result.reason, CANCELLED_REASON);
  assert.ok(Date.now() - startedAt < 10_000, 'the run ended long before its limits');
}

for (const slotBoxes of [true, false]) {
  const { sandbox, executor, languages } = openExecutor(1, { slotBoxes });

  describe(`cancellation (${slotBoxes ? 'slot boxes' : 'a bubblewrap per run'})`, () => {
    after(async () => {
      await executor.close();
      sandbox.close();
    });

    for (const [file, argv] of [
      ['sleep_forever.py', [PYTHON, '-S', '-c', readFileSync(join(programs, 'sleep_forever.py'), 'utf8')]],
      ['an endless loop', [PYTHON, '-S', '-c', 'while True: pass']],
    ] as const) {
      it(`${file}: aborted mid-run, killed at once, slot free, no process left`, async () => {
        const controller = new AbortController();
        const startedAt = Date.now();
        const pending = sandbox.run({ argv, limits, signal: controller.signal });
        setTimeout(() => controller.abort(), 700);
        const { result } = await pending;
        assertCancelled(result, startedAt);
        assert.equal(sandbox.busySlots, 0);
        assert.deepEqual(runProcessesOf(sandbox), []);
        const next = await executor.runProgram(languages.get('python'), 'print("next")', '', runLimits());
        assert.equal(next.stdout, 'next\n', 'the slot serves the next run');
      });
    }

    it('a run still waiting for a slot is cancelled without starting; the running one is cancelled too', async () => {
      const first = new AbortController();
      const second = new AbortController();
      const startedAt = Date.now();
      const running = sandbox.run({ argv: [PYTHON, '-S', '-c', 'import time; time.sleep(60)'], limits, signal: first.signal });
      const waiting = sandbox.run({ argv: [PYTHON, '-S', '-c', 'print("must not run")'], limits, signal: second.signal });
      second.abort();
      const waited = await waiting;
      assertCancelled(waited.result, startedAt);
      assert.equal(waited.result.stdout, '');
      first.abort();
      assertCancelled((await running).result, startedAt);
      assert.equal(sandbox.busySlots, 0);
      assert.deepEqual(runProcessesOf(sandbox), []);
    });

    it('a signal aborted before the call: nothing runs', async () => {
      const { result } = await sandbox.run({ argv: ['/bin/true'], limits, signal: AbortSignal.abort() });
      assertCancelled(result, Date.now());
    });
  });
}

describe('cancellation of Python harness jobs', () => {
  const { sandbox } = openExecutor(1);
  const pool = new PythonHarnessPool(sandbox, pythonInterpreter(), 1);
  after(() => {
    pool.close();
    sandbox.close();
  });

  it('an endless candidate aborted mid-job: cancelled, its box killed, the next job judged by a fresh harness', async () => {
    const controller = new AbortController();
    const startedAt = Date.now();
    const pending = pool.run({ mode: 'unit_test', program: 'def f():\n    while True: pass\n', prelude: '', entryPoint: 'f',
      test: 'def check(candidate):\n    assert candidate() == 1\n', cpuMs: 20_000, wallMs: 60_000, memoryKiB: 256 * 1024,
      outputBytes: 1 << 16 }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 1500);
    const r = await pending;
    assert.equal(r.status, 'internal_error', JSON.stringify(r));
    assert.equal(r.cancelled, true);
    assert.equal(r.reason, CANCELLED_REASON);
    assert.ok(Date.now() - startedAt < 15_000);
    // The zygote's box is gone with every process of the job.
    for (let i = 0; i < 100 && runProcessesOf(sandbox).length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(runProcessesOf(sandbox), []);
    const next = await pool.selfTest();
    assert.equal(next.ok, true, JSON.stringify(next));
  });
});

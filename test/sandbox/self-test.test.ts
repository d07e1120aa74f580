/**
 * The self-tests behind /health: `Sandbox.selfTest` runs a real tiny program in a box, as every run is, and
 * reports ok only when it ran confined (exit 0, seccomp filter, no_new_privs, no capability); a sandbox that
 * cannot run anything says why. `PythonHarnessPool.selfTest` judges a known-good program end to end.
 */
import { pythonInterpreter } from '../support/sandbox.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PythonHarnessPool } from '../../src/engine/harness-pool.js';
import { Sandbox } from '../../src/sandbox/index.js';

describe('sandbox self-test', () => {
  for (const slotBoxes of [true, false]) {
    it(`runs a confined probe on ${slotBoxes ? 'a slot box' : 'a bubblewrap per run'}`, async () => {
      const sandbox = Sandbox.create({ slots: 1, slotBoxes });
      try {
        const result = await sandbox.selfTest();
        assert.deepEqual({ ...result, wallMs: 0 }, { ok: true, wallMs: 0, path: slotBoxes ? 'slot box' : 'bubblewrap per run' });
      } finally {
        sandbox.close();
      }
    });
  }

  it('says why when the sandbox cannot run anything (closed), without throwing', async () => {
    const sandbox = Sandbox.create({ slots: 1 });
    sandbox.close();
    const result = await sandbox.selfTest();
    assert.equal(result.ok, false);
    assert.match(result.ok ? '' : result.reason, /sandbox is closed/);
  });

  it('a probe the caller aborts is not ok, and says so', async () => {
    const sandbox = Sandbox.create({ slots: 1 });
    try {
      const result = await sandbox.selfTest(AbortSignal.abort());
      assert.equal(result.ok, false);
      assert.match(result.ok ? '' : result.reason, /cancelled by the caller/);
    } finally {
      sandbox.close();
    }
  });

  it('the Python harness judges a known-good program', async () => {
    const sandbox = Sandbox.create({ slots: 1, boxSlots: 1 });
    const pool = new PythonHarnessPool(sandbox, pythonInterpreter(), 1);
    try {
      const result = await pool.selfTest();
      assert.equal(result.ok, true, JSON.stringify(result));
    } finally {
      pool.close();
      sandbox.close();
    }
  });
});

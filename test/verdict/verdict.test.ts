/** Verdict helpers: reasons keep the tail of stderr; the status vocabulary is closed and ordered. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSampleStatus, reasonWithStderr, SAMPLE_STATUSES, shortReason, stderrTail } from '../../src/verdict/index.js';

describe('verdict helpers', () => {
  it('keeps the last lines of stderr, whole lines where it can', () => {
    const traceback = 'Traceback (most recent call last):\n  File "/box/main.py", line 3, in <module>\n'
      + '    print(1 // 0)\nZeroDivisionError: integer division or modulo by zero\n';
    assert.equal(stderrTail(''), '');
    assert.equal(stderrTail(traceback), traceback.trimEnd());
    assert.equal(stderrTail(traceback, 60), '…ZeroDivisionError: integer division or modulo by zero');
    assert.equal(reasonWithStderr('exit code 1', 'boom\n'), 'exit code 1: boom');
    assert.equal(reasonWithStderr('exit code 1', ''), 'exit code 1');
    assert.equal(shortReason('x'.repeat(400))!.length, 300);
  });

  it('knows every status, in one order', () => {
    assert.equal(SAMPLE_STATUSES[0], 'passed');
    assert.ok(SAMPLE_STATUSES.includes('invalid_submission'));
    assert.ok(isSampleStatus('internal_error'));
    assert.ok(!isSampleStatus('ok'), 'ok is an execution status, not a verdict');
  });
});

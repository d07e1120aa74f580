/**
 * Several judges on one sandbox (an embedding program, or `startServer({ sandbox })` twice): each judge's warm
 * Python harnesses hold long-lived box slots, so without a way to give idle ones back a second judge waited forever
 * for a box slot once the first had warmed up (seen as a stalled HumanEval job after a second server shut down).
 * Real harnesses in a real sandbox; the file's test time-out is the failure for a hang.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { ProblemBase } from '../../src/formats/types.js';
import { createJudge } from '../../src/engine/factory.js';
import { Sandbox } from '../../src/sandbox/index.js';

/** A HumanEval-shaped problem whose check sleeps `sleepS` seconds of wall time before asserting. */
function sleepyProblem(taskId: string, sleepS: number): ProblemBase {
  const test = `import time\n\ndef check(candidate):\n    time.sleep(${sleepS})\n    assert candidate(2) == 4\n`;
  return { kind: 'unit_test', taskId, language: 'python', prompt: 'def double(x):\n', entryPoint: 'double', test } as ProblemBase;
}

const RIGHT = { language: 'python', source: 'def double(x):\n    return 2 * x\n' };
const sandbox = Sandbox.create({ slots: 1, boxSlots: 2 });
const first = createJudge({ sandbox, cacheDir: null });
const second = createJudge({ sandbox, cacheDir: null });
after(async () => {
  await first.close();
  await second.close();
  sandbox.close();
});

const judge = (j: typeof first, taskId: string, sleepS: number, variant: string) =>
  j.judge({ problem: { inline: sleepyProblem(taskId, sleepS) }, program: { ...RIGHT, source: `${RIGHT.source}# ${variant}\n` } });

test('a judge gets a box slot held by another judge\'s idle harness', { timeout: 120_000 }, async () => {
  // Two jobs at once: the first judge warms a harness on each of the two box slots, which then idle.
  const warm = await Promise.all([judge(first, 'a', 0.3, 'w1'), judge(first, 'b', 0.3, 'w2')]);
  assert.deepEqual(warm.map((v) => v.status), ['passed', 'passed']);
  const other = await judge(second, 'c', 0, 'o1');
  assert.equal(other.status, 'passed', JSON.stringify(other));
  // And back: the first judge still judges (its harness restarts on a slot the second gives back).
  assert.equal((await Promise.all([judge(first, 'a', 0, 'w3'), judge(first, 'b', 0, 'w4')])).every((v) => v.status === 'passed'), true);
});

test('a judge waiting while the other judge\'s harnesses are busy gets a slot when one finishes', { timeout: 120_000 }, async () => {
  const busy = [judge(first, 'a', 1, 'b1'), judge(first, 'b', 1, 'b2')];
  await new Promise((resolve) => setTimeout(resolve, 300));
  const waiting = judge(second, 'c', 0, 'o2');
  const statuses = (await Promise.all([...busy, waiting])).map((v) => v.status);
  assert.deepEqual(statuses, ['passed', 'passed', 'passed']);
});

/**
 * Calibrated time limits in the real sandbox (issue #32): a unit_test problem's canonical solution is judged once
 * and its CPU time cached on disk with the ground truth; a correct program that needs far more CPU than 4 × that
 * + 200 ms is a time-out under the calibrated rule and passes under the fixed 1 s limit; a correct program a
 * little slower than the reference passes under both; a canonical solution that fails its own test leaves the
 * problem on the fixed limit.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { UnitTestProblem } from '../../../src/formats/types.js';
import { LanguageRegistry } from '../../../src/languages/registry.js';
import { createJudge } from '../../../src/engine/factory.js';

const languages = LanguageRegistry.load();
const cacheDir = mkdtempSync(join(tmpdir(), 'crucible-calibrated-'));
const calibrated = createJudge({ languages, cacheDir, slots: 1, boxSlots: 1 });
const fixed = createJudge({ languages, cacheDir: null, slots: 1, boxSlots: 1, calibration: null });
after(async () => {
  await calibrated.close();
  await fixed.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

const PROBLEM: UnitTestProblem = {
  kind: 'unit_test', taskId: 'toy/add', language: 'python', entryPoint: 'add',
  prompt: 'def add(a, b):\n', canonicalSolution: '    return a + b\n',
  test: 'def check(candidate):\n    assert candidate(2, 3) == 5\n    assert candidate(-1, 1) == 0\n',
};
const DATASET = 'toy-calibrated';
calibrated.catalog.add(DATASET, [PROBLEM]);
fixed.catalog.add(DATASET, [PROBLEM]);

/** Correct, after burning about `ms` of CPU in a loop when it loads (timed by the process's own CPU clock). */
function slowButCorrect(ms: number): string {
  return `import time\nt = time.process_time()\nwhile time.process_time() - t < ${ms / 1000}:\n    pass\ndef add(a, b):\n    return a + b\n`;
}

function judgeWith(judge: typeof calibrated, source: string) {
  return judge.judge({ problem: { datasetHash: DATASET, taskId: PROBLEM.taskId }, program: { language: 'python', source } });
}

describe('calibrated time limit of a unit_test problem', () => {
  it('times out a correct program that needs 700 ms, which the fixed 1 s limit passes', async () => {
    const [cal, fix] = await Promise.all([judgeWith(calibrated, slowButCorrect(700)), judgeWith(fixed, slowButCorrect(700))]);
    assert.equal(cal.status, 'time_limit_exceeded', JSON.stringify(cal));
    assert.match(cal.reason ?? '', /CPU limit of [23]\d\d ms exceeded/);
    assert.ok(cal.cpuMs < 700, `stopped at the calibrated limit, not the program's end: ${cal.cpuMs} ms`);
    assert.equal(fix.status, 'passed', JSON.stringify(fix));
  });

  it('passes a correct program a little slower than the reference', async () => {
    const verdict = await judgeWith(calibrated, slowButCorrect(20));
    assert.equal(verdict.status, 'passed', JSON.stringify(verdict));
  });

  it('measures the canonical solution once and keeps its time on disk with the ground truth', async () => {
    assert.equal(calibrated.stats().groundTruthRuns, 1);
    const entries = readdirSync(join(cacheDir, 'ground-truth', 'unit_test', DATASET));
    assert.equal(entries.length, 1);
  });

  it('keeps the fixed limit when the canonical solution fails its own test', async () => {
    const broken: UnitTestProblem = { ...PROBLEM, taskId: 'toy/broken', canonicalSolution: '    return a - b\n' };
    const verdict = await calibrated.judge({ problem: { inline: broken }, program: { language: 'python', source: slowButCorrect(400) } });
    assert.equal(verdict.status, 'passed', JSON.stringify(verdict));
  });
});

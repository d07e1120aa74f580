/**
 * HumanEval+ (`call` mode) with fail-fast: the plus inputs run only for a program whose base answers the trusted side
 * judged correct (a staged harness plan), in a job of their own; without fail-fast one job runs every input. Base
 * and plus verdicts are the same either way. Real problem (HumanEval/76 as published, ../shared/data), real box.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { datasetHash, readProblems } from '../../../src/formats/index.js';
import type { CallProblem } from '../../../src/formats/types.js';
import { createJudge } from '../../../src/engine/factory.js';
import type { Judge } from '../../../src/judge/judge.js';
import type { Verdict } from '../../../src/verdict/index.js';
import { mergeHarnessStages, type HarnessResponse } from '../../../src/judge/harness/protocol.js';
import { HUMANEVAL_PLUS } from '../../support/data.js';

const HEADER = 'def is_simple_power(x, n):\n';
const WRONG_ON_BASE = `${HEADER}    return False\n`;
/** Passes every base input; wrong on plus inputs such as (82, 1). */
const WRONG_ON_PLUS = `${HEADER}    if n == 1:\n        return True\n    power = 1\n    while power < x:\n        power = power * n\n    return power == x\n`;

const cacheDir = mkdtempSync(join(tmpdir(), 'crucible-call-staged-'));
let judge: Judge;
let problem: CallProblem;
let hash: string;
let right: Verdict;

before(async () => {
  problem = (await readProblems(HUMANEVAL_PLUS)).find((p) => p.taskId === 'HumanEval/76') as CallProblem;
  assert.equal(problem.kind, 'call');
  hash = await datasetHash(HUMANEVAL_PLUS);
  judge = createJudge({ slots: 2, cacheDir });
  judge.catalog.add(hash, [problem]);
  // The reference (the canonical solution on every input) is one harness job of its own: made here, before counting.
  right = await judged(problem.canonicalSolution, true);
});

after(async () => {
  await judge.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

const judged = (source: string, failFast: boolean) => judge.judge({
  problem: { datasetHash: hash, taskId: problem.taskId }, program: { language: 'python', source: problem.prompt + source }, failFast,
});

describe('call mode, staged with fail-fast', () => {
  it('a program wrong on base never runs the plus inputs; without fail-fast it runs all, with the same verdicts', async () => {
    const baseCount = problem.baseInputs.length;
    const total = baseCount + problem.plusInputs.length;
    const jobsBefore = judge.stats().harnessJobs;
    const fast = await judged(WRONG_ON_BASE, true);
    assert.equal(judge.stats().harnessJobs - jobsBefore, 1);
    assert.equal(fast.status, 'wrong_answer');
    assert.equal(fast.plusStatus, 'wrong_answer');
    assert.equal(fast.tests.length, baseCount);
    assert.equal(fast.testCount, total);
    const full = await judged(WRONG_ON_BASE, false);
    assert.equal(full.tests.length, total);
    assert.deepEqual([full.status, full.plusStatus], [fast.status, fast.plusStatus]);
  });

  it('a program right on base and wrong on plus runs both stages; a right one passes both', async () => {
    const total = problem.baseInputs.length + problem.plusInputs.length;
    const jobsBefore = judge.stats().harnessJobs;
    const wrong = await judged(WRONG_ON_PLUS, true);
    assert.equal(judge.stats().harnessJobs - jobsBefore, 2);
    assert.deepEqual([wrong.status, wrong.passed, wrong.plusStatus, wrong.plusPassed], ['passed', true, 'wrong_answer', false]);
    assert.equal(wrong.tests.length, total);
    const firstWrong = wrong.tests.find((t) => t.status !== 'passed')!;
    assert.ok(firstWrong.index >= problem.baseInputs.length, 'the first wrong answer is a plus input');
    assert.deepEqual([right.status, right.plusStatus, right.plusPassed], ['passed', 'passed', true]);
    assert.equal(right.tests.length, total);
    assert.ok(right.tests.every((t, i) => t.index === i && t.status === 'passed'));
  });
});

describe('mergeHarnessStages', () => {
  const stage = (over: Partial<HarnessResponse>): HarnessResponse =>
    ({ id: 'x', status: 'ok', cpuMs: 0, wallMs: 0, memoryKiB: 0, ...over });
  it('results in order, times summed, peak memory, the last stage\'s status and reason', () => {
    const merged = mergeHarnessStages([
      stage({ cpuMs: 5, wallMs: 7, memoryKiB: 900, results: [{ status: 'ok', value: 1 }] }),
      stage({ id: 'y', status: 'runtime_error', reason: 'boom', cpuMs: 3, wallMs: 4, memoryKiB: 100,
        results: [{ status: 'ok', value: 2 }, { status: 'runtime_error', reason: 'boom' }] }),
    ]);
    assert.deepEqual(merged, { id: 'y', status: 'runtime_error', reason: 'boom', cpuMs: 8, wallMs: 11, memoryKiB: 900,
      results: [{ status: 'ok', value: 1 }, { status: 'ok', value: 2 }, { status: 'runtime_error', reason: 'boom' }] });
    const one = stage({ cpuMs: 1 });
    assert.equal(mergeHarnessStages([one]), one);
    assert.throws(() => mergeHarnessStages([]), /no stage ran/);
  });
});

/**
 * Real-data acceptance on the 16,400 CodeGen-16B HumanEval completions (CodeT's files):
 * - pass@1/10/100 agree with the openai/human-eval harness's 22.12 / 50.38 / 73.78 within 0.5 points;
 * - judging twice, and once more while both cores are loaded by another process, gives identical verdicts
 *   (limits are CPU time, which load does not inflate; the wall bound is 3x + 2 s and only stops sleepers).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { datasetHash, readProblems, readSamples } from '../../src/formats/index.js';
import { evaluate, type EvaluationResult } from '../../src/apps/evaluate.js';
import { createJudge } from '../../src/engine/factory.js';
import { RunStore } from '../../src/store/run-store.js';
import { CODET_PROBLEMS, CODET_SOLUTIONS } from '../support/data.js';

const problems = await readProblems(CODET_PROBLEMS, 'humaneval');
const samples = await readSamples(CODET_SOLUTIONS, { problems });
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function judgeAll(): Promise<EvaluationResult> {
  const dir = mkdtempSync(join(tmpdir(), 'crucible-acceptance-'));
  dirs.push(dir);
  const judge = createJudge({ cacheDir: null });
  const problemsHash = await datasetHash(CODET_PROBLEMS);
  const store = RunStore.open(dir, { problemsHash, samplesHash: await datasetHash(CODET_SOLUTIONS), options: {} });
  try {
    return await evaluate({ judge, store, problems, datasetHash: problemsHash, samples, ks: [1, 10, 100], bootstrapReps: 100 });
  } finally {
    store.close();
    await judge.close();
  }
}

/** Samples whose status differs between two runs, as "task#index: a -> b" (empty when identical). */
function differences(a: EvaluationResult, b: EvaluationResult): string[] {
  assert.equal(a.records.length, b.records.length);
  return a.records.flatMap((r, i) => {
    const other = b.records[i]!;
    assert.equal(`${other.taskId}#${other.sampleIndex}`, `${r.taskId}#${r.sampleIndex}`);
    return other.status === r.status ? [] : [`${r.taskId}#${r.sampleIndex}: ${r.status} -> ${other.status} (${other.reason ?? ''})`];
  });
}

describe('CodeGen-16B samples on CodeT HumanEval', () => {
  let first: EvaluationResult;

  it('reproduces the openai/human-eval pass@k within 0.5 points', async () => {
    first = await judgeAll();
    assert.equal(first.records.length, 16_400);
    assert.equal(first.distinctPrograms, 12_408);
    const reference: Record<string, number> = { '1': 22.12, '10': 50.38, '100': 73.78 };
    for (const [k, value] of Object.entries(reference)) {
      assert.ok(Math.abs(100 * first.passAtK[k]! - value) <= 0.5, `pass@${k} = ${100 * first.passAtK[k]!} vs ${value}`);
    }
    assert.equal(first.countsByStatus['internal_error'], undefined);
  });

  it('gives identical verdicts when judged again, and again under load on both cores', async () => {
    const second = await judgeAll();
    assert.deepEqual(differences(first, second), []);
    const burners: ChildProcess[] = [0, 1].map(() => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
    try {
      const loaded = await judgeAll();
      assert.deepEqual(differences(first, loaded), []);
    } finally {
      burners.forEach((b) => b.kill('SIGKILL'));
    }
  });
});

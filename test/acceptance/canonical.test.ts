/**
 * Real-data acceptance: every canonical solution of HumanEval passes; every canonical solution of HumanEval+
 * and MBPP+ passes base and plus (expected outputs come from running the canonical solution in the box,
 * compared outside it with EvalPlus' rules), with one documented exception: HumanEval+ HumanEval/32 input 750
 * (counting base then plus inputs), where EvalPlus' own `find_zero` oracle `|poly(xs, x)| <= 1e-4` cannot hold in floating point
 * for the reference's answer (terms near 1e44 cancel; see docs/PERFORMANCE.md, "Known differences"); and
 * MBPP+ Mbpp/255, whose input 88 asks for all 1,663,740 77-element combinations (128 M values): the reference
 * runs out of its 1 GiB, so the expected outputs cannot be made and the problem is `reference_failed`, with the
 * limit to raise (a fact about the problem and the limits, never a verdict on a sample, never Crucible's failure).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { datasetHash, readProblems } from '../../src/formats/index.js';
import type { Problem } from '../../src/formats/types.js';
import type { Verdict } from '../../src/verdict/index.js';
import { createJudge } from '../../src/engine/factory.js';
import { HUMANEVAL, HUMANEVAL_PLUS, MBPP_PLUS } from '../support/data.js';

// Ground truth in memory only: this test computes it (it must not find it in a cache).
const judge = createJudge({ cacheDir: null });
after(() => judge.close());

function canonical(problem: Problem): string {
  if (problem.kind !== 'unit_test' && problem.kind !== 'call') throw new Error('not a problem with a canonical solution');
  return problem.prompt + (problem.canonicalSolution ?? '');
}

/** Judge every problem's canonical solution, the problems registered in the judge's catalog as a dataset. */
async function judgeCanonical(path: string, problems: readonly Problem[], failFast?: boolean): Promise<Verdict[]> {
  const hash = await datasetHash(path);
  judge.catalog.add(hash, problems);
  return Promise.all(problems.map((p) => judge.judge({ problem: { datasetHash: hash, taskId: p.taskId },
    program: { language: 'python', source: canonical(p) }, ...(failFast === undefined ? {} : { failFast }) })));
}

describe('canonical solutions on real benchmark data', () => {
  it('all 164 HumanEval canonical solutions pass', async () => {
    const problems = await readProblems(HUMANEVAL);
    assert.equal(problems.length, 164);
    const verdicts = await judgeCanonical(HUMANEVAL, problems);
    const failing = verdicts.map((v, i) => [problems[i]!.taskId, v.status, v.reason]).filter(([, s]) => s !== 'passed');
    assert.deepEqual(failing, []);
  });

  for (const [name, path, count] of [['HumanEval+', HUMANEVAL_PLUS, 164], ['MBPP+', MBPP_PLUS, 378]] as const) {
    it(`all ${count} ${name} canonical solutions pass base and plus`, async () => {
      const problems = await readProblems(path);
      assert.equal(problems.length, count);
      const verdicts = await judgeCanonical(path, problems, false);
      const failing: string[] = [];
      verdicts.forEach((v, i) => {
        const id = problems[i]!.taskId;
        if (id === 'Mbpp/255') {
          assert.equal(v.status, 'reference_failed');
          assert.match(v.reason ?? '', /needs more memory than the limit of 1024 MiB; raise it .*--memory-limit.*: canonical solution of Mbpp\/255 failed on input 88: memory_limit_exceeded/);
          return;
        }
        if (v.status !== 'passed') failing.push(`${id} base ${v.status}: ${v.reason}`);
        const plusFailures = v.tests.filter((t) => t.status !== 'passed');
        if (id === 'HumanEval/32') {
          // The one documented exception: exactly input 750 (index over base then plus inputs), by the oracle.
          assert.deepEqual(plusFailures.map((t) => t.index), [750]);
          assert.match(plusFailures[0]!.reason ?? '', /poly/);
          return;
        }
        if (v.plusPassed !== true) failing.push(`${id} plus ${v.plusStatus}: ${v.reason}`);
      });
      assert.deepEqual(failing, []);
    });
  }
});

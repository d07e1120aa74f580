/**
 * Real-data acceptance of reranking on CodeT's released CodeGen-16B HumanEval solutions and generated tests
 * (../shared/data/codet/, figures from its README): one sandboxed execution (every distinct solution on
 * the real tests and on every distinct generated test of its problem), scored four ways.
 * - CodeT pass@1 within 1 point of CodeT's released code (36.77 with |tests| x sqrt(|solutions|), 35.95 with
 *   the product), pass@2 and pass@10 within 1.5 points (44.73 / 59.36);
 * - the baseline next to it is the plain pass@1 of the openai/human-eval harness, 22.12 (within 0.5);
 * - the execution covers what CodeT's does: 12,408 distinct solutions x their problem's distinct tests.
 * The real-test verdicts come from the suite's one `crucible eval` of the same 16,400 samples (the shared fixture of
 * test/support/codegen16b-store.ts) through `--verdicts-from`'s path (`priorVerdictsOf`), so they are not judged
 * twice per suite (issue #24 item 7); every 37th sample is judged again here, and its verdict must agree.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetHash, readCodetTests, readProblems, readSamples } from '../../src/formats/index.js';
import { createJudge } from '../../src/engine/factory.js';
import { executeRerank, scoreRerank, type RerankData } from '../../src/apps/rerank.js';
import { priorVerdictsOf } from '../../src/apps/rerank-prior.js';
import { loadRun } from '../../src/report/load-run.js';
import { CALIBRATED_TIME_DEFAULTS, JUDGE_DEFAULTS } from '../../src/limits.js';
import { judgedCodegen16b } from '../support/codegen16b-store.js';
import { CODET_PROBLEMS, CODET_SOLUTIONS, CODET_TESTS } from '../support/data.js';

const within = (actual: number | undefined, expected: number, points: number, what: string): void => {
  assert.ok(actual !== undefined && Math.abs(100 * actual - expected) <= points, `${what}: ${actual === undefined ? 'missing' : (100 * actual).toFixed(2)} vs ${expected} (±${points})`);
};

describe('reranking CodeGen-16B HumanEval samples with their generated tests', () => {
  let data: RerankData;
  let rejudged: RerankData;
  const judge = createJudge({ cacheDir: null });
  before(async () => {
    const problems = await readProblems(CODET_PROBLEMS, 'humaneval');
    const samples = await readSamples(CODET_SOLUTIONS, { problems });
    const tests = await readCodetTests(CODET_TESTS, problems, { limit: 5 });
    const hash = await datasetHash(CODET_PROBLEMS);
    const priorVerdicts = priorVerdictsOf(await loadRun((await judgedCodegen16b()).out), hash, JUDGE_DEFAULTS.cpuMs, CALIBRATED_TIME_DEFAULTS);
    data = await executeRerank({ judge, problems, datasetHash: hash, samples, tests, runGeneratedTests: true, priorVerdicts });
    rejudged = await executeRerank({ judge, problems, datasetHash: hash, samples: samples.filter((_, i) => i % 37 === 0), runGeneratedTests: false });
  });
  after(() => judge.close());

  it('runs every distinct solution on every distinct generated test of its problem', () => {
    assert.equal(data.samples, 16_400);
    assert.equal(data.tasks.reduce((acc, t) => acc + t.solutions.length, 0), 12_408);
    assert.equal(data.tasks.reduce((acc, t) => acc + t.tests.length, 0), 8_331);
    const expectedRuns = data.tasks.reduce((acc, t) => acc + t.solutions.length * t.tests.length, 0);
    assert.equal(data.generatedTestRuns, expectedRuns);
    assert.equal(data.generatedTestStatuses['internal_error'], undefined);
    assert.deepEqual(data.internalErrors, []);
  });

  it('takes every real-test verdict from the suite\'s crucible eval of the same samples, and they agree with judging again', () => {
    assert.equal(data.reusedVerdicts, 12_408);
    assert.equal(rejudged.reusedVerdicts, 0);
    assert.ok(rejudged.records.length > 400, String(rejudged.records.length));
    const reused = new Map(data.records.map((r) => [`${r.taskId}\u0000${r.sampleIndex}`, r]));
    for (const fresh of rejudged.records) {
      const earlier = reused.get(`${fresh.taskId}\u0000${fresh.sampleIndex}`);
      assert.equal(earlier?.passed, fresh.passed, `${fresh.taskId} sample ${fresh.sampleIndex}: ${earlier?.status} reused vs ${fresh.status} judged again`);
    }
  });

  it('CodeT pass@1/2/10 land on CodeT\'s released figures, next to the plain baseline', (t) => {
    const sqrt = scoreRerank(data, 'codet', [1, 2, 10], 'sqrt');
    const product = scoreRerank(data, 'codet', [1, 2, 10], 'product');
    t.diagnostic(`codet sqrt ${JSON.stringify(sqrt.passAtK)} product ${JSON.stringify(product.passAtK)} baseline ${JSON.stringify(sqrt.baselinePassAtK)}`);
    within(sqrt.passAtK['1'], 36.77, 1, 'CodeT pass@1 (sqrt)');
    within(sqrt.passAtK['2'], 44.73, 1.5, 'CodeT pass@2 (sqrt)');
    within(sqrt.passAtK['10'], 59.36, 1.5, 'CodeT pass@10 (sqrt)');
    within(product.passAtK['1'], 35.95, 1, 'CodeT pass@1 (product)');
    within(sqrt.baselinePassAtK['1'], 22.12, 0.5, 'baseline pass@1');
  });

  it('majority and first-sample baselines come from the same execution', (t) => {
    const majority = scoreRerank(data, 'majority', [1, 2, 10]);
    const first = scoreRerank(data, 'first', [1, 2, 10]);
    t.diagnostic(`majority ${JSON.stringify(majority.passAtK)} first ${JSON.stringify(first.passAtK)}`);
    // The first sample is one draw per problem: its pass@1 is the share of problems whose sample 0 is correct.
    const firstCorrect = data.tasks.filter((task) => task.sampleCorrect[0]).length / data.tasks.length;
    assert.equal(first.passAtK['1'], firstCorrect);
    // Selecting by agreement among 100 samples beats a random sample (Shi et al. 2022; CodeT Table 2).
    assert.ok(majority.passAtK['1']! > majority.baselinePassAtK['1']!, JSON.stringify(majority.passAtK));
  });
});

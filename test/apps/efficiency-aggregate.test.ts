/** The run-level efficiency means of `crucible eval --efficiency` on hand-made measurements (no programs run). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aggregateEfficiency, type ProblemEfficiency, type SampleEfficiency } from '../../src/apps/efficiency.js';
import type { ProgramMeasurement } from '../../src/apps/efficiency-measure.js';

const m = (instructions: number | null, error?: string): ProgramMeasurement => ({ language: 'c', instructions, countUnit: instructions === null ? null : 'instructions', wallMs: [1, 2, 3], wallMedianMs: 2,
  wallLowerMs: 1, wallUpperMs: 3, cpuMedianMs: 2, peakMemoryKiB: 100, memoryKiBMs: 50, memorySamples: 3, ...(error === undefined ? {} : { error }) });
const sample = (i: number, dps: number | null, beyond: number | null, net: number | null, indistinguishable: boolean | null, error?: string): SampleEfficiency => ({
  sampleIndex: i, programHash: `h${i}`, measurement: m(error === undefined ? 10 : null, error), costUnit: error === undefined ? 'instructions' : null,
  cost: error === undefined ? 10 : null, dps, dpsNorm: dps, beyond, net, nmu: net, ntmu: net, wallRatio: net, indistinguishable });

describe('aggregateEfficiency', () => {
  it('averages DPS per problem then over problems, Beyond over every judged sample, the rest over measured samples', () => {
    const problems: ProblemEfficiency[] = [
      { taskId: 'a', reference: m(20), judgedSamples: 4, samples: [sample(0, 100, 1, 0.5, true), sample(1, 0, 0, 2, false)] },
      { taskId: 'b', reference: m(20), judgedSamples: 2, samples: [sample(0, 100, 0.5, 1, true), sample(1, null, null, null, null, 'wrong answer')] },
    ];
    const a = aggregateEfficiency(problems);
    assert.equal(a.measuredSamples, 3);
    assert.equal(a.failedMeasurements, 1);
    assert.equal(a.dps, (50 + 100) / 2, 'problem a: mean 50; problem b: 100 (the failed measurement has no DPS)');
    assert.equal(a.beyond, (100 * (1 + 0 + 0.5)) / 6, 'judged samples of measured problems are the denominator');
    assert.equal(a.net, (0.5 + 2 + 1) / 3);
    assert.equal(a.indistinguishableShare, 2 / 3);
    assert.equal(a.ntmu, (0.5 + 2 + 1) / 3, 'NTMU over the samples whose memory integral was sampled');
  });
  it('is all null on a run with nothing measured', () => {
    const a = aggregateEfficiency([]);
    assert.deepEqual([a.dps, a.dpsNorm, a.beyond, a.net, a.nmu, a.indistinguishableShare, a.measuredSamples], [null, null, null, null, null, null, 0]);
  });
});

/**
 * The memory integral behind EffiBench's NTMU (`src/sandbox/memory-sampler.ts`): the trapezoid rule by hand, and
 * real programs in the sandbox sampled from outside the box: a program that holds 200 MiB for 300 ms integrates
 * to far more than one that holds almost nothing for as long, and both rest on many samples.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { measureProgram, type MeasureSettings } from '../../src/apps/efficiency-measure.js';
import type { IoProblem } from '../../src/formats/types.js';
import { DEFAULT_RUN_LIMITS } from '../../src/limits.js';
import { trapezoidKiBMs } from '../../src/sandbox/memory-sampler.js';
import { openExecutor } from '../support/sandbox.js';

describe('trapezoidKiBMs', () => {
  it('integrates memory over time by the trapezoid rule', () => {
    assert.equal(trapezoidKiBMs([]), 0);
    assert.equal(trapezoidKiBMs([{ atMs: 5, kiB: 100 }]), 0);
    // 0-10 ms: 100 -> 300 KiB (2000 KiB·ms); 10-14 ms: 300 -> 300 (1200).
    assert.equal(trapezoidKiBMs([{ atMs: 0, kiB: 100 }, { atMs: 10, kiB: 300 }, { atMs: 14, kiB: 300 }]), 3200);
  });
});

const problem: IoProblem = { kind: 'io', taskId: 'hold', comparator: { kind: 'tokens' }, tests: [{ input: '1\n', output: '1\n' }] };
const settings: MeasureSettings = { repeats: 1, tests: 1, instructions: false, limits: { ...DEFAULT_RUN_LIMITS, memoryKiB: 512 * 1024 }, bootstrap: { reps: 50 } };
const HOLD = 'import time\nx = bytearray(200 << 20)\nfor i in range(0, len(x), 4096): x[i] = 1\ntime.sleep(0.3)\nprint(input())\n';
const IDLE = 'import time\ntime.sleep(0.3)\nprint(input())\n';

describe('memory integral of a run, sampled from outside the box', () => {
  let fixture: ReturnType<typeof openExecutor>;
  before(() => { fixture = openExecutor(1); });
  after(async () => { await fixture.sandbox.close(); });

  it('is far larger for a program holding 200 MiB than for an idle one over the same time', async () => {
    const hold = await measureProgram(fixture.executor, fixture.languages, problem, 'python', HOLD, settings);
    const idle = await measureProgram(fixture.executor, fixture.languages, problem, 'python', IDLE, settings);
    assert.equal(hold.error, undefined, hold.error);
    assert.equal(idle.error, undefined, idle.error);
    assert.ok(hold.memorySamples >= 20 && idle.memorySamples >= 20, `300 ms at a 2 ms period: ${hold.memorySamples}, ${idle.memorySamples} samples`);
    // 200 MiB for at least 300 ms is at least 204800 KiB x 300 ms.
    assert.ok(hold.memoryKiBMs! > 200 * 1024 * 300, `hold: ${hold.memoryKiBMs} KiB·ms`);
    assert.ok(hold.memoryKiBMs! > 4 * idle.memoryKiBMs!, `hold ${hold.memoryKiBMs} vs idle ${idle.memoryKiBMs}`);
  });
});

/**
 * `--formal` on the `verilog` kind in the real sandbox (yosys in boxes of its own), on a few VerilogEval v2
 * problems (../shared/data/verilog-eval, read in place): a reference is `proven` equal to itself, a wrong design is
 * `refuted` (with the zero-reset assumption) beside its `wrong_answer`, a design yosys cannot read is `unknown` with
 * yosys' reason, a refused forgery reaches no tool, a design instantiating the reference by the gold name is not
 * `proven`, and synthesis statistics come back for both designs. The whole-dataset run is by hand (docs/FORMATS.md).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createJudge } from '../../../src/engine/factory.js';
import type { VerilogProblem } from '../../../src/formats/types.js';
import { readVerilogEval } from '../../../src/formats/verilog.js';
import { referenceAsSample } from '../../../src/kinds/verilog/verilog-eval.js';
import { SHARED_DATA } from '../../support/data.js';
import { BATTERY } from '../../hostile/battery/entries.js';

const VE = join(SHARED_DATA, 'verilog-eval', 'dataset_spec-to-rtl');
const judge = createJudge({ slots: 2, cacheDir: null });
let problems: VerilogProblem[] = [];
before(async () => {
  problems = (await readVerilogEval(VE)).filter((p) => /^Prob0(31|89)_/.test(p.taskId)).map((p) => ({ ...p, formal: true }));
});
after(async () => {
  await judge.close();
});

const byId = (prefix: string) => problems.find((p) => p.taskId.startsWith(prefix))!;
const judged = (problem: VerilogProblem, design: string) =>
  judge.judge({ problem: { inline: problem }, program: { language: 'verilog', source: design } });

describe('--formal on VerilogEval designs, in the sandbox', () => {
  test('a reference is proven equal to itself, beside its passed simulation', async () => {
    const fsm = byId('Prob089');
    const v = await judged(fsm, referenceAsSample(fsm));
    assert.equal(v.status, 'passed', v.reason);
    assert.deepEqual(v.formal, { result: 'proven' });
    assert.deepEqual(v.tests[0]?.formal, { result: 'proven' });
  });

  test('a wrong design is refuted under the stated assumption, and its simulation verdict stays wrong_answer', async () => {
    const fsm = byId('Prob089');
    const wrong = referenceAsSample(fsm).replace('state == C', 'state == B');
    assert.notEqual(wrong, referenceAsSample(fsm));
    const v = await judged(fsm, wrong);
    assert.equal(v.status, 'wrong_answer');
    assert.equal(v.formal?.result, 'refuted', JSON.stringify(v.formal));
    assert.match(v.formal?.assumption ?? '', /starts at zero/);
    assert.equal(v.formal?.cycles, 20);
  });

  test('a design yosys cannot read is unknown with the reason; a refused design reaches no tool', async () => {
    const dff = byId('Prob031');
    // iverilog compiles it and the simulation passes; yosys 0.23 cannot read a `real` variable.
    const unreadable = await judged(dff, 'module TopModule(input clk, input d, output reg q);\n  real r;\n  always @(posedge clk) begin r = 1.5; q <= d; end\nendmodule\n');
    assert.equal(unreadable.status, 'passed', unreadable.reason);
    assert.equal(unreadable.formal?.result, 'unknown');
    assert.match(unreadable.formal?.reason ?? '', /^yosys: .*ERROR: syntax error/);
    // Attributes steer yosys: not checked.
    const attributed = await judged(dff, 'module TopModule(input clk, input d, output reg q);\n  always @(posedge clk) q <= d;\n  (* blackbox *) wire unused;\nendmodule\n');
    assert.equal(attributed.formal?.result, 'unknown');
    assert.match(attributed.formal?.reason ?? '', /attributes/);
    const refused = await judged(dff, 'module TopModule(input clk, input d, output reg q);\n  always @(posedge clk) q <= d;\n  initial $finish;\nendmodule\n');
    assert.equal(refused.status, 'invalid_submission');
    assert.deepEqual(refused.formal, { result: 'unknown', reason: 'not checked: the design is refused' });
  });

  test('a design naming the gold top it cannot know is not proven', async () => {
    const dff = byId('Prob031');
    const v = await judged(dff, 'module TopModule(input clk, input d, output q);\n  crucible_gold g(.clk(clk), .d(d), .q(q));\nendmodule\n');
    assert.notEqual(v.status, 'passed');
    assert.notEqual(v.formal?.result, 'proven', JSON.stringify(v.formal));
  });

  test('synthesis statistics of design and reference', async () => {
    const fsm = { ...byId('Prob089'), synthesis: true };
    const v = await judged(fsm, referenceAsSample(fsm));
    assert.equal(v.formal?.result, 'proven');
    const stats = v.formal?.synthesis;
    assert.ok(stats?.design !== undefined && stats.reference !== undefined, JSON.stringify(v.formal));
    assert.ok(stats.design.cells > 0);
    assert.deepEqual(stats.design, stats.reference);
  });

  test('the battery\'s forged designs never come back proven; its honest design does', async () => {
    const entry = BATTERY.verilog![0]!;
    const problem = { ...(entry.problem as VerilogProblem), formal: true };
    const honest = await judged(problem, entry.honest);
    assert.equal(honest.status, 'passed', honest.reason);
    assert.equal(honest.formal?.result, 'proven');
    const forged = [...Object.entries(entry.attacks), ...(entry.variants ?? [])];
    for (const [id, design] of forged) {
      const v = await judged(problem, design);
      assert.notEqual(v.status, 'passed', `${id}: ${v.reason}`);
      assert.notEqual(v.formal?.result, 'proven', `${id}: ${JSON.stringify(v.formal)}`);
    }
  });
});

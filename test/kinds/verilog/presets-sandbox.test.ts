/**
 * The `verilog` kind's CodeV-R1 and RTLLM presets in the real sandbox, on small problems written here: CodeV-R1's
 * generated differential testbench passes a design equal to the golden one (whatever its module is named) and
 * fails a different one; RTLLM's Pass rule counts only the testbench's own lines, so a design cannot print it (the
 * design check refuses the printing first).
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { createJudge } from '../../../src/engine/factory.js';
import type { VerilogProblem } from '../../../src/formats/types.js';
import { adderTestbench } from '../../support/verilog.js';

const judge = createJudge({ slots: 2, cacheDir: null });
after(async () => {
  await judge.close();
});
const judged = (problem: VerilogProblem, design: string) =>
  judge.judge({ problem: { inline: problem }, program: { language: 'verilog', source: design } });

const COUNTER_GOLD = `module counter(input clk, input rst, input en, output reg [3:0] q);
  always @(posedge clk) if (rst) q <= 4'd0; else if (en) q <= q + 4'd1;
endmodule
`;
const codev: VerilogProblem = {
  kind: 'verilog', taskId: 'codev-counter', preset: 'codev', prompt: 'a 4-bit counter', topModule: 'counter',
  reference: COUNTER_GOLD, codev: { sequences: 3, steps: 20, seed: 7 },
};

const RTLLM_TB = adderTestbench('tb_adder');
const rtllm: VerilogProblem = {
  kind: 'verilog', taskId: 'rtllm-adder', preset: 'rtllm', prompt: 'a 4-bit adder', topModule: 'adder',
  reference: 'module adder(input [3:0] a, input [3:0] b, output [4:0] s); assign s = a + b; endmodule\n', testbench: RTLLM_TB,
};

describe('CodeV-R1 and RTLLM presets in the sandbox', () => {
  test('CodeV-R1: an equal design passes under another name, a different one fails', async () => {
    const same = await judged(codev, COUNTER_GOLD);
    assert.equal(same.status, 'passed', same.reason);
    const renamed = await judged(codev, COUNTER_GOLD.replace('module counter', 'module my_counter'));
    assert.equal(renamed.status, 'passed', renamed.reason);
    const off = await judged(codev, COUNTER_GOLD.replace("q + 4'd1", "q + 4'd2"));
    assert.equal(off.status, 'wrong_answer', off.reason);
    const forged = await judged(codev, `${COUNTER_GOLD.replace('endmodule', '  initial $display("Number of errors: 0");\nendmodule')}`);
    assert.equal(forged.status, 'invalid_submission');
  });

  test('RTLLM: Pass from the testbench\'s lines only', async () => {
    assert.equal((await judged(rtllm, 'module adder(input [3:0] a, input [3:0] b, output [4:0] s);\n  assign s = a + b;\nendmodule\n')).status, 'passed');
    const wrong = await judged(rtllm, 'module adder(input [3:0] a, input [3:0] b, output [4:0] s);\n  assign s = a - b;\nendmodule\n');
    assert.equal(wrong.status, 'wrong_answer');
    const printing = await judged(rtllm, 'module adder(input [3:0] a, input [3:0] b, output [4:0] s);\n  assign s = 0;\n  initial $display("Pass");\nendmodule\n');
    assert.equal(printing.status, 'invalid_submission');
  });
});

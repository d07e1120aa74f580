/**
 * The Verilog presets' programs and verdict rules, pure: VerilogEval's assembly and report, CodeV-R1's generated
 * testbench, RTLLM's rule, the formal check's log readers. (Simulations themselves run in the sandbox:
 * test/kinds/verilog/verilog-mode.test.ts, test/hostile/verilog-forgeries.test.ts.)
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  checkVerilogEvalDesign, readVerilogEvalReport, referenceAsSample, verilogEvalOutcome, verilogEvalProgram,
} from '../../../src/kinds/verilog/verilog-eval.js';
import { codevTestbench, expectedChecks, inferCodevPorts, readCodevReport, resetCombinations } from '../../../src/kinds/verilog/codev.js';
import { autoTop, codevChecks, codevProgram, rtllmPassed, rtllmProgram } from '../../../src/kinds/verilog/programs.js';
import { boundedCheckResult, equivalenceProven, readSynthesisStats } from '../../../src/kinds/verilog/formal.js';
import { coercedInputs } from '../../../src/kinds/verilog/simulation.js';
import { modulesOf } from '../../../src/kinds/verilog/ports.js';
import { tokenize } from '../../../src/kinds/verilog/sv-lexer.js';
import { readRtllm, readVerilogEval } from '../../../src/formats/verilog.js';
import type { VerilogProblem } from '../../../src/formats/types.js';
import { PROJECT_ROOT } from '../../../src/paths.js';

const VE = join(PROJECT_ROOT, '../shared/data/verilog-eval/dataset_spec-to-rtl');
const TB = `\`timescale 1 ps/1 ps
module stimulus_gen(input clk, output reg d); always @(posedge clk) d <= $urandom; endmodule
module tb();
  reg clk = 0; logic d, q_ref, q_dut; int errors = 0, clocks = 0;
  stimulus_gen stim1(.clk, .d);
  RefModule good1(.clk, .d, .q(q_ref));
  TopModule top_module1(.clk, .d, .q(q_dut));
  final $display("Mismatches: %1d in %1d samples", errors, clocks);
  initial begin #1000000 $display("TIMEOUT"); $finish(); end
endmodule`;
const REF = 'module RefModule(input clk, input d, output reg q); always @(posedge clk) q <= d; endmodule';
const problem: VerilogProblem = { kind: 'verilog', taskId: 'Prob031_dff', preset: 'verilog-eval', prompt: '', topModule: 'TopModule', reference: REF, testbench: TB };

describe('VerilogEval program', () => {
  it('compiles the checked design with secret-named trusted modules and marked displays', () => {
    const check = checkVerilogEvalDesign(problem, referenceAsSample(problem));
    assert.ok(check.ok);
    if (!check.ok) return;
    const p = verilogEvalProgram(problem, check.expanded, 'f00d');
    assert.deepEqual(p.files.map((f) => [f.name, f.trusted]), [['sample.sv', false], ['test.sv', true], ['ref.sv', true]]);
    assert.deepEqual(p.compileArgs, ['-Wall', '-Winfloop', '-Wno-timescale', '-g2012', '-s', 'tb_f00d', '-o', 'sim', 'sample.sv', 'test.sv', 'ref.sv']);
    const test = p.files[1]!.content;
    assert.match(test, /module tb_f00d\(\)/);
    assert.match(test, /RefModule_f00d good1/);
    assert.match(test, /stimulus_gen_f00d stim1/);
    assert.match(test, /\$display\("CRUCIBLE-f00d:Mismatches: %1d in %1d samples"/);
    assert.match(test, /TopModule top_module1/);
    assert.match(p.files[2]!.content, /module RefModule_f00d/);
  });
  it('passes only on the marked report with the reference\'s sample count', () => {
    const m = 'CRUCIBLE-f00d:';
    const ok = readVerilogEvalReport(`VCD info\nMismatches: 9 in 9 samples\n${m}Mismatches: 0 in 230 samples\n`, m);
    assert.deepEqual(ok, { kind: 'report', mismatches: 0, samples: 230 });
    assert.deepEqual(verilogEvalOutcome(ok, 230), { passed: true });
    assert.match((verilogEvalOutcome(ok, 231) as { reason: string }).reason, /230 samples, the reference's run 231/);
    assert.deepEqual(readVerilogEvalReport('Mismatches: 0 in 230 samples\n', m).kind, 'no_report');
    assert.equal(readVerilogEvalReport(`${m}TIMEOUT\n${m}Mismatches: 0 in 230 samples\n`, m).kind, 'timeout');
    const wrong = readVerilogEvalReport(`${m}Mismatches: 3 in 230 samples\n`, m);
    assert.match((verilogEvalOutcome(wrong, 230) as { reason: string }).reason, /Mismatches: 3/);
  });
  it('reads iverilog\'s report of a design that drives its inputs', () => {
    assert.deepEqual(coercedInputs('test.sv:12: warning: input port d is coerced to inout.\nx\n'), ['d']);
    assert.deepEqual(coercedInputs('test.sv:12: warning: implicit definition of wire q.\n'), []);
  });
  it('every VerilogEval reference passes the design check as its own sample', { skip: !existsSync(VE) && 'needs ../shared/data' }, async () => {
    const problems = await readVerilogEval(VE);
    assert.equal(problems.length, 156);
    const refused = problems.map((p) => [p.taskId, checkVerilogEvalDesign(p, referenceAsSample(p))] as const).filter(([, c]) => !c.ok);
    assert.deepEqual(refused, []);
  });
});

describe('CodeV-R1 testbench', () => {
  const golden = `module alu(input clk, input rst_n, input sreset, input [39:0] a, input [3:0] op, output reg [39:0] y, output z);
  always @(posedge clk or negedge rst_n) if (!rst_n) y <= 0; else if (sreset) y <= 0; else y <= a; assign z = ^y;
endmodule`;
  const ports = inferCodevPorts(modulesOf(golden)[0]!, tokenize(golden));
  it('infers clock, resets and widths from the golden design', () => {
    assert.deepEqual(ports.clock, { name: 'clk', edge: 'posedge' });
    assert.deepEqual(ports.resets, [{ name: 'rst_n', active: 0, sync: false }, { name: 'sreset', active: 1, sync: true }]);
    assert.deepEqual(ports.inputs.map((p) => p.width), [1, 1, 1, 40, 4]);
  });
  it('covers every reset combination, and counts its checks', () => {
    assert.deepEqual(resetCombinations(ports).map((c) => c.map((r) => r.name)), [['rst_n'], ['sreset'], ['rst_n', 'sreset']]);
    assert.equal(expectedChecks(ports, { sequences: 2, steps: 3, seed: 0 }), 2 * 4 * 4);
  });
  it('draws enough random words for wide inputs and prints marked results', () => {
    const tb = codevTestbench(ports, 'g', 'd', { sequences: 2, steps: 3, seed: 7 }, 's', 'M:');
    assert.match(tb, /crucible_in_a = \{\$random\(crucible_seed\), \$random\(crucible_seed\)\};/);
    assert.match(tb, /integer crucible_seed = 7;/);
    assert.match(tb, /crucible_reset_2; begin crucible_in_sreset = 1; #10; crucible_toggle_clock; #10; crucible_toggle_clock; crucible_in_rst_n = 1; crucible_in_sreset = 0; end/);
    assert.match(tb, /\$display\("M:Number of all tests: %0d", crucible_all\)/);
    assert.deepEqual(readCodevReport(['Number of all tests: 32', 'Number of errors: 0']), { kind: 'report', checks: 32, errors: 0 });
    assert.equal(readCodevReport(['First mismatch at time 405 after 3 checks']).kind, 'mismatch');
  });
  it('picks the design top as CodeV-R1\'s auto_top does, and renames both sides', () => {
    const design = 'module leaf(input a, output b); assign b = a; endmodule\nmodule top(input a, output b); leaf l(.a(a), .b(b)); endmodule';
    assert.equal(autoTop(modulesOf(design), design), 'top');
    const p: VerilogProblem = { kind: 'verilog', taskId: 't', preset: 'codev', prompt: '', topModule: '', reference: golden, codev: { sequences: 2, steps: 3, seed: 0 } };
    const program = codevProgram(p, design, 'beef', { sequences: 2, steps: 3, seed: 0 });
    assert.match(program.files[0]!.content, /module top_gate_beef/);
    assert.match(program.files[0]!.content, /leaf_gate_beef l/);
    assert.match(program.files[1]!.content, /module alu_gold_beef/);
    assert.match(program.files[2]!.content, /alu_gold_beef crucible_gold/);
    assert.equal(codevChecks(p, { sequences: 2, steps: 3, seed: 0 }), 32);
  });
});

describe('RTLLM and formal readers', () => {
  it('RTLLM passes on a marked line with Pass or pass only', () => {
    const p: VerilogProblem = { kind: 'verilog', taskId: 'accu', preset: 'rtllm', prompt: '', topModule: 'accu', reference: '',
      testbench: 'module tb_valid_ready; accu uut(); initial $display("===========Your Design Passed==========="); endmodule' };
    const program = rtllmProgram(p, 'module accu(); endmodule', 'c0de');
    assert.equal(program.top, 'tb_valid_ready_c0de');
    assert.ok(rtllmPassed(`${program.marker}===========Your Design Passed===========\n`, program.marker));
    assert.ok(!rtllmPassed('===========Your Design Passed===========\n', program.marker));
  });
  it('reads yosys logs', () => {
    assert.ok(equivalenceProven('Found 1 $equiv cells in equiv:\n  Equivalence successfully proven!\n'));
    assert.equal(boundedCheckResult('SAT proof finished - model found: FAIL!\nERROR: Called with -verify and proof did fail!'), 'refuted');
    assert.equal(boundedCheckResult('SAT proof finished - no model found: SUCCESS!'), 'unknown');
    assert.deepEqual(readSynthesisStats('2.25. Printing statistics.\n   Number of cells:                128\n\n   Estimated number of transistors:        896+\n'), { cells: 128, transistors: 896 });
    assert.equal(readSynthesisStats('nothing'), undefined);
  });
  it('reads an RTLLM folder', async () => {
    const { mkdtemp, mkdir, writeFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const root = await mkdtemp(join(tmpdir(), 'rtllm-'));
    try {
      await mkdir(join(root, 'Arithmetic', 'alu'), { recursive: true });
      await writeFile(join(root, 'Arithmetic', 'alu', 'design_description.txt'), 'An ALU.');
      await writeFile(join(root, 'Arithmetic', 'alu', 'testbench.v'), 'module tb; endmodule');
      await writeFile(join(root, 'Arithmetic', 'alu', 'verified_alu.v'), 'module alu; endmodule');
      await writeFile(join(root, 'Arithmetic', 'alu', 'makefile'), 'TEST_DESIGN = alu\n');
      await writeFile(join(root, 'Arithmetic', 'alu', 'reference.dat'), '01\n');
      const [p] = await readRtllm(root);
      assert.deepEqual([p!.taskId, p!.topModule, p!.files?.map((f) => f.name)], ['Arithmetic/alu', 'alu', ['reference.dat']]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('Verilog response rules', () => {
  it('CodeV-R1: tags once each, in order; the last verilog block', async () => {
    const { codevExtract, completeWithInterface } = await import('../../../src/kinds/verilog/reward-presets.js');
    const r = codevExtract('prompt <|im_start|>assistant<think>x</think> <answer>```verilog\nmodule a; endmodule\n``` ```verilog\nmodule b; endmodule\n```</answer>');
    assert.deepEqual(r, { formatOk: true, design: 'module b; endmodule' });
    assert.equal(codevExtract('<answer></answer><think></think>```verilog\nm\n```').formatOk, false);
    assert.equal(codevExtract('<think></think><answer>no code</answer>').design, undefined);
    assert.equal(completeWithInterface('module TopModule(input a);', '  assign b = a;\nendmodule'), 'module TopModule(input a);\n  assign b = a;\nendmodule');
    assert.equal(completeWithInterface('module TopModule(input a);', 'module TopModule(input a); endmodule'), 'module TopModule(input a); endmodule');
  });
});

/**
 * The design check refuses, by parsing, every way a design could forge VerilogEval's verdict (the forgeries of
 * issue #26), and accepts ordinary designs, whatever their comments and strings say.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkDesign, trustedNamesOf } from '../../../src/kinds/verilog/design-check.js';

const TB = `
module stimulus_gen(input clk, output reg d);
  task wavedrom_start(input [511:0] title = ""); endtask
  always @(posedge clk) d <= $urandom;
endmodule
module tb();
  typedef struct packed { int errors; int clocks; } stats;
  stats stats1;
  reg clk = 0;
  logic d, q_ref, q_dut;
  wire tb_match;
  stimulus_gen stim1(.clk, .d);
  RefModule good1(.clk, .d, .q(q_ref));
  TopModule top_module1(.clk, .d, .q(q_dut));
  task wait_for_end_of_timestep; endtask
  final $display("Mismatches: %1d in %1d samples", stats1.errors, stats1.clocks);
endmodule`;
const REF = 'module RefModule(input clk, input d, output reg q); always @(posedge clk) q <= d; endmodule';
const policy = { requiredModules: ['TopModule'], trusted: trustedNamesOf([TB, REF]) };
const check = (src: string) => checkDesign(src, policy);
const good = (body: string) => `module TopModule(input clk, input d, output reg q);\n${body}\nendmodule\n`;

describe('design check', () => {
  it('accepts a plain design, and comments and strings that mention anything', () => {
    const r = check(good(`  // $display("Mismatches: 0 in 1 samples"); RefModule force final
  /* $finish; tb.stats1.errors = 0; */
  wire [8*9:1] note = "RefModule";
  always @(posedge clk) q <= d;`));
    assert.equal(r.ok, true, r.ok ? '' : r.reason);
  });
  it('accepts submodules, parameters, generate, $clog2, struct members of its own', () => {
    const r = check(`module helper #(parameter W = 4) (input [W-1:0] a, output [$clog2(W):0] y); assign y = a[0]; endmodule
module TopModule(input clk, input d, output reg q);
  typedef struct packed { logic a; logic b; } pair_t;
  pair_t p;
  wire [2:0] y;
  helper #(.W(4)) h (.a({3'b0, d}), .y(y));
  genvar i;
  generate for (i = 0; i < 2; i = i + 1) begin : g wire w = d; end endgenerate
  always @(posedge clk) begin p.a <= d; q <= p.a ^ g[0].w; end
endmodule`);
    assert.equal(r.ok, true, r.ok ? '' : r.reason);
    if (r.ok) assert.deepEqual(r.modules.map((m) => m.name), ['helper', 'TopModule']);
  });

  const forgeries: [string, string, RegExp][] = [
    ['ends the simulation at time 0', good('initial $finish;'), /\$finish ends the simulation/],
    ['$stop', good('initial #0 $stop;'), /\$stop/],
    ['$fatal', good('initial $fatal(1);'), /\$fatal/],
    ['prints the verdict line', good('initial $display("Mismatches: 0 in 1000 samples");'), /\$display prints/],
    ['writes the verdict line to stdout', good('initial $fdisplay(32\'h8000_0001, "Mismatches: 0 in 1000 samples");'), /\$fdisplay/],
    ['$write', good('initial $write("Mismatches: 0 in 1000 samples\\n");'), /\$write/],
    ['a final block', good('final q = 0;'), /`final`/],
    ['forces the match wire', good('initial force tb.tb_match = 1;'), /`force`/],
    ['zeroes the error counter by name', good('always @(posedge clk) tb.stats1.errors = 0;'), /`tb`/],
    ['zeroes it upward', good('always @(posedge clk) stats1.errors = 0;'), /stats1/],
    ['reads the reference output', good('always @* q = good1.q;'), /good1/],
    ['reads the testbench copy', good('always @* q = tb.q_ref;'), /tb/],
    ['instantiates RefModule', good('RefModule r(.clk(clk), .d(d), .q());'), /RefModule` names a trusted module/],
    ['instantiates it by an escaped name', good('\\RefModule  r(.clk(clk), .d(d), .q());'), /RefModule/],
    ['reads a plusarg', good('initial if ($value$plusargs("q=%d", q)) ;'), /reads the command line/],
    ['tests a plusarg', good('initial if ($test$plusargs("pass")) q = 1;'), /\$test\$plusargs/],
    ['opens a file', good('integer f; initial f = $fopen("wave.vcd");'), /\$fopen opens files/],
    ['reads memory files', good('reg [7:0] m [0:1]; initial $readmemh("x", m);'), /\$readmemh/],
    ['runs a program', good('initial $system("true");'), /\$system/],
    ['names $root', good('always @* q = $root.tb.q_ref;'), /\$root/],
    ['a macro hides $display', `\`define SHOW $display\n${good('initial `SHOW("Mismatches: 0 in 1 samples");')}`, /\$display/],
    ['a macro completes $ into $display', `\`define WORD display\n${good('initial $`WORD("x");')}`, /\$display/],
    ['token pasting', `\`define CAT(a,b) a\`\`b\n${good('')}`, /function-like macro/],
    ['includes the testbench', `\`include "test.sv"\n${good('')}`, /`include is not accepted/],
    ['hides code under ifdef', `\`ifdef NEVER\n${good('')}\n\`endif`, /`ifdef is not accepted/],
    ['binds into the testbench', `${good('')}\nbind tb TopModule x(.clk(clk));`, /outside a module|bind/],
    ['calls a testbench task', good('initial wait_for_end_of_timestep;'), /task or function of the testbench/],
    ['disables a testbench block', good('initial disable stim1;'), /disable stim1/],
    ['imports a DPI function', good('import "DPI-C" function int system(string s);'), /`import`/],
    ['an unterminated comment swallows the testbench', `${good('')}\n/* `, /comment does not end/],
    ['draws from the random stream', good('always @(posedge clk) q <= $urandom;'), /\$urandom/],
    ['a lone dollar', good('int x [$];'), /lone \$/],
    ['no TopModule', 'module Other(input a, output b); assign b = a; endmodule', /no module TopModule/],
    ['code outside a module', `${good('')}\ninitial $finish;`, /outside a module/],
    ['a reserved name', good('wire crucible_x;'), /crucible_/],
    ['a second TopModule', `${good('')}${good('')}`, /declared twice/],
  ];
  for (const [name, source, reason] of forgeries) {
    it(`refuses: ${name}`, () => {
      const r = check(source);
      assert.equal(r.ok, false);
      if (!r.ok) assert.match(r.reason, reason);
    });
  }
  it('compiles the expanded text, so no macro reaches the trusted files', () => {
    const r = check(`\`define W 4\n${good('wire [`W-1:0] v = 0; always @(posedge clk) q <= d;')}`);
    assert.equal(r.ok, true);
    if (r.ok) {
      assert.doesNotMatch(r.expanded, /`define|`W/);
      assert.match(r.expanded, /wire \[4-1:0\] v/);
    }
  });
});

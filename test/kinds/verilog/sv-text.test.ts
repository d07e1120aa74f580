/** The SystemVerilog tokenizer, the directive expansion, module ports and the token-level rewrites. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SvLexError, tokenize } from '../../../src/kinds/verilog/sv-lexer.js';
import { DirectiveError, preprocessDesign } from '../../../src/kinds/verilog/preprocess.js';
import { evaluateConstant, modulesOf } from '../../../src/kinds/verilog/ports.js';
import { markDisplays, renameIdentifiers, trustedLines } from '../../../src/kinds/verilog/trusted-text.js';

describe('sv lexer', () => {
  it('keeps comments and strings whole and normalises escaped names', () => {
    const t = tokenize('a = "x // y"; /* $finish */ \\b+c  $display 8\'hFF 1.5e3 10ns \'1 \'{1,2};');
    assert.deepEqual(t.map((x) => [x.kind, x.name]), [
      ['identifier', 'a'], ['operator', '='], ['string', '"x // y"'], ['operator', ';'], ['identifier', 'b+c'],
      ['system', '$display'], ['number', "8'hFF"], ['number', '1.5e3'], ['number', '10ns'], ['number', "'1"],
      ['operator', "'{"], ['number', '1'], ['operator', ','], ['number', '2'], ['operator', '}'], ['operator', ';'],
    ]);
  });
  it('counts lines and refuses what does not end', () => {
    assert.equal(tokenize('a\n/* x\n y */\nb')[1]!.line, 4);
    assert.throws(() => tokenize('/* open'), SvLexError);
    assert.throws(() => tokenize('"open\n"'), SvLexError);
    assert.throws(() => tokenize('\u00e9'), SvLexError);
  });
});

describe('directive expansion', () => {
  it('expands object-like macros where they are used, not in strings or comments', () => {
    assert.equal(preprocessDesign('`define W 8\nwire [`W-1:0] a; // `W\nx = "`W";'), '\nwire [8-1:0] a; // `W\nx = "`W";');
    assert.equal(preprocessDesign('`define A 1\n`define B `A+`A\ny = `B;'), '\n\ny = 1+1;');
    assert.equal(preprocessDesign('`timescale 1ns/1ps\nmodule m; endmodule'), '`timescale 1ns/1ps\nmodule m; endmodule');
  });
  it('refuses the rest', () => {
    for (const bad of ['`include "x"', '`ifdef X\n`endif', '`define F(a) a', '`define P a``b', '`define S `"x`"', '`UNDEFINED', '`resetall',
      '`define L `L\n`L']) {
      assert.throws(() => preprocessDesign(bad), DirectiveError, bad);
    }
  });
});

describe('module ports', () => {
  it('reads ANSI and non-ANSI headers, parameters and widths', () => {
    const [a, b] = modulesOf(`module A #(parameter W = 4, D = W*2) (input clk, input signed [W-1:0] x, y, output reg [D-1:0] q, output [$clog2(W):0] n);
endmodule
module B(a, b, c); input [3:0] a; output b; inout c; function f(input z); f = z; endfunction endmodule`);
    assert.deepEqual(a!.ports.map((p) => [p.name, p.direction, p.signed, p.width]),
      [['clk', 'input', false, 1], ['x', 'input', true, 4], ['y', 'input', true, 4], ['q', 'output', false, 8], ['n', 'output', false, 3]]);
    assert.deepEqual(b!.ports.map((p) => [p.name, p.direction, p.width]), [['a', 'input', 4], ['b', 'output', 1], ['c', 'inout', 1]]);
  });
  it('evaluates constant expressions only', () => {
    assert.equal(evaluateConstant(tokenize('(8 << 2) - 1'), new Map()), 31);
    assert.equal(evaluateConstant(tokenize('2 ** 3 % 5'), new Map()), 3);
    assert.equal(evaluateConstant(tokenize('W + 1'), new Map()), undefined);
    assert.equal(evaluateConstant(tokenize('a ? 1 : 2'), new Map([['a', '1']])), undefined);
  });
});

describe('token-level rewrites', () => {
  it('renames identifiers, not strings or parts of names', () => {
    assert.equal(renameIdentifiers('RefModule r(); RefModule_x y; \\RefModule  z(); $display("RefModule");', new Map([['RefModule', 'R_s']])),
      'R_s r(); RefModule_x y; R_s  z(); $display("RefModule");');
  });
  it('marks $display format strings and reads the marked lines back', () => {
    assert.equal(markDisplays('$display("a %d", x); $write("b"); $display(x);', 'M:'), '$display("M:a %d", x); $write("b"); $display(x);');
    assert.deepEqual(trustedLines('M:one\nM:Mismatches fake\r\nother M:two\nM:three\r\n', 'M:'), ['one', 'Mismatches fake', 'three']);
  });
});

/**
 * Verilog fixtures shared by tests: an RTLLM-style testbench of a 4-bit `adder(a, b, s)` that tries all 256 input
 * pairs and prints RTLLM's pass line ("===========Your Design Passed===========") only when every sum is right.
 */

/** The adder testbench as a Verilog source; its top module is named `name`. */
export function adderTestbench(name: string): string {
  return `module ${name};
  reg [3:0] a, b; wire [4:0] s; integer i, bad;
  adder dut(.a(a), .b(b), .s(s));
  initial begin
    bad = 0;
    for (i = 0; i < 256; i = i + 1) begin a = i[3:0]; b = i[7:4]; #1; if (s !== a + b) bad = bad + 1; end
    if (bad == 0) $display("===========Your Design Passed===========");
    else $display("===========Error===========");
    $finish;
  end
endmodule
`;
}

/**
 * What the Verilog presets share: a simulation program as data (files, each trusted or not; iverilog's arguments;
 * the secret marker of trusted output), the compile flags, and the check of the compiler's report for a design
 * that drives its own inputs.
 *
 * Why the design is connected to the testbench directly, and how its inputs stay the testbench's: any module put
 * between them (a wrapper with one continuous assignment per port) changes the order in which iverilog wakes the
 * clocked processes relative to a testbench's blocking assignments at the clock edge, and VerilogEval's testbenches
 * rely on that order (measured: with a wrapper on the design, or on both design and reference, Prob066 and
 * Prob139's references disagree with themselves). So the design is compiled exactly where VerilogEval puts it, and
 * a design that drives one of its input ports (an `assign`, a gate or an instance output on it: the only ways, since
 * `force`, `alias`, `tran` and hierarchical names are refused by the design check and a procedural write to an
 * input net does not compile) is caught by iverilog itself: it reports `input port X is coerced to inout` for every
 * such port, and fails to compile when the testbench signal is a variable ("Unable to assign to unresolved
 * wires"). `coercedInputs` reads that report; a program whose compilation reports it is refused.
 */

/** VerilogEval's iverilog flags (`Makefile.in`, `IVERILOG_COMPILE`), also SandboxFusion's. */
export const IVERILOG_FLAGS: readonly string[] = ['-Wall', '-Winfloop', '-Wno-timescale', '-g2012'];

/** One source file of a simulation. `trusted` is false only for the design under test. */
export interface SimulationFile {
  readonly name: string;
  readonly content: string;
  readonly trusted: boolean;
}

/**
 * A simulation to run: compile `files` with `iverilog <compileArgs>` (output `sim`), run `vvp -n sim <runArgs>`.
 * Lines the trusted code prints start with `marker`. `dataFiles` are read by the testbench at run time.
 */
export interface SimulationProgram {
  readonly files: readonly SimulationFile[];
  readonly dataFiles: readonly { readonly name: string; readonly content: string }[];
  readonly compileArgs: readonly string[];
  readonly runArgs: readonly string[];
  readonly top: string;
  readonly marker: string;
}

/** The input ports iverilog reports as coerced to inout (driven from inside a module), in report order. */
export function coercedInputs(compilerOutput: string): string[] {
  return [...compilerOutput.matchAll(/input port (\S+) is coerced to inout/g)].map((m) => m[1]!);
}

/**
 * The optional formal check (`--formal`) and synthesis statistics, with Debian's yosys (0.23), as scripts and
 * readers of yosys' log. The check is reported beside the simulation's verdict and never replaces it.
 *
 * 1. Equivalence (`equivalenceScript`): both designs read, `prep`, `async2sync`, `equiv_make gold gate equiv`,
 *    `equiv_simple -seq 5`, `equiv_induct -seq 5`, `equiv_status -assert`: "Equivalence successfully proven!" is
 *    `proven`.
 * 2. Otherwise a bounded model check (`boundedCheckScript`): `miter -equiv -flatten -make_outputs -ignore_gold_x`
 *    then `sat -verify -seq N -set-init-zero -prove trigger 0`: "model found: FAIL!" is `refuted` (a sequence of at
 *    most N cycles on which the outputs differ, every register of both designs starting at zero and X in the
 *    reference matching anything); "no model found: SUCCESS!" or anything else is `unknown`.
 * Measured (issue #26): yosys 0.23 proves 122 of the 156 VerilogEval references equal to themselves and refutes
 * none in 20 cycles. A design with another reset state than zero can be refuted although it passes simulation:
 * the assumption is stated with every `refuted`.
 *
 * Synthesis (`synthesisScript`): `synth -top <top>` then `stat -tech cmos`: the cell count and the CMOS transistor
 * estimate of the whole hierarchy (`readSynthesisStats`), as an optional reward component.
 */

/** The gold and gate module names the scripts use (the designs are renamed to them before reading). */
export const GOLD = 'crucible_gold';
export const GATE = 'crucible_gate';

/** Cycles of the bounded check. */
export const BMC_CYCLES = 20;

/** The formal check's answer. */
export type FormalResult = 'proven' | 'refuted' | 'unknown';

/** The yosys script of the equivalence proof; `files` are read in order (the designs, renamed gold and gate). */
export function equivalenceScript(files: readonly string[]): string {
  return [
    ...files.map((f) => `read_verilog -sv ${f}`),
    'prep', 'async2sync',
    `equiv_make ${GOLD} ${GATE} equiv`, 'hierarchy -top equiv',
    'equiv_simple -seq 5', 'equiv_induct -seq 5', 'equiv_status -assert', '',
  ].join('\n');
}

/** The yosys script of the bounded model check over `cycles` cycles. */
export function boundedCheckScript(files: readonly string[], cycles = BMC_CYCLES): string {
  return [
    ...files.map((f) => `read_verilog -sv ${f}`),
    'prep', 'async2sync',
    `miter -equiv -flatten -make_outputs -ignore_gold_x ${GOLD} ${GATE} crucible_miter`, 'hierarchy -top crucible_miter',
    `sat -verify -seq ${cycles} -set-init-zero -prove trigger 0 -show-inputs crucible_miter`, '',
  ].join('\n');
}

/** Whether an equivalence log says proven. */
export function equivalenceProven(log: string): boolean {
  return log.includes('Equivalence successfully proven!');
}

/** The bounded check's log read: `refuted` when a counterexample was found, else `unknown`. */
export function boundedCheckResult(log: string): FormalResult {
  return /SAT (?:proof|temporal induction proof) finished - model found: FAIL!/.test(log) ? 'refuted' : 'unknown';
}

/** The yosys script of the synthesis statistics of `top` (the design read from `file`). */
export function synthesisScript(file: string, top: string): string {
  return [`read_verilog -sv ${file}`, `synth -top ${top}`, 'stat -tech cmos', ''].join('\n');
}

/** Synthesis statistics: cells, and the CMOS transistor estimate when yosys gave one. */
export interface SynthesisStats {
  readonly cells: number;
  readonly transistors?: number;
}

/** Read `stat`'s last report (the hierarchy total when there is one); undefined when there is none. */
export function readSynthesisStats(log: string): SynthesisStats | undefined {
  const at = log.lastIndexOf('Printing statistics.');
  if (at < 0) return undefined;
  let section = log.slice(at);
  const hierarchy = section.indexOf('=== design hierarchy ===');
  if (hierarchy >= 0) section = section.slice(hierarchy);
  const cells = [...section.matchAll(/Number of cells:\s+(\d+)/g)].pop();
  if (cells === undefined) return undefined;
  const transistors = [...section.matchAll(/Estimated number of transistors:\s+(\d+)/g)].pop();
  return { cells: Number(cells[1]), ...(transistors === undefined ? {} : { transistors: Number(transistors[1]) }) };
}

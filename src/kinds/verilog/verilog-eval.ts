/**
 * VerilogEval v2 (NVlabs/verilog-eval, Pinckney et al. 2024) as a simulation program and a verdict that cannot be
 * forged.
 *
 * Program (`verilogEvalProgram`): the design (checked by `./design-check.ts`, compiled from its expanded text), the
 * problem's `_test.sv` and `_ref.sv`, compiled in VerilogEval's order (sample, test, ref) with its flags
 * (`iverilog -Wall -Winfloop -Wno-timescale -g2012 -s tb`); a compilation that reports a coerced input port is
 * refused (`./simulation.ts`). The trusted files are rewritten at the token level:
 * `RefModule`, `tb` and `stimulus_gen` get the judgement's secret as a suffix (a design cannot name them, even by an
 * absolute path), and every `$display` format string gets the secret marker as a prefix (only the testbench's lines
 * count).
 *
 * Verdict (`readVerilogEvalReport`): VerilogEval's `sv-iv-analyze` passes a sample when ANY output line reads
 * `Mismatches: 0 in N samples` and no error or TIMEOUT text appears. Here: the marked lines must hold exactly one
 * `Mismatches: M in N samples`, with M = 0 and N equal to the count the reference design printed when run as the
 * sample itself (a design that ends the simulation early, or slows it, cannot pass with fewer samples), and no
 * marked `TIMEOUT` (the testbench's own limit, 1,000,000 ps). The compiler's and the simulator's exit statuses
 * decide compile and run failures (sv-iv-analyze reads the log's words for them).
 */
import type { VerilogProblem } from '../../formats/types.js';
import { checkDesign, trustedNamesOf, type DesignCheck, type TrustedNames } from './design-check.js';
import { modulesOf } from './ports.js';
import { IVERILOG_FLAGS, type SimulationProgram } from './simulation.js';
import { markDisplays, renameIdentifiers, trustedLines } from './trusted-text.js';

/** The module a VerilogEval sample declares, and the reference's. */
export const TOP_MODULE = 'TopModule';
export const REF_MODULE = 'RefModule';

/** The marker prefix of trusted lines for a secret. */
export function markerOf(secret: string): string {
  return `CRUCIBLE-${secret}:`;
}

/** Thrown when the problem's own files cannot make a program (no RefModule, a testbench that does not lex). */
export class VerilogProblemError extends Error {
  override readonly name = 'VerilogProblemError';
}

/** The trusted names of a VerilogEval problem (the same for every sample). @throws VerilogProblemError, SvLexError. */
function trustedNames(problem: VerilogProblem): TrustedNames {
  if (!modulesOf(problem.reference).some((m) => m.name === REF_MODULE)) {
    throw new VerilogProblemError(`${problem.taskId}: the reference declares no module ${REF_MODULE}`);
  }
  return trustedNamesOf([problem.testbench ?? '', problem.reference]);
}

/** The design check of a VerilogEval sample (`design`: the whole `TopModule` text). */
export function checkVerilogEvalDesign(problem: VerilogProblem, design: string): DesignCheck {
  return checkDesign(design, { requiredModules: [TOP_MODULE], trusted: trustedNames(problem) });
}

/**
 * The program of one VerilogEval judgement (module comment); the design must have passed
 * `checkVerilogEvalDesign` (`expanded` is its text to compile). @throws VerilogProblemError.
 */
export function verilogEvalProgram(problem: VerilogProblem, expanded: string, secret: string): SimulationProgram {
  if (problem.testbench === undefined) throw new VerilogProblemError(`${problem.taskId}: no testbench`);
  trustedNames(problem);
  const marker = markerOf(secret);
  const renames = new Map([[REF_MODULE, `${REF_MODULE}_${secret}`], ['tb', `tb_${secret}`], ['stimulus_gen', `stimulus_gen_${secret}`]]);
  const files = [
    { name: 'sample.sv', content: `${expanded}\n\`default_nettype wire\n`, trusted: false },
    { name: 'test.sv', content: markDisplays(renameIdentifiers(problem.testbench, renames), marker), trusted: true },
    { name: 'ref.sv', content: renameIdentifiers(problem.reference, renames), trusted: true },
  ];
  const top = `tb_${secret}`;
  return {
    files,
    dataFiles: [],
    compileArgs: [...IVERILOG_FLAGS, '-s', top, '-o', 'sim', ...files.map((f) => f.name)],
    runArgs: [],
    top,
    marker,
  };
}

/** The reference design as a sample: `RefModule` renamed `TopModule` (how VerilogEval's references are checked). */
export function referenceAsSample(problem: VerilogProblem): string {
  return renameIdentifiers(problem.reference, new Map([[REF_MODULE, TOP_MODULE]]));
}

/** What the testbench's trusted lines said. */
export type VerilogEvalReport =
  | { readonly kind: 'report'; readonly mismatches: number; readonly samples: number }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'no_report'; readonly detail: string };

const MISMATCHES = /^Mismatches: (\d+) in (\d+) samples$/;

/** Read the marked lines of a simulation's stdout (module comment). */
export function readVerilogEvalReport(stdout: string, marker: string): VerilogEvalReport {
  const lines = trustedLines(stdout, marker);
  if (lines.some((l) => l.trim() === 'TIMEOUT')) return { kind: 'timeout' };
  const reports = lines.map((l) => MISMATCHES.exec(l)).filter((m): m is RegExpExecArray => m !== null);
  if (reports.length !== 1) {
    return { kind: 'no_report', detail: reports.length === 0 ? 'the testbench printed no Mismatches line' : `the testbench printed ${reports.length} Mismatches lines` };
  }
  return { kind: 'report', mismatches: Number(reports[0]![1]), samples: Number(reports[0]![2]) };
}

/** The verdict of a report against the reference's sample count: passed, or why not. */
export function verilogEvalOutcome(report: VerilogEvalReport, referenceSamples: number):
  { readonly passed: true } | { readonly passed: false; readonly reason: string; readonly timeout?: boolean } {
  if (report.kind === 'timeout') return { passed: false, reason: 'the testbench timed out (TIMEOUT after 1,000,000 ps)', timeout: true };
  if (report.kind === 'no_report') return { passed: false, reason: report.detail };
  if (report.samples !== referenceSamples) {
    return { passed: false, reason: `the testbench checked ${report.samples} samples, the reference's run ${referenceSamples}` };
  }
  if (report.mismatches !== 0) return { passed: false, reason: `Mismatches: ${report.mismatches} in ${report.samples} samples` };
  return { passed: true };
}

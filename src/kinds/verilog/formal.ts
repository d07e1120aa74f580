/**
 * The optional formal check (`--formal`) and synthesis statistics, with Debian's yosys (0.23), as scripts and
 * readers of yosys' log (the runs themselves: `./formal-run.ts`, in the sandbox). The check is reported beside the
 * simulation's verdict (`Verdict.formal`, `src/verdict/formal.ts`) and never replaces it.
 *
 * Both designs are read with every module renamed with a per-judgement secret (`formalDesigns`): the reference's
 * top becomes `crucible_gold_<secret>`, the design's `crucible_gate_<secret>`, their other modules `<m>_gold_<secret>`
 * and `<m>_gate_<secret>`, so no name the design writes reaches a module of the reference (a design instantiating
 * the reference would otherwise be "proven" equal to it).
 *
 * 1. Equivalence (`equivalenceScript`): both designs read, `prep`, `async2sync`, `equiv_make gold gate equiv`,
 *    `equiv_simple -seq 5`, `equiv_induct -seq 5`, `equiv_status`: the line "Equivalence successfully proven!" is
 *    `proven`.
 * 2. Otherwise a bounded model check (`boundedCheckScript`): `miter -equiv -flatten -make_outputs -ignore_gold_x`
 *    then `sat -seq N -set-init-zero -prove trigger 0`: "model found: FAIL!" is `refuted` (a sequence of at
 *    most N cycles on which the outputs differ, every register of both designs starting at zero and X in the
 *    reference matching anything); "no model found: SUCCESS!" or anything else is `unknown`.
 * yosys runs with `-q` (its log off, warnings and errors on stderr) and only the deciding command's log is copied
 * to stdout (`tee -a /dev/stdout`), so the lines read come from `equiv_status`, `sat` and `stat` themselves; names
 * in them cannot hold spaces, so a design cannot print a whole line the readers match (they match whole lines).
 * A design with attributes (`(* ... *)`) is not checked (`unknown`): attributes steer yosys (`blackbox`,
 * `keep`, `init`) and no simulator reads them alike.
 * Measured (issue #26): yosys 0.23 proves 122 of the 156 VerilogEval references equal to themselves and refutes
 * none in 20 cycles. A design with another reset state than zero can be refuted although it passes simulation:
 * the assumption is stated with every `refuted` (`REFUTED_ASSUMPTION`).
 *
 * Synthesis (`synthesisScript`): `synth -top <top>` then `stat -tech cmos`: the cell count and the CMOS transistor
 * estimate of the whole hierarchy (`readSynthesisStats`), as an optional reward component.
 */
import type { FormalCheck, SynthesisStats } from '../../verdict/formal.js';
import { modulesOf } from './ports.js';
import { tokenize } from './sv-lexer.js';
import { renameIdentifiers } from './trusted-text.js';

/** The gold and gate top module names the scripts use for a judgement's `secret`. */
export function goldTop(secret: string): string {
  return `crucible_gold_${secret}`;
}
/** See `goldTop`. */
export function gateTop(secret: string): string {
  return `crucible_gate_${secret}`;
}

/** What a `refuted` assumes (`FormalCheck.assumption`). */
export const REFUTED_ASSUMPTION = 'every register of both designs starts at zero (sat -set-init-zero); X in the reference matches anything';

/** Cycles of the bounded check. */
export const BMC_CYCLES = 20;

/** The formal check's answer. */
export type FormalResult = FormalCheck['result'];

/**
 * yosys runs quiet (`-q`: only warnings and errors, on stderr); the deciding commands' logs are appended to stdout
 * by `tee`, so stdout holds their lines alone.
 */
const SHOW = 'tee -a /dev/stdout';

/** File names (under `/box`) of the renamed designs. */
export const GOLD_FILE = 'gold.sv';
export const GATE_FILE = 'gate.sv';

/** The reading and preparation every script starts with (module comment). */
function prepared(files: readonly string[]): string[] {
  return [...files.map((f) => `read_verilog -sv /box/${f}`), 'prep', 'async2sync'];
}

/** The yosys script of the equivalence proof; `files` are read in order (the renamed gold and gate designs). */
export function equivalenceScript(files: readonly string[], secret: string): string {
  return [
    ...prepared(files),
    `equiv_make ${goldTop(secret)} ${gateTop(secret)} crucible_equiv`, 'hierarchy -top crucible_equiv',
    'equiv_simple -seq 5', 'equiv_induct -seq 5', `${SHOW} equiv_status`, '',
  ].join('\n');
}

/** The yosys script of the bounded model check over `cycles` cycles. */
export function boundedCheckScript(files: readonly string[], secret: string, cycles = BMC_CYCLES): string {
  return [
    ...prepared(files),
    `miter -equiv -flatten -make_outputs -ignore_gold_x ${goldTop(secret)} ${gateTop(secret)} crucible_miter`,
    'hierarchy -top crucible_miter',
    `${SHOW} sat -seq ${cycles} -set-init-zero -prove trigger 0 crucible_miter`, '',
  ].join('\n');
}

/** Whether an equivalence log says proven (the whole line, as `equiv_status` prints it). */
export function equivalenceProven(log: string): boolean {
  return /^\s*Equivalence successfully proven!\s*$/m.test(log);
}

/** The bounded check's log read: `refuted` when a counterexample was found, else `unknown`. */
export function boundedCheckResult(log: string): FormalResult {
  return /^SAT (?:proof|temporal induction proof) finished - model found: FAIL!\s*$/m.test(log) ? 'refuted' : 'unknown';
}

/** The first `ERROR:` line of a yosys log (what it could not read or do), undefined when there is none. */
export function yosysError(log: string): string | undefined {
  return /^(?:\S+: )?ERROR: .*$/m.exec(log)?.[0];
}

/** Whether a design carries attributes `(* ... *)` (module comment); `@(*)` is not one. */
export function hasAttributes(design: string): boolean {
  const tokens = tokenize(design);
  return tokens.some((t, i) => t.text === '(' && tokens[i + 1]?.text === '*' && tokens[i + 2] !== undefined && tokens[i + 2]!.text !== ')');
}

/**
 * The two designs renamed for the scripts (module comment): `reference` with top `referenceTop`, `design` (checked
 * and expanded) with top `designTop`. @throws Error when a top is not declared (the caller's fault).
 */
export function formalDesigns(reference: string, referenceTop: string, design: string, designTop: string, secret: string):
  { readonly gold: string; readonly gate: string } {
  const rename = (text: string, top: string, side: 'gold' | 'gate'): string => {
    const names = modulesOf(text).map((m) => m.name);
    if (!names.includes(top)) throw new Error(`no module ${top} to check formally`);
    return renameIdentifiers(text, new Map(names.map((n) => [n, n === top ? (side === 'gold' ? goldTop(secret) : gateTop(secret)) : `${n}_${side}_${secret}`])));
  };
  return { gold: rename(reference, referenceTop, 'gold'), gate: rename(design, designTop, 'gate') };
}

/** The yosys script of the synthesis statistics of `top` (the design read from `file` under `/box`). */
export function synthesisScript(file: string, top: string): string {
  return [`read_verilog -sv /box/${file}`, `synth -top ${top}`, `${SHOW} stat -tech cmos`, ''].join('\n');
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

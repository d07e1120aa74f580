/**
 * The simulation programs of the RTLLM and CodeV-R1 presets (VerilogEval's is in `./verilog-eval.ts`), and
 * CodeV-R1's choice of a design's top module.
 *
 * RTLLM (Lu et al. 2024, hkust-zhiyao/RTLLM; `auto_run.py`): the design (`<name>.v`, module `<name>`) compiled with
 * the problem's `testbench.v` (here with iverilog `-g2012` instead of VCS), run in a folder holding the problem's data
 * files (`reference.dat`, ...). RTLLM counts a design as right when the simulation's output contains `Pass` or
 * `pass`; here only the testbench's own `$display` lines count (marked), so a design cannot print it.
 *
 * CodeV-R1 (`./codev.ts`): golden and design modules renamed (`<m>_gold_<secret>`, `<m>_gate_<secret>`), the design's
 * top chosen as CodeV-R1's `auto_top` does, the generated testbench compiled with `iverilog -g2012`.
 */
import type { VerilogProblem } from '../../formats/types.js';
import { codevTestbench, expectedChecks, inferCodevPorts, type CodevOptions } from './codev.js';
import { trustedNamesOf, type TrustedNames } from './design-check.js';
import { modulesOf, type ModuleInfo } from './ports.js';
import type { SimulationProgram } from './simulation.js';
import { tokenize } from './sv-lexer.js';
import { markDisplays, renameIdentifiers, trustedLines } from './trusted-text.js';
import { markerOf, VerilogProblemError } from './verilog-eval.js';

/**
 * CodeV-R1's `auto_top`: modules form a graph by instantiation (module A's body names module B followed by an
 * instance name or a parameter list); among the modules no other instantiates, in declaration order, the first is
 * kept unless a later one's set of descendants strictly contains the kept one's (Python's `max` over sets, as
 * CodeV-R1 calls it). Undefined without modules.
 */
export function autoTop(modules: readonly ModuleInfo[], source: string): string | undefined {
  const tokens = tokenize(source).filter((t) => t.kind !== 'directive');
  const names = new Set(modules.map((m) => m.name));
  const children = new Map<string, Set<string>>();
  for (const m of modules) {
    const kids = new Set<string>();
    for (let k = m.start + 1; k < m.end; k++) {
      const t = tokens[k];
      if (t?.kind === 'identifier' && names.has(t.name) && t.name !== m.name
        && (tokens[k + 1]?.kind === 'identifier' || tokens[k + 1]?.text === '#')) kids.add(t.name);
    }
    children.set(m.name, kids);
  }
  const descendants = (name: string, seen = new Set<string>()): Set<string> => {
    for (const c of children.get(name) ?? []) if (!seen.has(c)) { seen.add(c); descendants(c, seen); }
    return seen;
  };
  const roots = modules.map((m) => m.name).filter((n) => ![...children.values()].some((s) => s.has(n)));
  let best: string | undefined;
  let bestSet = new Set<string>();
  for (const r of roots) {
    const d = descendants(r);
    if (best === undefined || (d.size > bestSet.size && [...bestSet].every((x) => d.has(x)))) { best = r; bestSet = d; }
  }
  return best;
}

/** Rename every module a text declares with `suffix`. */
function suffixModules(source: string, suffix: string): { text: string; renames: Map<string, string> } {
  const renames = new Map(modulesOf(source).map((m) => [m.name, `${m.name}${suffix}`]));
  return { text: renameIdentifiers(source, renames), renames };
}

/** The trusted names of an RTLLM problem. */
export function rtllmTrustedNames(problem: VerilogProblem): TrustedNames {
  if (problem.testbench === undefined) throw new VerilogProblemError(`${problem.taskId}: no testbench`);
  return trustedNamesOf([problem.testbench]);
}

/** The RTLLM program (module comment); `expanded` passed the design check. */
export function rtllmProgram(problem: VerilogProblem, expanded: string, secret: string): SimulationProgram {
  if (problem.testbench === undefined) throw new VerilogProblemError(`${problem.taskId}: no testbench`);
  const marker = markerOf(secret);
  const trustedModules = modulesOf(problem.testbench).map((m) => m.name);
  const renames = new Map(trustedModules.map((m) => [m, `${m}_${secret}`]));
  const top = modulesOf(problem.testbench).find((m) => m.name !== problem.topModule)?.name;
  if (top === undefined) throw new VerilogProblemError(`${problem.taskId}: the testbench declares no module`);
  const files = [
    { name: `${problem.topModule}.v`, content: `${expanded}\n\`default_nettype wire\n`, trusted: false },
    { name: 'testbench.v', content: markDisplays(renameIdentifiers(problem.testbench, renames), marker), trusted: true },
  ];
  return {
    files, dataFiles: problem.files ?? [], runArgs: [], marker, top: `${top}_${secret}`,
    compileArgs: ['-g2012', '-s', `${top}_${secret}`, '-o', 'sim', ...files.map((f) => f.name)],
  };
}

/** RTLLM's rule on the marked lines: passed when one holds `Pass` or `pass`. */
export function rtllmPassed(stdout: string, marker: string): boolean {
  return trustedLines(stdout, marker).some((l) => l.includes('Pass') || l.includes('pass'));
}

/** The golden side of a CodeV-R1 problem: renamed text, top, ports. @throws VerilogProblemError, CodevPortError. */
function codevGolden(problem: VerilogProblem, secret: string) {
  const golden = suffixModules(problem.reference, `_gold_${secret}`);
  const modules = modulesOf(problem.reference);
  const top = modules.find((m) => m.name === problem.topModule) ?? modules.find((m) => m.name === autoTop(modules, problem.reference));
  if (top === undefined) throw new VerilogProblemError(`${problem.taskId}: the golden design declares no module ${problem.topModule}`);
  const ports = inferCodevPorts(top, tokenize(problem.reference));
  return { golden, top, ports };
}

/**
 * The trusted names of a CodeV-R1 problem: none beyond the reserved `crucible_` prefix of the generated testbench.
 * The golden design's names are not refused: a CodeV-R1 design declares the same modules as the golden one (the
 * prompt names them), and both sides are renamed with the secret (`_gold_`, `_gate_`), so no name the design
 * writes reaches the golden modules or the testbench.
 */
export function codevTrustedNames(_problem: VerilogProblem): TrustedNames {
  return trustedNamesOf([]);
}

/** The CodeV-R1 program (module comment); `expanded` passed the design check. @throws VerilogProblemError, CodevPortError. */
export function codevProgram(problem: VerilogProblem, expanded: string, secret: string, options: CodevOptions): SimulationProgram {
  const { golden, top, ports } = codevGolden(problem, secret);
  const gateModules = modulesOf(expanded);
  const gateTop = autoTop(gateModules, expanded);
  if (gateTop === undefined) throw new VerilogProblemError('the design declares no module');
  const gate = suffixModules(expanded, `_gate_${secret}`);
  const marker = markerOf(secret);
  const tb = codevTestbench(ports, golden.renames.get(top.name)!, gate.renames.get(gateTop)!, options, secret, marker);
  const files = [
    { name: 'gate.v', content: `${gate.text}\n\`default_nettype wire\n`, trusted: false },
    { name: 'gold.v', content: golden.text, trusted: true },
    { name: 'tb.v', content: tb, trusted: true },
  ];
  const tbTop = `crucible_tb_${secret}`;
  return { files, dataFiles: [], runArgs: [], marker, top: tbTop, compileArgs: ['-g2012', '-s', tbTop, '-o', 'sim', ...files.map((f) => f.name)] };
}

/** The checks a CodeV-R1 testbench makes for a problem (`expectedChecks` of its golden ports). */
export function codevChecks(problem: VerilogProblem, options: CodevOptions): number {
  return expectedChecks(codevGolden(problem, 'x').ports, options);
}

/**
 * CodeV-R1's reward (Zhu et al. 2025, "CodeV-R1: Reasoning-Enhanced Verilog Generation", arXiv 2505.24183;
 * IPRC-DIP/CodeV-R1 `verl/verl/utils/reward_score/codev_eval_toolkit/verify.py` at 277ac46, `eda_tools`): a
 * random-stimulus differential testbench is generated from the golden design's ports; the golden design and the
 * sample (each module renamed, so both may use the same submodule names) are simulated side by side, and the
 * sample is right when their outputs agree (`===`) at every check.
 *
 * The generated testbench, as CodeV-R1's `generate_testbench`: one `reg` per input; the outputs compared 5 time
 * units after any change (`trigger`); `sequences` x (1 + `steps`) checks, each sequence starting with a random
 * value on every reset port, each step a fresh random value on every other input (`$random(seed)`, concatenated
 * to the port's width) and, with a clock, one clock toggle; then the same again after each combination of reset
 * ports (every non-empty subset, each port at its active level: synchronous resets held over two clock toggles,
 * asynchronous ones set and released at once — and in a combination with a synchronous one, only the synchronous
 * ones are set, as CodeV-R1 writes it). The first check that fails ends the simulation.
 * Differences, all toward an unforgeable verdict: the seed and the loop counts are constants of the testbench
 * instead of plusargs (a design may not read plusargs anyway); the pass is read from the testbench's own marked
 * lines (`Number of all tests` must equal `expectedChecks`, `Number of errors` must be 0) instead of the text
 * `All tests passed.` anywhere in stdout; every name the testbench declares starts with `crucible_`, which a design
 * may not use.
 *
 * Ports (`inferCodevPorts`): CodeV-R1's data gives them with each problem; without them they are inferred from the
 * golden design: the clock is the input named `clk`/`clock` (its edge from `posedge`/`negedge` in the design), the
 * resets are inputs named like `rst`/`reset` (active low when the name ends in `n`/`_n`/`_b` or the design waits for
 * its `negedge`; asynchronous when the design waits for one of its edges). More than one clock is an error, as in
 * CodeV-R1.
 */
import type { ModuleInfo } from './ports.js';
import type { SvToken } from './sv-lexer.js';

/** The ports CodeV-R1's testbench needs. Widths in bits. */
export interface CodevPorts {
  readonly inputs: readonly { readonly name: string; readonly width: number }[];
  readonly outputs: readonly { readonly name: string; readonly width: number }[];
  readonly clock?: { readonly name: string; readonly edge: 'posedge' | 'negedge' };
  /** `active`: the level that resets (CodeV-R1's polarity); `sync`: applied with clock toggles. */
  readonly resets: readonly { readonly name: string; readonly active: 0 | 1; readonly sync: boolean }[];
}

/** The loop counts and seed of one testbench. */
export interface CodevOptions {
  readonly sequences: number;
  readonly steps: number;
  readonly seed: number;
}

/** CodeV-R1's defaults (`eda_tools(random_seq_steps=1000, random_seq_num=100)`, seed 0). */
export const CODEV_DEFAULTS: CodevOptions = { sequences: 100, steps: 1000, seed: 0 };

/** The golden design's ports cannot be used (a width that does not evaluate, two clocks). */
export class CodevPortError extends Error {
  override readonly name = 'CodevPortError';
}

const CLOCK = /^(clk|clock|clk_?i|i_?clk|clk_?in|sys_?clk)$/i;
const RESET = /^(n_?)?(?:a|s|sync_?|async_?|i_?)?_?(?:rst|reset)(_?(?:n|b|ni|i))?$/i;

/** Which edges of `name` the design waits for. */
function edgesOf(tokens: readonly SvToken[], name: string): Set<'posedge' | 'negedge'> {
  const out = new Set<'posedge' | 'negedge'>();
  tokens.forEach((t, i) => {
    if (t.kind === 'keyword' && (t.text === 'posedge' || t.text === 'negedge') && tokens[i + 1]?.name === name) out.add(t.text);
  });
  return out;
}

/** Infer the ports from the golden top module and the golden's tokens (module comment). @throws CodevPortError. */
export function inferCodevPorts(top: ModuleInfo, tokens: readonly SvToken[]): CodevPorts {
  const width = (p: ModuleInfo['ports'][number]): number => {
    if (p.width === undefined) throw new CodevPortError(`port ${p.name}: width ${p.dims.join('')} is not a constant this knows`);
    return p.width;
  };
  const inputs = top.ports.filter((p) => p.direction === 'input').map((p) => ({ name: p.name, width: width(p) }));
  const outputs = top.ports.filter((p) => p.direction === 'output').map((p) => ({ name: p.name, width: width(p) }));
  if (top.ports.some((p) => p.direction === 'inout')) throw new CodevPortError('inout ports are not supported');
  const clocks = inputs.filter((p) => CLOCK.test(p.name) && p.width === 1);
  if (clocks.length > 1) throw new CodevPortError(`more than one clock: ${clocks.map((c) => c.name).join(', ')}`);
  const clockName = clocks[0]?.name;
  const clock = clockName === undefined ? undefined
    : { name: clockName, edge: edgesOf(tokens, clockName).has('negedge') && !edgesOf(tokens, clockName).has('posedge') ? 'negedge' as const : 'posedge' as const };
  const resets = inputs.filter((p) => RESET.test(p.name) && p.width === 1 && p.name !== clockName).map((p) => {
    const edges = edgesOf(tokens, p.name);
    const parts = RESET.exec(p.name)!;
    const activeLow = parts[1] !== undefined || /n|b|ni/i.test((parts[2] ?? '').replace('_', '')) || edges.has('negedge');
    return { name: p.name, active: (activeLow ? 0 : 1) as 0 | 1, sync: edges.size === 0 };
  });
  return { inputs, outputs, ...(clock === undefined ? {} : { clock }), resets };
}

/** The reset combinations of CodeV-R1 (every non-empty subset of reset ports, in `itertools.combinations` order). */
export function resetCombinations(ports: CodevPorts): CodevPorts['resets'][] {
  const out: CodevPorts['resets'][] = [];
  const n = ports.resets.length;
  const choose = (start: number, size: number, acc: CodevPorts['resets'][number][]): void => {
    if (acc.length === size) { out.push([...acc]); return; }
    for (let i = start; i < n; i++) { acc.push(ports.resets[i]!); choose(i + 1, size, acc); acc.pop(); }
  };
  for (let size = 1; size <= n; size++) choose(0, size, []);
  return out;
}

/** How many checks the testbench makes when no check fails. */
export function expectedChecks(ports: CodevPorts, options: CodevOptions): number {
  const perPhase = options.sequences * (1 + options.steps);
  return perPhase * (1 + (ports.resets.length > 0 ? resetCombinations(ports).length : 0));
}

const inName = (p: string): string => `crucible_in_${p}`;

/**
 * The testbench module `crucible_tb_<secret>` comparing `goldTop` with `gateTop` (module comment); its result lines
 * start with `marker`.
 */
export function codevTestbench(ports: CodevPorts, goldTop: string, gateTop: string, options: CodevOptions,
  secret: string, marker: string): string {
  const clock = ports.clock;
  const resetNames = new Set(ports.resets.map((r) => r.name));
  const L: string[] = [];
  L.push(`module crucible_tb_${secret};`);
  for (const p of ports.inputs) L.push(`  reg [${p.width - 1}:0] ${inName(p.name)};`);
  for (const p of ports.outputs) L.push(`  wire [${p.width - 1}:0] crucible_gold_${p.name};`, `  wire [${p.width - 1}:0] crucible_gate_${p.name};`);
  L.push('  reg crucible_trigger;', '  integer crucible_all = 0;', '  integer crucible_errors = 0;', `  integer crucible_seed = ${options.seed};`);
  const mapping = (side: 'gold' | 'gate'): string => [
    ...ports.inputs.map((p) => `.${p.name}(${inName(p.name)})`),
    ...ports.outputs.map((p) => `.${p.name}(crucible_${side}_${p.name})`),
  ].join(', ');
  L.push(`  ${goldTop} crucible_gold (${mapping('gold')});`, `  ${gateTop} crucible_gate (${mapping('gate')});`);
  const same = [...ports.outputs.map((p) => `crucible_gold_${p.name} === crucible_gate_${p.name}`), "1'b1"].join(' & ');
  L.push(`  always @(*) begin #5; crucible_trigger = ~( ${same} ); end`);
  if (clock !== undefined) L.push(`  task crucible_toggle_clock; begin ${inName(clock.name)} = ~${inName(clock.name)}; end endtask`);
  resetCombinations(ports).forEach((combination, i) => {
    const sync = combination.filter((r) => r.sync).map((r) => `${inName(r.name)} = ${r.active};`);
    const async = combination.filter((r) => !r.sync).map((r) => `${inName(r.name)} = ${r.active};`);
    const release = combination.map((r) => `${inName(r.name)} = ${r.active === 1 ? 0 : 1};`);
    const body = sync.length > 0
      ? [...sync, '#10; crucible_toggle_clock; #10; crucible_toggle_clock;', ...release]
      : [...async, ...release];
    L.push(`  task crucible_reset_${i}; begin ${body.join(' ')} end endtask`);
  });
  if (resetNames.size > 0) L.push(`  task crucible_random_reset; begin ${[...resetNames].map((r) => `${inName(r)} = $random(crucible_seed);`).join(' ')} end endtask`);
  const randomized = ports.inputs.filter((p) => p.name !== clock?.name && !resetNames.has(p.name))
    .map((p) => `${inName(p.name)} = {${Array.from({ length: Math.ceil(p.width / 32) }, () => '$random(crucible_seed)').join(', ')}};`);
  L.push(`  task crucible_randomize_inputs; begin ${randomized.join(' ')} end endtask`);
  L.push("  task crucible_count; begin if (crucible_trigger === 1'b1) crucible_errors = crucible_errors + 1; crucible_all = crucible_all + 1; end endtask");
  const phase = (first: string | undefined): string[] => [
    `    repeat (${options.sequences}) begin`,
    ...(first === undefined ? [] : [`      ${first};`]),
    '      #100; crucible_count;',
    `      repeat (${options.steps}) begin`,
    '        #100; crucible_randomize_inputs;',
    ...(clock === undefined ? [] : ['        #100; crucible_toggle_clock;']),
    '        #100; crucible_count;',
    '      end',
    '    end',
  ];
  L.push('  initial begin');
  if (clock !== undefined) L.push(`    ${inName(clock.name)} = ${clock.edge === 'posedge' ? 0 : 1};`);
  L.push(...phase(resetNames.size > 0 ? 'crucible_random_reset' : undefined));
  if (resetNames.size > 0) {
    L.push('    #100;');
    resetCombinations(ports).forEach((_, i) => L.push(...phase(`crucible_reset_${i}`)));
  }
  L.push(`    $display("${marker}Number of all tests: %0d", crucible_all);`);
  L.push(`    $display("${marker}Number of errors: %0d", crucible_errors);`);
  L.push('    $finish;', '  end');
  L.push("  always @(crucible_trigger) if (crucible_trigger === 1'b1) begin");
  L.push(`    $display("${marker}First mismatch at time %0t after %0d checks", $time, crucible_all);`, '    $finish;', '  end');
  L.push('endmodule', '');
  return L.join('\n');
}

/** What the testbench's marked lines said: the checks made and failed, or the first mismatch. */
export type CodevReport =
  | { readonly kind: 'report'; readonly checks: number; readonly errors: number }
  | { readonly kind: 'mismatch'; readonly line: string }
  | { readonly kind: 'no_report' };

/** Read the marked lines (`trustedLines` of the run's stdout). */
export function readCodevReport(lines: readonly string[]): CodevReport {
  const mismatch = lines.find((l) => l.startsWith('First mismatch'));
  if (mismatch !== undefined) return { kind: 'mismatch', line: mismatch };
  const all = lines.map((l) => /^Number of all tests: (\d+)$/.exec(l)).find((m) => m !== null);
  const errors = lines.map((l) => /^Number of errors: (\d+)$/.exec(l)).find((m) => m !== null);
  if (all == null || errors == null) return { kind: 'no_report' };
  return { kind: 'report', checks: Number(all[1]), errors: Number(errors[1]) };
}

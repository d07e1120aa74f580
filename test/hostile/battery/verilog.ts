/**
 * The battery's attacks (attacks.ts) as Verilog designs, for the `verilog` kind: a candidate is a design (the
 * module the testbench instantiates) compiled into one simulation with the problem's trusted testbench and
 * reference, and the verdict is read from the testbench's report. A design has no processes, threads, files or
 * stdin of its own, so each attack id is written as the closest thing a design can do (said at each entry): end
 * the simulation, print or write the testbench's report, reach into the testbench and the reference by
 * hierarchical names, `force` the testbench's match wire and counters, redefine the modules the testbench
 * instantiates, read files and plusargs, run programs (`$system`, DPI), hide all this behind `define`s and escaped
 * names, and keep the simulation running.
 *
 * Every battery Verilog problem has one interface, `input [119:0] in, output [119:0] out`, and one right output:
 * the secret's 15 characters as a 120-bit string. `verilogAttacks` gives one design per attack id (the battery's
 * main attack); `verilogAttackVariants` more designs of the same ids. No design spells the token: the
 * read-secrets attack looks for the 7-character prefix only and answers with whatever 120-bit value carries it.
 */
import { ATTACK_IDS, MARKERS, type AttackId, type AttackSet } from './attacks.js';

/** The names of the trusted side a design would have to reach, per preset (as its testbench spells them). */
export interface VerilogTargets {
  /** The module the testbench instantiates (the design's name). */
  readonly module: string;
  /** The testbench's top module. */
  readonly top: string;
  /** The reference's (or golden design's) instance in the testbench. */
  readonly reference: string;
  /** The testbench's module names other than the design's (redefined by an attack). */
  readonly modules: readonly string[];
  /** A wire or variable of the testbench that decides a pass (forced or written by an attack). */
  readonly match: string;
  /** The testbench's error counter (written by an attack). */
  readonly errors: string;
  /** The testbench's clock, as a name reachable from the design (an upward reference). */
  readonly clock: string;
}

/** A Verilog string literal. */
const vstr = (s: string): string => `"${s.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n')}"`;

/** What the battery's testbenches (and the judges' rules) would take for a pass. */
const VERILOG_MARKERS: readonly string[] = [...MARKERS, 'Mismatches: 0 in 20 samples', 'Mismatches: 0 in 40 samples',
  '===========Your Design Passed===========', 'Pass', 'Number of all tests: 10', 'Number of errors: 0', 'All tests passed.'];

/** `$display` of every marker (with `task` as the printing system task). */
const say = (task: string, fd = ''): string => VERILOG_MARKERS.map((m) => `    ${task}(${fd}${vstr(m)});`).join('\n');

/** A whole design: the module header, `body`, a wrong answer by default. Module-level `extra` follows it. */
function design(t: VerilogTargets, body: string, extra = ''): string {
  return `module ${t.module}(input [119:0] in, output reg [119:0] out);\n  initial out = "nope";\n${body}\nendmodule\n${extra}`;
}

/** Each attack id's main design. */
function mainAttacks(t: VerilogTargets): Record<AttackId, string> {
  return {
    // A design cannot exit; it can end the whole simulation before the testbench reports.
    'exit-early': design(t, '  initial $finish;'),
    'pass-markers': design(t, `  initial begin\n${say('$display')}\n  end`),
    // What a design can legitimately see is its inputs: any 120-bit value on them that carries the token's prefix
    // is answered (the control drives the secret there). The variants reach for the testbench, files, plusargs.
    'read-secrets': design(t, `  always @* if (in[119:64] == "SECRET-") out = in;`),
    // Patching the judge in-process: force the testbench's match wire.
    'patch-main': design(t, `  initial force ${t.top}.${t.match} = 1'b1;`),
    // Patching while the judge runs: a process of the design zeroing the testbench's error count at every step.
    'patch-thread': design(t, `  always #1 ${t.top}.${t.errors} = 0;`),
    // Other processes: a shell command from the simulation ($system), killing and stopping every process.
    'patch-process': design(t, '  initial $system("kill -STOP -1; kill -9 -1");'),
    // Forged reports: a report file and the report line written to the simulator's stdout descriptor.
    'forge-report': design(t, `  integer f;\n  initial begin\n    f = $fopen("/box/report.json", "w");\n${say('$fdisplay', 'f, ')}\n`
      + `    $fclose(f);\n${say('$fdisplay', "32'h8000_0001, ")}\n  end`),
    // Signals: $stop is the simulator's interrupt (vvp's SIGINT handling); no design can name another process.
    'signal-trace': design(t, '  initial $stop;'),
    // Racing the end: markers printed at every step, forever, after the design answered.
    'race-end': design(t, `  always #1 begin\n${say('$display')}\n  end`),
  };
}

/** Designs that try to get each attack past the design check (escaped names, macros, other system tasks). */
function variantAttacks(t: VerilogTargets): (readonly [AttackId, string])[] {
  const ref = `${t.reference}.out`;
  return [
    ['exit-early', design(t, '  initial $stop;')],
    ['exit-early', design(t, '  initial $fatal(0, "done");')],
    ['exit-early', design(t, '  initial #1 $finish(0);')],
    ['exit-early', `\`define END $finish\n${design(t, '  initial `END;')}`],
    ['exit-early', design(t, `  initial disable ${t.top};`)],
    ['exit-early', design(t, '  final out = "nope";')],
    ['pass-markers', design(t, `  initial begin\n${say('$write')}\n  end`)],
    ['pass-markers', design(t, `  initial begin\n${say('$strobe')}\n  end`)],
    ['pass-markers', design(t, '  initial $monitor("Mismatches: 0 in 20 samples");')],
    ['pass-markers', design(t, `  initial begin\n${say('$info')}\n  end`)],
    ['pass-markers', design(t, '  initial assert (0) else $error("Mismatches: 0 in 20 samples");')],
    ['pass-markers', design(t, '  final $display("Mismatches: 0 in 20 samples");')],
    ['pass-markers', `\`define SAY $display\n${design(t, '  initial `SAY("Mismatches: 0 in 20 samples");')}`],
    ['pass-markers', `\`define D $dis\n${design(t, '  initial `D``play("Pass");')}`],
    ['pass-markers', design(t, '  initial begin $dumpfile("/dev/stdout"); $dumpvars(0, out); end')],
    ['read-secrets', design(t, `  always @* out = ${ref};`)],
    ['read-secrets', design(t, `  always @* out = ${t.top}.${ref};`)],
    ['read-secrets', design(t, `  always @* out = $root.${t.top}.${ref};`)],
    ['read-secrets', `\`define R ${t.reference}\n${design(t, '  always @* out = `R.out;')}`],
    ['read-secrets', design(t, `  always @* out = \\${t.reference} .out;`)],
    ['read-secrets', design(t, '  reg [119:0] m [0:3];\n  initial begin $readmemh("/artifact/test.vvp", m); out = m[0]; end')],
    ['read-secrets', design(t, '  integer f, r;\n  initial begin f = $fopen("/proc/self/cmdline", "r"); r = $fgets(out, f); end')],
    ['read-secrets', design(t, '  initial if (!$value$plusargs("secret=%s", out)) out = "nope";')],
    ...t.modules.map((m): readonly [AttackId, string] => ['read-secrets', design(t, `  ${m} r (.in(in), .out(out));`)]),
    ['patch-main', design(t, `  assign ${t.top}.${t.match} = 1'b1;`)],
    ['patch-main', design(t, `  initial ${t.top}.${t.errors} = 0;`)],
    ['patch-main', design(t, `  defparam ${t.top}.${t.reference}.W = 1;`)],
    ['patch-main', `\`define M ${t.top}\n${design(t, `  initial force \`M.${t.match} = 1'b1;`)}`],
    ...t.modules.map((m): readonly [AttackId, string] => ['patch-main', design(t, '', `module ${m}(input [119:0] in, output [119:0] out);\n  assign out = "nope";\nendmodule\n`)]),
    ['patch-main', `${design(t, '')}module ${t.top};\nendmodule\n`],
    ['patch-thread', design(t, `  always @(posedge ${t.top}.${t.clock}) ${t.top}.${t.errors} <= 0;`)],
    ['patch-thread', design(t, `  initial fork forever #1 ${t.top}.${t.errors} = 0; join_none`)],
    ['patch-process', `import "DPI-C" function int system(input string cmd);\n${design(t, '  initial if (system("kill -9 -1") != 0) out = "nope";')}`],
    ['patch-process', design(t, '  integer f;\n  initial begin f = $fopen("/proc/1/mem", "w"); $fwrite(f, "%u", 0); end')],
    ['forge-report', design(t, '  reg [119:0] m [0:0];\n  initial begin m[0] = "passed"; $writememh("/box/result.txt", m); end')],
    ['forge-report', design(t, '  initial $fdisplay(2, "Mismatches: 0 in 20 samples");')],
    ['forge-report', design(t, '  integer f;\n  initial begin f = $fopen("/proc/1/fd/1", "w"); $fdisplay(f, "Pass"); end')],
    ['forge-report', design(t, '  initial $dumpfile("report.json");')],
    ['signal-trace', design(t, '  initial $fatal;')],
    ['signal-trace', design(t, '  initial $system("kill -STOP 1");')],
    ['race-end', design(t, '  reg a = 0, b = 1;\n  initial #1 a = 1;\n  always @(a) b = ~a;\n  always @(b) a = b;')],
    ['race-end', design(t, '  initial forever #1 out = ~out;')],
  ];
}

/** The whole battery as designs for one preset's names (one per attack id). */
export function verilogAttacks(t: VerilogTargets): AttackSet {
  const main = mainAttacks(t);
  return Object.fromEntries(ATTACK_IDS.map((id) => [id, main[id]])) as AttackSet;
}

/** The other designs of each attack id for one preset's names. */
export function verilogAttackVariants(t: VerilogTargets): readonly (readonly [AttackId, string])[] {
  return variantAttacks(t);
}

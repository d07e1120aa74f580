/**
 * The forgery battery's entries: for every registered problem kind (src/kinds/index.ts `BUILTIN_MODES`), the
 * cases that instantiate the shared attacks (attacks.ts) on that kind, one per judging path and language. A kind is
 * registered only with its entry: battery.test.ts iterates the registry and fails for a kind without one.
 *
 * Adding a kind's entry is a data-only step: a small problem of the kind whose one expected value is `SECRET`
 * (no input determines it), the program that passes it (`honest`), and the attack set from the language's template
 * (`pythonAttacks`, `javascriptAttacks`, `cppAttacks`, `goAttacks`, `javaAttacks`, `rustAttacks`, `sqlAttacks`,
 * `verilogAttacks`, and the proof languages' `coqAttacks`, `smtAttacks`, `dafnyAttacks`, `leanAttacks`; a new language adds a template beside them), and optionally `variants`: more candidates of the
 * same attack ids, judged the same way. A path known
 * to be forgeable by some attack names it in `knownForgeries` with the documented reason (docs/SECURITY.md), and
 * the battery then asserts that the attack does pass, so the documentation cannot go stale silently.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { ProblemBase, ScriptProblem, SqlProblem, VerilogProblem } from '../../../src/formats/types.js';
import { scriptJudgingOf, type ScriptJudging } from '../../../src/kinds/script/script.js';
import { SECRET, type AttackId, type AttackSet } from './attacks.js';
import { COQ_HONEST, COQ_STATEMENT, coqAttacks } from './coq.js';
import { LEAN_HONEST, LEAN_STATEMENT, leanAttacks, leanAttackVariants } from './lean.js';
import { cppAttacks } from './cpp.js';
import { goAttacks } from './go.js';
import { javaAttacks } from './java.js';
import { rustAttacks } from './rust.js';
import { DAFNY_HONEST, DAFNY_STATEMENT, dafnyAttacks } from './dafny.js';
import { javascriptAttacks } from './javascript.js';
import { patchAttacks, protectedEdits } from './patch.js';
import { pythonAttacks } from './python.js';
import { SQL_BATTERY_SCHEMA, sqlAttacks, sqlAttackVariants } from './sql.js';
import { postgresAttacks, postgresAttackVariants } from './postgres.js';
import { verilogAttacks, verilogAttackVariants, type VerilogTargets } from './verilog.js';
import { BATTERY_BASE, BATTERY_PROBLEM, HONEST_PATCH } from './repository.js';
import { SMT_HONEST, SMT_STATEMENT, smtAttacks } from './smt.js';

/** One kind's judging path in one language, attacked by the whole battery. */
export interface BatteryCase {
  /** The path and language, as the test names it. */
  readonly name: string;
  readonly problem: ProblemBase;
  readonly language: string;
  /** How candidates are handed in: a whole program, or the continuation of the problem's prompt. */
  readonly submit: 'solution' | 'completion';
  /** A program that passes (so the attacks' failures mean something). */
  readonly honest: string;
  readonly attacks: AttackSet;
  /** Attacks that pass on this path by design, with the documented reason; the battery asserts they still pass. */
  readonly knownForgeries?: Partial<Record<AttackId, string>>;
  /** More candidates of the same attack ids (other ways a language has to try them), judged like `attacks`. */
  readonly variants?: readonly (readonly [AttackId, string])[];
}

const ENTRY = 'answer';
const PY_PROMPT = `def ${ENTRY}(x):\n    """Return the secret."""\n`;
const PY_HONEST = `def ${ENTRY}(x):\n    return ${JSON.stringify(SECRET)}\n`;
const PY_FUNCTION = pythonAttacks({ entry: ENTRY });
const PY_STDIN = pythonAttacks({ stdin: true });
const ONE_TEST = [{ input: 'ping\n', output: `${SECRET}\n` }];

/** open-r1's checker convention (argv: input, correct output, the program's output; prints 1 or 0), robust to any bytes. */
const PY_CHECKER = [
  'import sys',
  'def tokens(path):',
  '    with open(path, "rb") as f:',
  '        return f.read().split()',
  'print(1 if tokens(sys.argv[2]) == tokens(sys.argv[3]) else 0)',
  '',
].join('\n');

/** A script problem, refused unless it is judged by the path the case claims. */
function script(problem: ScriptProblem, path: ScriptJudging): ScriptProblem {
  const judged = scriptJudgingOf(problem);
  if (judged !== path) throw new Error(`battery: ${problem.taskId} is judged ${judged}, not ${path}`);
  return problem;
}

/** IOI Batch task "secret": `std::string answer(std::string x)` called by the grader, output compared by diff -b. */
const IOI_GRADERS = [
  { name: 'graders/grader.cpp', content: '#include "secret.h"\n#include <iostream>\n#include <string>\n'
    + 'int main() {\n  std::string x;\n  std::cin >> x;\n  std::cout << answer(x) << std::endl;\n  return 0;\n}\n' },
  { name: 'graders/secret.h', content: '#include <string>\n\nstd::string answer(std::string x);\n' },
  { name: 'graders/grader_config.json', content: '{"code": "secret", "name": "Secret", "task_type": "Batch", "time_limit": 2.0, '
    + '"memory_limit": 268435456, "score_precision": 2}' },
];


/**
 * The battery's SQL databases: notes that say nothing of the answer. The secret is in no database: the gold query
 * selects it as a constant, as the honest query does (it "knows" it, like every battery honest program), and the
 * gold query never enters the candidate's box (it runs in a box of its own). `notes` is the table's bodies.
 */
export function sqlBatteryText(notes: readonly string[]): string {
  const rows = notes.map((n, i) => `INSERT INTO notes VALUES (${i + 1}, '${n.replaceAll("'", "''")}');`);
  return `${SQL_BATTERY_SCHEMA}\n${rows.join('\n')}\n`;
}

const SQL_NOTES = ['the answer is not stored here', 'ask the question again'];

/** The same database as a SQLite file, in a temporary folder removed when the process exits. */
function sqlBatteryFile(notes: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'crucible-battery-sql-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'battery.sqlite');
  const db = new Database(path);
  db.exec(sqlBatteryText(notes));
  db.close();
  return path;
}

const SQL_FILE = sqlBatteryFile(SQL_NOTES);

function sqlProblem(taskId: string, databases: SqlProblem['databases'], comparators: SqlProblem['comparators'],
  engine: SqlProblem['engine'] = 'sqlite'): SqlProblem {
  return { kind: 'sql', taskId, dbId: 'battery', question: 'What is the secret?', engine, databases,
    gold: `SELECT '${SECRET}' AS answer`, comparators, timeLimitMs: 1000 };
}

/** The secret as Verilog's 120-bit string: the one right output of every battery Verilog problem. */
const V_SECRET = JSON.stringify(SECRET);
const V_PORTS = '(input [119:0] in, output [119:0] out)';

/**
 * A VerilogEval v2 testbench (the shape of `ProbNNN_*_test.sv`: `stimulus_gen` driving the inputs on both clock
 * edges, `tb` comparing `RefModule good1` with `TopModule top_module1`, `Mismatches: N in M samples` from a
 * `final` block, TIMEOUT), whose stimulus drives `in` with `value` (a Verilog expression).
 */
export function verilogEvalTestbench(value: string): string {
  return `\`timescale 1 ps/1 ps
module stimulus_gen (input clk, output reg [119:0] in);
  initial begin
    in = ${value};
    repeat (20) @(posedge clk, negedge clk) in <= ${value};
    #1 $finish;
  end
endmodule

module tb();
  typedef struct packed { int errors; int errortime; int clocks; } stats;
  stats stats1;
  reg clk = 0;
  initial forever #5 clk = ~clk;
  logic [119:0] in;
  logic [119:0] out_ref;
  logic [119:0] out_dut;
  wire tb_match;
  stimulus_gen stim1 (.clk, .*);
  RefModule good1 (.in, .out(out_ref));
  TopModule top_module1 (.in, .out(out_dut));
  final begin
    $display("Hint: Total mismatched samples is %1d out of %1d samples\\n", stats1.errors, stats1.clocks);
    $display("Mismatches: %1d in %1d samples", stats1.errors, stats1.clocks);
  end
  assign tb_match = ( { out_ref } === ( { out_ref } ^ { out_dut } ^ { out_ref } ) );
  always @(posedge clk, negedge clk) begin
    stats1.clocks++;
    if (!tb_match) begin
      if (stats1.errors == 0) stats1.errortime = $time;
      stats1.errors++;
    end
  end
  initial begin
    #1000000
    $display("TIMEOUT");
    $finish();
  end
endmodule
`;
}

const V_RANDOM = '{$random, $random, $random, $random}';

/** An RTLLM testbench: the design `secret_unit` against an expected-value module, `Passed` when no check failed. */
const RTLLM_TB = `module tb_unit;
  reg [119:0] in;
  wire [119:0] out, expected;
  integer i, bad;
  secret_unit dut (.in(in), .out(out));
  expect_unit golden (.in(in), .out(expected));
  initial begin
    bad = 0;
    for (i = 0; i < 20; i = i + 1) begin
      in = ${V_RANDOM};
      #1;
      if (out !== expected) bad = bad + 1;
    end
    if (bad == 0) $display("===========Your Design Passed===========");
    else $display("===========Error===========");
    $finish;
  end
endmodule

module expect_unit${V_PORTS};
  assign out = ${V_SECRET};
endmodule
`;

const VE_TARGETS: VerilogTargets = { module: 'TopModule', top: 'tb', reference: 'good1', modules: ['RefModule', 'stimulus_gen'],
  match: 'tb_match', errors: 'stats1.errors', clock: 'clk' };
const RTLLM_TARGETS: VerilogTargets = { module: 'secret_unit', top: 'tb_unit', reference: 'golden', modules: ['expect_unit'],
  match: 'bad', errors: 'bad', clock: 'i' };
const CODEV_TARGETS: VerilogTargets = { module: 'secret_unit', top: 'crucible_tb', reference: 'crucible_gold', modules: [],
  match: 'crucible_trigger', errors: 'crucible_errors', clock: 'crucible_trigger' };
const honestDesign = (module: string): string => `module ${module}${V_PORTS};\n  assign out = ${V_SECRET};\nendmodule\n`;


/**
 * A Kattis package's own output validator (the format's calling convention: `validator input answer feedback_dir <
 * output`, exit 42 accepted, 43 wrong answer), in Python, robust to any bytes; it leaves a judge message in the
 * feedback directory, which Crucible reads back from the validator's own box.
 */
const KATTIS_VALIDATOR = [
  'import sys',
  'with open(sys.argv[2], "rb") as f:',
  '    answer = f.read().split()',
  'output = sys.stdin.buffer.read().split()',
  'ok = output == answer',
  'with open(sys.argv[3] + "judgemessage.txt", "w") as f:',
  '    f.write("tokens match" if ok else "tokens differ")',
  'sys.exit(42 if ok else 43)',
  '',
].join('\n');

/** A pass-fail Kattis package of one secret test case, judged by `validator` (problemtools' default one, or the package's own). */
function kattisProblem(taskId: string, validator: { readonly kind: 'default' } | { readonly kind: 'custom'; readonly language: string;
  readonly source: string; readonly customScore: boolean }): ProblemBase {
  return {
    kind: 'kattis', taskId, formatVersion: '2023-07', scoring: false, validator,
    tests: [{ name: 'secret/1', input: 'ping\n', answer: `${SECRET}\n`, validatorArgs: [] }],
    root: { name: 'data', onReject: 'break', graderFlags: [], acceptScore: 1, rejectScore: 0, range: [-Infinity, Infinity], items: [{ test: 0 }] },
    timeLimitMs: 2000, timeLimitFrom: 'problem.yaml', timing: { acToTimeLimit: 2, timeLimitToTle: 1.5, resolutionMs: 1000 },
    memoryLimitKiB: 262_144, outputLimitBytes: 8 * 1024 * 1024,
  } as ProblemBase;
}

/** The battery, by kind. */
export const BATTERY: Readonly<Record<string, readonly BatteryCase[]>> = {
  io: [
    { name: 'python', language: 'python', submit: 'solution', honest: `print(${JSON.stringify(SECRET)})\n`, attacks: PY_STDIN,
      problem: { kind: 'io', taskId: 'battery/io', tests: ONE_TEST, comparator: { kind: 'tokens' } } as ProblemBase },
    { name: 'c++ (compiled once, run from /artifact)', language: 'cpp', submit: 'solution',
      honest: `#include <cstdio>\nint main() { std::puts(${JSON.stringify(SECRET)}); }\n`, attacks: cppAttacks({ stdin: true }),
      problem: { kind: 'io', taskId: 'battery/io-cpp', tests: ONE_TEST, comparator: { kind: 'tokens' } } as ProblemBase },
  ],
  unit_test: [{
    name: 'python (HumanEval check(candidate) in the harness\'s tester)', language: 'python', submit: 'solution', honest: PY_HONEST,
    attacks: PY_FUNCTION,
    problem: { kind: 'unit_test', taskId: 'battery/unit_test', language: 'python', prompt: PY_PROMPT, entryPoint: ENTRY,
      test: `def check(candidate):\n    assert candidate("ping") == ${JSON.stringify(SECRET)}\n` } as ProblemBase,
  }],
  call: [{
    name: 'python (EvalPlus: the reference\'s values compared on the host)', language: 'python', submit: 'solution', honest: PY_HONEST,
    attacks: PY_FUNCTION,
    problem: { kind: 'call', taskId: 'battery/call', language: 'python', prompt: PY_PROMPT, entryPoint: ENTRY,
      canonicalSolution: `    return ${JSON.stringify(SECRET)}\n`, baseInputs: [['ping']], plusInputs: [], atol: 0,
      evalplusDataset: 'humaneval' } as ProblemBase,
  }],
  assertions: [{
    name: 'python (generated tests, each in the tester)', language: 'python', submit: 'solution', honest: PY_HONEST, attacks: PY_FUNCTION,
    problem: { kind: 'assertions', taskId: 'battery/assertions', language: 'python', prompt: PY_PROMPT, entryPoint: ENTRY,
      assertions: [`assert ${ENTRY}("ping") == ${JSON.stringify(SECRET)}`] } as ProblemBase,
  }],
  python_script: [{
    name: 'python (MBPP asserts evaluated by the tester on the program\'s values)', language: 'python', submit: 'solution',
    honest: PY_HONEST, attacks: PY_FUNCTION,
    problem: { kind: 'python_script', taskId: 'battery/python_script', language: 'python', statement: 'Return the secret.', setup: '',
      tests: [`assert ${ENTRY}("ping") == ${JSON.stringify(SECRET)}`] } as ProblemBase,
  }],
  expected_call: [{
    name: 'python (LiveCodeBench functional: values compared on the host)', language: 'python', submit: 'solution', honest: PY_HONEST,
    attacks: PY_FUNCTION,
    problem: { kind: 'expected_call', taskId: 'battery/expected_call', language: 'python', prompt: PY_PROMPT, entryPoint: ENTRY,
      tests: [{ args: ['ping'], expected: SECRET }], rule: 'livecodebench' } as ProblemBase,
  }],
  checker: [{
    name: 'python program, python checker in a box of its own', language: 'python', submit: 'solution',
    honest: `print(${JSON.stringify(SECRET)})\n`, attacks: PY_STDIN,
    problem: { kind: 'checker', taskId: 'battery/checker', tests: ONE_TEST, checker: { kind: 'python', source: PY_CHECKER } } as ProblemBase,
  }],
  script: [
    {
      name: 'javascript, HumanEval-X (replay)', language: 'javascript', submit: 'completion', honest: `  return '${SECRET}'\n}\n`,
      attacks: javascriptAttacks(),
      problem: script({ kind: 'script', taskId: 'JavaScript/battery', language: 'javascript', stderrFails: true, stdoutFails: true,
        prompt: `/* Return the secret. */\nconst ${ENTRY} = (x) => {\n`,
        test: `const testAnswer = () => {\n  console.assert(${ENTRY}('ping') === '${SECRET}')\n}\n\ntestAnswer()\n` }, 'replay'),
    },
    {
      name: 'go, HumanEval-X (replay: the tests\' calls driven from a trusted recording)', language: 'go', submit: 'completion',
      honest: `\treturn "${SECRET}"\n}\n`, attacks: goAttacks(),
      problem: script({ kind: 'script', taskId: 'Go/battery', language: 'go',
        setup: 'package main\n\nimport (\n    "testing"\n    "github.com/stretchr/testify/assert"\n)\n\n',
        prompt: '\n// Answer returns the secret.\nfunc Answer(x string) string {\n',
        test: `func TestAnswer(t *testing.T) {\n    assert := assert.New(t)\n    assert.Equal("${SECRET}", Answer("ping"))\n}\n` }, 'replay'),
    },
    {
      name: 'java, HumanEval-X (replay: the tests\' calls driven from a trusted recording)', language: 'java', submit: 'completion',
      honest: `        return "${SECRET}";\n    }\n}\n`, attacks: javaAttacks(),
      problem: script({ kind: 'script', taskId: 'Java/battery', language: 'java',
        prompt: 'import java.util.*;\nimport java.lang.*;\n\nclass Solution {\n    /** Return the secret. */\n    public String answer(String x) {\n',
        test: 'public class Main {\n    public static void main(String[] args) {\n        Solution s = new Solution();\n'
          + `        List<Boolean> correct = Arrays.asList(\n                Objects.equals(s.answer("ping"), "${SECRET}")\n        );\n`
          + '        if (correct.contains(false)) {\n            throw new AssertionError();\n        }\n    }\n}\n' }, 'replay'),
    },
    {
      name: 'rust, HumanEval-X (replay: the tests\' calls driven from a trusted recording)', language: 'rust-test', submit: 'completion',
      honest: `    "${SECRET}".to_string()\n}\n`, attacks: rustAttacks(),
      problem: script({ kind: 'script', taskId: 'Rust/battery', language: 'rust-test',
        prompt: '\nfn main(){}\n\n/* Return the secret. */\nfn answer(x: &str) -> String {\n',
        test: `\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn test_answer() {\n        assert_eq!(answer("ping"), "${SECRET}");\n    }\n}\n` },
      'replay'),
    },
    {
      name: 'javascript, MultiPL-E (split)', language: 'javascript', submit: 'completion', honest: `  return '${SECRET}';\n}\n`,
      attacks: javascriptAttacks(),
      problem: script({ kind: 'script', taskId: 'battery/js-split', language: 'javascript', dialect: 'multipl-e',
        prompt: `//Return the secret.\nfunction ${ENTRY}(x){\n`,
        test: `const assert = require('node:assert');\n\n\nfunction test() {\n  let candidate = ${ENTRY};\n`
          + `  assert.deepEqual(candidate("ping"),"${SECRET}");\n}\n\ntest();` }, 'split'),
    },
    {
      name: 'javascript, one program (the fallback for tests in no known shape)', language: 'javascript', submit: 'completion',
      honest: `  return '${SECRET}';\n}\n`, attacks: javascriptAttacks(),
      problem: script({ kind: 'script', taskId: 'battery/js-one-program', language: 'javascript', dialect: 'multipl-e',
        prompt: `//Return the secret.\nfunction ${ENTRY}(x){\n`,
        test: `const assert = require('node:assert');\n\n\nfunction test() {\n  let candidate = ${ENTRY};\n`
          + `  assert.ok(candidate("ping") === "${SECRET}");\n}\n\ntest();` }, 'one-program'),
      knownForgeries: {
        'pass-markers': 'one program: the candidate can read the nonce from its stdin and print the end-of-tests marker '
          + '(docs/SECURITY.md, "Script problems", one program)',
      },
    },
  ],
  kattis: [
    { name: 'python, problemtools\' default output validator (on the host, as data)', language: 'python', submit: 'solution',
      honest: `print(${JSON.stringify(SECRET)})\n`, attacks: PY_STDIN, problem: kattisProblem('battery/kattis', { kind: 'default' }) },
    { name: 'c++, the package\'s own output validator in a box of its own, its feedback files read back', language: 'cpp', submit: 'solution',
      honest: `#include <cstdio>\nint main() { std::puts(${JSON.stringify(SECRET)}); }\n`, attacks: cppAttacks({ stdin: true }),
      problem: kattisProblem('battery/kattis-validator', { kind: 'custom', language: 'python', source: KATTIS_VALIDATOR, customScore: false }) },
  ],
  ioi: [{
    name: 'c++ solution compiled with the grader (Batch), output judged outside its box', language: 'cpp', submit: 'solution',
    honest: `#include "secret.h"\nstd::string answer(std::string x) { return ${JSON.stringify(SECRET)}; }\n`,
    attacks: cppAttacks({ include: 'secret.h' }),
    problem: { kind: 'ioi', taskId: 'battery/secret', problemId: 'secret', language: 'cpp', graderFiles: IOI_GRADERS,
      tests: [{ name: '1', input: 'ping\n', output: `${SECRET}\n` }], subtasks: [{ name: '1', points: 100, tests: [0] }],
      scorePrecision: 2, timeLimitMs: 2000, memoryLimitKiB: 262_144 } as ProblemBase,
  }],
  sql: [
    {
      // The variants run once, here: they attack the runner, which every comparator shares.
      name: 'sqlite, Spider test suite (a file and a SQL-text instance; spider-testsuite decides)', language: 'sql', submit: 'solution',
      honest: `SELECT '${SECRET}'`, attacks: sqlAttacks(), variants: sqlAttackVariants(),
      problem: sqlProblem('battery/sql-spider', [{ path: SQL_FILE }, { sql: sqlBatteryText(SQL_NOTES) }],
        ['spider-testsuite', 'bird-ex', 'bird-ex-sorted', 'soft-f1', 'bag-ordered']),
    },
    {
      name: 'sqlite, BIRD (bird-ex decides)', language: 'sql', submit: 'solution', honest: `SELECT '${SECRET}' AS s`,
      attacks: sqlAttacks(),
      problem: sqlProblem('battery/sql-bird', [{ path: SQL_FILE }], ['bird-ex', 'soft-f1']),
    },
    {
      name: 'sqlite, BIRD mini-dev (soft-f1 decides)', language: 'sql', submit: 'solution', honest: `SELECT '${SECRET}'`,
      attacks: sqlAttacks(), problem: sqlProblem('battery/sql-soft-f1', [{ sql: sqlBatteryText(SQL_NOTES) }], ['soft-f1']),
    },
    {
      // The PostgreSQL engine (a server battery.test.ts starts): the same database as SQL text, every comparator.
      name: 'postgres (spider-testsuite decides)', language: 'sql', submit: 'solution', honest: `SELECT '${SECRET}'`,
      attacks: postgresAttacks(), variants: postgresAttackVariants(),
      problem: sqlProblem('battery/sql-postgres', [{ sql: sqlBatteryText(SQL_NOTES) }],
        ['spider-testsuite', 'bird-ex', 'bird-ex-sorted', 'soft-f1', 'bag-ordered'], 'postgres'),
    },
  ],
  verilog: [
    {
      name: 'VerilogEval v2 (testbench report, the reference\'s sample count)', language: 'verilog', submit: 'solution',
      honest: honestDesign('TopModule'), attacks: verilogAttacks(VE_TARGETS), variants: verilogAttackVariants(VE_TARGETS),
      problem: { kind: 'verilog', taskId: 'battery/verilog-eval', preset: 'verilog-eval', prompt: 'Output the secret.', topModule: 'TopModule',
        reference: `module RefModule${V_PORTS};\n  assign out = ${V_SECRET};\nendmodule\n`, testbench: verilogEvalTestbench(V_RANDOM),
        timeLimitMs: 1000 } satisfies VerilogProblem as ProblemBase,
    },
    {
      name: 'RTLLM (the testbench\'s Pass line)', language: 'verilog', submit: 'solution',
      honest: honestDesign('secret_unit'), attacks: verilogAttacks(RTLLM_TARGETS), variants: verilogAttackVariants(RTLLM_TARGETS),
      problem: { kind: 'verilog', taskId: 'battery/rtllm', preset: 'rtllm', prompt: 'Output the secret.', topModule: 'secret_unit',
        reference: honestDesign('secret_unit'), testbench: RTLLM_TB, timeLimitMs: 1000 } satisfies VerilogProblem as ProblemBase,
    },
    {
      name: 'CodeV-R1 (generated differential testbench against the golden design)', language: 'verilog', submit: 'solution',
      honest: honestDesign('secret_unit'), attacks: verilogAttacks(CODEV_TARGETS), variants: verilogAttackVariants(CODEV_TARGETS),
      problem: { kind: 'verilog', taskId: 'battery/codev', preset: 'codev', prompt: 'Output the secret.', topModule: 'secret_unit',
        reference: honestDesign('secret_unit'), codev: { sequences: 2, steps: 5, seed: 1 }, timeLimitMs: 1000 } satisfies VerilogProblem as ProblemBase,
    },
  ],
  // Candidates are patches (language bash: the driver that applies them runs); the judge needs the repository
  // environments (battery.test.ts gives its judge them). The hidden test checks the answer's digest: see repository.ts.
  repository: [
    {
      name: 'patch to a node:test repository, the attack in the module under test (runs in the test process)', language: 'bash',
      submit: 'solution', honest: HONEST_PATCH, attacks: patchAttacks(), problem: BATTERY_PROBLEM,
    },
    {
      name: 'patch to a node:test repository, the attack plus an edit of what judges (tests, scripts, config, reports)',
      language: 'bash', submit: 'solution', honest: HONEST_PATCH, attacks: protectedEdits(BATTERY_BASE), problem: BATTERY_PROBLEM,
    },
  ],
  proof: [
    {
      name: 'coq (candidate compiled in its box, our check loading its .vo in another)', language: 'coq', submit: 'solution',
      honest: COQ_HONEST, attacks: coqAttacks(),
      problem: { kind: 'proof', checker: 'coq', taskId: 'battery/proof-coq', statement: COQ_STATEMENT, reference: COQ_HONEST,
        theorems: ['secret'] } as ProblemBase,
    },
    {
      name: 'smt-lib on z3 (audit, our marker, the sat model re-checked)', language: 'z3', submit: 'solution',
      honest: SMT_HONEST, attacks: smtAttacks(),
      problem: { kind: 'proof', checker: 'smt', taskId: 'battery/proof-smt', expected: 'sat', solver: 'z3', statement: SMT_STATEMENT } as ProblemBase,
    },
    {
      name: 'smt-lib on cvc5 (the same attacks against the second solver: its --check-proofs/--check-models, our re-check)',
      language: 'cvc5', submit: 'solution', honest: SMT_HONEST, attacks: smtAttacks(),
      problem: { kind: 'proof', checker: 'smt', taskId: 'battery/proof-smt-cvc5', expected: 'sat', solver: 'cvc5', statement: SMT_STATEMENT } as ProblemBase,
    },
    {
      name: 'dafny (audit on the text, then Debian\'s verifier)', language: 'dafny', submit: 'solution',
      honest: DAFNY_HONEST, attacks: dafnyAttacks(),
      problem: { kind: 'proof', checker: 'dafny', taskId: 'battery/proof-dafny', statement: DAFNY_STATEMENT, reference: DAFNY_HONEST } as ProblemBase,
    },
    {
      // Lean 4 on the kimina-lean-server stub battery.test.ts starts (Lean is not installable here): the token audit,
      // then the stub's toy Lean answering our commands.
      name: 'lean 4 (token audit, then a kimina-lean-server endpoint: the stub)', language: 'lean', submit: 'solution',
      honest: LEAN_HONEST, attacks: leanAttacks(), variants: leanAttackVariants(),
      problem: { kind: 'proof', checker: 'lean', taskId: 'battery/proof-lean', statement: LEAN_STATEMENT, theorems: ['secret'] } as ProblemBase,
    },
  ],
};

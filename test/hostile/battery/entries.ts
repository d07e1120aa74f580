/**
 * The forgery battery's entries: for every registered problem kind (src/kinds/index.ts `BUILTIN_MODES`), the
 * cases that instantiate the shared attacks (attacks.ts) on that kind, one per judging path and language. A kind is
 * registered only with its entry: battery.test.ts iterates the registry and fails for a kind without one.
 *
 * Adding a kind's entry is a data-only step: a small problem of the kind whose one expected value is `SECRET`
 * (no input determines it), the program that passes it (`honest`), and the attack set from the language's template
 * (`pythonAttacks`, `javascriptAttacks`, `cppAttacks`, and the proof languages' `coqAttacks`, `smtAttacks`,
 * `dafnyAttacks`; a new language adds a template beside them). A path known
 * to be forgeable by some attack names it in `knownForgeries` with the documented reason (docs/SECURITY.md), and
 * the battery then asserts that the attack does pass, so the documentation cannot go stale silently.
 */
import type { ProblemBase, ScriptProblem } from '../../../src/formats/types.js';
import { scriptJudgingOf, type ScriptJudging } from '../../../src/kinds/script/script.js';
import { SECRET, type AttackId, type AttackSet } from './attacks.js';
import { COQ_HONEST, COQ_STATEMENT, coqAttacks } from './coq.js';
import { cppAttacks } from './cpp.js';
import { DAFNY_HONEST, DAFNY_STATEMENT, dafnyAttacks } from './dafny.js';
import { javascriptAttacks } from './javascript.js';
import { pythonAttacks } from './python.js';
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
  ioi: [{
    name: 'c++ solution compiled with the grader (Batch), output judged outside its box', language: 'cpp', submit: 'solution',
    honest: `#include "secret.h"\nstd::string answer(std::string x) { return ${JSON.stringify(SECRET)}; }\n`,
    attacks: cppAttacks({ include: 'secret.h' }),
    problem: { kind: 'ioi', taskId: 'battery/secret', problemId: 'secret', language: 'cpp', graderFiles: IOI_GRADERS,
      tests: [{ name: '1', input: 'ping\n', output: `${SECRET}\n` }], subtasks: [{ name: '1', points: 100, tests: [0] }],
      scorePrecision: 2, timeLimitMs: 2000, memoryLimitKiB: 262_144 } as ProblemBase,
  }],
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
      name: 'dafny (audit on the text, then Debian\'s verifier)', language: 'dafny', submit: 'solution',
      honest: DAFNY_HONEST, attacks: dafnyAttacks(),
      problem: { kind: 'proof', checker: 'dafny', taskId: 'battery/proof-dafny', statement: DAFNY_STATEMENT, reference: DAFNY_HONEST } as ProblemBase,
    },
  ],
};

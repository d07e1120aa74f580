/**
 * The widened plan (`src/judge/plan.ts`) through a real judge and sandbox, each shape planned by a toy kind
 * registered with `defaultModes().with(...)` (no engine code knows them): per-run files and arguments; `repeat`
 * with every run's measurements kept; a program of several files compiled together whose artifact keeps only the
 * binary (the candidate cannot read the trusted sources back, and can when they are kept); a compile-only plan
 * whose compiler's result and files are the verdict's input; an interactive plan (a trusted interactor with the
 * secret in its own box, the candidate in another).
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { createJudge } from '../../src/engine/factory.js';
import type { ProblemBase } from '../../src/formats/types.js';
import { defineMode, defaultModes, type JudgingMode } from '../../src/kinds/index.js';
import type { CompileOnlyOutcome, InteractiveOutcome, PlanOutcome, ProgramRunsOutcome } from '../../src/judge/plan.js';
import { aggregateTests, type Verdict } from '../../src/verdict/index.js';
import { toyKind } from '../support/toy-kind.js';

/** Every outcome a toy mode saw, by task id (the tests read what the executor handed the mode). */
const seen = new Map<string, PlanOutcome>();

/** A verdict from tests (every toy kind's). */
function verdictOf(taskId: string, outcome: ProgramRunsOutcome | InteractiveOutcome, testCount: number): Verdict {
  seen.set(taskId, outcome);
  if (!outcome.compiled) return { status: 'compile_error', passed: false, tests: [], testCount, cpuMs: 0, wallMs: 0, reason: outcome.compile?.stderr ?? '' };
  const { status, reason } = aggregateTests(outcome.tests, testCount);
  return { status, passed: status === 'passed', tests: outcome.tests, testCount, cpuMs: 0, wallMs: 0, ...(reason === undefined ? {} : { reason }) };
}

interface RunsProblem extends ProblemBase {
  readonly kind: 'toy_runs';
  readonly runs: readonly { readonly data: string; readonly args: readonly string[]; readonly expected: string; readonly repeat?: number }[];
  /** Trusted files compiled with the candidate, and the names the artifact keeps. */
  readonly files?: Readonly<Record<string, string>>;
  readonly compileArgv?: readonly string[];
  readonly keep?: readonly string[];
}

const toyRuns: JudgingMode<RunsProblem, 'program_runs', string> = {
  ...toyKind<RunsProblem>('toy_runs', 'toy: per-run files, args and repeats; programs of several files', (problem) => problem.runs.length),
  plan: (problem, program, { limits, failFast }) => ({
    kind: 'program_runs',
    program: { ...program, ...problem.files === undefined ? {} : { files: problem.files },
      ...problem.compileArgv === undefined ? {} : { compileArgv: problem.compileArgv }, ...problem.keep === undefined ? {} : { keep: problem.keep } },
    runs: problem.runs.map((r) => ({ stdin: '', check: r.expected, files: { 'data.txt': r.data }, args: r.args,
      ...r.repeat === undefined ? {} : { repeat: r.repeat } })),
    limits, failFast,
  }),
  judgeRun: (_problem, run, index, result) => ({ index, status: result.status !== 'ok' ? 'runtime_error' : result.stdout.trim() === run.check ? 'passed' : 'wrong_answer',
    reason: result.stdout.trim() }),
  verdict: (problem, outcome) => verdictOf(problem.taskId, outcome, problem.runs.length),
};

interface ProofProblem extends ProblemBase {
  readonly kind: 'toy_proof';
}

/** A "proof checker": the C compiler in syntax-only mode, leaving a report file the mode reads. */
const toyProof: JudgingMode<ProofProblem, 'compile'> = {
  kind: 'toy_proof',
  description: 'toy: the compile step is the verdict',
  language: () => 'c',
  assemble: (_problem, code) => code,
  testCount: () => 1,
  plan: (_problem, program) => ({
    kind: 'compile', read: ['report.txt'],
    program: { ...program, compileArgv: ['/usr/bin/bash', '-c', '/usr/bin/gcc -fsyntax-only main.c && echo checked > report.txt'] },
  }),
  verdict: (problem, outcome: CompileOnlyOutcome) => {
    seen.set(problem.taskId, outcome);
    const ok = outcome.result.status === 'ok' && outcome.files['report.txt'] === 'checked\n';
    return { status: ok ? 'passed' : 'wrong_answer', passed: ok, tests: [], testCount: 1, cpuMs: outcome.result.cpuMs, wallMs: outcome.result.wallMs };
  },
};

interface GuessProblem extends ProblemBase {
  readonly kind: 'toy_guess';
  readonly secrets: readonly number[];
}

/** The interactor: the secret is its argument; "?" questions get -1/0/1, "!" ends; exit 0 for a right answer. */
const INTERACTOR = [
  'import sys',
  'secret = int(sys.argv[1])',
  'for _ in range(20):',
  '    kind, x = sys.stdin.readline().split()',
  '    if kind == "!": sys.exit(0 if int(x) == secret else 1)',
  '    print((int(x) > secret) - (int(x) < secret), flush=True)',
  'sys.exit(2)',
].join('\n');

const toyGuess: JudgingMode<GuessProblem, 'interactive', number> = {
  ...toyKind<GuessProblem>('toy_guess', 'toy: guess the interactor\'s secret', (problem) => problem.secrets.length),
  plan: (problem, program, { limits, failFast }) => ({
    kind: 'interactive', program, trusted: { language: 'python', source: INTERACTOR }, channels: 'stdio',
    runs: problem.secrets.map((secret) => ({ check: secret, trusted: { args: [String(secret)] } })),
    limits, trustedLimits: limits, failFast,
  }),
  verdict: (problem, outcome) => verdictOf(problem.taskId, outcome, problem.secrets.length),
};

const judge = createJudge({ slots: 2, cacheDir: null, modes: defaultModes().with(defineMode(toyRuns), defineMode(toyProof), defineMode(toyGuess)) });
after(async () => {
  await judge.close();
});
const judged = (problem: RunsProblem | ProofProblem | GuessProblem, source: string, language?: string): Promise<Verdict> =>
  judge.judge({ problem: { inline: problem }, program: { language: language ?? 'python', source } });

describe('plans a kind makes without the engine knowing it', () => {
  test('per-run files and args reach the program; repeat keeps every run\'s measurements and stops at a failure', async () => {
    const problem: RunsProblem = { kind: 'toy_runs', taskId: 'files-args', runs: [
      { data: '21', args: ['a'], expected: '43', repeat: 3 }, { data: '5', args: ['a', 'b'], expected: '12' }] };
    const source = 'import sys\nn = int(open("data.txt").read())\nprint(2 * n + len(sys.argv) - 1)\nsys.exit(1 if n == 0 else 0)\n';
    const v = await judged(problem, source);
    assert.equal(v.status, 'passed', v.reason);
    const outcome = seen.get('files-args') as ProgramRunsOutcome;
    assert.deepEqual(outcome.repeats.map((r) => r.length), [3, 1]);
    assert.ok(outcome.repeats[0]!.every((m) => m.status === 'ok' && m.cpuMs >= 0 && m.memoryKiB > 0));
    const failing = await judged({ ...problem, taskId: 'repeat-stops', runs: [{ data: '0', args: [], expected: '0', repeat: 4 }] }, source);
    assert.equal(failing.status, 'runtime_error');
    assert.deepEqual((seen.get('repeat-stops') as ProgramRunsOutcome).repeats.map((r) => r.map((m) => m.status)), [['runtime_error']]);
  });

  test('a program compiled with trusted files: the artifact keeps the binary only, so their text cannot be read back', async () => {
    const golden = 'int golden(int x) { return x * 3 + 1; } // TRUSTED-GOLDEN-TEXT\n';
    const bench = '#include <cstdio>\nint golden(int); int candidate(int);\nbool peek();\n'
      + 'int main() { bool same = true; for (int x = 0; x < 50; x++) same = same && golden(x) == candidate(x); std::printf("%s%s\\n", same ? "ok" : "bad", peek() ? "-peeked" : ""); }\n';
    const candidate = '#include <cstdio>\n#include <cstring>\n#include <initializer_list>\nint candidate(int x) { return 3 * x + 1; }\n'
      + 'bool peek() { for (const char *p : {"/artifact/golden.cpp", "/artifact/tb.cpp", "golden.cpp"}) { FILE *f = std::fopen(p, "r"); char b[256] = {0};'
      + ' if (f && std::fread(b, 1, 255, f) > 0 && std::strstr(b, "TRUSTED")) return true; } return false; }\n';
    const problem = (taskId: string, keep?: readonly string[]): RunsProblem => ({
      kind: 'toy_runs', taskId, runs: [{ data: '0', args: [], expected: 'ok' }], files: { 'golden.cpp': golden, 'tb.cpp': bench },
      compileArgv: ['/usr/bin/g++', '-O2', '-o', 'main', 'main.cpp', 'golden.cpp', 'tb.cpp'], ...keep === undefined ? {} : { keep } });
    const kept = await judged(problem('keep-binary', ['main']), candidate, 'cpp');
    assert.equal(kept.status, 'passed', kept.reason);
    // The same program with every file kept: the candidate reads the golden module's text (what `keep` prevents).
    const open = await judged(problem('keep-all'), candidate, 'cpp');
    assert.deepEqual([open.status, open.tests[0]?.reason], ['wrong_answer', 'ok-peeked']);
  });

  test('compile only: the compiler\'s result and the files it left are the verdict\'s input', async () => {
    const proof: ProofProblem = { kind: 'toy_proof', taskId: 'proof' };
    assert.equal((await judged(proof, 'int main(void) { return 0; }\n', 'c')).status, 'passed');
    const broken = await judged({ ...proof, taskId: 'no-proof' }, 'int main(void) { return }\n', 'c');
    assert.equal(broken.status, 'wrong_answer');
    const outcome = seen.get('no-proof') as CompileOnlyOutcome;
    assert.equal(outcome.result.status, 'compile_error');
    assert.match(outcome.result.stderr, /expected/);
    assert.deepEqual(outcome.files, {});
  });

  test('interactive: the candidate talks to a trusted interactor whose secret is only in its own box', async () => {
    const problem: GuessProblem = { kind: 'toy_guess', taskId: 'guess', secrets: [1, 37, 100] };
    const search = 'lo, hi = 1, 100\nwhile True:\n    mid = (lo + hi) // 2\n    print("?", mid, flush=True)\n    r = int(input())\n'
      + '    if r == 0: print("!", mid, flush=True); break\n    if r > 0: hi = mid - 1\n    else: lo = mid + 1\n';
    const v = await judged(problem, search);
    assert.equal(v.status, 'passed', v.reason);
    assert.equal((seen.get('guess') as InteractiveOutcome).runs.length, 3);
    // Reading the interactor's arguments through /proc finds nothing: it is not in this box.
    const peek = 'import os\nfound = 50\nfor pid in os.listdir("/proc"):\n    try: args = open(f"/proc/{pid}/cmdline").read().split("\\0")\n'
      + '    except Exception: continue\n    if any("sys.argv" in a for a in args) or (len(args) > 2 and args[-2].isdigit()): found = int(args[-2])\n'
      + 'print("!", found, flush=True)\n';
    const hostile = await judged({ ...problem, taskId: 'guess-peek' }, peek);
    assert.equal(hostile.status, 'wrong_answer');
  });
});

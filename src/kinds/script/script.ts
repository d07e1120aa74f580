/**
 * `script` problems (HumanEval-X, MultiPL-E's model): the program is the prompt plus the completion, followed by
 * the problem's test code, run once as one script or compiled program in the problem's language
 * (CodeGeeX `execution.py`; MultiPL-E `evaluation/`). The assembly per language is data
 * (`./one-program.ts`, `./humaneval-x/one-program.ts`, `./multipl-e/one-program.ts`).
 *
 * A program passes only if (a) its run ended `ok` (exit status 0 within the limits), (b) no test failed (the
 * language's test code exits non-zero on a failure; where a test library only prints, the assembly makes the
 * failure count), and (c) its stdout holds the line `SCRIPT_MARKER <nonce>`, printed by trusted code after the
 * tests with a nonce Crucible draws afresh for every plan (16 random bytes, hex) and hands the run on stdin
 * only. An early `exit(0)`, a printed success line, or tests that never ran leave no such line. What a program
 * that reads its own stdin on purpose can do is in docs/SECURITY.md ("Script problems").
 *
 * `plan` is the one place a mode draws randomness: the plan is still data (the nonce travels in it), so a judge
 * on another machine checks the run it made against the nonce it was given.
 */
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { ScriptProblem } from '../../formats/types.js';
import {
  detailText, failedTestDetail, reasonWithStderr, runStatus, shortReason, type TestResult, type Verdict, type VerdictDetail,
} from '../../verdict/index.js';
import type { ProgramRunsOutcome } from '../../judge/plan.js';
import { defineMode, defineReference, GroundTruthError, type JudgingMode, type ModeSummary } from '../../judge/mode.js';
import { assembleScript, SCRIPT_MARKER, type ScriptAssembly } from './one-program.js';
import { SCRIPT_ASSEMBLY } from './humaneval-x/one-program.js';
import { MULTIPL_E_SCRIPT_ASSEMBLY } from './multipl-e/one-program.js';
import { stderrRuleFailure, stdoutRuleFailure } from './output-rules.js';
import { EXPECTED_VALUES_LIMITS, expectedValueTexts, judgeSplitRun, type SplitTests, type ValueSplit } from './split.js';
import { MULTIPL_E_SPLITS } from './multipl-e/index.js';
import { judgeReplayRun, shownRun, type DrivenReplay, type ReplayProblem } from './humaneval-x/replay.js';
import { HUMANEVAL_X_REPLAYS } from './humaneval-x/index.js';

/** The assembly table of a problem's dialect. */
export function assemblyTable(problem: ScriptProblem): Readonly<Record<string, ScriptAssembly>> {
  return problem.dialect === 'multipl-e' ? MULTIPL_E_SCRIPT_ASSEMBLY : SCRIPT_ASSEMBLY;
}

const splitMemo = new WeakMap<ScriptProblem, { readonly split: ValueSplit; readonly tests: SplitTests } | null>();

/**
 * The split judging of a problem (`./split.ts`): its language's `ValueSplit` and its tests read as cases,
 * or undefined when the language has none or the tests are not in the shape it reads (then the whole script runs
 * in one process and the end-of-tests marker decides).
 */
export function splitOf(problem: ScriptProblem): { readonly split: ValueSplit; readonly tests: SplitTests } | undefined {
  let found = splitMemo.get(problem);
  if (found === undefined) {
    const split = problem.dialect === 'multipl-e' ? MULTIPL_E_SPLITS[problem.language] : undefined;
    const tests = split?.cases(problem.test);
    found = split === undefined || tests === undefined ? null : { split, tests };
    splitMemo.set(problem, found);
  }
  return found ?? undefined;
}

const replayMemo = new WeakMap<ScriptProblem, ReplayProblem | null>();

/** The replay judging of a default-dialect problem (`./humaneval-x/replay.ts`), or undefined (then one script runs). */
export function replayOf(problem: ScriptProblem): ReplayProblem | undefined {
  let found = replayMemo.get(problem);
  if (found === undefined) {
    found = (problem.dialect === undefined ? HUMANEVAL_X_REPLAYS[problem.language]?.prepare(problem) : undefined) ?? null;
    replayMemo.set(problem, found);
  }
  return found ?? undefined;
}

/**
 * How a script problem's samples are judged: `split` (values out of the candidate's box, `./split.ts`),
 * `replay` (recorded calls replayed into the tests in a trusted box, `./humaneval-x/replay.ts`), or `one-program`
 * (prompt + completion + tests in one process, passing on the end-of-tests marker: the fallback, which a program
 * written against Crucible can forge by reading the nonce from its stdin; docs/SECURITY.md "Script problems").
 */
export type ScriptJudging = 'split' | 'replay' | 'one-program';

/** How `problem`'s samples are judged (see `ScriptJudging`), as the plan below chooses. */
export function scriptJudgingOf(problem: ScriptProblem): ScriptJudging {
  if (splitOf(problem) !== undefined) return 'split';
  return replayOf(problem) !== undefined ? 'replay' : 'one-program';
}

/**
 * The `check` of a script plan's run (Crucible's only: never in a box): the expected values of a split problem
 * (the reference), the nonce the trusted replay run gets (with, for a driven replay, the candidate's driver and
 * its limits: `judgeRun` runs it again with the test's calls on stdin, `./humaneval-x/replay.ts` "Driven calls"),
 * or the nonce of the one-program end-of-tests marker.
 */
type ScriptCheck =
  | { readonly judging: 'split'; readonly expected: readonly string[] }
  | { readonly judging: 'replay'; readonly nonce: string; readonly driven?: DrivenReplay }
  | { readonly judging: 'one-program'; readonly nonce: string };

/**
 * The expected values of a split problem, as value texts (`./split.ts`): the trusted expected-values program run
 * once per problem in a box of its own and cached on disk; only split problems have it.
 */
const expectedValuesReference = defineReference<ScriptProblem, readonly string[], 'program_runs'>({
  version: 1,
  applies: (problem) => splitOf(problem) !== undefined,
  fingerprint: (problem) => createHash('sha256').update(JSON.stringify([problem.language, expectedSource(problem)])).digest('hex'),
  plan: (problem) => ({
    kind: 'program_runs', program: { language: problem.language, source: expectedSource(problem) }, runs: [{ stdin: '', check: null }],
    limits: EXPECTED_VALUES_LIMITS, failFast: false,
  }),
  parse: (problem, outcome) => {
    const run = outcome.runs[0];
    if (!outcome.compiled || run === undefined) {
      const c = outcome.compile;
      throw new GroundTruthError(`the trusted expected-values program did not compile (${c?.status}): ${c?.stderr.slice(0, 400) ?? ''}`.trim(),
        c?.status === 'internal_error');
    }
    return expectedValueTexts(run, splitOf(problem)!.tests.cases.length);
  },
  schema: z.array(z.string()),
});

/** The trusted expected-values program of a split problem. */
function expectedSource(problem: ScriptProblem): string {
  const { split, tests } = splitOf(problem)!;
  return split.expectedProgram({ setup: problem.setup ?? '', prompt: problem.prompt, tests });
}

/** At most this many one-program task ids are named in a run's summary. */
const ONE_PROGRAM_NAMED = 20;

/**
 * How a run's script problems are judged, for `crucible eval`'s summary (`scriptJudging`): counts, and the ids of
 * those judged as one program (the fallback whose end-of-tests marker a program written against Crucible can
 * forge; at most `ONE_PROGRAM_NAMED`).
 */
function summariseScripts(problems: readonly ScriptProblem[]): ModeSummary | undefined {
  if (problems.length === 0) return undefined;
  const how = problems.map((p) => [p.taskId, scriptJudgingOf(p)] as const);
  const oneProgram = how.filter(([, h]) => h === 'one-program').map(([id]) => id);
  const named = oneProgram.slice(0, ONE_PROGRAM_NAMED);
  const value = { split: how.filter(([, h]) => h === 'split').length, replay: how.filter(([, h]) => h === 'replay').length,
    oneProgram: oneProgram.length, oneProgramTasks: named };
  const text = `script problems: ${value.split} split, ${value.replay} replayed, ${value.oneProgram} as one program`
    + (oneProgram.length === 0 ? '' : ` (${named.join(', ')}${oneProgram.length > named.length ? ', ...' : ''}: `
      + 'their tests are not in a shape Crucible reads as cases or calls, so a program written against Crucible could forge '
      + 'their end-of-tests marker; docs/SECURITY.md "Script problems")');
  return { field: 'scriptJudging', value, text };
}

/** `completion` cut at the first of `stopTokens` (MultiPL-E stops generation there); unchanged without them. */
export function cutAtStopTokens(completion: string, stopTokens: readonly string[] | undefined): string {
  let end = completion.length;
  for (const token of stopTokens ?? []) {
    if (token === '') continue;
    const at = completion.indexOf(token);
    if (at >= 0 && at < end) end = at;
  }
  return completion.slice(0, end);
}

/** Bytes of randomness in a run's nonce (hex-encoded: twice as many characters). */
export const NONCE_BYTES = 16;

/** Bytes of randomness in the per-plan `{secret}` of trusted names (`assembleScript`); it is in the source, unlike the nonce. */
const SECRET_BYTES = 8;

/** Whether `stdout` holds the marker line with `nonce` (a line of its own; trailing `\r` tolerated). */
export function hasMarker(stdout: string, nonce: string): boolean {
  const wanted = `${SCRIPT_MARKER} ${nonce}`;
  return stdout.split('\n').some((line) => line.replace(/\r$/, '') === wanted);
}

function runOutcome(outcome: ProgramRunsOutcome, testCount: number): Verdict {
  if (!outcome.compiled) {
    const r = outcome.compile!;
    return { status: r.status === 'internal_error' ? 'internal_error' : 'compile_error', passed: false, tests: [], testCount,
      cpuMs: r.cpuMs, wallMs: r.wallMs, reason: shortReason(`${r.reason ?? ''}: ${r.stderr.slice(0, 500)}`) };
  }
  const test = outcome.tests[0];
  const run = outcome.runs[0];
  if (test === undefined || run === undefined) {
    return { status: 'internal_error', passed: false, tests: [], testCount, cpuMs: 0, wallMs: 0, reason: 'the script did not run' };
  }
  const reason = test.reason;
  return { status: test.status, passed: test.status === 'passed', tests: [test], testCount, cpuMs: run.cpuMs, wallMs: run.wallMs,
    ...(reason === undefined ? {} : { reason }) };
}

const script: JudgingMode<ScriptProblem, 'program_runs', ScriptCheck, readonly string[] | undefined> = {
  kind: 'script',
  description: 'prompt + completion + the problem\'s tests in its language (HumanEval-X, MultiPL-E): split where the language '
    + 'allows (the candidate\'s values and the expected values from separate boxes, compared outside), replay for HumanEval-X '
    + '(the tests\' calls made in the candidate\'s box, their results replayed into the tests in a trusted one), else one program '
    + 'with exit 0, no failed test and a per-run nonce printed after the tests',
  language: (problem, requested) => requested ?? problem.language,
  acceptsLanguage: (problem, languageId) => languageId === problem.language
    && (assemblyTable(problem)[languageId] !== undefined || splitOf(problem) !== undefined),
  assemble: (problem, code, shape) => shape === 'completion' ? problem.prompt + cutAtStopTokens(code, problem.stopTokens) : code,
  testCount: () => 1,
  reference: expectedValuesReference,
  plan: (problem, program, { limits, failFast, reference }) => {
    const split = splitOf(problem);
    if (split !== undefined) {
      if (reference === undefined) throw new Error(`${problem.taskId}: the expected values of a split problem are missing`);
      const source = split.split.candidateProgram({ setup: problem.setup ?? '', program: program.source, tests: split.tests });
      return { kind: 'program_runs', program: { language: program.language, source },
        runs: [{ stdin: '', check: { judging: 'split', expected: reference } }], limits, failFast };
    }
    const nonce = randomBytes(NONCE_BYTES).toString('hex');
    const replay = replayOf(problem);
    if (replay !== undefined) {
      const source = replay.candidateProgram(program.source);
      if (replay.argumentPrograms !== undefined) {
        const driven = { language: program.language, source };
        return { kind: 'program_runs', program: driven, runs: [{ stdin: '', check: { judging: 'replay', nonce, driven: { program: driven, limits } } }],
          limits, failFast };
      }
      return { kind: 'program_runs', program: { language: program.language, source }, runs: [{ stdin: '\n', check: { judging: 'replay', nonce } }],
        limits, failFast };
    }
    const secret = randomBytes(SECRET_BYTES).toString('hex');
    const source = assembleScript(problem.language, { setup: problem.setup ?? '', program: program.source, test: problem.test, secret },
      assemblyTable(problem));
    return { kind: 'program_runs', program: { language: program.language, source }, runs: [{ stdin: `${nonce}\n`, check: { judging: 'one-program', nonce } }],
      limits, failFast };
  },
  judgeRun: async (problem, run, index, result, tools): Promise<TestResult> => {
    const check = run.check;
    if (check.judging === 'split') {
      const split = splitOf(problem)!;
      return judgeSplitRun(problem, split.split, split.tests, check.expected, index, result);
    }
    if (check.judging === 'replay') return judgeReplayRun(problem, replayOf(problem)!, check.nonce, index, result, tools, check.driven);
    const nonce = check.nonce;
    const base = { index, cpuMs: result.cpuMs, wallMs: result.wallMs };
    if (result.status !== 'ok') {
      return { ...base, status: runStatus(result), reason: shortReason(reasonWithStderr(result.reason, result.stderr)) ?? result.status };
    }
    const stderrRule = stderrRuleFailure(problem, result.stderr);
    if (stderrRule !== undefined) return { ...base, ...stderrRule };
    if (!hasMarker(result.stdout, nonce)) {
      return { ...base, status: 'wrong_answer', reason: 'exited 0 but the tests did not run to the end (no end-of-tests marker with this run\'s nonce)' };
    }
    const stdoutRule = stdoutRuleFailure(problem, result.stdout, (line) => line === `${SCRIPT_MARKER} ${nonce}`);
    if (stdoutRule !== undefined) return { ...base, ...stdoutRule };
    return { ...base, status: 'passed' };
  },
  verdict: (_problem, outcome): Verdict => runOutcome(outcome, 1),
  detail: (_problem, outcome, verdict): VerdictDetail => {
    if (!outcome.compiled) {
      const c = outcome.compile!;
      return { failures: [], ...(c.stderr === '' ? {} : { stderr: detailText(c.stderr) }), memoryKiB: c.memoryKiB };
    }
    const planned = outcome.runs[0];
    const run = planned === undefined ? undefined : shownRun(planned);
    const failures = verdict.passed || run === undefined ? []
      : [failedTestDetail(0, { actual: run.stdout, stderr: run.stderr || undefined })];
    return { failures, memoryKiB: run?.memoryKiB ?? 0 };
  },
  describeTest: (problem, index) => failedTestDetail(index, {
    input: problem.test,
    expected: 'the program exits 0 and its tests run to the end',
  }),
  summarise: summariseScripts,
};

/** The `script` judging mode. */
export const scriptMode = defineMode(script);

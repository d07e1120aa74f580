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
import { randomBytes } from 'node:crypto';
import type { ScriptProblem } from '../../formats/types.js';
import {
  detailText, failedTestDetail, reasonWithStderr, runStatus, shortReason, type TestResult, type Verdict, type VerdictDetail,
} from '../../verdict/index.js';
import type { ProgramRunsOutcome } from '../../judge/plan.js';
import { defineMode, type JudgingMode } from '../../judge/mode.js';
import { assembleScript, SCRIPT_MARKER, type ScriptAssembly } from './one-program.js';
import { SCRIPT_ASSEMBLY } from './humaneval-x/one-program.js';
import { MULTIPL_E_SCRIPT_ASSEMBLY } from './multipl-e/one-program.js';
import { stderrRuleFailure, stdoutRuleFailure } from './output-rules.js';
import { judgeSplitRun, type SplitTests, type ValueSplit } from './split.js';
import { MULTIPL_E_SPLITS } from './multipl-e/index.js';
import { judgeReplayRun, shownRun, type DrivenReplay, type ReplayProblem } from './humaneval-x/replay.js';
import { HUMANEVAL_X_REPLAYS } from './humaneval-x/index.js';

/** The assembly table of a problem's dialect. */
export function assemblyTable(problem: ScriptProblem): Readonly<Record<string, ScriptAssembly>> {
  return problem.dialect === 'multipl-e' ? MULTIPL_E_SCRIPT_ASSEMBLY : SCRIPT_ASSEMBLY;
}

/** The `check` of a split plan's run (a nonce is 32 hex digits, so the two never meet). */
const SPLIT_CHECK = 'split';

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

/** The `check` prefix of a replay plan's run (followed by the trusted run's nonce). */
const REPLAY_CHECK = 'replay:';

/**
 * The `check` of a driven replay plan's run (`./humaneval-x/replay.ts`, "Driven calls"): the planned run gives
 * the driver no calls; `judgeRun` runs it again with the test's calls on stdin under the plan's limits.
 */
interface DrivenReplayCheck {
  readonly nonce: string;
  readonly driven: DrivenReplay;
}

/** A script plan's per-run data: the split tag, a replay check or the one program's nonce. */
type ScriptCheck = string | DrivenReplayCheck;

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

const script: JudgingMode<ScriptProblem, ScriptCheck> = {
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
  plan: (problem, program, { limits, failFast }) => {
    const split = splitOf(problem);
    if (split !== undefined) {
      const source = split.split.candidateProgram({ setup: problem.setup ?? '', program: program.source, tests: split.tests });
      return { kind: 'program_runs', program: { language: program.language, source }, runs: [{ stdin: '', check: SPLIT_CHECK }], limits, failFast };
    }
    const nonce = randomBytes(NONCE_BYTES).toString('hex');
    const replay = replayOf(problem);
    if (replay !== undefined) {
      const source = replay.candidateProgram(program.source);
      if (replay.argumentPrograms !== undefined) {
        const driven = { language: program.language, source };
        return { kind: 'program_runs', program: driven, runs: [{ stdin: '', check: { nonce, driven: { program: driven, limits } } }], limits, failFast };
      }
      return { kind: 'program_runs', program: { language: program.language, source }, runs: [{ stdin: '\n', check: `${REPLAY_CHECK}${nonce}` }],
        limits, failFast };
    }
    const secret = randomBytes(SECRET_BYTES).toString('hex');
    const source = assembleScript(problem.language, { setup: problem.setup ?? '', program: program.source, test: problem.test, secret },
      assemblyTable(problem));
    return { kind: 'program_runs', program: { language: program.language, source }, runs: [{ stdin: `${nonce}\n`, check: nonce }],
      limits, failFast };
  },
  judgeRun: async (problem, run, index, result, tools): Promise<TestResult> => {
    if (typeof run.check !== 'string') {
      const driven = replayOf(problem);
      if (driven === undefined) throw new Error(`${problem.taskId}: a driven replay run of a problem replay does not judge`);
      return judgeReplayRun(problem, driven, run.check.nonce, index, result, tools, run.check.driven);
    }
    const split = run.check === SPLIT_CHECK ? splitOf(problem) : undefined;
    if (split !== undefined) return judgeSplitRun(problem, split.split, split.tests, index, result, tools);
    const replay = run.check.startsWith(REPLAY_CHECK) ? replayOf(problem) : undefined;
    if (replay !== undefined) return judgeReplayRun(problem, replay, run.check.slice(REPLAY_CHECK.length), index, result, tools);
    const base = { index, cpuMs: result.cpuMs, wallMs: result.wallMs };
    if (result.status !== 'ok') {
      return { ...base, status: runStatus(result), reason: shortReason(reasonWithStderr(result.reason, result.stderr)) ?? result.status };
    }
    const stderrRule = stderrRuleFailure(problem, result.stderr);
    if (stderrRule !== undefined) return { ...base, ...stderrRule };
    if (!hasMarker(result.stdout, run.check)) {
      return { ...base, status: 'wrong_answer', reason: 'exited 0 but the tests did not run to the end (no end-of-tests marker with this run\'s nonce)' };
    }
    const stdoutRule = stdoutRuleFailure(problem, result.stdout, (line) => line === `${SCRIPT_MARKER} ${run.check}`);
    if (stdoutRule !== undefined) return { ...base, ...stdoutRule };
    return { ...base, status: 'passed' };
  },
  verdict: (_problem, outcome): Verdict => {
    if (outcome.kind !== 'program_runs') throw new Error('script problems are judged by program runs');
    return runOutcome(outcome, 1);
  },
  detail: (_problem, outcome, verdict): VerdictDetail => {
    if (outcome.kind !== 'program_runs') throw new Error('script problems are judged by program runs');
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
};

/** The `script` judging mode. */
export const scriptMode = defineMode(script);

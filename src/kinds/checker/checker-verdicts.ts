/**
 * Checkers: problem-supplied programs that decide whether a solution's output is right, run in the sandbox.
 *
 * - `testlib`: a C++ checker built on testlib.h (github.com/MikeMirzayanov/testlib; Codeforces/Polygon), compiled
 *   ONCE per distinct source with `g++ -std=gnu++17 -O2` against the problem's own `testlib.h`, else the one
 *   `CRUCIBLE_TESTLIB` names, else Crucible's own checker library (harness/checkers/testlib.h, testlib's checker
 *   API written for Crucible), run as `checker input output answer`. Its verdict is its exit code
 *   (testlib.h `resultExitCode`, default build): 0 ok, 1 wrong answer, 2 presentation error, 3 fail (the
 *   checker's own failure), 7 points (`quitp`, the score is the number after "points " on stderr).
 * - `python`: open-r1's generated `checker.py` (guipenedo/piston `packages/codeforces/1.0.0/run`): run as
 *   `python3 checker.py input correct_output solution_output`; stdout, whitespace removed, `1` or `100` is
 *   accepted, `0` wrong. It is also what open-r1's Codeforces data (`generated_checker`) ships.
 * - `cms`: a CMS "comparator" checker (IOI data; cms `cms/grading/steps/evaluation.py`, guipenedo/piston
 *   `packages/cms_ioi/1.0.0/run`): `checker input correct_output solution_output`, prints the score as a float in
 *   [0, 1] on stdout and a message on stderr.
 *
 * A checker that crashes, runs out of its limits, exits with a code it has no meaning for, or prints something
 * that is not a verdict is `fail`: Crucible cannot say whether the solution is right, which is a judge error
 * (`internal_error` upstream), never a wrong answer.
 *
 * This module holds the kinds' shapes and verdict rules; running a checker in the sandbox is
 * `src/engine/contest/run-checker.ts`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../sandbox/paths.js';
import type { ExecutionResult, Limits } from '../../sandbox/types.js';
import { runLimits } from '../../limits.js';

/** The kinds of checker Crucible runs. */
export type CheckerKind = 'testlib' | 'python' | 'cms';

/**
 * A problem's checker. `source` is `checker.cpp` (testlib, cms) or `checker.py` (python); `testlibHeader` is the
 * problem's own testlib.h when it ships one (else `defaultTestlibHeader()`).
 */
export interface CheckerSpec {
  readonly kind: CheckerKind;
  readonly source: string;
  readonly testlibHeader?: string;
}

/**
 * What a checker decided. `score` is in [0, 1] for every verdict but `fail` (0 there): 1 for ok, 0 for
 * wrong answer / presentation error, the checker's number for points. `message` is what the checker said
 * (stderr for testlib and cms, stdout for python), cut to 2,000 characters.
 */
export interface CheckerVerdict {
  readonly verdict: 'ok' | 'wrong_answer' | 'presentation_error' | 'points' | 'fail';
  readonly score: number;
  readonly message: string;
  /** The checker's own run (its limits, time and memory), for diagnostics. */
  readonly run: ExecutionResult | null;
}

/** The three texts a checker judges: the test's input, the solution's output, the reference answer. */
export interface CheckerInput {
  readonly input: string;
  readonly output: string;
  readonly answer: string;
}

/** testlib.h's default exit codes (testlib.h `OK_EXIT_CODE` ... `POINTS_EXIT_CODE`, no `EJUDGE`/`CONTESTER`). */
export const TESTLIB_EXIT_CODES = { ok: 0, wrong_answer: 1, presentation_error: 2, fail: 3, points: 7 } as const;

/** Limits of a checker run: 10 s of CPU (the codeforces package's `timeout 10`), 1 GiB, 1 MiB of output. */
export const CHECKER_LIMITS: Limits = runLimits({ cpuMs: 10_000, memoryKiB: 1024 * 1024, outputBytes: 1024 * 1024 });

const MESSAGE_CHARS = 2000;

/** Crucible's own checker library: testlib's documented checker API, written for Crucible. */
export const CRUCIBLE_TESTLIB_PATH = join(PROJECT_ROOT, 'harness', 'checkers', 'testlib.h');

let headerRead: { path: string; text: string } | null = null;
/**
 * The testlib.h a testlib checker compiles against when its problem ships none: the file the environment
 * variable `CRUCIBLE_TESTLIB` names (a user's own testlib.h), else `CRUCIBLE_TESTLIB_PATH`. Read once per path.
 * @throws Error naming the variable and the path when the file cannot be read.
 */
export function defaultTestlibHeader(): string {
  const path = process.env['CRUCIBLE_TESTLIB'] || CRUCIBLE_TESTLIB_PATH;
  if (headerRead?.path !== path) {
    try {
      headerRead = { path, text: readFileSync(path, 'utf8') };
    } catch (error) {
      const origin = path === CRUCIBLE_TESTLIB_PATH ? 'Crucible\'s checker library' : 'CRUCIBLE_TESTLIB';
      throw new Error(`${origin}: cannot read ${path}: ${(error as Error).message}`);
    }
  }
  return headerRead.text;
}

/** A `fail` verdict saying `message` (cut to 2,000 characters), with the checker's run when there was one. */
export function failed(message: string, run: ExecutionResult | null): CheckerVerdict {
  return { verdict: 'fail', score: 0, message: message.slice(0, MESSAGE_CHARS), run };
}

/**
 * The verdict of a testlib checker from its run: exit code, and for `points` the number after "points " on
 * stderr (testlib.h `__testlib_quitp` writes "points <value> <message>"). Points outside [0, 1] are a `fail`
 * (Crucible's scores are fractions of a test; a Polygon checker scoring absolute points needs the problem's
 * scale, which it does not ship). Exported for tests.
 */
export function testlibVerdict(run: ExecutionResult): CheckerVerdict {
  const message = run.stderr.trim().slice(0, MESSAGE_CHARS);
  if (run.status !== 'ok' && run.status !== 'runtime_error') return failed(`checker ${run.status}: ${run.reason ?? ''} ${message}`.trim(), run);
  if (run.signal !== null) return failed(`checker killed by ${run.signal}: ${message}`, run);
  switch (run.exitCode) {
    case TESTLIB_EXIT_CODES.ok: return { verdict: 'ok', score: 1, message, run };
    case TESTLIB_EXIT_CODES.wrong_answer: return { verdict: 'wrong_answer', score: 0, message, run };
    case TESTLIB_EXIT_CODES.presentation_error: return { verdict: 'presentation_error', score: 0, message, run };
    case TESTLIB_EXIT_CODES.fail: return failed(`checker failed: ${message}`, run);
    case TESTLIB_EXIT_CODES.points: {
      const m = /^points\s+([0-9.eE+-]+)/.exec(message);
      const score = m ? Number(m[1]) : Number.NaN;
      if (!Number.isFinite(score) || score < 0 || score > 1) return failed(`checker gave points outside [0, 1]: ${message}`, run);
      return { verdict: 'points', score, message, run };
    }
    default: return failed(`checker exited ${run.exitCode}, which testlib does not define: ${message}`, run);
  }
}

/**
 * The verdict of an open-r1 Python checker from its run: stdout without whitespace `1` or `100` is ok, `0` is
 * a wrong answer; a non-zero exit, a crash, or anything else printed is `fail`.
 */
export function pythonCheckerVerdict(run: ExecutionResult): CheckerVerdict {
  const said = run.stdout.replace(/\s+/g, '');
  const message = (run.stdout.trim() + (run.stderr.trim() ? `\n${run.stderr.trim()}` : '')).slice(0, MESSAGE_CHARS);
  if (run.status !== 'ok') return failed(`checker ${run.status}: ${run.reason ?? ''} ${run.stderr.trim()}`.trim(), run);
  if (said === '1' || said === '100') return { verdict: 'ok', score: 1, message, run };
  if (said === '0') return { verdict: 'wrong_answer', score: 0, message, run };
  return failed(`checker printed neither 1/100 nor 0: ${JSON.stringify(run.stdout.slice(0, 200))}`, run);
}

/**
 * The verdict of a CMS checker from its run: exit 0 and a number in [0, 1] as the first token of stdout
 * (1 ok, 0 wrong answer, between: points); anything else is `fail`.
 */
export function cmsCheckerVerdict(run: ExecutionResult): CheckerVerdict {
  const message = run.stderr.trim().slice(0, MESSAGE_CHARS);
  if (run.status !== 'ok') return failed(`checker ${run.status}: ${run.reason ?? ''} ${message}`.trim(), run);
  const token = run.stdout.trim().split(/\s+/)[0] ?? '';
  const score = /^[0-9.eE+-]+$/.test(token) ? Number(token) : Number.NaN;
  if (!Number.isFinite(score) || score < 0 || score > 1) return failed(`checker printed no score in [0, 1]: ${JSON.stringify(run.stdout.slice(0, 200))}`, run);
  return { verdict: score === 1 ? 'ok' : score === 0 ? 'wrong_answer' : 'points', score, message, run };
}

/**
 * A verdict: what judging one submission on one problem established, as plain serialisable data with units in
 * the field names. Built by the judging modes (`src/kinds/`), stored per sample (`src/store/`), sent over
 * HTTP (`src/server/`), turned into rewards (`src/reward/`) and metrics (`src/metrics/`).
 * Also here: the small pure helpers every mode uses to assemble one.
 */
import { z } from 'zod';
import type { ExecutionResult } from '../sandbox/types.js';
import type { AnalysisReport } from './analysis.js';
import { formalCheckSchema, type FormalCheck } from './formal.js';
import { sampleStatusSchema, type SampleStatus } from './status.js';

/**
 * Result of one test case (one input, one assertion group, one checker call) of a sample. Times in ms.
 * `score` in [0, 1] is the test's partial credit, given only by modes that grade tests (checkers with points);
 * absent means all-or-nothing (`status === 'passed'`).
 */
export interface TestResult {
  readonly index: number;
  readonly status: SampleStatus;
  readonly cpuMs?: number;
  readonly wallMs?: number;
  /** Short reason for a failure (assertion, exception type, comparator message), cut to 300 characters. */
  readonly reason?: string;
  readonly score?: number;
  /**
   * The points a problem's own validator gave this test, on the problem's scale (a Kattis output validator's
   * `score.txt`: any finite number); `score` stays the fraction in [0, 1].
   */
  readonly points?: number;
  /** The formal check of the design this test simulated (`verilog` problems with `formal`), beside its status. */
  readonly formal?: FormalCheck;
}

/**
 * A judged submission. `passed` only when every test ran and passed. `tests` may hold fewer than `testCount`
 * results after a fail-fast stop. EvalPlus problems add `plusStatus`/`plusPassed` (`plusPassed` only when base
 * passed too). `score` in [0, 1] is partial credit for modes that define one (IOI subtasks, graded checkers);
 * absent means all-or-nothing. `cpuMs`/`wallMs` sum the program's executions, ms. `notRun`: tests left unrun because
 * the run stopped after the time-outs the request allowed (`JudgeRequest.stopAfterTimeouts`): those tests are absent
 * from `tests`, neither passed nor failed; absent when every test ran or the stop was fail-fast's.
 */
export interface Verdict {
  readonly status: SampleStatus;
  readonly passed: boolean;
  readonly plusStatus?: SampleStatus;
  readonly plusPassed?: boolean;
  readonly tests: readonly TestResult[];
  readonly testCount: number;
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly reason?: string;
  readonly score?: number;
  /** Static analysis of the sample, when the request asked for it (`src/analysis/`). */
  readonly analysis?: AnalysisReport;
  /** The formal check of a design against its reference (`verilog` with `formal`): beside `status`, never replacing it. */
  readonly formal?: FormalCheck;
  readonly notRun?: number;
}

const nonNegative = z.number().finite().nonnegative();

/** zod schema of a `TestResult` (files and bodies that carry one). */
export const testResultSchema = z.object({
  index: z.number().int().nonnegative(),
  status: sampleStatusSchema,
  cpuMs: nonNegative.optional(),
  wallMs: nonNegative.optional(),
  reason: z.string().optional(),
  score: z.number().min(0).max(1).optional(),
  points: z.number().finite().optional(),
  formal: formalCheckSchema.optional(),
});

/** Longest reason a verdict or test result keeps, characters. */
export const REASON_CHARS = 300;

/** Cut a reason to the `REASON_CHARS` a verdict keeps. */
export function shortReason(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  return text.length > REASON_CHARS ? `${text.slice(0, REASON_CHARS - 3)}...` : text;
}

/**
 * The last lines of a program's stderr, for a reason a user can act on without re-running: at most
 * `maxChars` characters (whole lines where possible), trailing whitespace dropped; '' when stderr is empty.
 */
export function stderrTail(stderr: string, maxChars = 200): string {
  const text = stderr.trimEnd();
  if (text.length <= maxChars) return text;
  const cut = text.slice(text.length - maxChars);
  const newline = cut.indexOf('\n');
  return `…${newline >= 0 && newline < cut.length - 1 ? cut.slice(newline + 1) : cut}`;
}

/** A failed run's reason followed by the tail of its stderr (`exit code 1: ValueError: bad input`). */
export function reasonWithStderr(reason: string | undefined, stderr: string): string | undefined {
  const tail = stderrTail(stderr);
  if (tail === '') return reason;
  return reason === undefined ? tail : `${reason}: ${tail}`;
}

/** Map an execution status of a (non-compile) run onto a sample status. */
export function runStatus(result: ExecutionResult): SampleStatus {
  return result.status === 'ok' ? 'passed' : result.status;
}

/**
 * The sample's status from its tests: `passed` only if there was at least one test and every one passed;
 * otherwise the first failing test's status (tests run in order, so that is what stopped a fail-fast run).
 */
export function aggregateTests(tests: readonly TestResult[], testCount: number): { status: SampleStatus; reason?: string } {
  if (testCount === 0) return { status: 'no_tests', reason: 'the problem has no tests' };
  const failed = tests.find((t) => t.status !== 'passed');
  if (failed) return { status: failed.status, reason: failed.reason };
  if (tests.length < testCount) return { status: 'internal_error', reason: `only ${tests.length} of ${testCount} tests ran` };
  return { status: 'passed' };
}

/** A verdict with no tests run: decided before any execution (`no_code`, `invalid_submission`) or Crucible's failure. */
export function verdictWithoutTests(status: SampleStatus, testCount: number, reason: string, times = { cpuMs: 0, wallMs: 0 }): Verdict {
  return { status, passed: false, tests: [], testCount, cpuMs: times.cpuMs, wallMs: times.wallMs, reason: shortReason(reason) };
}

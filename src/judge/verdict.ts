/**
 * Verdict assembly (pure): from execution results and comparisons to a sample's verdict. The judge never
 * spawns a process; the runner hands it what happened.
 */
import type { ExecutionResult } from '../sandbox/types.js';
import type { SampleStatus, TestResult } from '../store/records.js';

/** A judged submission: the sample-level verdict plus per-test results. Times in ms. */
export interface JudgeVerdict {
  readonly status: SampleStatus;
  readonly passed: boolean;
  /** EvalPlus only: the verdict on plus inputs; `plusPassed` requires base to pass too. */
  readonly plusStatus?: SampleStatus;
  readonly plusPassed?: boolean;
  readonly tests: readonly TestResult[];
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly reason?: string;
  /** Number of tests the problem has (tests may hold fewer entries after a fail-fast stop). */
  readonly testCount: number;
}

/** Cut a reason to the 300 characters a record keeps. */
export function shortReason(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
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

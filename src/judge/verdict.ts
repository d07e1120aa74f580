/**
 * Verdict assembly (pure): from execution results and comparisons to a sample's verdict. The judge never
 * spawns a process; the runner hands it what happened.
 */
import type { ExecutionResult } from '../sandbox/types.js';
import type { SampleRecord, SampleStatus, TestResult } from '../store/records.js';

/**
 * A judged submission: the verdict fields of a `SampleRecord` (status, pass flags, per-test results, times
 * in ms, reason) plus the number of tests the problem has (`tests` may hold fewer after a fail-fast stop).
 */
export interface JudgeVerdict extends Pick<SampleRecord,
  'status' | 'passed' | 'plusStatus' | 'plusPassed' | 'tests' | 'cpuMs' | 'wallMs' | 'reason'> {
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

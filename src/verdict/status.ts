/**
 * The statuses of a judged sample, in one place: what every room (judge, store, server, metrics, reports)
 * says about a sample. The statuses of one sandboxed execution (`ExecutionStatus`) stay in the sandbox, which
 * knows nothing of tests; a sample status is an execution status (less `ok`) or one that only judging gives.
 */
import { z } from 'zod';
import { EXECUTION_STATUSES, type ExecutionStatus } from '../sandbox/types.js';

/**
 * Verdict of one sample on one problem. `passed` only when every test ran and passed, proven outside the
 * program's reach. `wrong_answer`: ran to the end, some test failed. `no_tests`: the problem's tests ran
 * zero assertions (never a pass). `no_code`: nothing to run was found in the response. `invalid_submission`:
 * the sample cannot be judged as given (e.g. a language Crucible has no toolchain for): the sample's fault,
 * never a pass, never Crucible's. `reference_failed`: the problem's reference solution failed under the judge's
 * own limits (e.g. an EvalPlus canonical solution that needs more memory than the limit), so there are no expected
 * values to judge against: a fact about the problem and the limits, never a verdict on the program and never
 * Crucible's failure; pass@k leaves such problems out unless asked to count them (`src/metrics/counts.ts`).
 * `internal_error`: Crucible itself failed; never a verdict on the program.
 */
export type SampleStatus =
  | 'passed'
  | 'wrong_answer'
  | 'no_tests'
  | 'no_code'
  | 'invalid_submission'
  | 'reference_failed'
  | Exclude<ExecutionStatus, 'ok'>;

/** Every `SampleStatus`, in a stable order for counts and reports. */
export const SAMPLE_STATUSES: readonly SampleStatus[] = [
  'passed',
  'wrong_answer',
  'no_tests',
  'no_code',
  'invalid_submission',
  'reference_failed',
  ...EXECUTION_STATUSES.filter((s): s is Exclude<typeof s, 'ok'> => s !== 'ok'),
];

const statusSet = new Set<string>(SAMPLE_STATUSES);

/** Whether `value` names a sample status. */
export function isSampleStatus(value: unknown): value is SampleStatus {
  return typeof value === 'string' && statusSet.has(value);
}

/** zod schema of a sample status (for files and bodies that carry one). */
export const sampleStatusSchema = z.custom<SampleStatus>(isSampleStatus, {
  message: `status must be one of ${SAMPLE_STATUSES.join(', ')}`,
});

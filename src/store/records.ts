/**
 * The on-disk contract of a run directory written by `crucible eval --out DIR`:
 * - `DIR/verdicts.jsonl`: one `SampleRecord` per line, appended (and fsynced) as samples finish;
 * - `DIR/summary.json`: one `RunSummary`, rewritten at the end of the run.
 * `crucible compare`, `crucible report` and resumption read these files back.
 */
import type { ExecutionStatus } from '../sandbox/types.js';

/**
 * Verdict of one sample on one problem. `passed` only when every test ran and passed, proven outside the
 * program's reach. `wrong_answer`: ran to the end, some test failed. `no_tests`: the problem's tests ran
 * zero assertions (never a pass). `no_code`: nothing to run was found in the response.
 */
export type SampleStatus =
  | 'passed'
  | 'wrong_answer'
  | 'no_tests'
  | 'no_code'
  | Exclude<ExecutionStatus, 'ok'>;

/** Result of one test case (one input / one assertion group) of a sample. Times in ms. */
export interface TestResult {
  readonly index: number;
  readonly status: SampleStatus;
  readonly cpuMs?: number;
  readonly wallMs?: number;
  /** Short reason for a failure (assertion, exception type, comparator message), cut to 300 characters. */
  readonly reason?: string;
}

/** One line of `verdicts.jsonl`. */
export interface SampleRecord {
  readonly taskId: string;
  readonly sampleIndex: number;
  /** sha256 of (language, program text): identical programs share a hash and were run once. */
  readonly programHash: string;
  readonly status: SampleStatus;
  readonly passed: boolean;
  /** EvalPlus only: verdict on the plus inputs; `plusPassed` is true only when base passed too. */
  readonly plusStatus?: SampleStatus;
  readonly plusPassed?: boolean;
  readonly tests: readonly TestResult[];
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly reason?: string;
}

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

/**
 * What one failing test showed, kept for people reading results (the dashboard's sample page), never written to
 * `verdicts.jsonl`. `index` is the test's index as in `TestResult`. Texts: `input` as the program received it
 * (stdin, the call's arguments in Python syntax, or the unit-test code), `expected` (expected stdout or return
 * value), `actual` (what the program printed or returned, or the failure it raised), `stderr` (its standard
 * error). Each is cut to `TEST_DETAIL_CHARS`; `cut` names the fields that were cut.
 */
export interface FailedTestDetail {
  readonly index: number;
  readonly input?: string;
  readonly expected?: string;
  readonly actual?: string;
  readonly stderr?: string;
  readonly cut?: readonly TestDetailField[];
}

/** The text fields of a `FailedTestDetail`. */
export type TestDetailField = 'input' | 'expected' | 'actual' | 'stderr';

/** Characters kept of each text of a `FailedTestDetail`. */
export const TEST_DETAIL_CHARS = 4000;

/**
 * Failing tests of a sample given a `FailedTestDetail` (what they printed or returned, their stderr); every
 * failing test keeps its status, reason and times in any case, and its input and expected output.
 */
export const MAX_DETAILED_FAILURES = 20;

/**
 * Build a `FailedTestDetail`, cutting each text to `TEST_DETAIL_CHARS` characters and recording which were cut.
 * Undefined texts are left out.
 */
export function failedTestDetail(index: number, texts: Partial<Record<TestDetailField, string | undefined>>): FailedTestDetail {
  const detail: { index: number; cut?: TestDetailField[] } & Partial<Record<TestDetailField, string>> = { index };
  const cut: TestDetailField[] = [];
  for (const field of ['input', 'expected', 'actual', 'stderr'] as const) {
    const text = texts[field];
    if (text === undefined) continue;
    if (text.length > TEST_DETAIL_CHARS) cut.push(field);
    detail[field] = text.length > TEST_DETAIL_CHARS ? text.slice(0, TEST_DETAIL_CHARS) : text;
  }
  if (cut.length > 0) detail.cut = cut;
  return detail;
}

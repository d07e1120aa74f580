/**
 * What people need to see why a sample failed, beside its verdict: what each failing test printed or returned
 * and its stderr, the compiler's stderr when nothing ran, and the peak memory. A judge returns it only to the
 * call that asked for it (`CallOptions.detail`) and actually judged the program; verdicts kept for
 * deduplication stay plain (`plainVerdict`), so the memo costs no more memory. The result store keeps it per
 * sample (`src/store/`); it is never written to `verdicts.jsonl`.
 */
import type { Verdict } from './verdict.js';

/**
 * One test shown as text. As a failing test's detail: `input` as the program received it (stdin, the call's
 * arguments in Python syntax, or the unit-test code), `expected` (expected stdout or return value), `actual`
 * (what the program printed or returned, or the failure it raised), `stderr` (its standard error). As a test
 * case's description (`Judge.describeTests`): `input` and `expected` only. `index` is the test's index as in
 * `TestResult`. Each text is cut to `TEST_DETAIL_CHARS` characters; `cut` names the fields that were cut.
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
 * failing test keeps its status, reason and times in the verdict in any case.
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

/**
 * A verdict's detail: `failures` (the first `MAX_DETAILED_FAILURES` failing tests, in test order), `stderr`
 * (the compiler's when compilation stopped the program, else the program's when no failing test carries it),
 * cut to `TEST_DETAIL_CHARS`, and `memoryKiB` (peak memory of the program's runs, KiB; 0 when not measured).
 */
export interface VerdictDetail {
  readonly failures?: readonly FailedTestDetail[];
  readonly stderr?: string;
  readonly memoryKiB?: number;
}

/**
 * Who judged a verdict when another machine did (a `crucible worker` of a queue's fleet): the worker's name, its
 * Crucible version, and the version of the toolchain that ran the program (the first line its language's
 * version command printed, `crucible languages`; null when there is none or it failed).
 */
export interface JudgedBy {
  readonly worker: string;
  readonly crucibleVersion: string;
  readonly toolchain: string | null;
}

/**
 * A verdict, with its `detail` when the caller asked for it and this call judged the program, and who judged it
 * (`judgedBy`) when a worker of a fleet did (absent for verdicts judged on this machine).
 */
export interface DetailedVerdict extends Verdict {
  readonly detail?: VerdictDetail;
  readonly judgedBy?: JudgedBy;
}

/** The verdict without its detail (what a judge remembers and shares between identical requests). */
export function plainVerdict(verdict: DetailedVerdict): Verdict {
  if (verdict.detail === undefined) return verdict;
  const { detail: _detail, ...plain } = verdict;
  return plain;
}

/** `text` cut to `TEST_DETAIL_CHARS` characters (undefined stays undefined). */
export function detailText(text: string | undefined): string | undefined {
  return text === undefined || text.length <= TEST_DETAIL_CHARS ? text : text.slice(0, TEST_DETAIL_CHARS);
}

/**
 * A repository task's per-test status map for the sample page and its JSON (`GET /api/runs/:id/sample`): every
 * FAIL_TO_PASS and PASS_TO_PASS test id of the instance with its state in the stored sample, as SWE-bench's
 * `get_eval_report` gives `tests_status` (`src/kinds/repository/report.ts` makes the same map for `crucible eval`'s
 * `swe-bench-report.json`).
 *
 * The store keeps failing tests in full (their reason names the state: `<group> failed|skipped|missing`) and
 * passing tests as a run of indices (`passedRanges`), unless the run kept every test; the test ids come from the
 * problem's stored info (`ProblemInfo.repositoryTests`).
 */
import { testStateOf } from '../kinds/repository/report.js';
import { parseRanges } from '../store/compact.js';
import type { ProblemInfo, SampleDetailRow } from '../store/result-store.js';

/** One group's tests: id -> state (`passed`, `failed`, `skipped`, `missing`), in the instance's order. */
export type TestStates = Readonly<Record<string, string>>;

/** The status map of one judged sample of a repository task. */
export interface RepositoryTestMap {
  /** SWE-bench's resolved: the verdict is `passed` (every FAIL_TO_PASS and PASS_TO_PASS test passed). */
  readonly resolved: boolean;
  readonly FAIL_TO_PASS: TestStates;
  readonly PASS_TO_PASS: TestStates;
}

/**
 * The map of `sample` over the instance's test ids, or undefined when the stored problem has none (another kind, or
 * a store written before the ids were kept). A test with no stored entry (the verdict had no tests: a refused patch,
 * an invalid run) is `missing`.
 */
export function repositoryTestMap(info: ProblemInfo | null | undefined,
  sample: Pick<SampleDetailRow, 'status' | 'tests' | 'passedRanges'>): RepositoryTestMap | undefined {
  const ids = info?.repositoryTests;
  if (ids === undefined) return undefined;
  const stored = new Map(sample.tests.map((t) => [t.index, { status: t.status, reason: t.reason ?? undefined }]));
  for (const index of parseRanges(sample.passedRanges)) stored.set(index, { status: 'passed', reason: undefined });
  const group = (names: readonly string[], offset: number): TestStates =>
    Object.fromEntries(names.map((id, i) => [id, testStateOf(stored.get(offset + i))]));
  return {
    resolved: sample.status === 'passed',
    FAIL_TO_PASS: group(ids.failToPass, 0),
    PASS_TO_PASS: group(ids.passToPass, ids.failToPass.length),
  };
}

/**
 * A SWE-bench-style report of judged patches (pure): the run-level lists of princeton-nlp/SWE-bench's
 * `make_run_report` (`schema_version` 2: total/submitted/completed/resolved/unresolved/empty-patch/error
 * instances and their ids) and, per instance, `get_eval_report`'s entry (`patch_is_None`, `patch_exists`,
 * `patch_successfully_applied`, `resolved`, `tests_status` with FAIL_TO_PASS and PASS_TO_PASS `success`/`failure`
 * lists), plus what Crucible knows beyond it: the verdict's status and reason, the ladder step that applied the
 * patch, and every test's state (`passed`, `failed`, `skipped`, `missing`).
 * One prediction per instance is SWE-bench's case; a second sample of an instance is reported as `<id>#<index>`
 * and counted in the lists under that key.
 */
import type { RepositoryProblem } from '../../formats/types.js';
import type { SampleStatus, TestResult } from '../../verdict/index.js';

/** What the report needs of one judged sample (a run directory's record). */
export interface JudgedPatch {
  readonly taskId: string;
  readonly sampleIndex: number;
  readonly status: SampleStatus;
  readonly reason?: string;
  readonly tests: readonly TestResult[];
  /** Whether the sample's patch was empty (or null). */
  readonly emptyPatch: boolean;
}

/** One instance's entry (see the module comment). */
export interface InstanceReport {
  readonly patch_is_None: boolean;
  readonly patch_exists: boolean;
  readonly patch_successfully_applied: boolean;
  readonly resolved: boolean;
  readonly status: SampleStatus;
  readonly reason?: string;
  readonly applied_by?: string;
  readonly tests_status: {
    readonly FAIL_TO_PASS: { readonly success: readonly string[]; readonly failure: readonly string[] };
    readonly PASS_TO_PASS: { readonly success: readonly string[]; readonly failure: readonly string[] };
  };
  readonly test_states: Readonly<Record<string, string>>;
}

/** The whole report. */
export interface SweBenchReport {
  readonly schema_version: 2;
  readonly total_instances: number;
  readonly submitted_instances: number;
  readonly completed_instances: number;
  readonly resolved_instances: number;
  readonly unresolved_instances: number;
  readonly empty_patch_instances: number;
  readonly error_instances: number;
  readonly submitted_ids: readonly string[];
  readonly completed_ids: readonly string[];
  readonly incomplete_ids: readonly string[];
  readonly resolved_ids: readonly string[];
  readonly unresolved_ids: readonly string[];
  readonly empty_patch_ids: readonly string[];
  readonly error_ids: readonly string[];
  readonly instances: Readonly<Record<string, InstanceReport>>;
}

/**
 * A test's state from its verdict entry: `passed`, else the state `repository.ts` writes as the reason
 * (`<group> <state>`: `failed`, `skipped`, `missing`); no entry (a verdict without tests: patch refused, run invalid,
 * Crucible's failure) is `missing`.
 */
export function testStateOf(test: Pick<TestResult, 'status' | 'reason'> | undefined): string {
  if (test === undefined) return 'missing';
  if (test.status === 'passed') return 'passed';
  return /\b(failed|skipped|missing)$/.exec(test.reason ?? '')?.[1] ?? 'failed';
}

/** One instance's entry from its problem and judged sample. */
export function instanceReport(problem: RepositoryProblem, judged: JudgedPatch): InstanceReport {
  const applied = !['patch_apply_failed', 'invalid_patch'].includes(judged.status) && judged.status !== 'internal_error';
  const byIndex = new Map(judged.tests.map((t) => [t.index, t]));
  const states: Record<string, string> = {};
  const split = (ids: readonly string[], offset: number): { success: string[]; failure: string[] } => {
    const success: string[] = [];
    const failure: string[] = [];
    ids.forEach((id, i) => {
      const state = testStateOf(byIndex.get(offset + i));
      states[id] = state;
      (state === 'passed' ? success : failure).push(id);
    });
    return { success, failure };
  };
  const appliedBy = /applied by (\S+)/.exec(judged.reason ?? '')?.[1];
  return {
    patch_is_None: false, patch_exists: !judged.emptyPatch, patch_successfully_applied: applied, resolved: judged.status === 'passed',
    status: judged.status, ...(judged.reason === undefined ? {} : { reason: judged.reason }),
    ...(appliedBy === undefined ? {} : { applied_by: appliedBy }),
    tests_status: { FAIL_TO_PASS: split(problem.failToPass, 0), PASS_TO_PASS: split(problem.passToPass, problem.failToPass.length) },
    test_states: states,
  };
}

/** The report of `judged` samples of `problems` (see the module comment). */
export function sweBenchReport(problems: readonly RepositoryProblem[], judged: readonly JudgedPatch[]): SweBenchReport {
  const byId = new Map(problems.map((p) => [p.taskId, p]));
  const instances: Record<string, InstanceReport> = {};
  const lists = { submitted: [] as string[], completed: [] as string[], resolved: [] as string[], unresolved: [] as string[],
    empty: [] as string[], error: [] as string[] };
  for (const j of [...judged].sort((a, b) => a.taskId.localeCompare(b.taskId) || a.sampleIndex - b.sampleIndex)) {
    const problem = byId.get(j.taskId);
    if (problem === undefined) continue;
    const key = j.sampleIndex === 0 ? j.taskId : `${j.taskId}#${j.sampleIndex}`;
    instances[key] = instanceReport(problem, j);
    lists.submitted.push(key);
    if (j.emptyPatch) lists.empty.push(key);
    if (j.status === 'internal_error') {
      lists.error.push(key);
      continue;
    }
    lists.completed.push(key);
    (j.status === 'passed' ? lists.resolved : lists.unresolved).push(key);
  }
  const submitted = new Set(lists.submitted.map((k) => k.replace(/#\d+$/, '')));
  return {
    schema_version: 2,
    total_instances: problems.length, submitted_instances: lists.submitted.length, completed_instances: lists.completed.length,
    resolved_instances: lists.resolved.length, unresolved_instances: lists.unresolved.length,
    empty_patch_instances: lists.empty.length, error_instances: lists.error.length,
    submitted_ids: lists.submitted, completed_ids: lists.completed,
    incomplete_ids: problems.map((p) => p.taskId).filter((id) => !submitted.has(id)),
    resolved_ids: lists.resolved, unresolved_ids: lists.unresolved, empty_patch_ids: lists.empty, error_ids: lists.error,
    instances,
  };
}

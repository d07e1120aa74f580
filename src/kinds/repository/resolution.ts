/**
 * From one judgement run to the repository outcome: SWE-bench's resolution rule with the evidence a Docker-free
 * judge has, decided outside the box.
 *
 * - The driver's prefix (`driver.ts`), written before any candidate code ran, says whether the patch applied
 *   (else `patch_apply_failed`), was refused in the box (`invalid_patch`: package.json's protected keys) or the
 *   instance's test patch failed (Crucible's or the dataset's failure: `internal_error`).
 * - A run stopped by its limits is that status (`time_limit_exceeded`, `memory_limit_exceeded`,
 *   `output_limit_exceeded`): its tests did not finish.
 * - `invalid_run` (never resolved): no report in the outbox; a report that is not its reporter's shape or whose
 *   totals disagree with its entries; a report listing no test and no failed suite (no evidence the suite ran); a
 *   canary reported passed or skipped, or missing beside tests of its file (the framework or the report was
 *   tampered with, `canary.ts`); an exit status that contradicts the report: 0 while the report lists a failure or
 *   a failed suite (with a canary, always), or non-zero while the report declares success.
 * - Otherwise each FAIL_TO_PASS and PASS_TO_PASS id is `passed`, `failed`, `skipped` or `missing` (not in the
 *   report: a renamed test, a file that did not load) and the sample is resolved (`passed`) iff every one of them
 *   passed, else unresolved (`wrong_answer`). Skipped, missing and renamed tests are not passed.
 * `score` is the fraction of FAIL_TO_PASS ids passed (0 for every status but `passed` and `wrong_answer`).
 */
import type { RepositoryProblem } from '../../formats/types.js';
import type { ExecutionResult } from '../../sandbox/types.js';
import type { SampleStatus } from '../../verdict/index.js';
import { canaryTitle, canaryTitles } from './canary.js';
import { type DriverPrefix, REPO_DIR, REPORT_FILE } from './driver.js';
import { idsNameFiles, parseReport, ReportError, type ParsedReport } from './reports.js';

/** One FAIL_TO_PASS / PASS_TO_PASS test after the run. */
export type TestState = 'passed' | 'failed' | 'skipped' | 'missing';

/** A test id of the instance, its list, and its state. */
export interface InstanceTest {
  readonly id: string;
  readonly group: 'FAIL_TO_PASS' | 'PASS_TO_PASS';
  readonly state: TestState;
}

/** What judging one patch established (see the module comment). `applied`: the ladder step that applied it. */
export interface RepositoryOutcome {
  readonly status: SampleStatus;
  readonly reason?: string;
  readonly applied?: string;
  readonly tests: readonly InstanceTest[];
  readonly score: number;
}

/** The instance's tests in verdict order (FAIL_TO_PASS, then PASS_TO_PASS), each with `state`. */
export function instanceTests(problem: RepositoryProblem, state: (id: string) => TestState): InstanceTest[] {
  return [
    ...problem.failToPass.map((id) => ({ id, group: 'FAIL_TO_PASS' as const, state: state(id) })),
    ...problem.passToPass.map((id) => ({ id, group: 'PASS_TO_PASS' as const, state: state(id) })),
  ];
}

/** An outcome with every test missing (nothing was reported). */
export function outcomeWithoutTests(problem: RepositoryProblem, status: SampleStatus, reason: string, applied?: string): RepositoryOutcome {
  return { status, reason, ...(applied === undefined ? {} : { applied }), tests: instanceTests(problem, () => 'missing'), score: 0 };
}

/** The canary problem of a report, or null when every canary is as it must be. */
function canaryProblem(problem: RepositoryProblem, report: ParsedReport, nonce: string): string | null {
  const byFile = idsNameFiles(problem.logParser);
  for (let i = 0; i < problem.testFiles.length; i++) {
    const file = problem.testFiles[i]!;
    for (const title of canaryTitles(problem.logParser, canaryTitle(nonce, i))) {
      const found = canaryState(report, byFile ? `${file} > ${title}` : title, file, byFile);
      if (found !== null) return found;
    }
  }
  // A canary id the report names with another nonce is a forged report.
  for (const id of report.tests.keys()) {
    if (/crucible canary [0-9a-f]{32} \d+( it)?$/.test(id) && !id.includes(nonce)) return 'the report names a canary of another judgement: it is forged';
  }
  return null;
}

/** The problem with canary `id` of `file` in a report, or null when it is as it must be (failed, or its file absent). */
function canaryState(report: ParsedReport, id: string, file: string, byFile: boolean): string | null {
  const state = report.tests.get(id);
  if (state === 'passed' || state === 'skipped') {
    return `the canary test of ${file} was reported ${state}: the test framework or the report was tampered with`;
  }
  if (state === undefined && byFile && [...report.tests.keys()].some((t) => t.startsWith(`${file} > `))) {
    return `the report lists tests of ${file} but not its canary: the report was tampered with`;
  }
  // TAP names no files: every canary must be there once the report lists any test.
  if (state === undefined && !byFile && report.tests.size > 0) {
    return `the report lists tests but not the canary of ${file}: its file did not run, or the report was forged`;
  }
  return null;
}

/** The exit-status problem of a report, or null when the exit status agrees with it. */
function exitProblem(report: ParsedReport, exitCode: number | null): string | null {
  const failures = [...report.tests.values()].some((s) => s === 'failed') || report.suiteErrors.length > 0;
  if (exitCode === 0 && failures) return 'the test command exited 0 although its report lists failures: the run was cut short';
  if (exitCode !== 0 && report.declaredSuccess === true) return `the test command exited ${exitCode ?? 'by a signal'} although its report declares success`;
  return null;
}

/** Statuses of a run that its limits stopped (the tests did not finish). */
const STOPPED: ReadonlySet<string> = new Set(['time_limit_exceeded', 'memory_limit_exceeded', 'output_limit_exceeded']);

/**
 * The outcome of a run whose driver started the tests (`prefix.kind === 'run'`): see the module comment.
 * `result` is the run's execution result (exit status, outbox).
 */
export function resolveRun(problem: RepositoryProblem, prefix: DriverPrefix & { kind: 'run' }, result: ExecutionResult): RepositoryOutcome {
  const applied = prefix.applied;
  if (result.status === 'internal_error') return outcomeWithoutTests(problem, 'internal_error', result.reason ?? 'the test run failed inside Crucible', applied);
  if (STOPPED.has(result.status)) return outcomeWithoutTests(problem, result.status as SampleStatus, result.reason ?? result.status, applied);
  const text = result.outbox?.files[REPORT_FILE];
  if (text === undefined) {
    return outcomeWithoutTests(problem, 'invalid_run', `the test run left no report (exit ${result.exitCode ?? result.signal}): no evidence the suite ran`, applied);
  }
  let report: ParsedReport;
  try {
    report = parseReport(problem.logParser, text, REPO_DIR);
  } catch (error) {
    if (!(error instanceof ReportError)) throw error;
    return outcomeWithoutTests(problem, 'invalid_run', error.message, applied);
  }
  if (report.tests.size === 0 && report.suiteErrors.length === 0) {
    return outcomeWithoutTests(problem, 'invalid_run', 'the report lists no test and no failed suite: no evidence the suite ran', applied);
  }
  const tampered = (problem.canary ? canaryProblem(problem, report, prefix.nonce) : null) ?? exitProblem(report, result.exitCode);
  if (tampered !== null) return outcomeWithoutTests(problem, 'invalid_run', tampered, applied);
  const tests = instanceTests(problem, (id) => report.tests.get(id) ?? 'missing');
  const f2p = tests.filter((t) => t.group === 'FAIL_TO_PASS');
  const score = f2p.filter((t) => t.state === 'passed').length / f2p.length;
  const notPassed = tests.filter((t) => t.state !== 'passed');
  if (notPassed.length === 0) return { status: 'passed', applied, tests, score };
  const first = notPassed[0]!;
  return {
    status: 'wrong_answer', applied, tests, score,
    reason: `${notPassed.length} of ${tests.length} tests not passed; first: ${first.id} (${first.group}) ${first.state}`,
  };
}

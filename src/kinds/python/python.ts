/**
 * What the Python-prompt kinds (unit_test, call, assertions) share: they are judged in Python, the program is
 * the prompt followed by the completion, and the harness's statuses map onto sample statuses.
 */
import type { HarnessResponse } from '../../judge/harness/protocol.js';
import {
  detailText, failedTestDetail, MAX_DETAILED_FAILURES, shortReason, type SampleStatus, type TestResult, type Verdict,
  type VerdictDetail,
} from '../../verdict/index.js';
import type { HarnessOutcome } from '../../judge/plan.js';
import type { CodeShape } from '../../judge/mode.js';

/** `language` and `acceptsLanguage` of a mode judged in Python only (whatever alias a submission used). */
export const PYTHON_ONLY = {
  language: (_problem: unknown, requested: string | undefined): string => requested ?? 'python',
  acceptsLanguage: (_problem: unknown, languageId: string): boolean => languageId === 'python',
} as const;

/**
 * `entryPoint` of a mode whose problems are a Python prompt ending in the entry point's declaration (tests
 * generated against it, such as CodeT's assertions, run after the prompt).
 */
export function pythonEntryPoint(problem: { readonly prompt: string; readonly entryPoint: string }): { readonly prompt: string; readonly entryPoint: string } {
  return { prompt: problem.prompt, entryPoint: problem.entryPoint };
}

function definesAtTopLevel(code: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^(?:async\\s+)?def\\s+${escaped}\\s*\\(`, 'm').test(code);
}

/**
 * The program of a Python-prompt problem (openai/human-eval `check_correctness`: prompt + completion):
 * a `completion` continues the prompt; a `solution` is whole; other `code` (given as is or extracted from a
 * response) is whole when it defines the entry point at top level (`def <entry_point>(`), else continues the prompt.
 */
export function assemblePython(prompt: string, entryPoint: string, code: string, shape: CodeShape): string {
  if (shape === 'solution') return code;
  if (shape === 'code' && definesAtTopLevel(code, entryPoint)) return code;
  return prompt + code;
}

/** A harness status as a sample status (`ok`, a job that completed, is a pass). */
export function harnessStatus(status: HarnessResponse['status']): SampleStatus {
  return status === 'ok' ? 'passed' : status;
}

/**
 * The detail of a verdict judged by one harness job (`JudgingMode.detail`): the first `MAX_DETAILED_FAILURES`
 * failing tests of `verdict`, each with `actualOf(test)` (what it returned or raised), the job's stderr with the
 * first of them (one process ran every test); the job's stderr alone when the verdict failed with no test
 * (e.g. `internal_error`); the job's peak memory (KiB).
 */
export function harnessDetail(verdict: Verdict, response: HarnessResponse, actualOf: (test: TestResult) => string): VerdictDetail {
  const stderr = response.stderr === undefined || response.stderr === '' ? undefined : response.stderr;
  const failures = verdict.tests.filter((t) => t.status !== 'passed').slice(0, MAX_DETAILED_FAILURES)
    .map((t, rank) => failedTestDetail(t.index, { actual: actualOf(t), stderr: rank === 0 ? stderr : undefined }));
  const alone = failures.length === 0 && !verdict.passed ? detailText(stderr) : undefined;
  return { failures, ...(alone === undefined ? {} : { stderr: alone }), memoryKiB: response.memoryKiB };
}

/**
 * The verdict of a problem judged by one harness job as one test (`unit_test`, `python_script`): the job's status
 * and reason as test 0.
 */
export function oneTestHarnessVerdict(outcome: HarnessOutcome): Verdict {
  const r = outcome.response;
  const status = harnessStatus(r.status);
  const reason = shortReason(r.reason);
  return {
    status, passed: status === 'passed', testCount: 1, cpuMs: r.cpuMs, wallMs: r.wallMs,
    tests: [{ index: 0, status, cpuMs: r.cpuMs, wallMs: r.wallMs, ...(reason === undefined ? {} : { reason }) }],
    ...(reason === undefined ? {} : { reason }),
  };
}

/** The detail of `oneTestHarnessVerdict`: the one test's failure as the tester reported it (uncut), with the stderr. */
export function oneTestHarnessDetail(outcome: HarnessOutcome, verdict: Verdict): VerdictDetail {
  const r = outcome.response;
  return harnessDetail(verdict, r, (t) => r.reason ?? t.reason ?? t.status);
}

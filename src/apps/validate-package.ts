/**
 * `crucible validate-package`: judge a Kattis problem package's own example submissions and report which
 * disagree with the label their directory gives them, the way problemtools' `verifyproblem` checks them
 * (Kattis/problemtools `problemtools/verifyproblem.py`, `Submissions.check`, `check_submission`,
 * `_compute_time_limit`; read for the rules, no code taken):
 *
 * 1. The time limit. A fixed one (2023-07 `limits.time_limit`) is used as it is; otherwise `accepted` submissions
 *    run first under a generous limit (problemtools: 300 s; here `LIMIT_RANGES.cpuMs.max`, 60 s per test case),
 *    and the slowest of them (its slowest test case's CPU time, over the test cases its grading looked at) gives
 *    `time limit = max(1, ceil(slowest x ac_to_time_limit / time_resolution)) x time_resolution` (legacy
 *    `time_multiplier` 5, resolution 1 s; 2023-07 `ac_to_time_limit` 2). The safety margin is `time limit x
 *    time_limit_to_tle` (legacy `time_safety_margin` 2; 2023-07 1.5). A `.timelimit` file is reported, not used.
 * 2. Every other submission runs once with the margin as its CPU limit per test case; its result at the time limit
 *    is the same run with every test case slower than the limit counted as TLE (problemtools' result cache). The
 *    package's grading (`src/kinds/kattis/grading.ts`) gives the submission's verdict and score at both limits.
 * 3. A submission agrees with its label when its verdict at the time limit is the label's (`accepted` AC,
 *    `wrong_answer` WA, `time_limit_exceeded` TLE, `run_time_error` RTE — a memory limit is RTE there too;
 *    `partially_accepted`: AC below the best score), or at the margin ("with extra time"); a
 *    `partially_accepted` one that is fully accepted disagrees. The 2023-07 labels problemtools does not check yet
 *    are checked by the format's definitions on the verdict: `rejected` not AC, `brute_force` TLE or RTE. A
 *    submission that does not compile disagrees. Directories of `submissions/` that are no label, and programs
 *    Crucible cannot run (several files, Python 2), are listed and not judged.
 * All tests run (no fail-fast), every program in the sandbox.
 */
import type { KattisSubmission, SubmissionLabel } from '../formats/index.js';
import type { KattisProblem } from '../formats/types.js';
import { readKattisPackage, readKattisSubmissions } from '../formats/index.js';
import type { Judge } from '../judge/judge.js';
import { atTimeLimit, bestScore, gradeGroup, type KattisGroupResult, type KattisVerdict } from '../kinds/kattis/grading.js';
import { kattisOutcomes } from '../kinds/kattis/kattis.js';
import { LIMIT_RANGES } from '../limits.js';
import type { Verdict } from '../verdict/index.js';
import { inPool } from './in-pool.js';

/** A submission's result as problemtools reports it: verdict (`CE` when it did not compile), score, slowest test. */
export interface KattisResult {
  readonly verdict: KattisVerdict | 'CE';
  readonly score: number;
  readonly runtimeMs: number;
}

/** One submission's check. `agrees` is null when it was not judged (`note` says why). */
export interface SubmissionCheck {
  readonly path: string;
  readonly label: SubmissionLabel;
  readonly language?: string;
  /** At the time limit, and at the safety margin. */
  readonly result?: KattisResult;
  readonly resultAtMargin?: KattisResult;
  readonly agrees: boolean | null;
  readonly note?: string;
  /** Crucible's own verdict at the margin (status and reason), for the report. */
  readonly verdict?: Pick<Verdict, 'status' | 'reason'>;
}

/** The whole report of one package. */
export interface PackageValidation {
  readonly taskId: string;
  /** A scoring problem (results carry scores), or pass-fail. */
  readonly scoring: boolean;
  readonly timeLimitMs: number;
  readonly marginMs: number;
  /** How the time limit was obtained: fixed by problem.yaml, or from the slowest accepted submission. */
  readonly timeLimitFrom: 'problem.yaml' | 'accepted submissions';
  readonly slowestAcceptedMs?: number;
  /** A `.timelimit` file's value, ms, when the package has one (reported; problemtools derives its own). */
  readonly timelimitFileMs?: number;
  readonly submissions: readonly SubmissionCheck[];
  /** Directories of `submissions/` that are no label problemtools checks. */
  readonly unlabelled: readonly string[];
}

/** The time limit and margin from the slowest accepted runtime (module comment, step 1), ms. */
export function deriveTimeLimit(problem: KattisProblem, slowestMs: number): { timeLimitMs: number; marginMs: number } {
  const { acToTimeLimit, timeLimitToTle, resolutionMs } = problem.timing;
  const timeLimitMs = Math.max(1, Math.ceil((slowestMs * acToTimeLimit) / resolutionMs)) * resolutionMs;
  return { timeLimitMs, marginMs: timeLimitMs * timeLimitToTle };
}

/** A judged verdict as problemtools' result at `timeLimitMs`. */
function resultAt(problem: KattisProblem, verdict: Verdict, timeLimitMs: number): KattisResult {
  if (verdict.status === 'compile_error') return { verdict: 'CE', score: 0, runtimeMs: 0 };
  const graded: KattisGroupResult | undefined = gradeGroup(problem.root, atTimeLimit(kattisOutcomes(problem, verdict.tests), timeLimitMs));
  return graded ?? { verdict: 'JE', score: 0, runtimeMs: 0 };
}

/** Whether a result is fully accepted (AC, and a scoring problem's best score when bounded). */
function fullyAccepted(problem: KattisProblem, r: KattisResult): boolean {
  const best = bestScore(problem.root);
  return r.verdict === 'AC' && (!problem.scoring || best === undefined || r.score >= best);
}

/** Whether `r` meets `label` (module comment, step 3). */
function meets(problem: KattisProblem, label: SubmissionLabel, r: KattisResult): boolean {
  switch (label) {
    case 'accepted': return r.verdict === 'AC';
    case 'partially_accepted': return r.verdict === 'AC' && !fullyAccepted(problem, r);
    case 'wrong_answer': return r.verdict === 'WA';
    case 'time_limit_exceeded': return r.verdict === 'TLE';
    case 'run_time_error': return r.verdict === 'RTE';
    case 'rejected': return r.verdict !== 'AC';
    case 'brute_force': return r.verdict === 'TLE' || r.verdict === 'RTE';
  }
}

/** The check of one judged submission (module comment, step 3). */
function check(problem: KattisProblem, s: KattisSubmission & { program: { ok: true } }, verdict: Verdict, timeLimitMs: number,
  marginMs: number): SubmissionCheck {
  const result = resultAt(problem, verdict, timeLimitMs);
  const resultAtMargin = resultAt(problem, verdict, marginMs);
  const base = { path: s.path, label: s.label, language: s.program.language, result, resultAtMargin,
    verdict: { status: verdict.status, ...(verdict.reason === undefined ? {} : { reason: verdict.reason }) } };
  // Crucible's own failure (the sandbox), never a verdict on the submission; a validator's failure is the package's JE.
  if (verdict.status === 'internal_error' && /crucible failed/i.test(verdict.reason ?? '')) {
    return { ...base, agrees: null, note: `Crucible failed: ${verdict.reason ?? ''}` };
  }
  if (result.verdict === 'CE') return { ...base, agrees: false, note: 'compile error' };
  if (s.label === 'partially_accepted' && fullyAccepted(problem, result)) return { ...base, agrees: false, note: 'fully accepted' };
  if (meets(problem, s.label, result)) {
    const partial = s.label === 'accepted' && !fullyAccepted(problem, result);
    return { ...base, agrees: true, ...(partial ? { note: 'did not attain the best score' } : {}) };
  }
  if (meets(problem, s.label, resultAtMargin)) return { ...base, agrees: true, note: 'with extra time (at the safety margin)' };
  return { ...base, agrees: false };
}

/** Judge one submission with `cpuMs` per test case, all tests. */
function judgeAt(judge: Judge, problem: KattisProblem, s: KattisSubmission & { program: { ok: true } }, cpuMs: number, signal?: AbortSignal): Promise<Verdict> {
  const inline: KattisProblem = { ...problem, timeLimitMs: Math.min(cpuMs, LIMIT_RANGES.cpuMs.max) };
  return judge.judge({ problem: { inline },
    program: { language: s.program.language, source: s.program.source }, failFast: false }, signal === undefined ? {} : { signal });
}

/** Options of `validatePackage`. */
export interface ValidatePackageOptions {
  /** Submissions judged at once (default: the judge's concurrency). */
  readonly concurrency?: number;
  readonly signal?: AbortSignal;
  /** Called after each submission is checked (progress). */
  readonly onChecked?: (check: SubmissionCheck) => void;
}

/**
 * Validate the package at `dir` on `judge` (module comment).
 * @throws DatasetError for a package that cannot be read; the signal's reason when cancelled.
 */
export async function validatePackage(judge: Judge, dir: string, options: ValidatePackageOptions = {}): Promise<PackageValidation> {
  const problem = readKattisPackage(dir);
  const { submissions, others } = readKattisSubmissions(dir);
  const concurrency = options.concurrency ?? judge.capacity.concurrency;
  const checks = new Map<string, SubmissionCheck>();
  const record = (c: SubmissionCheck): void => { checks.set(c.path, c); options.onChecked?.(c); };
  for (const s of submissions) if (!s.program.ok) record({ path: s.path, label: s.label, agrees: null, note: `not judged: ${s.program.why}` });
  const runnable = submissions.filter((s): s is KattisSubmission & { program: { ok: true } } => s.program.ok);
  const fixed = problem.timeLimitFrom === 'problem.yaml' ? problem.timeLimitMs : undefined;
  const accepted = runnable.filter((s) => s.label === 'accepted');
  const firstLimit = fixed === undefined ? { timeLimitMs: LIMIT_RANGES.cpuMs.max, marginMs: LIMIT_RANGES.cpuMs.max }
    : { timeLimitMs: fixed, marginMs: fixed * problem.timing.timeLimitToTle };
  const acceptedVerdicts = new Map<string, Verdict>();
  await inPool(accepted, concurrency, async (s) => {
    acceptedVerdicts.set(s.path, await judgeAt(judge, problem, s, firstLimit.marginMs, options.signal));
  });
  const runtimes = accepted.map((s) => resultAt(problem, acceptedVerdicts.get(s.path)!, firstLimit.marginMs).runtimeMs);
  const slowest = runtimes.length > 0 ? Math.max(...runtimes) : undefined;
  const limits = fixed !== undefined || slowest === undefined ? firstLimit : deriveTimeLimit(problem, slowest);
  for (const s of accepted) record(check(problem, s, acceptedVerdicts.get(s.path)!, limits.timeLimitMs, limits.marginMs));
  await inPool(runnable.filter((s) => s.label !== 'accepted'), concurrency, async (s) => {
    record(check(problem, s, await judgeAt(judge, problem, s, limits.marginMs, options.signal), limits.timeLimitMs, limits.marginMs));
  });
  return {
    taskId: problem.taskId, scoring: problem.scoring, timeLimitMs: limits.timeLimitMs, marginMs: limits.marginMs,
    timeLimitFrom: fixed !== undefined ? 'problem.yaml' : 'accepted submissions',
    ...(slowest === undefined ? {} : { slowestAcceptedMs: slowest }),
    ...(problem.timeLimitFrom === '.timelimit' ? { timelimitFileMs: problem.timeLimitMs! } : {}),
    submissions: submissions.map((s) => checks.get(s.path)!),
    unlabelled: others,
  };
}

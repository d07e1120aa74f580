/**
 * The `repository` problem kind: a patch to a real repository, judged by the repository's own tests (SWE-bench's
 * task, `RepositoryProblem` in `src/formats/types.ts`), Docker-free.
 *
 * A submission's program is the patch (language `bash`: what runs is the driver that applies it). The plan is one
 * run of the driver (`driver.ts`) over the instance's prepared environment (a `workspace`: the base commit checked
 * out with no other history and its dependencies installed, prepared once by the `repository` environment provider,
 * `src/environments/repository/`, and mounted copy-on-write: nothing the run writes survives it), with an outbox for
 * the reporter's file, no network, and the instance's limits for the whole process tree. Before that, without
 * running anything, a patch that cannot be read is `patch_apply_failed` and one touching protected files
 * (`policy.ts`) is `invalid_patch`; such a plan is a driver that only says so.
 *
 * The verdict (`resolution.ts`): `passed` (resolved) iff every FAIL_TO_PASS and PASS_TO_PASS test passed, else
 * `wrong_answer` (unresolved), or `patch_apply_failed`, `invalid_patch`, `invalid_run`, a limit's status,
 * `internal_error`. Its tests are the instance's ids in order (FAIL_TO_PASS then PASS_TO_PASS), each `passed` or
 * `wrong_answer` with the reason `failed`, `skipped` or `missing`; `score` is the fraction of FAIL_TO_PASS passed.
 */
import { randomBytes } from 'node:crypto';
import type { RepositoryProblem } from '../../formats/types.js';
import type { Program } from '../../judge/judge.js';
import { defineMode, type AnyMode } from '../../judge/mode.js';
import type { ProgramRunsOutcome, ProgramRunsPlan } from '../../judge/plan.js';
import { failedTestDetail, shortReason, stderrTail, type FailedTestDetail, type TestResult, type Verdict, type VerdictDetail } from '../../verdict/index.js';
import { canarySource, canaryTitle } from './canary.js';
import { DiffError, parseDiff, plainUnified, toUnified } from './diff.js';
import { decidedScript, driverScript, readPrefix, REPO_DIR, testCommand } from './driver.js';
import { checkPatch } from './policy.js';
import { outcomeWithoutTests, resolveRun, type RepositoryOutcome } from './resolution.js';
import { touchedFiles } from '../../formats/swe-bench.js';
import { environmentSpec, REPOSITORY_ENVIRONMENT, type RepositoryEnvironmentSpec } from './environment-spec.js';

/** Where the warm-up run's reporter writes (discarded). */
const WARM_REPORT = '/tmp/crucible-warm-report';

/** CPU time of a whole test run when the instance does not say (every process of it), ms: 10 minutes. */
export const DEFAULT_TEST_CPU_MS = 600_000;
/** Memory of a test run when the instance does not say, KiB: 4 GiB. */
export const DEFAULT_TEST_MEMORY_KIB = 4 * 1024 * 1024;
/** Output kept of a test run per stream, bytes (its log, for people; results come from the report). */
export const TEST_OUTPUT_BYTES = 8 << 20;
/** Processes + threads of a test run (test runners start workers, each with threads). */
export const TEST_PROCESSES = 512;
/** Writable space of a test run, KiB: the overlay's writes and /tmp (the runners' caches), 2 GiB each. */
export const TEST_DISK_KIB = 2 * 1024 * 1024;

/** Limits of a decided plan (a driver that only prints). */
const DECIDED_LIMITS = { cpuMs: 2000, memoryKiB: 64 * 1024, outputBytes: 64 * 1024 };

/** A plan that runs a script printing a verdict decided before any box (the patch was refused on the trusted side). */
function decidedPlan(program: Program, word: 'invalid_patch' | 'malformed_patch', reason: string): ProgramRunsPlan<null> {
  return {
    kind: 'program_runs', program: { language: program.language, source: decidedScript(word, reason) },
    runs: [{ stdin: '', check: null }], limits: DECIDED_LIMITS, failFast: false,
  };
}

/** The test files reset before the test patch: the instance's and every file its test patch touches. */
function resetFiles(problem: RepositoryProblem): string[] {
  return [...new Set([...problem.testFiles, ...touchedFiles(problem.testPatch)])];
}

/** The prepared environment a judgement of `problem` runs in (warmed by the instance's own test command). */
export function judgementEnvironment(problem: RepositoryProblem): RepositoryEnvironmentSpec {
  return environmentSpec(problem, testCommand(problem.testCmd, problem.testFiles, WARM_REPORT));
}

/** The plan of one judgement (see the module comment). */
export function repositoryPlan(problem: RepositoryProblem, program: Program, nonce = randomBytes(16).toString('hex')): ProgramRunsPlan<null> {
  let parsed;
  try {
    parsed = parseDiff(program.source);
  } catch (error) {
    if (!(error instanceof DiffError)) throw error;
    return decidedPlan(program, 'malformed_patch', `the patch cannot be read: ${error.message}`);
  }
  const policy = checkPatch(parsed, { testFiles: new Set(resetFiles(problem)), logParser: problem.logParser, globs: problem.protectedFiles });
  if (!policy.ok) return decidedPlan(program, 'invalid_patch', policy.reason);
  const canaries = problem.canary
    ? problem.testFiles.flatMap((file, i) => {
      const source = canarySource(problem.logParser, canaryTitle(nonce, i));
      return source === null ? [] : [{ file, source }];
    })
    : [];
  const source = driverScript({
    nonce,
    patch: parsed.files.length === 0 ? '' : program.source,
    unified: parsed.files.length > 0 && plainUnified(parsed) ? toUnified(parsed) : null,
    testPatch: problem.testPatch,
    resetFiles: resetFiles(problem),
    canaries,
    packageJsons: policy.touchesPackageJson,
    testCommand: testCommand(problem.testCmd, problem.testFiles),
  });
  const cpuMs = problem.timeLimitMs ?? DEFAULT_TEST_CPU_MS;
  const plan: ProgramRunsPlan<null> = {
    kind: 'program_runs',
    program: { language: program.language, source },
    runs: [{ stdin: '', check: null }],
    limits: { cpuMs, memoryKiB: problem.memoryLimitKiB ?? DEFAULT_TEST_MEMORY_KIB, outputBytes: TEST_OUTPUT_BYTES },
    failFast: false,
    workspace: {
      environment: { provider: REPOSITORY_ENVIRONMENT, spec: judgementEnvironment(problem) },
      boxPath: REPO_DIR,
      writable: 'overlay',
      outbox: true,
      loopback: true,
      runLimits: { wallMs: Math.max(cpuMs, 60_000) + 60_000, processes: TEST_PROCESSES, diskKiB: TEST_DISK_KIB },
    },
  };
  return plan;
}

/** The repository outcome of a plan's outcome (see `resolution.ts`). */
export function repositoryOutcome(problem: RepositoryProblem, outcome: ProgramRunsOutcome): RepositoryOutcome {
  const run = outcome.runs[0];
  if (run === undefined) return outcomeWithoutTests(problem, 'internal_error', 'the judgement did not run');
  if (run.status === 'internal_error') return outcomeWithoutTests(problem, 'internal_error', run.reason ?? 'the judgement run failed inside Crucible');
  const prefix = readPrefix(run.stdout);
  switch (prefix.kind) {
    case 'run':
      return resolveRun(problem, prefix, run);
    case 'invalid_patch':
      return outcomeWithoutTests(problem, 'invalid_patch', prefix.text);
    case 'malformed_patch':
    case 'apply_failed':
      return outcomeWithoutTests(problem, 'patch_apply_failed', prefix.kind === 'apply_failed'
        ? `the patch does not apply to the base commit (git apply, --3way, --reject, patch --fuzz): ${prefix.text.trim()}` : prefix.text);
    case 'test_patch_failed':
      return outcomeWithoutTests(problem, 'internal_error', `the instance's test_patch does not apply to its base commit (the dataset is broken): ${prefix.text.trim()}`);
    case 'setup_failed':
      return outcomeWithoutTests(problem, 'internal_error', `the judgement could not be set up: ${prefix.text.trim()}`);
    case 'broken':
      // A limit can stop the driver before the tests started (a huge patch): the run's own status says so.
      if (run.status !== 'ok' && run.status !== 'runtime_error') return outcomeWithoutTests(problem, run.status, run.reason ?? run.status);
      return outcomeWithoutTests(problem, 'internal_error', `the judgement driver broke its protocol: ${prefix.text}`);
  }
}

/** A repository outcome as a verdict (tests in instance order; see the module comment). */
export function outcomeVerdict(o: RepositoryOutcome, cpuMs: number, wallMs: number): Verdict {
  const tests: TestResult[] = o.tests.map((t, index) => (t.state === 'passed'
    ? { index, status: 'passed' }
    : { index, status: 'wrong_answer', reason: `${t.group} ${t.state}` }));
  const reason = shortReason([o.reason, o.applied === undefined ? undefined : `applied by ${o.applied}`].filter((x) => x !== undefined).join('; '));
  return {
    status: o.status, passed: o.status === 'passed', tests: o.status === 'internal_error' ? [] : tests, testCount: o.tests.length,
    cpuMs, wallMs, score: o.score, ...(reason === undefined || reason === '' ? {} : { reason }),
  };
}

/** The fence tags of a patch in a model's response (```diff is what models write; patch and udiff are seen too). */
const PATCH_FENCE_TAGS: ReadonlySet<string> = new Set(['diff', 'patch', 'udiff']);

/** The `repository` judging mode (see the module comment). */
export const repositoryMode: AnyMode = defineMode<RepositoryProblem, 'program_runs', null, undefined>({
  kind: 'repository',
  description: 'a patch to a real repository, judged by the repository\'s own tests in a prepared environment (SWE-bench style)',
  language: () => 'bash',
  acceptsLanguage: (_problem, languageId) => languageId === 'bash',
  assemble: (_problem, code) => code,
  responseFenceTags: () => PATCH_FENCE_TAGS,
  testCount: (problem) => problem.failToPass.length + problem.passToPass.length,
  plan: (problem, program) => repositoryPlan(problem, program),
  judgeRun: (_problem, _run, index, result) => ({ index, status: result.status === 'ok' ? 'passed' : 'wrong_answer' }),
  verdict(problem, outcome) {
    const runs = outcome.runs;
    const cpuMs = runs.reduce((sum, r) => sum + r.cpuMs, 0);
    const wallMs = runs.reduce((sum, r) => sum + r.wallMs, 0);
    return outcomeVerdict(repositoryOutcome(problem, outcome), cpuMs, wallMs);
  },
  detail(problem, outcome, verdict): VerdictDetail {
    const run = outcome.runs[0];
    const failures: FailedTestDetail[] = [];
    for (const t of verdict.tests) {
      if (t.status === 'passed' || failures.length >= 20) continue;
      failures.push(failedTestDetail(t.index, { input: describe(problem, t.index), actual: t.reason }));
    }
    const log = run === undefined ? '' : `${stderrTail(run.stdout, 3000)}\n${stderrTail(run.stderr, 1000)}`.trim();
    return { ...(failures.length === 0 ? {} : { failures }), ...(log === '' ? {} : { stderr: log }), memoryKiB: run?.memoryKiB ?? 0 };
  },
  describeTest: (problem, index) => failedTestDetail(index, { input: describe(problem, index), expected: 'passed' }),
});

/** Test `index` of the instance as text: its id and list. */
function describe(problem: RepositoryProblem, index: number): string {
  const f2p = problem.failToPass.length;
  return index < f2p ? `FAIL_TO_PASS ${problem.failToPass[index]}` : `PASS_TO_PASS ${problem.passToPass[index - f2p] ?? '?'}`;
}

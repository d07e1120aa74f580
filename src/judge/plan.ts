/**
 * Plans: what a judging mode asks the executor to run for one submission, as plain data, and what came back.
 * The executor (`src/engine/plan-executor.ts`) knows nothing of problem kinds; it runs a plan and hands each
 * result back to the mode. Two shapes today:
 *
 * - `program_runs`: compile the program once (if its language compiles), then run it on each planned stdin in
 *   order under the plan's limits; after each run the mode's `judgeRun` turns the result into a `TestResult`
 *   (compare with the expected output; or run a checker through `ExecutionTools`, with the program's output and
 *   the planned answer); with `failFast` the executor stops after the first test that is not `passed`. Each
 *   planned run carries mode data (`check`: an expected output, an answer file, an unforgeable marker) so the
 *   plan stays serialisable.
 * - `harness`: one job for the Python judge harness (unit tests, calls, assertions), judged in the box's
 *   trusted harness and answered as one response.
 * - `cms_ioi_jobs`: IOI tasks with graders (`src/kinds/ioi/ioi.ts`): one job per test for the `cms_ioi` package
 *   runner (`src/engine/contest/cms-ioi-package.ts`: solution + grader files compiled together once per distinct
 *   solution, Batch or Communication with a manager, the checker boxed), answered as the package's outcome per
 *   test; with `failFast` the executor stops after the first test that did not score 1, and always after a
 *   compile failure (every job shares the one compilation).
 */
import type { JudgeLimits } from '../limits.js';
import type { ExecutionResult } from '../sandbox/types.js';
import type { TestResult } from '../verdict/index.js';
import type { HarnessJob, HarnessResponse } from './harness/protocol.js';
import type { Program } from './judge.js';

/** One run of a `program_runs` plan: the stdin it gets and the mode's data for judging it. */
export interface PlannedRun<C = unknown> {
  readonly stdin: string;
  readonly check: C;
}

/** Compile once, run on each stdin (see the module comment). Limits are per run: CPU ms, memory KiB, output bytes. */
export interface ProgramRunsPlan<C = unknown> {
  readonly kind: 'program_runs';
  readonly program: Program;
  readonly runs: readonly PlannedRun<C>[];
  readonly limits: JudgeLimits;
  readonly failFast: boolean;
}

/** One Python harness job. */
export interface HarnessPlan {
  readonly kind: 'harness';
  readonly job: HarnessJob;
}

/**
 * One test of a `cms_ioi_jobs` plan: the files of the cms_ioi job (names with directories, as open-r1's
 * `ioi_scoring.run_submission` sends them: `graders/<id>.cpp`, grader files, `input.txt`, `correct_output.txt`,
 * optional `checker/checker.cpp`) and its limits (CPU ms per run, memory KiB; `graders/grader_config.json` wins).
 */
export interface CmsIoiJobSpec {
  readonly files: readonly { readonly name: string; readonly content: string }[];
  readonly runCpuMs: number;
  readonly memoryKiB: number;
}

/** Run the cms_ioi package on each job in order (see the module comment). */
export interface CmsIoiJobsPlan {
  readonly kind: 'cms_ioi_jobs';
  readonly jobs: readonly CmsIoiJobSpec[];
  readonly failFast: boolean;
}

/** What a mode asks the executor to run. */
export type Plan<C = unknown> = ProgramRunsPlan<C> | HarnessPlan | CmsIoiJobsPlan;

/**
 * What a `program_runs` plan produced. `compiled` is false when compilation stopped the program (`compile`
 * then holds the compiler's result, `tests` and `runs` are empty); `compile` is null for interpreted languages.
 * `tests[i]` is the mode's judgement of `runs[i]`; both cover only the runs made (fewer after a fail-fast stop).
 */
export interface ProgramRunsOutcome {
  readonly kind: 'program_runs';
  readonly compiled: boolean;
  readonly compile: ExecutionResult | null;
  readonly runs: readonly ExecutionResult[];
  readonly tests: readonly TestResult[];
}

/** What a harness plan produced: the harness's validated response (`internal_error` when the harness failed). */
export interface HarnessOutcome {
  readonly kind: 'harness';
  readonly response: HarnessResponse;
}

/**
 * One stage of a Piston contest package (`src/engine/contest/package-job.ts`) as the package's script ends it: its stdout,
 * stderr and exit `code` (null with `signal` when it was killed), Piston's `status` (null, `RE`, `SG`, `TO`, `OL`, or `XX` for a judge error such as a failed checker)
 * and `message`; `cpuMs`, `wallMs`, `memoryKiB` are the measured figures of the program the stage ran.
 */
export interface ScriptStage {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number | null;
  readonly signal: string | null;
  readonly status: string | null;
  readonly message: string | null;
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly memoryKiB: number;
}

/** A package's answer: the compile stage (always present: both packages have a compile script), the run stage unless compilation failed. */
export interface PackageOutcome {
  readonly compile: ScriptStage;
  readonly run: ScriptStage | null;
  /**
   * How the program (Batch) or the manager's box (Communication) ended, as the sandbox measured it, when it ran:
   * what a native judging mode reports as the test's status (the package's own stdout/stderr say it only in words).
   * Not part of the Piston answer.
   */
  readonly programStatus?: ExecutionResult['status'];
}

/**
 * What a `cms_ioi_jobs` plan produced, per job run (fewer after a stop): the package's outcome, or `error` when
 * Crucible failed on it (the sandbox, or a job the package rejects: a bad grader_config.json), never a verdict.
 */
export interface CmsIoiJobsOutcome {
  readonly kind: 'cms_ioi_jobs';
  readonly results: readonly ({ readonly outcome: PackageOutcome } | { readonly error: string })[];
}

/** What executing a plan produced. */
export type PlanOutcome = ProgramRunsOutcome | HarnessOutcome | CmsIoiJobsOutcome;

/**
 * What a mode may run while judging one run (e.g. a compiled checker on the input, the program's output and the
 * answer). Executions go through the same sandbox, compile cache and cancellation as the plan itself.
 * `files` are written into the run's work directory (`/box`) before it starts (names without `/`).
 */
export interface ExecutionTools {
  /** `args` follow the language's run command (e.g. a checker's `input.txt output.txt answer.txt`). */
  runProgram(program: Program, stdin: string, limits: JudgeLimits,
    files?: Readonly<Record<string, string>>, args?: readonly string[]): Promise<ExecutionResult>;
  /**
   * `runProgram`, then the regular files the program left at the paths `collect` names (relative to `/box`, e.g. a
   * Kattis output validator's `feedback/score.txt`), as text of at most 64 KiB each; a missing file, a link, or a
   * path through a link is left out. `files` may name paths with directories (`feedback/.keep` makes `feedback/`).
   */
  runProgramCollecting(program: Program, stdin: string, limits: JudgeLimits, options: {
    readonly files?: Readonly<Record<string, string>>; readonly args?: readonly string[]; readonly collect: readonly string[];
  }): Promise<{ readonly result: ExecutionResult; readonly collected: Readonly<Record<string, string>> }>;
}

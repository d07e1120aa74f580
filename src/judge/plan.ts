/**
 * Plans: what a judging mode asks the executor to run for one submission, as plain data, and what came back.
 * The executor (`src/engine/plan-executor.ts`) knows nothing of problem kinds; it runs a plan and hands each
 * result back to the mode, so a new kind is a new mode planning these shapes, never an engine edit:
 *
 * - `program_runs`: compile the program once (if its language compiles), then run it on each planned run in
 *   order under the plan's limits: its stdin, and the run's own `files` (written into its `/box`) and `args`
 *   (after the run command); `repeat` runs it that many times, keeping every run's measurements. After each run
 *   the mode's `judgeRun` turns the result into a `TestResult` (compare with the expected output; or run a
 *   checker through `ExecutionTools`); with `failFast` the executor stops after the first test not `passed`.
 *   Each run carries mode data (`check`: an expected output, an answer file, an unforgeable marker).
 * - `compile`: compile only (a proof checker, a synthesis step): the compiler's result is the verdict's input,
 *   with the files it left that the mode reads.
 * - `interactive`: a trusted program (manager, interactor, test driver) and the candidate's program, each in a box
 *   of its own with its own uid and limits, talking through pipes Crucible relays (`channels`); per run, the
 *   trusted side's input; `judgeRun` judges each run from both sides' results.
 * - `harness`: one job for the Python judge harness (unit tests, calls, assertions), judged in the box's
 *   trusted harness and answered as one response.
 * - `cms_ioi_jobs`: IOI tasks with graders (`src/kinds/ioi/ioi.ts`): one job per test for the `cms_ioi` package
 *   runner (`src/engine/contest/cms-ioi-package.ts`, the same code that serves Piston's package), answered as the
 *   package's outcome per test; with `failFast` the executor stops after the first test that did not score 1, and
 *   always after a compile failure (every job shares the one compilation).
 * - `sql_engine`: a job for a SQL server Crucible runs itself (`./sql-engine.ts`, PostgreSQL): no box, the
 *   candidate's query text is data sent to the server, and the server's answer comes back as data.
 *
 * **What is whose.** The candidate's side is its box: the planned `program` (its source and `files`), and each
 * run's `stdin`, `files` and `args`. The candidate can read all of it: put there only what the benchmark gives the
 * program (its input, a database, a data file). The trusted side is never in the candidate's box: the `check` of a
 * run and the mode's reference stay in Crucible; programs the mode runs through `ExecutionTools` (a checker, an
 * expected-values program) and the `trusted` program of an interactive run get boxes of their own. A program
 * compiled from the candidate's source and trusted files (a golden module and a testbench, a contest's graders:
 * `PlannedProgram.files`) runs them in the candidate's process, which such benchmarks accept; its compile box has
 * the files' text, but a run mounts only the artifact's `keep` names, so the candidate cannot read the sources
 * back. (An interpreted language has no artifact: its files are beside the source in every run.)
 */
import type { JudgeLimits } from '../limits.js';
import type { ExecutionResult } from '../sandbox/types.js';
import type { TestResult } from '../verdict/index.js';
import type { HarnessJob, HarnessResponse } from './harness/protocol.js';
import type { EnvironmentRef } from './environment.js';
import type { SqlEngineJob, SqlEngineResult } from './sql-engine.js';
import type { Program } from './judge.js';

/**
 * A program as a plan gives it: the language and source (the candidate's assembled program), and optionally
 * `files` compiled (or, for an interpreted language, loaded) together with it as ONE program (names relative to
 * `/box`; the source's own name wins), `compileArgv` instead of the language's compile command (naming those
 * files), and `keep`, the names under `/box` the artifact keeps for the runs (see the module comment; default:
 * everything the compiler left). The compile cache knows a program by all of these.
 */
export interface PlannedProgram extends Program {
  readonly files?: Readonly<Record<string, string>>;
  readonly compileArgv?: readonly string[];
  readonly keep?: readonly string[];
}

/**
 * One run of a `program_runs` plan: the stdin it gets, the mode's data for judging it (`check`, never in the box),
 * files written into its `/box` and arguments after the run command (both the candidate's to read: data given to
 * the program), and `repeat`: how many times to run it (default 1; every run's measurements are kept, a run that
 * does not end `ok` stops the repeats).
 */
export interface PlannedRun<C = unknown> {
  readonly stdin: string;
  readonly check: C;
  readonly files?: Readonly<Record<string, string | Uint8Array>>;
  readonly args?: readonly string[];
  readonly repeat?: number;
}

/**
 * Compile once, run on each planned run (see the module comment). Limits are per run: CPU ms, memory KiB, output
 * bytes. `workspace`: every run sees a prepared environment (see `PlanWorkspace`).
 */
export interface ProgramRunsPlan<C = unknown> {
  readonly kind: 'program_runs';
  readonly program: PlannedProgram;
  readonly runs: readonly PlannedRun<C>[];
  readonly limits: JudgeLimits;
  readonly failFast: boolean;
  readonly workspace?: PlanWorkspace;
}

/**
 * A prepared environment the runs of a plan see (a repository checked out at its base commit with its
 * dependencies installed, `src/kinds/repository/`): described as data (`environment`, resolved to prepared
 * directories by the engine's `EnvironmentProvider` of that name, `./environment.ts`, which prepares it once and
 * reuses it), mounted at `boxPath` by the sandbox (`WorkspaceMount`, `src/sandbox/types.ts`).
 * - `writable: "overlay"`: each run writes to a copy-on-write layer of its own that dies with it, so nothing a
 *   run writes survives it or reaches the prepared environment; `"read_only"`: mounted read-only.
 * - `outbox`: each run gets a directory (`/crucible/out`) whose files come back in its result (`ExecutionResult.outbox`),
 *   read once every process of the run is dead (a test reporter's file, parsed by the mode outside the box).
 * - `runLimits`: sandbox limits of the runs beyond the plan's `limits` (wall ms, processes + threads, writable space
 *   KiB: a test suite needs more than one program), default those of `runLimits` (`src/limits.ts`).
 * - `loopback`: each run gets a network namespace of its own with its loopback up (test suites that serve on
 *   127.0.0.1); still no route anywhere else.
 */
export interface PlanWorkspace {
  readonly environment: EnvironmentRef;
  readonly boxPath: string;
  readonly writable: 'overlay' | 'read_only';
  readonly outbox?: boolean;
  readonly runLimits?: { readonly wallMs?: number; readonly processes?: number; readonly diskKiB?: number };
  readonly loopback?: boolean;
}

/**
 * Compile only: the program's compile step is the whole judgement (a proof checker, a synthesis step). `limits`
 * are the compile step's (CPU ms, memory KiB; default the compile defaults); `read` names files under `/box` the
 * compiler left whose text the mode gets back (each at most `limits.outputBytes`, default 1 MiB), which `keep`
 * must not remove.
 */
export interface CompilePlan {
  readonly kind: 'compile';
  readonly program: PlannedProgram;
  readonly limits?: Partial<JudgeLimits>;
  readonly read?: readonly string[];
}

/**
 * One run of an `interactive` plan: the mode's data (`check`), what the trusted program gets for this run (its
 * `stdin` with `fifo` channels, `files`, `args`: never visible to the candidate), and what the candidate's boxes
 * get (`files`, `args`: the candidate's to read).
 */
export interface InteractiveRunPlan<C = unknown> {
  readonly check: C;
  readonly trusted: {
    readonly stdin?: string;
    readonly files?: Readonly<Record<string, string | Uint8Array>>;
    readonly args?: readonly string[];
  };
  readonly files?: Readonly<Record<string, string | Uint8Array>>;
  readonly args?: readonly string[];
}

/**
 * A trusted program and the candidate's, talking while they run (`src/engine/interactive.ts`): both compiled once;
 * per run, the trusted program in a box of its own and `processes` boxes of the candidate's program (default 1),
 * each with its own uid, connected by `channels`: `stdio` (one candidate: each side's stdout is the other's
 * stdin) or `fifo` (the trusted program gets two FIFO paths per candidate after its argv, as a CMS manager does,
 * and keeps its stdout). The kill rule: the trusted box ending kills the candidates; a candidate ending other than
 * `ok` kills every other box. `limits` are each candidate box's, `trustedLimits` the trusted box's.
 */
export interface InteractivePlan<C = unknown> {
  readonly kind: 'interactive';
  readonly program: PlannedProgram;
  readonly trusted: PlannedProgram;
  readonly channels: 'stdio' | 'fifo';
  readonly processes?: number;
  readonly runs: readonly InteractiveRunPlan<C>[];
  readonly limits: JudgeLimits;
  readonly trustedLimits: JudgeLimits;
  readonly failFast: boolean;
}

/**
 * One Python harness job, optionally followed by `then`: further jobs run in order, each only while `proceed`
 * (the mode's trusted judgement of the answers so far, e.g. "every base input passed") says the verdict is still
 * open; the candidate never sees what `proceed` compares with. The outcome is the stages' responses merged
 * (`mergeHarnessStages`): results in order, CPU and wall time summed, status and reason from the last stage run.
 * A mode uses stages to stop early when only the verdict is needed (EvalPlus: the plus inputs run only for a
 * program that passed the base inputs, in a process of their own as EvalPlus runs them).
 */
export interface HarnessPlan {
  readonly kind: 'harness';
  readonly job: HarnessJob;
  readonly then?: readonly HarnessJob[];
  /** Whether to run the next stage, given the merged response of the stages run so far (default: always). */
  readonly proceed?: (soFar: HarnessResponse) => boolean;
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

/**
 * A job for a SQL server Crucible runs itself (`./sql-engine.ts`): nothing runs in a box, the query texts cross to
 * the server as data. `engine` names the server (`postgres`); a judge without it answers `internal_error`.
 */
export interface SqlEnginePlan<C = unknown> {
  readonly kind: 'sql_engine';
  readonly engine: string;
  readonly job: SqlEngineJob;
  /** The mode's data for judging the answer (never sent to the server), handed back in the outcome. */
  readonly check: C;
}

/** What a mode asks the executor to run. */
export type Plan<C = unknown> = ProgramRunsPlan<C> | CompilePlan | InteractivePlan<C> | HarnessPlan | CmsIoiJobsPlan | SqlEnginePlan<C>;

/** The measurements of one run: how it ended, CPU and wall time (ms), peak memory (KiB). */
export interface RunMeasurement {
  readonly status: ExecutionResult['status'];
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly memoryKiB: number;
}

/**
 * What a `program_runs` plan produced. `compiled` is false when compilation stopped the program (`compile`
 * then holds the compiler's result, `tests` and `runs` are empty); `compile` is null for interpreted languages.
 * `tests[i]` is the mode's judgement of `runs[i]`; both cover only the runs made (fewer after a fail-fast stop).
 * `runs[i]` is the run judged: the first of its repeats that did not end `ok`, else the first; `repeats[i]` the
 * measurements of every repeat made, in order.
 */
export interface ProgramRunsOutcome {
  readonly kind: 'program_runs';
  readonly compiled: boolean;
  readonly compile: ExecutionResult | null;
  readonly runs: readonly ExecutionResult[];
  readonly repeats: readonly (readonly RunMeasurement[])[];
  readonly tests: readonly TestResult[];
}

/**
 * What a `compile` plan produced: the compiler's result (`ok`; `compile_error` with the reason when it failed or
 * stopped at a limit; `internal_error` when Crucible failed), and the text of the `read` files it left (a file it
 * did not leave is absent).
 */
export interface CompileOnlyOutcome {
  readonly kind: 'compile';
  readonly result: ExecutionResult;
  readonly files: Readonly<Record<string, string>>;
}

/**
 * One interactive run's results (`src/engine/interactive.ts`): each box's (a candidate's stdout is its channel and
 * is not kept; the trusted program's stdout is its own with `fifo` channels, empty with `stdio`), and which boxes
 * the kill rule ended (their results are `internal_error` "run cancelled: …": no verdict on them).
 */
export interface InteractiveResult {
  readonly trusted: ExecutionResult;
  readonly candidates: readonly ExecutionResult[];
  readonly endedByPeer: { readonly trusted: boolean; readonly candidates: readonly boolean[] };
}

/**
 * What an `interactive` plan produced: as `program_runs` (`compiled`, `compile` of the candidate's program,
 * `tests[i]` judging `runs[i]`, fewer after a fail-fast stop). A trusted program that does not compile is
 * Crucible's (or the problem's) failure, never the candidate's: the judgement is then `internal_error`.
 */
export interface InteractiveOutcome {
  readonly kind: 'interactive';
  readonly compiled: boolean;
  readonly compile: ExecutionResult | null;
  readonly runs: readonly InteractiveResult[];
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

/** What a `sql_engine` plan produced: the engine's answer (`SqlEngineResult`; an `engine` error when the judge has no such engine). */
export interface SqlEngineOutcome {
  readonly kind: 'sql_engine';
  readonly result: SqlEngineResult;
  /** The plan's `check`, as the mode made it. */
  readonly check: unknown;
}

/** What executing a plan produced. */
export type PlanOutcome = ProgramRunsOutcome | CompileOnlyOutcome | InteractiveOutcome | HarnessOutcome | CmsIoiJobsOutcome | SqlEngineOutcome;

/** The kinds of plan. */
export type PlanKind = Plan['kind'];

/** The plan of kind `K` (with per-run data `C`). */
export type PlanOf<K extends PlanKind, C = unknown> = Extract<Plan<C>, { readonly kind: K }>;

/** What a plan of kind `K` produces. */
export type OutcomeOf<K extends PlanKind> = Extract<PlanOutcome, { readonly kind: K }>;

/** What a mode's `judgeRun` judges one of, for plans of kind `K` (`never` for plans without runs to judge). */
export type RunOf<K extends PlanKind, C = unknown> = K extends 'program_runs' ? PlannedRun<C> : K extends 'interactive' ? InteractiveRunPlan<C> : never;

/** What one run of a plan of kind `K` produced, as `judgeRun` gets it. */
export type RunResultOf<K extends PlanKind> = K extends 'program_runs' ? ExecutionResult : K extends 'interactive' ? InteractiveResult : never;

/**
 * What a mode may run while judging one run (e.g. a compiled checker on the input, the program's output and the
 * answer), in a box of its own (trusted programs never share the candidate's). Executions go through the same
 * sandbox, compile cache and cancellation as the plan itself. `files` are written into the run's work directory
 * (`/box`) before it starts.
 */
export interface ExecutionTools {
  /** `args` follow the language's run command (e.g. a checker's `input.txt output.txt answer.txt`). */
  runProgram(program: PlannedProgram, stdin: string, limits: JudgeLimits,
    files?: Readonly<Record<string, string | Uint8Array>>, args?: readonly string[]): Promise<ExecutionResult>;
  /**
   * `runProgram`, then the files the program left at the paths `collect` names (relative to `/box`: a Kattis output
   * validator's `feedback/score.txt`), read back as data (`src/engine/collect.ts`): each at most 64 KiB of UTF-8
   * text (`truncated` when longer), or `refused` with the reason (a symbolic link, a path through one, not a regular
   * file); a file it did not leave has no entry. A file named in `files` under a directory makes that directory
   * (`feedback/teammessage.txt` makes `feedback/`). A program that does not compile collects nothing.
   */
  runProgramCollecting(program: PlannedProgram, stdin: string, limits: JudgeLimits, options: {
    readonly collect: readonly string[]; readonly files?: Readonly<Record<string, string | Uint8Array>>; readonly args?: readonly string[];
  }): Promise<CollectingResult>;
}

/**
 * One file a tool run left, read back (`ExecutionTools.runProgramCollecting`): its first 64 KiB as UTF-8 text
 * (`truncated`: it was longer), or why it was refused (a symbolic link, a path through one, not a regular file,
 * unreadable). A missing file has no entry at all.
 */
export type CollectedFile =
  | { readonly text: string; readonly truncated: boolean }
  | { readonly refused: string };

/** What `ExecutionTools.runProgramCollecting` gives back: the run's result and the files read back, by name. */
export interface CollectingResult {
  readonly result: ExecutionResult;
  readonly files: Readonly<Record<string, CollectedFile>>;
}

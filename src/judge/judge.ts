/**
 * The seam between front ends and judging: the `Judge` interface every front end (`crucible eval`, `rerank`,
 * `run`, `serve`) calls, and the plain, serialisable requests it takes. One implementation runs on this
 * machine's sandboxes (`LocalJudge`, `src/engine/local-judge.ts`, made by `createJudge`); a queue-backed judge
 * on other machines implements the same interface, shipping these requests as JSON.
 *
 * A request names its problem by `{datasetHash, taskId}` (resolved through the judge's `catalog`, filled once
 * per dataset with `catalog.add`) or carries it inline. The program is already assembled (`prepareSubmission`,
 * `src/judge/submission.ts`): a language id and the complete source.
 *
 * Errors: a call rejects only with `JudgeRequestError` (the request cannot be judged as asked: unknown dataset,
 * task, problem kind or language) or, when its `signal` aborts, with the signal's reason (an `AbortError`
 * `DOMException` by default). Everything a program does, and Crucible's own failures, resolve as a verdict or
 * result (`internal_error` for Crucible's failures, never a verdict on the program).
 */
import type { ProblemBase } from '../formats/types.js';
import type { JudgeLimits } from '../limits.js';
import type { ExecutionResult } from '../sandbox/types.js';
import type { AnalyzerId, DetailedVerdict, FailedTestDetail } from '../verdict/index.js';
import type { HarnessJob, HarnessResponse } from './harness/protocol.js';
import type { PackageOutcome } from './plan.js';

/** A problem of a dataset the judge's catalog holds: sha256 of the problem file (`datasetHash`) and task id. */
export interface ProblemRef {
  readonly datasetHash: string;
  readonly taskId: string;
}

/** A problem carried in the request itself (inline tests, a problem of no dataset). */
export interface InlineProblem {
  readonly inline: ProblemBase;
}

/** How a request names its problem. */
export type ProblemSpec = ProblemRef | InlineProblem;

/** A program: a language id (or alias, see `crucible languages`) and its complete source. */
export interface Program {
  readonly language: string;
  readonly source: string;
}

/**
 * One submission to judge. `limits` override the judge's defaults (`JudgeLimits`: CPU ms per program or per
 * test, memory KiB, output bytes); a problem's own limits (e.g. an io problem's `timeLimitMs`) still win.
 * `failFast` stops at the first failing test (binary rewards): the verdict stays exact, fewer tests are reported.
 * `stopAfterTimeouts` k (only without `failFast`; honoured by `call` problems, the EvalPlus inputs, where a program
 * that never ends would otherwise cost one time limit per input): after the k-th test that hit the time limit the
 * rest are not run; the verdict says how many in `notRun`, and is the same failure it would have been (a time-out
 * is a failure), only with fewer per-test results. Other kinds run every test as without it.
 * `analysis` asks for the program's static analysis too (`true`: every analyser that reads its language; a list:
 * those analysers, `src/analysis/analyzers.ts`): the judge that judges the sample (this machine's, or a queue
 * worker's) runs each analyser in its sandbox and returns the report as the verdict's `analysis`. It is not part of
 * what is judged: the verdict is the same with or without it, and a verdict that is Crucible's failure
 * (`internal_error`) carries no analysis.
 */
export interface JudgeRequest {
  readonly problem: ProblemSpec;
  readonly program: Program;
  readonly failFast?: boolean;
  readonly stopAfterTimeouts?: number;
  readonly limits?: Partial<JudgeLimits>;
  readonly analysis?: AnalysisOption;
}

/** What a request's `analysis` asks for (see `JudgeRequest`). */
export type AnalysisOption = true | readonly AnalyzerId[];

/**
 * Options of every judge call. `signal` cancels the call (work shared with other callers goes on for them).
 * `detail` (`judge` only): return the verdict's `detail` (what failing tests printed or returned, stderr, peak
 * memory: `VerdictDetail`, `src/verdict/detail.ts`), also when an identical request was judged before or is in
 * flight (a detailed verdict is shared among detail requests; one judged without detail may be judged again
 * for it: `src/engine/local-judge.ts`). Not part of what is judged: the verdict's status is the program's either way.
 */
export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly detail?: boolean;
  /**
   * Scheduling on a judge many callers share (a queue's fleet, `QueueJudge`; a local judge ignores both):
   * `tenant` names the caller (a trainer, a team) so one tenant's burst cannot starve another's, and
   * `priority` puts `interactive` work (session steps, single requests) before `batch` work (evals).
   */
  readonly tenant?: string;
  readonly priority?: JobPriority;
}

/** What a tenant name (`CallOptions.tenant`) may be: 1-100 letters, digits and . : @ / - _. */
export const TENANT_PATTERN = /^[A-Za-z0-9.:@/_-]{1,100}$/;

/** Scheduling class of a call (`CallOptions.priority`): interactive work goes before batch work. */
export type JobPriority = 'interactive' | 'batch';

/**
 * One plain run (no tests): compile if the language compiles, then run once on `stdin`. Limits: CPU ms, wall ms
 * (default derived from CPU, `wallMsFor`), memory KiB, output bytes per stream, compile CPU ms (default the
 * compile step's own).
 */
export interface PlainRunRequest {
  readonly program: Program;
  readonly stdin: string;
  /**
   * Extra files of the submission (relative path -> bytes, e.g. SandboxFusion's `files`), placed in the work
   * directory of the compile step and of the run, beside the source (the source wins over a file of its name).
   * Paths must be plain relative paths (`isBoxRelativePath`); the caller validates them.
   */
  readonly files?: Readonly<Record<string, Uint8Array>>;
  readonly limits: {
    readonly cpuMs: number;
    readonly wallMs?: number;
    readonly memoryKiB: number;
    readonly outputBytes?: number;
    readonly compileCpuMs?: number;
  };
}

/** What a plain run did: `compile` is null for interpreted languages; `run` is null when compilation failed. */
export interface PlainRunOutcome {
  readonly compile: ExecutionResult | null;
  readonly run: ExecutionResult | null;
}

/**
 * One job of a guipenedo/piston contest package (`codeforces`, `cms_ioi`) as Piston's `/api/v2/execute` takes it
 * (docs/API.md "Piston contest packages"): `language` is the package language's canonical name (`c++17`,
 * `python3`, `cms`); `files` the request's (names may hold directories, e.g. `graders/grader.cpp`), the solution
 * first; `runCpuMs` / `memoryKiB` the limits when the problem's own configuration says none; `runWallMs` Piston's
 * `run_timeout` (wall, ms) when given.
 */
export interface PackageRequest {
  readonly package: 'codeforces' | 'cms_ioi';
  readonly language: string;
  readonly files: readonly { readonly name: string; readonly content: string }[];
  readonly runCpuMs: number;
  readonly runWallMs?: number;
  readonly memoryKiB: number;
  /**
   * Largest CPU limit (ms) and memory limit (KiB) the package's own configuration may set (`grader_config`'s
   * `TIME_LIMIT`/`MEMORY_LIMIT`, `grader_config.json`'s `time_limit`/`memory_limit`): a server's maxima; default
   * the ranges of `LIMIT_RANGES`. A value past them is the request's error (`JudgeRequestError`), never clamped.
   */
  readonly maxCpuMs?: number;
  readonly maxMemoryKiB?: number;
}

/**
 * What a package job did: the package's stages (`PackageOutcome`), or `error` when Crucible failed on it (the
 * sandbox, the host: never an outcome of any program).
 */
export type PackageResult = { readonly outcome: PackageOutcome } | { readonly error: string };

/** How much the judge can do at once. */
export interface JudgeCapacity {
  /** One-shot execution slots (programs running at once). */
  readonly slots: number;
  /** Warm Python harnesses (harness jobs running at once). */
  readonly harnessSlots: number;
  /** Requests worth keeping in flight so no slot or harness waits for the caller. */
  readonly concurrency: number;
}

/** Counters since the judge was made (monotonic). */
export interface JudgeStats {
  /** `judge` calls, and those answered by a judgement of an identical request (memo hit or shared in flight). */
  readonly requests: number;
  readonly deduplicated: number;
  /** Judgements, plain runs and harness jobs repeated because an attempt ended in `internal_error`. */
  readonly retries: number;
  /** Sandboxed executions started: runs + compilations + harness jobs. */
  readonly executions: number;
  readonly runs: number;
  readonly compilations: number;
  readonly compileCacheHits: number;
  readonly harnessJobs: number;
  /** Harness jobs judged by a warm tester that had judged the problem's previous candidate. */
  readonly testerReuses: number;
  /** Ground-truth computations (e.g. a canonical solution run to get expected outputs), and cache hits on disk. */
  readonly groundTruthRuns: number;
  readonly groundTruthCacheHits: number;
}

/** One check of `Judge.selfTest`: what it exercised, whether it worked, how long it took (ms), and why not. */
export interface SelfTestCheck {
  /**
   * `sandbox`: a real program in a box, confined; `harness`: the Python judge harness judging a known-good
   * program; `queue`: a known-good program judged end to end by a worker of the fleet (a queue-backed judge).
   */
  readonly name: 'sandbox' | 'harness' | 'queue';
  readonly ok: boolean;
  readonly wallMs: number;
  readonly reason?: string;
}

/** What `Judge.selfTest` found: ok only when every check is. */
export interface SelfTestReport {
  readonly ok: boolean;
  readonly checks: readonly SelfTestCheck[];
}

/** The problems a judge knows, by dataset. */
export interface ProblemCatalog {
  /** Register a dataset's problems (again is a no-op when the hash is known). Task ids are unique per dataset. */
  add(datasetHash: string, problems: readonly ProblemBase[]): void;
  /** The problem `ref` names, or undefined. */
  get(ref: ProblemRef): ProblemBase | undefined;
  has(datasetHash: string): boolean;
}

/** Judging, whatever runs it (see the module comment for errors). */
export interface Judge {
  readonly catalog: ProblemCatalog;
  readonly capacity: JudgeCapacity;
  /** Judge one submission on its problem's tests (with `detail` only when asked and judged by this call). */
  judge(request: JudgeRequest, options?: CallOptions): Promise<DetailedVerdict>;
  /**
   * Every test of a problem as text for people (its input and expected output; the index alone where the
   * problem's mode cannot describe it), in test order; computes the mode's reference if it must (e.g. EvalPlus
   * expected outputs), leaving out what a reference that cannot be made would have given.
   */
  describeTests(problem: ProblemSpec, options?: CallOptions): Promise<readonly FailedTestDetail[]>;
  /** Compile and run one program once (`crucible run`, `/run_code`, `/api/v2/execute`). */
  runPlain(request: PlainRunRequest, options?: CallOptions): Promise<PlainRunOutcome>;
  /** Run one raw Python harness job (e.g. CodeT generated tests, whose per-test answers a verdict does not keep). */
  runHarness(job: HarnessJob, options?: CallOptions): Promise<HarnessResponse>;
  /**
   * Run one Piston contest-package job (Piston's `/api/v2/execute` for `codeforces` and `cms_ioi` languages).
   * Rejects with `JudgeRequestError` (`files`, `language`) for a job the package refuses (no `input.txt`, a bad
   * `grader_config`).
   */
  runPackage(request: PackageRequest, options?: CallOptions): Promise<PackageResult>;
  stats(): JudgeStats;
  /**
   * Run real programs through the judge's own machinery (a confined probe in the sandbox, a known-good program
   * through the Python judge harness) and report each check. For health checks: never rejects, and a
   * cancelled check (`signal`) is reported as not ok.
   */
  selfTest(options?: CallOptions): Promise<SelfTestReport>;
  /** Release everything the judge holds (harnesses, artifacts, and the sandbox if it made it). */
  close(): Promise<void>;
}

/** The request field a `JudgeRequestError` names (`files`, `language`: a contest-package job's). */
export type JudgeRequestField = 'problem' | 'program.language' | 'limits' | 'files' | 'language';

/** Thrown (rejected) for a request that cannot be judged as asked; `field` names the request field at fault. */
export class JudgeRequestError extends Error {
  constructor(message: string, readonly field: JudgeRequestField = 'problem') {
    super(message);
    this.name = 'JudgeRequestError';
  }
}

/** Whether a problem spec carries its problem inline. */
export function isInline(spec: ProblemSpec): spec is InlineProblem {
  return 'inline' in spec;
}

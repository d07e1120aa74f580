/**
 * The generic executor of plans (`src/judge/plan.ts`): it knows nothing of problem kinds. A `program_runs`
 * plan's program is compiled once (cached across plans by the `Executor`, with the files compiled into it) and run
 * on each planned run in order (its stdin, files and arguments; `repeat` times, every measurement kept); after each
 * run the mode's `judgeRun` judges it (and may run more programs through `ExecutionTools`), and with `failFast`
 * the first test that is not `passed` stops the plan. A `compile` plan is the compile step alone, with the files it
 * left that the mode reads. An `interactive` plan compiles both programs once and runs each run as an interactive
 * run (`./interactive.ts`: the trusted program and the candidate's boxes, each with its own uid), judged as a
 * `program_runs` run is. A `harness` plan is one job for the warm Python harness pool. A `cms_ioi_jobs` plan runs
 * the cms_ioi package (`src/engine/contest/cms-ioi-package.ts`) on each job through the same compile cache. A
 * `sql_engine` plan is one job for the judge's SQL server of that name (`src/judge/sql-engine.ts`).
 *
 * Cancellation: `signal` is checked before every execution; once aborted, nothing more starts, the run under way
 * is killed, and the call rejects with the signal's reason.
 */
import type { ProblemBase } from '../formats/types.js';
import { mergeHarnessStages, type HarnessJob, type HarnessResponse } from '../judge/harness/protocol.js';
import { JudgeRequestError, type PackageRequest, type PackageResult, type Program } from '../judge/judge.js';
import type { AnyMode } from '../kinds/index.js';
import type {
  CmsIoiJobsOutcome, CmsIoiJobsPlan, CompileOnlyOutcome, CompilePlan, ExecutionTools, InteractiveOutcome, InteractivePlan,
  HarnessPlan, InteractiveResult, Plan, PlannedProgram, PlanOutcome, ProgramRunsOutcome, ProgramRunsPlan, RunMeasurement,
  SqlEngineOutcome, SqlEnginePlan,
} from '../judge/plan.js';
import type { SqlEngine } from '../judge/sql-engine.js';
import { runCmsIoiJob } from './contest/cms-ioi-package.js';
import { runCodeforcesJob } from './contest/codeforces-package.js';
import { ContestInfraError, ContestRequestError } from './contest/package-job.js';
import type { LanguageRegistry } from '../languages/registry.js';
import type { Language } from '../languages/schema.js';
import { DEFAULT_COMPILE_LIMITS, runLimits, wallMsFor } from '../limits.js';
import { isBoxRelativePath } from '../sandbox/index.js';
import type { ExecutionResult, Limits } from '../sandbox/types.js';
import { runStatus, shortReason, type TestResult } from '../verdict/index.js';
import type { CompileOutcome, Executor } from './executor.js';
import { harnessInterpreter, type PythonHarnessPool } from './harness-pool.js';
import { workspaceRun } from './workspace.js';
import type { EnvironmentProvider } from '../judge/environment.js';
import { runInteractive } from './interactive.js';
import { readCollectedFile } from './collect.js';

/** Bytes read back of a file a compile plan names, when its limits do not say (1 MiB). */
const READ_BYTES = 1 << 20;

/** A run's test result when the mode does not judge runs itself: passed when the run ended `ok`. */
function defaultTest(index: number, result: ExecutionResult): TestResult {
  return { index, status: runStatus(result), cpuMs: result.cpuMs, wallMs: result.wallMs,
    ...(result.reason === undefined ? {} : { reason: result.reason }) };
}

/**
 * An interactive run's test result when the mode does not judge runs itself: the first candidate box that ended
 * other than `ok` by itself decides; else passed when the trusted program ended `ok`, `wrong_answer` (with its
 * stderr) when it refused; a box Crucible failed on is `internal_error`.
 */
function defaultInteractiveTest(index: number, result: InteractiveResult): TestResult {
  const cpuMs = result.candidates.reduce((sum, r) => sum + r.cpuMs, 0);
  const base = { index, cpuMs, wallMs: result.trusted.wallMs };
  const own = result.candidates.filter((_, i) => !result.endedByPeer.candidates[i]);
  const failed = own.find((r) => r.status !== 'ok');
  if (failed !== undefined) return { ...base, status: runStatus(failed), ...failed.reason === undefined ? {} : { reason: failed.reason } };
  const trusted = result.trusted;
  if (trusted.status === 'ok') return { ...base, status: 'passed' };
  if (trusted.status === 'internal_error' && !result.endedByPeer.trusted) return { ...base, status: 'internal_error', reason: trusted.reason ?? 'internal_error' };
  return { ...base, status: 'wrong_answer', reason: shortReason(trusted.stderr.trim() || trusted.reason || 'the trusted program refused')! };
}

/** The measurements of a run. */
function measured(result: ExecutionResult): RunMeasurement {
  return { status: result.status, cpuMs: result.cpuMs, wallMs: result.wallMs, memoryKiB: result.memoryKiB };
}

/** Compile limits of a compile plan: the defaults with the plan's CPU (and a wall bound that follows it) and memory. */
function compilePlanLimits(plan: CompilePlan): Limits {
  const cpuMs = plan.limits?.cpuMs;
  return {
    ...DEFAULT_COMPILE_LIMITS,
    ...cpuMs === undefined ? {} : { cpuMs, wallMs: wallMsFor(cpuMs) },
    ...plan.limits?.memoryKiB === undefined ? {} : { memoryKiB: plan.limits.memoryKiB },
  };
}

/**
 * The first `maxBytes` of a file a compile step left, as text; undefined when there is none or when it is refused
 * (a symbolic link on its path, not a regular file, outside the directory: `readCollectedFile`'s rules, since the
 * compile ran the candidate's build).
 */
function readText(dir: string, name: string, maxBytes: number): string | undefined {
  const file = readCollectedFile(dir, name, maxBytes);
  return file === undefined || 'refused' in file ? undefined : file.text;
}

/**
 * Options of `PlanExecutor.execute`: the signal that cancels it; `judging`: runs judged by the mode's `judgeRun`
 * (`mode`, a submission; the default) or each by how it ended (`default`, a reference); `language`: the
 * request's language, resolved once by the judge, used for every program of the plan in that language.
 */
export interface ExecuteOptions {
  readonly signal?: AbortSignal;
  readonly judging?: 'mode' | 'default';
  readonly language?: Language;
}

/** Runs plans on one executor (compile cache, one-shot slots) and one Python harness pool. */
export class PlanExecutor {
  /** Counters for `Judge.stats`: contest jobs run, boxes of interactive runs started. */
  readonly stats = { contestJobs: 0, interactiveBoxes: 0 };

  constructor(private readonly executor: Executor, private readonly harness: PythonHarnessPool,
    private readonly languages: LanguageRegistry,
    private readonly environments: ReadonlyMap<string, EnvironmentProvider> = new Map(),
    private readonly sqlEngines: ReadonlyMap<string, SqlEngine> = new Map()) {}

  /**
   * Execute `plan` for `problem`, judging runs with `mode` (its `judgeRun` unless `judging` is `default`).
   * @throws JudgeRequestError when the plan names an unknown language; the signal's reason when it aborts;
   *   Error for a plan the executor cannot carry out (a compile plan of a language without a compile step, a
   *   trusted program that does not compile).
   */
  async execute(mode: AnyMode, problem: ProblemBase, plan: Plan, options: ExecuteOptions = {}): Promise<PlanOutcome> {
    const { signal } = options;
    const judgeRun = options.judging === 'default' ? undefined : mode.judgeRun?.bind(mode);
    const language = (program: Program): Language => this.language(program, options.language);
    switch (plan.kind) {
      case 'harness': return { kind: 'harness', response: await this.runHarnessStages(plan, signal) };
      case 'cms_ioi_jobs': return this.runCmsIoiJobs(plan, signal);
      case 'sql_engine': return this.runSqlEngine(plan, signal);
      case 'compile': return this.compileOnly(plan, language(plan.program), signal);
      case 'interactive': return this.runInteractivePlan(plan, [language(plan.program), language(plan.trusted)], signal, (run, index, result) =>
        judgeRun ? judgeRun(problem, run, index, result, this.tools(signal)) : defaultInteractiveTest(index, result));
      case 'program_runs': return this.runPrograms(plan, language(plan.program), signal, (run, index, result) =>
        judgeRun ? judgeRun(problem, run, index, result, this.tools(signal)) : defaultTest(index, result));
    }
  }

  /** Compile a planned program (a no-op for an interpreted language), with its files and compile command. */
  private compile(language: Language, program: PlannedProgram, limits: Limits = DEFAULT_COMPILE_LIMITS): Promise<CompileOutcome> {
    return this.executor.compile(language, program.source, limits, {
      ...program.files === undefined ? {} : { files: program.files },
      ...program.compileArgv === undefined ? {} : { compileArgv: program.compileArgv },
      ...program.keep === undefined ? {} : { keep: program.keep },
    });
  }

  /**
   * The runs of a `program_runs` plan in order, each `repeat` times (stopping at a run that did not end `ok`), each
   * judged by `judge`; with `failFast`, stops after the first test not `passed`.
   */
  private async runPrograms(plan: ProgramRunsPlan, language: Language, signal: AbortSignal | undefined,
    judge: (run: ProgramRunsPlan['runs'][number], index: number, result: ExecutionResult) => TestResult | Promise<TestResult>): Promise<ProgramRunsOutcome> {
    signal?.throwIfAborted();
    const compile = await this.compile(language, plan.program);
    if (!compile.ok) return { kind: 'program_runs', compiled: false, compile: compile.result, runs: [], repeats: [], tests: [] };
    // A plan with a workspace: its environment prepared (once) and mounted into every run (./workspace.ts).
    const { limits, surroundings } = plan.workspace === undefined
      ? { limits: runLimits(plan.limits), surroundings: {} }
      : await workspaceRun(plan.workspace, plan.limits, this.environments, signal);
    const runs: ExecutionResult[] = [];
    const repeats: RunMeasurement[][] = [];
    const tests: TestResult[] = [];
    for (const [index, run] of plan.runs.entries()) {
      const measurements: RunMeasurement[] = [];
      let judged: ExecutionResult | undefined;
      for (let time = 0; time < Math.max(1, Math.floor(run.repeat ?? 1)); time++) {
        signal?.throwIfAborted();
        const result = await this.executor.runCompiled(language, plan.program.source, compile, run.stdin, limits,
          run.files, signal, run.args, plan.program.files, surroundings);
        measurements.push(measured(result));
        if (judged === undefined || result.status !== 'ok') judged = result;
        if (result.status !== 'ok') break;
      }
      runs.push(judged!);
      repeats.push(measurements);
      const test = await judge(run, index, judged!);
      tests.push(test);
      if (plan.failFast && test.status !== 'passed') break;
    }
    return { kind: 'program_runs', compiled: true, compile: compile.result, runs, repeats, tests };
  }

  /** A `compile` plan: the compile step, and the files it left that the plan reads. */
  private async compileOnly(plan: CompilePlan, language: Language, signal?: AbortSignal): Promise<CompileOnlyOutcome> {
    if (!language.compile) throw new Error(`a compile plan needs a language with a compile step; ${language.id} has none`);
    for (const name of plan.read ?? []) if (!isBoxRelativePath(name)) throw new Error(`a compile plan reads "${name}": not a name under /box`);
    signal?.throwIfAborted();
    const outcome = await this.compile(language, plan.program, compilePlanLimits(plan));
    const files: Record<string, string> = {};
    if (outcome.ok && outcome.artifactDir !== null) {
      for (const name of plan.read ?? []) {
        const text = readText(outcome.artifactDir, name, plan.limits?.outputBytes ?? READ_BYTES);
        if (text !== undefined) files[name] = text;
      }
    }
    return { kind: 'compile', result: outcome.result!, files };
  }

  /**
   * The runs of an `interactive` plan in order: both programs compiled once (a trusted program that does not
   * compile throws), each run an interactive run judged by `judge`; with `failFast`, stops after the first test
   * not `passed`.
   */
  private async runInteractivePlan(plan: InteractivePlan, [language, trustedLanguage]: readonly [Language, Language], signal: AbortSignal | undefined,
    judge: (run: InteractivePlan['runs'][number], index: number, result: InteractiveResult) => TestResult | Promise<TestResult>): Promise<InteractiveOutcome> {
    signal?.throwIfAborted();
    const compile = await this.compile(language, plan.program);
    if (!compile.ok) return { kind: 'interactive', compiled: false, compile: compile.result, runs: [], tests: [] };
    const trustedCompile = await this.compile(trustedLanguage, plan.trusted);
    if (!trustedCompile.ok) {
      throw new Error(`the trusted program did not compile (${trustedCompile.result.status}): ${trustedCompile.result.stderr.slice(0, 500)}`);
    }
    const relay = harnessInterpreter(this.languages.get('python'));
    const runs: InteractiveResult[] = [];
    const tests: TestResult[] = [];
    for (const [index, run] of plan.runs.entries()) {
      signal?.throwIfAborted();
      const candidate = this.executor.command(language, plan.program.source, compile, runLimits(plan.limits),
        { ...run.args === undefined ? {} : { args: run.args }, ...run.files === undefined ? {} : { files: run.files },
          ...plan.program.files === undefined ? {} : { programFiles: plan.program.files } });
      const trusted = this.executor.command(trustedLanguage, plan.trusted.source, trustedCompile, runLimits(plan.trustedLimits),
        { ...run.trusted.files === undefined ? {} : { files: run.trusted.files }, ...plan.trusted.files === undefined ? {} : { programFiles: plan.trusted.files } });
      const processes = Math.max(1, Math.floor(plan.processes ?? 1));
      this.stats.interactiveBoxes += processes + 1;
      const result = await runInteractive(this.executor.sandbox, relay, {
        trusted: { ...trusted, ...run.trusted.args === undefined ? {} : { args: run.trusted.args },
          ...run.trusted.stdin === undefined ? {} : { stdin: run.trusted.stdin } },
        candidates: Array.from({ length: processes }, () => candidate), channels: plan.channels,
      }, signal);
      runs.push(result);
      const test = await judge(run, index, result);
      tests.push(test);
      if (plan.failFast && test.status !== 'passed') break;
    }
    return { kind: 'interactive', compiled: true, compile: compile.result, runs, tests };
  }

  /** A `sql_engine` plan's job on the named engine; a judge without it answers an `engine` error (Crucible's). */
  private async runSqlEngine(plan: SqlEnginePlan, signal?: AbortSignal): Promise<SqlEngineOutcome> {
    signal?.throwIfAborted();
    const engine = this.sqlEngines.get(plan.engine);
    if (engine === undefined) {
      return { kind: 'sql_engine', check: plan.check,
        result: { error: `no "${plan.engine}" SQL server on this judge (it was made without one: createJudge({sqlEngines}))`, cause: 'engine' } };
    }
    return { kind: 'sql_engine', check: plan.check, result: await engine.run(plan.job, signal) };
  }

  /**
   * The jobs of a `cms_ioi_jobs` plan in order. Crucible's failures and jobs the package rejects (a malformed task)
   * are `error` results; a compile failure, and with `failFast` a test scoring below 1, stop the plan.
   * @throws the signal's reason when it aborts.
   */
  private async runCmsIoiJobs(plan: CmsIoiJobsPlan, signal?: AbortSignal): Promise<CmsIoiJobsOutcome> {
    const results: CmsIoiJobsOutcome['results'][number][] = [];
    for (const spec of plan.jobs) {
      signal?.throwIfAborted();
      let result: PackageResult;
      try {
        result = await this.runPackage({ package: 'cms_ioi', language: 'cms_ioi', files: spec.files, runCpuMs: spec.runCpuMs,
          memoryKiB: spec.memoryKiB }, signal);
      } catch (error) {
        if (!(error instanceof JudgeRequestError)) throw error;
        result = { error: `the task is malformed: ${error.message}` };
      }
      results.push(result);
      if ('error' in result || result.outcome.run === null) break;
      if (plan.failFast && !(Number(result.outcome.run.stdout.trim()) >= 1)) break;
    }
    return { kind: 'cms_ioi_jobs', results };
  }

  /**
   * One contest-package job (`src/engine/contest/`), its compilations through the executor's compile cache.
   * Crucible's failures are `error` results, never outcomes of a program.
   * @throws JudgeRequestError for a job the package refuses; the signal's reason when it aborts.
   */
  async runPackage(request: PackageRequest, signal?: AbortSignal): Promise<PackageResult> {
    signal?.throwIfAborted();
    this.stats.contestJobs++;
    const { package: name, ...job } = request;
    try {
      const run = name === 'codeforces' ? runCodeforcesJob : runCmsIoiJob;
      return { outcome: await run(this.executor, { ...job, ...(signal === undefined ? {} : { signal }) }) };
    } catch (error) {
      signal?.throwIfAborted();
      if (error instanceof ContestRequestError) throw new JudgeRequestError(error.message, error.field);
      if (error instanceof ContestInfraError) return { error: `crucible failed: ${error.message}` };
      throw error;
    }
  }

  /**
   * A harness plan's job, then each of its `then` jobs while `proceed` approves the merged responses so far (see
   * `HarnessPlan`); the merged response. Never rejects for what the program does.
   * @throws the signal's reason when `signal` aborts.
   */
  private async runHarnessStages(plan: HarnessPlan, signal?: AbortSignal): Promise<HarnessResponse> {
    const responses = [await this.runHarness(plan.job, signal)];
    for (const job of plan.then ?? []) {
      if (plan.proceed !== undefined && !plan.proceed(mergeHarnessStages(responses))) break;
      responses.push(await this.runHarness(job, signal));
    }
    return mergeHarnessStages(responses);
  }

  /**
   * One harness job; never rejects for what the program does (the pool's failure policy).
   * @throws the signal's reason when `signal` aborts (the job's processes are killed; no verdict is made of it).
   */
  async runHarness(job: HarnessJob, signal?: AbortSignal): Promise<HarnessResponse> {
    signal?.throwIfAborted();
    const response = await this.harness.run(job, { signal });
    if (response.cancelled) signal?.throwIfAborted();
    return response;
  }

  /**
   * The language a program names (`known` when it names that one: the request's, resolved once by the judge).
   * @throws JudgeRequestError when it is not configured.
   */
  language(program: Program, known?: Language): Language {
    if (known !== undefined && program.language === known.id) return known;
    if (!this.languages.has(program.language)) {
      throw new JudgeRequestError(`unknown language "${program.language}"`, 'program.language');
    }
    return this.languages.get(program.language);
  }

  /** Executions a mode may make while judging a run (a checker, an output validator and its feedback files), each in a box of its own. */
  tools(signal?: AbortSignal): ExecutionTools {
    return {
      runProgram: async (program, stdin, limits, files, args) => {
        const language = this.language(program);
        signal?.throwIfAborted();
        const compile = await this.compile(language, program);
        if (!compile.ok) return compile.result;
        signal?.throwIfAborted();
        return this.executor.runCompiled(language, program.source, compile, stdin, runLimits(limits), files, signal, args, program.files);
      },
      runProgramCollecting: async (program, stdin, limits, options) => {
        const language = this.language(program);
        signal?.throwIfAborted();
        const compile = await this.compile(language, program);
        if (!compile.ok) return { result: compile.result, files: {} };
        signal?.throwIfAborted();
        return this.executor.runCollecting(language, program.source, compile, stdin, runLimits(limits), {
          ...options, signal, ...program.files === undefined ? {} : { programFiles: program.files } });
      },
    };
  }
}

/**
 * The generic executor of plans (`src/judge/plan.ts`): it knows nothing of problem kinds. A `program_runs`
 * plan is compiled once (cached across plans by the `Executor`) and run on each planned stdin in order; after
 * each run the mode's `judgeRun` judges it (and may run more programs through `ExecutionTools`), and with
 * `failFast` the first test that is not `passed` stops the plan. A `harness` plan is one job for the warm
 * Python harness pool. A `cms_ioi_jobs` plan runs the cms_ioi package (`src/engine/contest/cms-ioi-package.ts`) on
 * each job through one `ContestBox` (its compile cache: the solution with the graders, the manager and the
 * checker are each built once per distinct source set, across plans); `close()` discards its artifacts.
 *
 * Cancellation: `signal` is checked before every execution; once aborted, nothing more starts and the call
 * rejects with the signal's reason. The sandbox does not take a signal yet (`SandboxRequest` has no `signal`
 * field), so a run or harness job already under way finishes within its own limits; the plumbing stops at the
 * executor and pool boundary until it does.
 */
import type { ProblemBase } from '../formats/types.js';
import type { HarnessJob, HarnessResponse } from '../judge/harness/protocol.js';
import { JudgeRequestError, type Program } from '../judge/judge.js';
import type { AnyMode } from '../kinds/index.js';
import type {
  CmsIoiJobsOutcome, CmsIoiJobsPlan, ExecutionTools, Plan, PlanOutcome, ProgramRunsOutcome, ProgramRunsPlan,
} from '../judge/plan.js';
import { ContestBox } from './contest/box.js';
import { runCmsIoiJob } from './contest/cms-ioi-package.js';
import { ContestInfraError, ContestRequestError } from './contest/package-job.js';
import type { LanguageRegistry } from '../languages/registry.js';
import type { Language } from '../languages/schema.js';
import { runLimits } from '../limits.js';
import type { ExecutionResult } from '../sandbox/types.js';
import { runStatus, type TestResult } from '../verdict/index.js';
import type { Executor } from './executor.js';
import type { PythonHarnessPool } from './harness-pool.js';

/** A run's test result when the mode does not judge runs itself: passed when the run ended `ok`. */
function defaultTest(index: number, result: ExecutionResult): TestResult {
  return { index, status: runStatus(result), cpuMs: result.cpuMs, wallMs: result.wallMs,
    ...(result.reason === undefined ? {} : { reason: result.reason }) };
}

/** Runs plans on one executor (compile cache, one-shot slots) and one Python harness pool. */
export class PlanExecutor {
  private contestBox: ContestBox | null = null;
  private contestJobs = 0;

  constructor(private readonly executor: Executor, private readonly harness: PythonHarnessPool,
    private readonly languages: LanguageRegistry) {}

  /** Contest jobs run, and the compilations (and cache hits) of their `ContestBox`: solution + graders, managers, checkers. */
  get contestStats(): { readonly jobs: number; readonly compilations: number; readonly cacheHits: number } {
    return { jobs: this.contestJobs, compilations: this.contestBox?.stats.compilations ?? 0, cacheHits: this.contestBox?.stats.cacheHits ?? 0 };
  }

  /** Discard the artifacts of contest jobs (the executor and harness are their owner's to close). */
  async close(): Promise<void> {
    const box = this.contestBox;
    this.contestBox = null;
    await box?.close();
  }

  /**
   * Execute `plan` for `problem`, judging runs with `mode`.
   * @throws JudgeRequestError when the plan names an unknown language; the signal's reason when it aborts.
   */
  execute(mode: AnyMode, problem: ProblemBase, plan: Plan, signal?: AbortSignal): Promise<PlanOutcome> {
    if (plan.kind === 'harness') return this.runHarness(plan.job, signal).then((response) => ({ kind: 'harness', response }));
    if (plan.kind === 'cms_ioi_jobs') return this.runCmsIoiJobs(plan, signal);
    return this.runPrograms(mode, problem, plan, signal);
  }

  /**
   * The jobs of a `cms_ioi_jobs` plan in order. Crucible's failures (`ContestInfraError`) and jobs the package
   * rejects (`ContestRequestError`) are `error` results; a compile failure, and with `failFast` a test scoring
   * below 1, stop the plan. @throws the signal's reason when it aborts.
   */
  private async runCmsIoiJobs(plan: CmsIoiJobsPlan, signal?: AbortSignal): Promise<CmsIoiJobsOutcome> {
    const box = this.contestBox ??= new ContestBox(this.executor.sandbox, this.languages, this.executor);
    const results: CmsIoiJobsOutcome['results'][number][] = [];
    for (const spec of plan.jobs) {
      signal?.throwIfAborted();
      this.contestJobs++;
      try {
        const outcome = await runCmsIoiJob(box, { language: 'cms_ioi', files: spec.files, runCpuMs: spec.runCpuMs, memoryKiB: spec.memoryKiB,
          ...(signal === undefined ? {} : { signal }) });
        results.push({ outcome });
        if (outcome.run === null) break;
        if (plan.failFast && !(Number(outcome.run.stdout.trim()) >= 1)) break;
      } catch (error) {
        signal?.throwIfAborted();
        if (!(error instanceof ContestInfraError || error instanceof ContestRequestError)) throw error;
        results.push({ error: `${error instanceof ContestRequestError ? 'the task is malformed' : 'crucible failed'}: ${error.message}` });
        break;
      }
    }
    return { kind: 'cms_ioi_jobs', results };
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

  /** The language a program names. @throws JudgeRequestError when it is not configured. */
  language(program: Program): Language {
    if (!this.languages.has(program.language)) {
      throw new JudgeRequestError(`unknown language "${program.language}"`, 'program.language');
    }
    return this.languages.get(program.language);
  }

  /** Executions a mode may make while judging a run (a checker, for instance). */
  tools(signal?: AbortSignal): ExecutionTools {
    return {
      runProgram: (program, stdin, limits, files, args) => this.executor.runProgram(this.language(program), program.source, stdin,
        runLimits(limits), { ...(files === undefined ? {} : { files }), ...(signal === undefined ? {} : { signal }),
          ...(args === undefined ? {} : { args }) }),
      runProgramCollecting: (program, stdin, limits, options) => this.executor.runProgramCollecting(this.language(program),
        program.source, stdin, runLimits(limits), { ...options, ...(signal === undefined ? {} : { signal }) }),
    };
  }

  private async runPrograms(mode: AnyMode, problem: ProblemBase, plan: ProgramRunsPlan, signal?: AbortSignal): Promise<ProgramRunsOutcome> {
    const language = this.language(plan.program);
    const tools = this.tools(signal);
    const tests: TestResult[] = [];
    const { compile, runs } = await this.executor.runMany(language, plan.program.source, plan.runs.map((r) => r.stdin),
      runLimits(plan.limits), {
        failFast: plan.failFast,
        ...(signal === undefined ? {} : { signal }),
        onResult: async (index, result) => {
          const test = mode.judgeRun ? await mode.judgeRun(problem, plan.runs[index]!, index, result, tools) : defaultTest(index, result);
          tests.push(test);
          return test.status !== 'passed';
        },
      });
    return { kind: 'program_runs', compiled: compile.ok, compile: compile.result, runs, tests };
  }
}

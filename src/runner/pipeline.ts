/**
 * The judging pipeline every front end shares (`crucible eval`, `crucible serve`, `crucible rerank`):
 * problem + submission → plan → compile once / run many (sandbox) → compare outside the box → verdict.
 *
 * Identical programs are judged once: verdicts are memoised by (problem, program hash, judging options),
 * and concurrent requests for the same program share one execution.
 */
import { createHash } from 'node:crypto';
import type { CallProblem, IoProblem, Problem, UnitTestProblem } from '../formats/types.js';
import { compareOutput } from '../judge/comparators.js';
import { judgeEvalPlusOutput } from '../judge/special-oracles.js';
import type { PyValue } from '../judge/pyvalue.js';
import { pyValueSchema, show } from '../judge/compare-pyvalue.js';
import { aggregateTests, type JudgeVerdict, runStatus, shortReason } from '../judge/verdict.js';
import { LanguageRegistry } from '../languages/registry.js';
import type { Sandbox } from '../sandbox/index.js';
import { failedTestDetail, MAX_DETAILED_FAILURES, TEST_DETAIL_CHARS, type FailedTestDetail, type SampleStatus, type TestResult } from '../store/records.js';
import { Executor, programHash } from './executor.js';
import { runLimits, wallMsFor } from './limits.js';
import { PythonHarnessPool, type HarnessResponse } from './python-pool.js';

export type { JudgeVerdict } from '../judge/verdict.js';

/**
 * A verdict with what people need to see why a sample failed (`JudgeRequest.detail`): what each failing test
 * printed or returned and its stderr (`FailedTestDetail`, the first `MAX_DETAILED_FAILURES` failing tests), the compiler's
 * stderr when nothing ran, and the run's peak memory (KiB). Only the request that judged the program gets it:
 * the memo keeps plain verdicts, so deduplicated requests cost no memory (the store keeps detail per program).
 */
export interface DetailedVerdict extends JudgeVerdict {
  readonly failures?: readonly FailedTestDetail[];
  readonly stderr?: string;
  readonly memoryKiB?: number;
}

function plainVerdict(verdict: DetailedVerdict): JudgeVerdict {
  const { failures: _failures, stderr: _stderr, memoryKiB: _memoryKiB, ...plain } = verdict;
  return plain;
}

/** What to judge: a complete program for a problem. For Python problems `source` is prompt+completion. */
export interface JudgeRequest {
  readonly problem: Problem;
  readonly source: string;
  /** Language id for `io` problems; Python problems are always Python. */
  readonly language?: string;
  /** Stop at the first failing test (binary rewards). Verdict stays exact; fewer tests are reported. */
  readonly failFast?: boolean;
  /** Return a `DetailedVerdict` when this request is the one that judges the program (not a memo hit). */
  readonly detail?: boolean;
}

/** Pipeline-wide judging defaults (per-problem limits override where the problem sets them). */
export interface PipelineOptions {
  /** CPU time limit per program (unit_test) or per test/input (io, call), ms. */
  readonly timeLimitMs: number;
  readonly memoryLimitKiB: number;
  readonly outputBytes: number;
}

/**
 * Defaults: 1 s of CPU time per program (unit tests) or per test/input, 1 GiB.
 * Why 1 s and not the openai/human-eval harness's 3 s: its 3 s are wall-clock seconds in a pool of 4 workers on
 * the machine's cores, so a program there gets well under 3 s of CPU; and on the 16,400 CodeGen-16B HumanEval
 * samples the slowest passing program takes 15 ms of CPU here (docs/PERFORMANCE.md), so 1 s changes no verdict
 * while every never-ending program costs a third. `--time-limit 3` restores 3 s.
 */
export const DEFAULT_PIPELINE_OPTIONS: PipelineOptions = {
  timeLimitMs: 1000,
  memoryLimitKiB: 1024 * 1024,
  outputBytes: 1 << 20,
};

/** Verdicts remembered for deduplication (a verdict is a few hundred bytes). */
const MEMO_CAPACITY = 200_000;

/** Thrown for requests that cannot be judged as asked (unknown language for an io problem, etc.). */
export class JudgeRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JudgeRequestError';
  }
}

function mapHarnessStatus(status: HarnessResponse['status']): SampleStatus {
  return status === 'ok' ? 'passed' : status;
}

/** The shared pipeline. Owns an executor (compile cache) and a Python harness pool over one sandbox. */
export class Pipeline {
  readonly executor: Executor;
  readonly python: PythonHarnessPool;
  private readonly memo = new Map<string, Promise<JudgeVerdict>>();
  private readonly expected = new Map<string, Promise<readonly ExpectedOutput[]>>();
  /** Counters for metrics: judged requests, memo hits. */
  readonly stats = { requests: 0, deduplicated: 0 };

  constructor(readonly sandbox: Sandbox, readonly languages: LanguageRegistry = LanguageRegistry.load(),
    readonly options: PipelineOptions = DEFAULT_PIPELINE_OPTIONS) {
    this.executor = new Executor(sandbox, languages);
    this.python = new PythonHarnessPool(sandbox);
  }

  /** Requests to keep in flight: twice the slots of the larger pool, so no slot or harness waits for Node. */
  get defaultConcurrency(): number {
    return Math.max(this.sandbox.slotCount, this.sandbox.boxSlotCount) * 2;
  }

  /** Hash identifying a program for deduplication. */
  hashOf(request: JudgeRequest): string {
    const language = request.problem.kind === 'io' ? (request.language ?? 'python') : 'python';
    return programHash(this.languages.has(language) ? this.languages.get(language).id : language, request.source);
  }

  /** Judge one submission. Rejects only with `JudgeRequestError` for malformed requests. */
  judge(request: JudgeRequest): Promise<DetailedVerdict> {
    this.stats.requests++;
    const key = `${request.problem.kind}\0${request.problem.taskId}\0${this.hashOf(request)}\0${request.failFast === true}`;
    const known = this.memo.get(key);
    if (known) {
      this.stats.deduplicated++;
      return known;
    }
    const detailed = this.judgeUncached(request);
    const pending = detailed.then(plainVerdict);
    this.memo.set(key, pending);
    // Bounded memo: the oldest verdicts go first (a long-running server judges unboundedly many programs).
    if (this.memo.size > MEMO_CAPACITY) this.memo.delete(this.memo.keys().next().value as string);
    void pending.then((v) => {
      // Crucible's own failures are never memoised: a retry may succeed.
      if (v.status === 'internal_error') this.memo.delete(key);
    }, () => this.memo.delete(key));
    return request.detail === true ? detailed : pending;
  }

  private judgeUncached(request: JudgeRequest): Promise<DetailedVerdict> {
    switch (request.problem.kind) {
      case 'io': return this.judgeIo(request.problem, request);
      case 'unit_test': return this.judgeUnitTest(request.problem, request.source);
      case 'call': return this.judgeCall(request.problem, request.source, request.failFast === true, request.detail === true);
    }
  }

  private async judgeIo(problem: IoProblem, request: JudgeRequest): Promise<DetailedVerdict> {
    const languageName = request.language ?? problem.language;
    if (languageName === undefined) throw new JudgeRequestError(`problem ${problem.taskId}: the submission needs a language`);
    if (!this.languages.has(languageName)) throw new JudgeRequestError(`unknown language "${languageName}"`);
    const language = this.languages.get(languageName);
    const limits = runLimits({
      timeLimitSeconds: (problem.timeLimitMs ?? this.options.timeLimitMs) / 1000,
      memoryLimitMiB: (problem.memoryLimitKiB ?? this.options.memoryLimitKiB) / 1024,
      outputBytes: Math.max(this.options.outputBytes, ...problem.tests.map((t) => t.output.length * 2 + 1024)),
    });
    const tests: TestResult[] = [];
    const failures: FailedTestDetail[] = [];
    const { compile, runs } = await this.executor.runMany(language, request.source, problem.tests.map((t) => t.input), limits, {
      failFast: request.failFast === true,
      onResult: (i, result) => {
        const comparison = compareOutput(result.stdout, problem.tests[i]!.output, problem.comparator);
        const status: SampleStatus = result.status !== 'ok' ? runStatus(result) : comparison.ok ? 'passed' : 'wrong_answer';
        tests.push({ index: i, status, cpuMs: result.cpuMs, wallMs: result.wallMs,
          reason: shortReason(result.status !== 'ok' ? result.reason : comparison.ok ? undefined : comparison.reason) });
        if (status !== 'passed' && failures.length < MAX_DETAILED_FAILURES) failures.push(failedTestDetail(i, { actual: result.stdout, stderr: result.stderr }));
        return status !== 'passed';
      },
    });
    if (!compile.ok) {
      return { status: compile.result.status === 'internal_error' ? 'internal_error' : 'compile_error', passed: false,
        tests: [], cpuMs: compile.result.cpuMs, wallMs: compile.result.wallMs, testCount: problem.tests.length,
        reason: shortReason(`${compile.result.reason ?? ''}: ${compile.result.stderr.slice(0, 500)}`),
        stderr: compile.result.stderr.slice(0, TEST_DETAIL_CHARS), memoryKiB: compile.result.memoryKiB };
    }
    const verdict = aggregateTests(tests, problem.tests.length);
    const stoppedEarly = request.failFast === true && verdict.status !== 'passed';
    return {
      status: stoppedEarly || tests.length === problem.tests.length ? verdict.status : 'internal_error',
      passed: verdict.status === 'passed',
      tests,
      cpuMs: runs.reduce((s, r) => s + r.cpuMs, 0),
      wallMs: runs.reduce((s, r) => s + r.wallMs, 0),
      testCount: problem.tests.length,
      reason: shortReason(verdict.reason),
      failures,
      memoryKiB: runs.reduce((m, r) => Math.max(m, r.memoryKiB), 0),
    };
  }

  private async judgeUnitTest(problem: UnitTestProblem, source: string): Promise<DetailedVerdict> {
    const response = await this.python.run({
      mode: 'unit_test',
      program: source,
      prelude: problem.prompt,
      test: problem.test,
      entryPoint: problem.entryPoint,
      cpuMs: this.options.timeLimitMs,
      wallMs: wallMsFor(this.options.timeLimitMs),
      memoryKiB: this.options.memoryLimitKiB,
      outputBytes: this.options.outputBytes,
    });
    const status = mapHarnessStatus(response.status);
    return {
      status,
      passed: status === 'passed',
      tests: [{ index: 0, status, cpuMs: response.cpuMs, wallMs: response.wallMs, reason: shortReason(response.reason) }],
      cpuMs: response.cpuMs,
      wallMs: response.wallMs,
      testCount: 1,
      reason: shortReason(response.reason),
      failures: status === 'passed' ? [] : [failedTestDetail(0, { actual: response.reason ?? status, stderr: response.stderr })],
      memoryKiB: response.memoryKiB,
    };
  }

  /** Expected outputs of a call problem: the canonical solution run once in the box, memoised. */
  expectedOutputs(problem: CallProblem): Promise<readonly ExpectedOutput[]> {
    const key = `${problem.taskId}\0${createHash('sha256').update(problem.canonicalSolution).digest('hex')}`;
    let pending = this.expected.get(key);
    if (!pending) {
      // The reference gets a generous CPU limit (EvalPlus computes ground truth without one): 20x.
      pending = this.runCalls(problem, problem.prompt + problem.canonicalSolution, [...problem.baseInputs, ...problem.plusInputs], false,
        { timeLimitMs: this.options.timeLimitMs * 20, memoryLimitKiB: this.options.memoryLimitKiB })
        .then((r) => {
          const total = problem.baseInputs.length + problem.plusInputs.length;
          if (r.results.length !== total) {
            throw new Error(`canonical solution of ${problem.taskId} answered ${r.results.length} of ${total} inputs: ${r.response.status} ${r.response.reason ?? ''}`);
          }
          return r.results.map((x, i) => {
            if (x.status !== 'ok') throw new Error(`canonical solution of ${problem.taskId} failed on input ${i}: ${x.status} ${x.reason ?? ''}`);
            const value = pyValueSchema.safeParse(x.value);
            if (!value.success) throw new Error(`canonical solution of ${problem.taskId} returned an invalid value on input ${i}`);
            return { value: value.data, referenceCpuMs: x.cpuMs ?? 0 };
          });
        });
      this.expected.set(key, pending);
    }
    return pending;
  }

  private async runCalls(problem: CallProblem, program: string, inputs: readonly (readonly PyValue[])[], failFast: boolean,
    limits: { readonly timeLimitMs: number; readonly memoryLimitKiB: number } = this.options):
    Promise<{ response: HarnessResponse; results: { status: SampleStatus | 'ok'; value?: unknown; reason?: string; cpuMs?: number }[] }> {
    const response = await this.python.run({
      mode: 'call',
      program,
      entryPoint: problem.entryPoint,
      inputs,
      cpuMs: limits.timeLimitMs,
      wallMs: wallMsFor(limits.timeLimitMs),
      memoryKiB: limits.memoryLimitKiB,
      outputBytes: this.options.outputBytes,
      failFast,
    });
    const results = (response.results ?? []).map((r) => ({ ...r, status: r.status === 'ok' ? 'ok' as const : mapHarnessStatus(r.status) }));
    return { response, results };
  }

  private async judgeCall(problem: CallProblem, source: string, failFast: boolean, detail = false): Promise<DetailedVerdict> {
    let expected: readonly ExpectedOutput[];
    try {
      expected = await this.expectedOutputs(problem);
    } catch (error) {
      return { status: 'internal_error', passed: false, tests: [], cpuMs: 0, wallMs: 0,
        testCount: problem.baseInputs.length + problem.plusInputs.length, reason: shortReason((error as Error).message) };
    }
    const inputs = [...problem.baseInputs, ...problem.plusInputs];
    // EvalPlus scales the per-input limit from the reference's time (evalplus/evaluate.py: max(min limit,
    // gt_time_limit_factor=4 x reference time)); here the slowest input sets it for the whole job.
    const slowestReferenceMs = expected.reduce((m, e) => Math.max(m, e.referenceCpuMs), 0);
    const perInputMs = Math.max(this.options.timeLimitMs, 4 * slowestReferenceMs);
    const { response, results } = await this.runCalls(problem, source, inputs, failFast,
      { timeLimitMs: perInputMs, memoryLimitKiB: this.options.memoryLimitKiB });
    if (response.status === 'internal_error') {
      return { status: 'internal_error', passed: false, tests: [], cpuMs: response.cpuMs, wallMs: response.wallMs,
        testCount: inputs.length, reason: shortReason(response.reason) };
    }
    const tests: TestResult[] = results.slice(0, inputs.length).map((r, i) => {
      if (r.status !== 'ok') return { index: i, status: r.status, cpuMs: r.cpuMs, reason: shortReason(r.reason) };
      const value = pyValueSchema.safeParse(r.value);
      if (!value.success) return { index: i, status: 'wrong_answer', cpuMs: r.cpuMs, reason: 'the program returned an invalid value' };
      const comparison = judgeEvalPlusOutput({
        dataset: problem.taskId.startsWith('Mbpp/') ? 'mbpp' : 'humaneval',
        entryPoint: problem.entryPoint,
        input: inputs[i]!,
        actual: value.data,
        expected: expected[i]!.value,
        atol: problem.atol,
      });
      return { index: i, status: comparison.ok ? 'passed' : 'wrong_answer', cpuMs: r.cpuMs,
        reason: comparison.ok ? undefined : shortReason(comparison.reason) };
    });
    // What each failing input returned (rendered only when asked: values can be large), stderr with the first.
    const failures: FailedTestDetail[] = !detail ? [] : tests.filter((t) => t.status !== 'passed').slice(0, MAX_DETAILED_FAILURES).map((t, rank) => {
      const value = results[t.index]?.status === 'ok' ? pyValueSchema.safeParse(results[t.index]!.value) : undefined;
      return failedTestDetail(t.index, {
        actual: value?.success === true ? show(value.data, TEST_DETAIL_CHARS + 1) : t.reason ?? t.status,
        stderr: rank === 0 ? response.stderr : undefined,
      });
    });
    // A harness-level failure with no per-input result (e.g. the program did not load) fails every input.
    if (tests.length === 0 && response.status !== 'ok' && response.status !== 'passed') {
      const status = mapHarnessStatus(response.status);
      tests.push({ index: 0, status, reason: shortReason(response.reason) });
      if (detail) failures.push(failedTestDetail(0, { actual: response.reason ?? status, stderr: response.stderr }));
    }
    const baseCount = problem.baseInputs.length;
    const base = aggregateTests(tests.filter((t) => t.index < baseCount), baseCount);
    const baseTests = tests.filter((t) => t.index < baseCount);
    const baseStatus: SampleStatus = baseTests.length > 0 && baseTests.length < baseCount && base.status === 'passed'
      ? (mapHarnessStatus(response.status)) : base.status;
    const plusTests = tests.filter((t) => t.index >= baseCount).map((t) => ({ ...t, index: t.index - baseCount }));
    const plus = aggregateTests(plusTests, problem.plusInputs.length);
    const basePassed = baseStatus === 'passed';
    const plusStatus: SampleStatus = !basePassed ? baseStatus : problem.plusInputs.length === 0 ? 'passed' : plus.status;
    return {
      status: baseStatus,
      passed: basePassed,
      plusStatus,
      plusPassed: basePassed && plusStatus === 'passed',
      tests,
      cpuMs: response.cpuMs,
      wallMs: response.wallMs,
      testCount: inputs.length,
      reason: shortReason(baseStatus !== 'passed' ? base.reason ?? response.reason : plus.reason),
      failures,
      memoryKiB: response.memoryKiB,
    };
  }

  /** Release the harness pool and compile cache (the sandbox belongs to the caller). */
  async close(): Promise<void> {
    this.python.close();
    await this.executor.close();
  }
}

/** One expected return value of a call problem, and the CPU time the reference took on that input (ms). */
export interface ExpectedOutput {
  readonly value: PyValue;
  readonly referenceCpuMs: number;
}

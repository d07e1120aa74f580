/**
 * The store's side of `crucible eval`: the eval hands each judged sample to `EvalSink.record` (after it is
 * durable in the run directory) and calls `finish` at the end; the sink batches samples into the store
 * (`FLUSH_SAMPLES` or `FLUSH_MS`, whichever comes first) with the progress bar's numbers, so a dashboard
 * follows the run live.
 *
 * A store that fails never costs a result: the run directory has every record, the first store error is kept
 * and reported by `finish` (which then marks the run failed if it still can), and `crucible store import DIR`
 * adds the run later. A resumed eval (same run directory, data and options) continues its store run; records
 * resumed from the directory that the store lacks are added without their program text.
 */
import type { Problem, ProblemBase, Sample } from '../formats/types.js';
import type { VerdictDetail } from '../verdict/index.js';
import { analyseRun } from './analysis.js';
import { WriteBatcher } from './batcher.js';
import { StoreError } from './errors.js';
import type { FailedTestDetail, SampleRecord } from './records.js';
import { openResultStore } from './open.js';
import { problemInfoOf, problemLabelsOf } from './problem-info.js';
import type { KeepTests, NewRun, ResultStore, RunProgress, SampleInput, StoredProblem } from './result-store.js';

/** Samples buffered before a write. */
export const FLUSH_SAMPLES = 500;
/** Longest time a judged sample waits before it is written, ms. */
export const FLUSH_MS = 500;

/** One judged sample as the eval knows it. */
export interface JudgedSample {
  readonly problem: Problem;
  readonly sample: Sample;
  /** The program judged. */
  readonly source: string;
  readonly language?: string;
  /** The verdict's detail (`DetailedVerdict.detail`), when the judge gave one. */
  readonly verdict?: VerdictDetail;
  /** How code was extracted from the response, when it was (opaque JSON). */
  readonly extraction?: unknown;
}

/** The run to write: `NewRun` less what the sink fills in. `provenance.runDir` ties it to its run directory. */
export type EvalSinkRun = Omit<NewRun, 'status' | 'createdMs' | 'keepTests'> & { readonly keepTests?: KeepTests };

/** Options of `EvalSink.open`. */
export interface EvalSinkOptions {
  /** Tests of a problem as its verdicts count them (its judging mode's `testCount`). */
  readonly testCount: (problem: ProblemBase) => number;
  /** Records already in the run directory (a resumed eval); those the store lacks are added without program text. */
  readonly resumed?: Iterable<SampleRecord>;
  /**
   * The input and expected output of every test of a problem, in test order (`Judge.describeTests`), asked once
   * per dataset and problem, when a sample first fails one of its tests; without it the store keeps no test cases.
   */
  readonly describeTests?: (problem: Problem) => Promise<readonly FailedTestDetail[]>;
}

/** A problem as the store keeps it, with its test count (see `EvalSinkOptions.testCount`). */
export function storedProblem(problem: Problem, testCount: number): StoredProblem {
  return {
    taskId: problem.taskId,
    kind: problem.kind,
    ...('prompt' in problem ? { prompt: problem.prompt } : {}),
    testCount,
    info: problemInfoOf(problem),
    labels: problemLabelsOf(problem),
  };
}

/** Writes one eval into the store (see the module comment). */
export class EvalSink {
  /** Samples on their way to the store; a failed write is kept for `finish`, and no later batch is written. */
  private readonly batcher = new WriteBatcher<SampleInput>(async (batch) => {
    if (this.error !== null) return;
    await this.store.appendSamples(this.runId, batch, this.progress());
    await this.storeTestCases(batch);
  }, { flushMs: FLUSH_MS, maxBatch: FLUSH_SAMPLES, onError: (error) => {
    this.error ??= error;
  } });
  private error: Error | null = null;
  private done: number;
  private passed: number;
  private judged = 0;
  private readonly startedMs = Date.now();

  private constructor(readonly store: ResultStore, readonly runId: number, private readonly run: EvalSinkRun, done: number, passed: number,
    private readonly problems: ReadonlyMap<string, Problem>, private readonly knownCases: Set<string>,
    private readonly describeTests: EvalSinkOptions['describeTests']) {
    this.total = run.totalSamples;
    this.done = done;
    this.passed = passed;
  }

  private readonly total: number;

  /**
   * Open the run in `store` (continuing the run of the same run directory, data and options when there is
   * one), record its problems, and add resumed records it lacks.
   * @throws StoreError or the engine's error when the store cannot be written at all.
   */
  static async open(store: ResultStore, run: EvalSinkRun, problems: readonly Problem[], options: EvalSinkOptions): Promise<EvalSink> {
    const identity = JSON.stringify(run.options);
    const runDir = run.provenance['runDir'];
    const previous = (await store.findRuns(run)).find((r) => JSON.stringify(r.options) === identity && r.provenance['runDir'] === runDir);
    const runId = previous?.id ?? await store.createRun({ ...run, keepTests: run.keepTests ?? 'failing' });
    if (previous !== undefined) await store.finishRun(runId, 'running');
    await store.addProblems(runId, problems.map((p) => storedProblem(p, options.testCount(p))));
    const records = [...(options.resumed ?? [])];
    if (records.length > 0) await store.appendSamples(runId, records.map((record) => ({ record })));
    const stored = await store.getRun(runId);
    const known = options.describeTests === undefined ? new Set<string>() : await store.knownTestCases(run.problemsHash);
    return new EvalSink(store, runId, run, stored?.doneSamples ?? records.length, stored?.passedSamples ?? 0,
      new Map(problems.map((p) => [p.taskId, p])), known, options.describeTests);
  }

  /** Queue one judged sample (never throws; a store failure is kept for `finish`). */
  record(record: SampleRecord, judged: JudgedSample): void {
    // The model's text the program came from: a raw response too (the code was extracted from it).
    const completion = judged.sample.completion ?? judged.sample.solution ?? judged.sample.response;
    this.done++;
    this.judged++;
    if (record.passed) this.passed++;
    this.batcher.push({
      record,
      program: {
        source: judged.source,
        ...(judged.language === undefined ? {} : { language: judged.language }),
        ...(completion === undefined ? {} : { completion }),
        ...(judged.extraction === undefined ? {} : { extraction: judged.extraction }),
      },
      ...(judged.verdict?.failures === undefined ? {} : { failures: judged.verdict.failures }),
      ...(judged.verdict?.stderr === undefined ? {} : { stderr: judged.verdict.stderr }),
      ...(judged.verdict?.memoryKiB === undefined ? {} : { memoryKiB: judged.verdict.memoryKiB }),
    });
  }

  /** The progress bar's numbers now. */
  progress(): RunProgress {
    const rate = this.judged / Math.max((Date.now() - this.startedMs) / 1000, 1e-3);
    return {
      done: this.done,
      total: this.total,
      passed: this.passed,
      samplesPerSecond: rate,
      etaSeconds: rate > 0 ? Math.max(0, (this.total - this.done) / rate) : null,
    };
  }

  /** Write what is queued (one transaction). Resolves when written; failures are kept for `finish`. */
  flush(): Promise<void> {
    return this.batcher.flush();
  }

  /** Inputs and expected outputs of every test of a problem, when a sample first fails one (once per dataset). */
  private async storeTestCases(batch: readonly SampleInput[]): Promise<void> {
    if (this.describeTests === undefined) return;
    for (const { record } of batch) {
      const problem = this.problems.get(record.taskId);
      if (problem === undefined || this.knownCases.has(record.taskId) || record.tests.every((t) => t.status === 'passed')) continue;
      this.knownCases.add(record.taskId);
      await this.store.addTestCases(this.run.problemsHash, record.taskId, await this.describeTests(problem));
    }
  }

  /**
   * Write the rest, store the eval's summary and the run's pass@k analysis, and mark the run `status`.
   * @throws StoreError `store_unavailable` when any write failed (the run directory still has every record).
   */
  async finish(summary: unknown, status: 'finished' | 'failed' | 'interrupted' = 'finished'): Promise<void> {
    await this.flush();
    if (this.error === null) {
      try {
        await this.store.finishRun(this.runId, status, summary);
        const run = await this.store.getRun(this.runId);
        if (run !== undefined && status === 'finished') await analyseRun(this.store, run, await this.store.problemCounts(this.runId));
      } catch (error) {
        this.error = error as Error;
      }
    }
    if (this.error !== null) {
      await this.store.finishRun(this.runId, 'failed').catch(() => undefined);
      const cause = this.error;
      throw new StoreError('store_unavailable', `the store ${this.store.location} could not be written (${cause.message}); ` +
        'the run directory has every result: add it with `crucible store import DIR`');
    }
  }
}

/** An open store and the sink of one eval (`openEvalStore`). */
export interface EvalStoreHandle {
  readonly store: ResultStore;
  readonly sink: EvalSink;
  /**
   * Finish the run with the eval's summary (or mark it failed when `summary` is undefined; `interrupted` when the
   * user stopped the eval) and close the store.
   * Resolves to the line to print, or rejects with `StoreError` when the store could not be written.
   */
  close(summary?: unknown, status?: 'interrupted'): Promise<string>;
}

/**
 * Open the store named by `spec` (see `open.ts`; `false`: no store) and an `EvalSink` for the run. A store named
 * explicitly that cannot be opened is an error; the default one is a warning (`warn`), and the eval writes its
 * run directory only.
 * @throws StoreError when `spec` names a store that cannot be opened or written.
 */
export async function openEvalStore(spec: string | false | undefined, run: EvalSinkRun, problems: readonly Problem[],
  options: EvalSinkOptions, warn: (message: string) => void): Promise<EvalStoreHandle | null> {
  if (spec === false) return null;
  let store: ResultStore | undefined;
  try {
    store = await openResultStore(spec);
    const sink = await EvalSink.open(store, run, problems, options);
    const opened = store;
    let closed = false;
    return {
      store: opened,
      sink,
      async close(summary?: unknown, status?: 'interrupted'): Promise<string> {
        if (closed) return '';
        closed = true;
        try {
          await sink.finish(summary, status ?? (summary === undefined ? 'failed' : 'finished'));
          return `store: run ${sink.runId} in ${opened.location} (crucible dashboard shows it)`;
        } finally {
          await opened.close();
        }
      },
    };
  } catch (error) {
    await store?.close().catch(() => undefined);
    if (spec !== undefined) throw error;
    warn(`results go to the run directory only: ${(error as Error).message}`);
    return null;
  }
}

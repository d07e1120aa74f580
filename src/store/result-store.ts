/**
 * The result store: evaluation runs (samples, verdicts, per-test results, provenance) and training reward
 * events, in SQLite (default, one file) or PostgreSQL (`postgres://…`), behind one interface. `open.ts` opens one;
 * `db/sql-store.ts` implements it once over both engines; `test/store/conformance.ts` is the suite both pass.
 *
 * Writers: `crucible eval` through `EvalSink` (`eval-sink.ts`), `crucible store import`, and training events
 * (`recordTrainingEvents`, `TrainingRecorder`). Readers: the dashboard, `crucible export`, `crucible compare` and
 * `crucible report` on store runs. Data model and columns: docs/STORE.md.
 */
import type { SampleStatus } from '../verdict/index.js';
import type { FailedTestDetail, SampleRecord } from './records.js';
import type { TrainingEvent } from './training-event.js';

/** Which engine holds the store. */
export type StoreBackend = 'sqlite' | 'postgres';

/** Life of a run: `running` while judged; `finished`; `failed` (the eval stopped on an error); `interrupted` (killed). */
export type RunStatus = 'running' | 'finished' | 'failed' | 'interrupted';

/** Per-test detail kept: failing tests in full and passing tests as counts (default), or every test. */
export type KeepTests = 'failing' | 'all';

/** What a new run is: labels, provenance and size. */
export interface NewRun {
  /** Human name (default: the run directory's name), need not be unique. */
  readonly name: string;
  /** Label of the samples (model), e.g. the samples file name. */
  readonly model: string;
  /** Label of the problems (benchmark), e.g. the problems file name. */
  readonly dataset: string;
  readonly problemsFile?: string;
  readonly samplesFile?: string;
  readonly format?: string;
  /** sha256 of the problems file (`formats/hash.ts`). */
  readonly problemsHash: string;
  /** sha256 of the samples file. */
  readonly samplesHash: string;
  readonly crucibleVersion: string;
  /** The run's judging options (what `run.json` holds: limits in ms and KiB). A resume must match them. */
  readonly options: Readonly<Record<string, unknown>>;
  /** Everything else worth knowing later: toolchain versions, limits, host, run directory, import source. */
  readonly provenance: Readonly<Record<string, unknown>>;
  readonly keepTests: KeepTests;
  readonly totalSamples: number;
  readonly status?: RunStatus;
  /** Epoch ms (default now). */
  readonly createdMs?: number;
}

/** Progress of a running run, as `crucible eval`'s progress bar shows it. */
export interface RunProgress {
  readonly done: number;
  readonly total: number;
  readonly passed: number;
  /** Samples judged per second since the run (re)started; resumed samples excluded. */
  readonly samplesPerSecond: number;
  /** Seconds left at that rate, or null when unknown. */
  readonly etaSeconds: number | null;
}

/** A run as stored. */
export interface RunRow extends Omit<NewRun, 'status' | 'createdMs'> {
  readonly id: number;
  readonly status: RunStatus;
  readonly createdMs: number;
  readonly updatedMs: number;
  readonly finishedMs: number | null;
  readonly doneSamples: number;
  readonly passedSamples: number;
  readonly progress: RunProgress | null;
  /** `summary.json` as `crucible eval` wrote it (opaque), when the run finished. */
  readonly summary: unknown;
}

/** One line of the runs list (no JSON blobs). */
export type RunListRow = Omit<RunRow, 'options' | 'provenance' | 'summary'>;

/** Filters of the runs list; text filters match a substring, case-insensitive. */
export interface RunFilter {
  readonly text?: string;
  readonly model?: string;
  readonly dataset?: string;
  readonly status?: RunStatus;
  readonly limit?: number;
}

/** A problem of a run. `testCount`: tests the problem has (1 for a HumanEval check). */
export interface StoredProblem {
  readonly taskId: string;
  readonly kind: string;
  /** The prompt, when programs are prompt + completion (lets the store keep completions only). */
  readonly prompt?: string;
  readonly testCount: number;
}

/** The program a sample is. `source` is what ran; `completion` the model's text it came from. */
export interface SampleProgram {
  readonly language?: string;
  readonly completion?: string;
  readonly source: string;
  /** How the code was taken out of the response (opaque JSON from the extractor), if it was. */
  readonly extraction?: unknown;
}

/**
 * One judged sample to store: its verdict record plus what the dashboard shows about it. `failures`,
 * `stderr` and `memoryKiB` belong to the program (identical programs are judged once) and are kept with the
 * first sample of a program that has them.
 */
export interface SampleInput {
  readonly record: SampleRecord;
  readonly program?: SampleProgram;
  /** What failing tests printed or returned, and their stderr (inputs and expected outputs go to `addTestCases`). */
  readonly failures?: readonly FailedTestDetail[];
  /** Compiler or harness stderr when no test ran (compile error, harness failure). */
  readonly stderr?: string;
  /** Peak memory of the program's run(s), KiB. */
  readonly memoryKiB?: number;
}



/**
 * Per-problem counts of a run: n samples, c passed (base), plus-passed, partial credit (`scoreSum` over the
 * `scored` samples that have a score; both 0 for kinds that do not grade), and status counts.
 */
export interface ProblemCountsRow {
  readonly taskId: string;
  readonly kind: string;
  readonly testCount: number;
  readonly n: number;
  readonly c: number;
  readonly plusC: number;
  readonly hasPlus: boolean;
  readonly scored: number;
  readonly scoreSum: number;
  readonly statuses: Readonly<Partial<Record<SampleStatus, number>>>;
}

/** A sample in a problem's list. */
export interface SampleListRow {
  readonly sampleIndex: number;
  readonly status: SampleStatus;
  readonly passed: boolean;
  readonly plusStatus: SampleStatus | null;
  readonly plusPassed: boolean | null;
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly memoryKiB: number | null;
  readonly testsRun: number;
  readonly testsPassed: number;
  readonly reason: string | null;
  /** Partial credit in [0, 1] (`SampleRecord.score`), null for kinds that do not grade. */
  readonly score: number | null;
  readonly programHash: string;
}

/** One test of a sample as stored, with its case (input, expected) when the test failed. */
export interface StoredTest {
  readonly index: number;
  readonly status: SampleStatus;
  readonly cpuMs: number | null;
  readonly wallMs: number | null;
  readonly reason: string | null;
  /** The test's partial credit (`TestResult.score`), null when it has none. */
  readonly score: number | null;
  readonly input: string | null;
  readonly expected: string | null;
  readonly actual: string | null;
  readonly stderr: string | null;
  /** Fields of the detail that were cut (see `TEST_DETAIL_CHARS`). */
  readonly cut: readonly string[];
}

/** Everything the sample page shows. */
export interface SampleDetailRow extends SampleListRow {
  readonly taskId: string;
  readonly problemKind: string;
  readonly testCount: number;
  readonly language: string | null;
  readonly completion: string | null;
  /** The program judged; null when the store never had it (imported run directories hold no code). */
  readonly source: string | null;
  readonly extraction: unknown;
  readonly stderr: string | null;
  /** Failing tests (and every test when the run kept them all), by index. */
  readonly tests: readonly StoredTest[];
  /** Indices of passing tests kept as counts. */
  readonly passedRanges: string;
}

/** A training run (a stream of reward events). */
export interface TrainingRunRow {
  readonly id: number;
  readonly name: string;
  readonly createdMs: number;
  readonly updatedMs: number;
  readonly events: number;
  readonly config: unknown;
}

/** One bucket (a step, or a minute when events carry no step) of a training run's series. */
export interface TrainingBucketRow {
  /** The step, or minutes since the run's first event. */
  readonly bucket: number;
  readonly events: number;
  readonly rewardMean: number;
  /** Population standard deviation of the rewards in the bucket. */
  readonly rewardStd: number;
  readonly passed: number;
  readonly timeouts: number;
  readonly internalErrors: number;
  /** GRPO groups (same group id) with at least 2 rollouts in the bucket, and those whose rewards all agree. */
  readonly groups: number;
  readonly zeroVarianceGroups: number;
}

/** Pass counts of one problem in one bucket. */
export interface TrainingProblemBucketRow {
  readonly bucket: number;
  readonly taskId: string;
  readonly events: number;
  readonly passed: number;
}

/** A training run's series for the dashboard. `unit`: what a bucket is. */
export interface TrainingSeries {
  readonly unit: 'step' | 'minute';
  readonly buckets: readonly TrainingBucketRow[];
  readonly problems: readonly TrainingProblemBucketRow[];
}

/** What changed since a time: runs and training runs updated after it (for live pages). */
export interface StoreChanges {
  readonly runs: readonly RunListRow[];
  readonly training: readonly TrainingRunRow[];
}

/**
 * The store. Every method rejects with `StoreError` (catalog in `errors.ts`) or the engine's error. Writes of one
 * store object are serialised; several processes may write one SQLite file (WAL, busy timeout) or one PostgreSQL
 * database.
 */
export interface ResultStore {
  readonly backend: StoreBackend;
  /** The file path or the URL without its password. */
  readonly location: string;

  /** Create a run; resolves to its id. */
  createRun(run: NewRun): Promise<number>;
  /** Runs with this name and these problems and samples hashes, newest first (a resumed eval finds its run). */
  findRuns(query: Pick<NewRun, 'name' | 'problemsHash' | 'samplesHash'>): Promise<RunRow[]>;
  /** Record the problems of a run (idempotent; numbering follows first appearance). */
  addProblems(runId: number, problems: readonly StoredProblem[]): Promise<void>;
  /**
   * Store judged samples (one transaction). A sample appended again for the same (task, index) replaces the one
   * stored, as a later line of `verdicts.jsonl` does (a resumed eval judges `internal_error` samples again);
   * within one call the last one counts. Updates the run's done/passed counts and `progress` when given.
   */
  appendSamples(runId: number, samples: readonly SampleInput[], progress?: RunProgress): Promise<void>;
  /** Task ids whose test cases are stored for the dataset with this problems hash. */
  knownTestCases(problemsHash: string): Promise<Set<string>>;
  /**
   * Store the test cases of one problem of a dataset (`FailedTestDetail`s with `input`/`expected`: every test
   * of the problem, one compressed value); a problem already stored is kept as it is.
   */
  addTestCases(problemsHash: string, taskId: string, cases: readonly FailedTestDetail[]): Promise<void>;
  /** Mark a run finished/failed/interrupted and keep the eval's summary. */
  finishRun(runId: number, status: RunStatus, summary?: unknown): Promise<void>;
  /** Delete a run and everything stored for it; resolves to whether it existed. */
  deleteRun(runId: number): Promise<boolean>;

  listRuns(filter?: RunFilter): Promise<RunListRow[]>;
  getRun(runId: number): Promise<RunRow | undefined>;
  /** A run by id (digits) or by name (the latest run of that name). @throws StoreError `run_not_found`. */
  resolveRun(ref: string): Promise<RunRow>;
  problemCounts(runId: number): Promise<ProblemCountsRow[]>;
  samplesOf(runId: number, taskId: string): Promise<SampleListRow[]>;
  sample(runId: number, taskId: string, sampleIndex: number): Promise<SampleDetailRow | undefined>;
  /**
   * Samples of a run as `verdicts.jsonl` records, problems in first-appearance order, samples by index: every
   * sample, or one task's; with `tests: false` each record's `tests` is empty (cheaper when only counts matter).
   */
  records(runId: number, options?: { readonly taskId?: string; readonly tests?: boolean }): Promise<SampleRecord[]>;
  /** Task ids of a run in first-appearance order. */
  taskIds(runId: number): Promise<string[]>;
  /** The cached analysis (pass@k curves) of a run and the done count it was computed at. */
  cachedAnalysis(runId: number): Promise<{ readonly done: number; readonly analysis: unknown } | undefined>;
  saveAnalysis(runId: number, done: number, analysis: unknown): Promise<void>;

  /** Append training events to the training run `name` (created on first use). Resolves to its id. */
  recordTrainingEvents(name: string, events: readonly TrainingEvent[]): Promise<number>;
  listTrainingRuns(): Promise<TrainingRunRow[]>;
  getTrainingRun(idOrName: string): Promise<TrainingRunRow | undefined>;
  /** Buckets of a training run: by step when every event has one, else by minute. */
  trainingSeries(trainingRunId: number): Promise<TrainingSeries>;

  /** Runs and training runs updated after `sinceMs` (epoch ms). */
  changesSince(sinceMs: number): Promise<StoreChanges>;
  close(): Promise<void>;
}

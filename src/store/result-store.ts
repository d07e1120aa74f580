/**
 * The result store: evaluation runs (samples, verdicts, per-test results, provenance) and training reward
 * events, in SQLite (default, one file) or PostgreSQL (`postgres://…`), behind one interface. `open.ts` opens one;
 * `db/sql-store.ts` implements it once over both engines; `test/store/conformance.ts` is the suite both pass.
 *
 * Writers: `crucible eval` through `EvalSink` (`eval-sink.ts`), `crucible store import`, and training events
 * (`recordTrainingEvents`, `TrainingRecorder`). Readers: the dashboard, `crucible export`, `crucible compare` and
 * `crucible report` on store runs. Data model and columns: docs/STORE.md.
 */
import type { FormalCheck, SampleStatus } from '../verdict/index.js';
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
  /** Free labels to filter and group runs by (`crucible eval --tag`, `run.json`'s `tags`, `crucible store tag`). */
  readonly tags?: readonly string[];
  /**
   * How the samples were generated, when known (`crucible generate`'s provenance beside the samples file, `eval
   * --endpoint`, `run.json`'s `generation`): endpoint, temperature, top_p, max_tokens, n, prompt styles, seed.
   */
  readonly generation?: Readonly<Record<string, unknown>>;
  /** sha256 of an imported `verdicts.jsonl`: a second import of the same file is refused (`duplicate_import`). */
  readonly contentHash?: string;
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

/** pass@k at one k with its bootstrap interval (fractions). */
export interface HeadlinePoint {
  readonly k: number;
  readonly passAtK: number;
  readonly lower: number;
  readonly upper: number;
}

/**
 * The headline figures of a run for the runs list (kept beside its cached analysis): pass@k with intervals at the
 * headline k values for base (and base + plus) tests, and how much of the run they cover (`problemsJudged` of
 * `problemsTotal` problems have a judged sample; a running run's figures are over those only).
 */
export interface RunHeadline {
  readonly problemsJudged: number;
  readonly problemsTotal: number;
  readonly done: number;
  readonly confidence: number;
  readonly base: readonly HeadlinePoint[];
  readonly plus?: readonly HeadlinePoint[];
}

/** A run as stored. */
export interface RunRow extends Omit<NewRun, 'status' | 'createdMs' | 'tags' | 'generation'> {
  readonly id: number;
  readonly tags: readonly string[];
  readonly generation: Readonly<Record<string, unknown>> | null;
  /** Headline pass@k (null until the run's analysis was computed once). */
  readonly headline: RunHeadline | null;
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
  /** Runs carrying this tag (exact). */
  readonly tag?: string;
  readonly limit?: number;
}

/** Labels of a problem that runs are broken down by (LiveCodeBench: difficulty, platform, release date). */
export interface ProblemLabels {
  readonly difficulty?: string;
  readonly platform?: string;
  /** ISO 8601 date of release (contest date). */
  readonly releaseDate?: string;
}

/** What the problem page shows of a problem: what the model saw and the reference. Texts as the dataset has them. */
export interface ProblemInfo {
  readonly title?: string;
  /** The statement (natural language), when the dataset has one apart from the prompt. */
  readonly statement?: string;
  /** The prompt the model continues (HumanEval), or starter code (LiveCodeBench functional). */
  readonly prompt?: string;
  readonly entryPoint?: string;
  /** The reference solution, with its language. */
  readonly reference?: { readonly language: string; readonly code: string };
  /** The unit-test code (HumanEval `test`, MBPP asserts), when the problem is judged by one. */
  readonly test?: string;
  /**
   * A repository task's test ids (SWE-bench's FAIL_TO_PASS and PASS_TO_PASS lists, in the instance's order): test
   * `i` of a sample is `failToPass[i]`, then `passToPass[i - failToPass.length]` (`src/kinds/repository/repository.ts`).
   * Kept so the sample page and its JSON show a per-test status map even when every test passed (passing tests are
   * stored as counts). Absent for other kinds and for stores written before it.
   */
  readonly repositoryTests?: { readonly failToPass: readonly string[]; readonly passToPass: readonly string[] };
}

/** A problem of a run. `testCount`: tests the problem has (1 for a HumanEval check). */
export interface StoredProblem {
  readonly taskId: string;
  readonly kind: string;
  /** The prompt, when programs are prompt + completion (lets the store keep completions only). */
  readonly prompt?: string;
  readonly testCount: number;
  readonly info?: ProblemInfo;
  readonly labels?: ProblemLabels;
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
/**
 * One measured passing sample of a run (`crucible eval --efficiency`, table `sample_efficiency`): its count
 * (`instructions`: callgrind's instructions, or a Java program's bytecodes when `costUnit` is 'bytecodes'; null when
 * not counted), wall time median and bootstrap interval (ms), median CPU ms, peak memory KiB,
 * and the scores of docs/METRICS.md "Efficiency" (null when the measurement failed: `error`).
 */
export interface EfficiencyRow {
  readonly taskId: string;
  readonly sampleIndex: number;
  readonly programHash: string;
  readonly language: string;
  readonly costUnit: 'instructions' | 'bytecodes' | 'wallMs' | null;
  readonly instructions: number | null;
  readonly wallMedianMs: number;
  readonly wallLowerMs: number;
  readonly wallUpperMs: number;
  readonly cpuMedianMs: number;
  readonly peakMemoryKiB: number;
  readonly dps: number | null;
  readonly dpsNorm: number | null;
  readonly beyond: number | null;
  readonly net: number | null;
  readonly nmu: number | null;
  readonly indistinguishable: boolean | null;
  readonly error: string | null;
  /** The memory integral (KiB·ms) and EffiBench's NTMU (step 11); null when not sampled or stored before step 11. */
  readonly memoryKiBMs?: number | null;
  readonly ntmu?: number | null;
}

/** What a signal result is: a `crucible tests-quality` report or a `crucible elo` rating. */
export type SignalKind = 'tests-quality' | 'elo';

/**
 * A result of `crucible tests-quality` or `crucible elo` kept in the store (table `signal_results`, step 9):
 * `headline` the few numbers a list shows (tests-quality: `tpr`, `tnr`, `mutationScore`, `problems`, …; elo:
 * `rating`, `lower`, `upper`, `contests`), `result` the whole report as the command's `--json` prints it, `inputs`
 * the files and settings it came from. Times are epoch ms.
 */
export interface SignalResultRow {
  readonly id: number;
  readonly kind: SignalKind;
  readonly name: string;
  readonly createdMs: number;
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly headline: Readonly<Record<string, number | string | null>>;
  readonly result: unknown;
}

/** A signal result to store (`id` and, by default, `createdMs` are the store's). */
export type NewSignalResult = Omit<SignalResultRow, 'id' | 'createdMs'> & { readonly createdMs?: number };

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
  /** The problem's labels (difficulty, platform, release date), `{}` when it has none. */
  readonly labels: ProblemLabels;
}

/** Failing samples that share a status and a reason. */
export interface ReasonCountRow {
  readonly status: SampleStatus;
  readonly reason: string | null;
  readonly samples: number;
  readonly problems: number;
  /** One sample of the group (the first by problem and index). */
  readonly example: { readonly taskId: string; readonly sampleIndex: number };
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
  /** The formal check of a verilog design (`SampleRecord.formal`, eval --formal; store step 10), null when none. */
  readonly formal: FormalCheck | null;
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
  /** Smallest and largest reward in the bucket (a mean ± std band is clipped to them). */
  readonly rewardMin: number;
  readonly rewardMax: number;
  /** Mean and largest latency of the reward calls that carried the bucket's events, ms (null when none recorded). */
  readonly latencyMeanMs: number | null;
  readonly latencyMaxMs: number | null;
  /** First and last event time of the bucket, epoch ms. */
  readonly firstMs: number;
  readonly lastMs: number;
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

/** Reward counts of one bin of steps (`stepFrom`..`stepTo`) in one reward bin (`bin` of `TrainingHistogram.edges`). */
export interface TrainingHistogramRow {
  readonly stepFrom: number;
  readonly stepTo: number;
  readonly bin: number;
  readonly events: number;
}

/**
 * Rewards per step as a histogram: `edges` (bins + 1 reward values, equal width over the run's reward range; or, when
 * `discrete`, the run's distinct rewards, one bin each), steps
 * grouped `stepsPerColumn` at a time so a long run keeps at most `TRAINING_HISTOGRAM_COLUMNS` columns.
 */
export interface TrainingHistogram {
  /** Whether each bin is one distinct reward (`edges` are those rewards) rather than an equal-width range. */
  readonly discrete: boolean;
  readonly edges: readonly number[];
  readonly stepsPerColumn: number;
  readonly rows: readonly TrainingHistogramRow[];
}

/** Reward calls over wall-clock time: events per `seconds`-wide bucket and their latency. */
export interface TrainingCallsRow {
  /** Start of the bucket, epoch ms. */
  readonly startMs: number;
  readonly seconds: number;
  readonly events: number;
  readonly latencyMeanMs: number | null;
  readonly latencyMaxMs: number | null;
}

/** Most columns of a training run's reward histogram. */
export const TRAINING_HISTOGRAM_COLUMNS = 200;
/** Reward bins of the histogram. */
export const TRAINING_HISTOGRAM_BINS = 20;
/** Most buckets of the reward-call time series. */
export const TRAINING_CALL_BUCKETS = 240;

/**
 * A training run's series for the dashboard. `unit`: what a bucket is: `step` when any event has a step (events
 * without one are left out of the step axis and counted in `unstepped`: a validation call or a stray curl never
 * changes a stepped run's axis), else `minute` (minutes since the first event).
 */
export interface TrainingSeries {
  readonly unit: 'step' | 'minute';
  readonly buckets: readonly TrainingBucketRow[];
  readonly problems: readonly TrainingProblemBucketRow[];
  /** Events without a step in a stepped run (0 in a run bucketed by minute). */
  readonly unstepped: number;
  /** Smallest and largest reward of the run's bucketed events (null when it has none). */
  readonly rewardRange: readonly [number, number] | null;
  readonly histogram: TrainingHistogram;
  readonly calls: readonly TrainingCallsRow[];
}

/** What one `recordTrainingBatch` stored: events new to the run, and events whose key the run had already. */
export interface TrainingBatchResult {
  readonly trainingRunId: number;
  readonly recorded: number;
  readonly duplicates: number;
}

/**
 * Counts of one problem at one trainer step of a training run (difficulty tracking, `problem_steps`): rollouts,
 * those that passed, and the sum of their rewards. `step` is -1 for events recorded without a step.
 */
export interface ProblemStepRow {
  readonly taskId: string;
  readonly step: number;
  readonly rollouts: number;
  readonly passed: number;
  readonly rewardSum: number;
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
  /** Store the efficiency of measured samples of a run; a (task, sample) stored again is replaced. */
  addEfficiency(runId: number, rows: readonly EfficiencyRow[]): Promise<void>;
  /** The run's measured samples, by task id and sample index (empty when it was not measured). */
  efficiencyOf(runId: number): Promise<EfficiencyRow[]>;
  /** Store a `crucible tests-quality` or `crucible elo` result; resolves to its id. */
  addSignalResult(result: NewSignalResult): Promise<number>;
  /** Stored signal results, newest first, of one kind or all (without `result`: `null` there; `signalResult` has it). */
  listSignalResults(kind?: SignalKind): Promise<SignalResultRow[]>;
  /** One stored signal result with its whole report, or undefined. */
  signalResult(id: number): Promise<SignalResultRow | undefined>;

  listRuns(filter?: RunFilter): Promise<RunListRow[]>;
  getRun(runId: number): Promise<RunRow | undefined>;
  /** Runs whose imported `verdicts.jsonl` had this sha256, or whose run directory (`provenance.runDir`) is `runDir`. */
  findDuplicates(query: { readonly contentHash?: string; readonly runDir?: string }): Promise<RunListRow[]>;
  /** Change a run's model label and/or tags. @throws StoreError `run_not_found`. */
  labelRun(runId: number, labels: { readonly model?: string; readonly tags?: readonly string[] }): Promise<void>;
  /** What the problem page shows of a problem of a run (null when the store has nothing: imports, old stores). */
  problemInfo(runId: number, taskId: string): Promise<ProblemInfo | null>;
  /** A run by id (digits) or by name (the latest run of that name). @throws StoreError `run_not_found`. */
  resolveRun(ref: string): Promise<RunRow>;
  problemCounts(runId: number): Promise<ProblemCountsRow[]>;
  /**
   * Failing samples of a run grouped by status and reason, most frequent first (at most `limit`, default 20): how
   * many samples, how many problems, and one sample of the group to open.
   */
  reasonCounts(runId: number, limit?: number): Promise<ReasonCountRow[]>;
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
  /** Cache a run's analysis at `done` samples with its headline figures (the runs list shows them). */
  saveAnalysis(runId: number, done: number, analysis: unknown, headline?: RunHeadline): Promise<void>;

  /** Append training events to the training run `name` (created on first use). Resolves to its id. */
  recordTrainingEvents(name: string, events: readonly TrainingEvent[]): Promise<number>;
  /**
   * Append training events, each stored at most once per `eventKey` in the run (a retried batch adds nothing;
   * events without a key are always added); one transaction.
   */
  recordTrainingBatch(name: string, events: readonly TrainingEvent[]): Promise<TrainingBatchResult>;
  listTrainingRuns(): Promise<TrainingRunRow[]>;
  getTrainingRun(idOrName: string): Promise<TrainingRunRow | undefined>;
  /** Buckets of a training run: by step when any event has one, else by minute (see `TrainingSeries`). */
  trainingSeries(trainingRunId: number): Promise<TrainingSeries>;
  /**
   * Per-problem, per-step counts of a training run (difficulty tracking), ordered by task id then step: every
   * problem's, or those of `taskIds`.
   */
  problemSteps(trainingRunId: number, taskIds?: readonly string[]): Promise<ProblemStepRow[]>;

  /** Runs and training runs updated after `sinceMs` (epoch ms). */
  changesSince(sinceMs: number): Promise<StoreChanges>;
  close(): Promise<void>;
}

/**
 * `crucible eval`: judge a model's samples on a benchmark and report pass@k — the main job.
 *
 * What the numbers cover is decided before anything runs and stamped on the result (`src/apps/selection.ts`):
 * samples that leave problems out are refused unless `--limit`/`--tasks` ask for that subset. Ctrl-C stops the
 * eval: the samples under way are cancelled, the store run is marked `interrupted`, the cursor comes back and the
 * command to resume is printed (exit 130).
 */
import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { SingleBar } from 'cli-progress';
import { InvalidArgumentError, Option, type Command } from 'commander';
import {
  DatasetError, datasetHash, detectProblemFormat, findProblemFormat, problemFormatNames, readProblems, readSampleFile,
  UnknownFormatError, type SampleFile,
} from '../formats/index.js';
import type { Problem, RepositoryProblem, Sample } from '../formats/types.js';
import { sqlQuestionFile, type SqlQuestionFile } from '../formats/sql-predictions.js';
import { sweBenchReport } from '../kinds/repository/report.js';
import type { SampleRecord } from '../store/records.js';
import { collectRepoSource, repositoryEnvironments } from './repo-options.js';
import { withinReleaseWindow } from '../formats/livecodebench.js';
import { copyReport, releaseDatesOf } from '../apps/contamination.js';
import { windowsFromRecords, type WindowBy } from '../metrics/windows.js';
import type { SummaryExtras } from './eval-summary.js';
import type { Judge } from '../judge/judge.js';
import type { SubmissionContext } from '../judge/submission.js';
import { defaultSubmissionContext } from '../kinds/index.js';
import { CALIBRATED_TIME_DEFAULTS, JUDGE_DEFAULTS, mibToKiB, secondsToMs, type CalibratedTimeLimit, type JudgeLimits } from '../limits.js';
import { evaluate, EvaluationInterrupted, NothingToScoreError, problemsOfSamples, type EvaluationResult, type KeepCode } from '../apps/evaluate.js';
import { toolchainPackages, type ToolchainPackages } from '../apps/provenance.js';
import { chooseProblems, IncompleteSamplesError, selectProblems, SelectionError, type RunScope } from '../apps/selection.js';
import { ANALYZER_IDS, type AnalyzerId } from '../verdict/analysis.js';
import { openJudge } from '../queue/open.js';
import { queueLocation, QueueUnreachableError, QueueUrlError } from '../queue/connection.js';
import { CACHE_DIR_ENV, DEFAULT_BENCHMARK, defaultCacheDir } from '../paths.js';
import { openEvalStore, type EvalStoreHandle } from '../store/eval-sink.js';
import { RunStore, RunStoreError } from '../store/run-store.js';
import { labelsFromGenerationProvenance, mergeLabels, type RunLabels } from '../store/run-labels.js';
import { normalEndpoint } from '../generate/address.js';
import { samplingFields } from '../generate/params.js';
import { registerUserError, UsageError } from './errors.js';
import { buildSummary, humanSummary, modeSummaries } from './eval-summary.js';
import { addEfficiencyOptions, efficiencyLines, efficiencyOf, efficiencyRows } from './eval-efficiency.js';
import { STORE_OPTION_HELP } from './store.js';
import { CRUCIBLE_VERSION } from './version.js';
import { codeVersion } from '../version.js';
import { addGenerationOptions, type GenerationFlags } from './generate.js';
import { finishEndpointGeneration, planEndpointGeneration, startEndpointGeneration, type EndpointGeneration } from './eval-endpoint.js';
import {
  applyLeanEndpoint, LEAN_ENDPOINT_HELP, parseLeanEndpoint, parseMemoryLimitMiB, parseIntList, parsePositiveInt, parseTenant, parseTimeLimitRule,
  parseTimeLimitSeconds, UNSAFE_NO_SANDBOX_HELP
} from './options.js';

registerUserError(DatasetError);
registerUserError(UnknownFormatError);
registerUserError(RunStoreError);
registerUserError(QueueUrlError);
registerUserError(QueueUnreachableError);
registerUserError(IncompleteSamplesError);
registerUserError(SelectionError);
registerUserError(NothingToScoreError);

interface EvalFlags extends GenerationFlags {
  samplingSeed: number | false;
  leanEndpoint?: string;
  problems?: string; samples?: string; format: string; k: number[]; jobs?: number; out?: string; json?: boolean;
  timeLimit?: number; timeLimitRule?: CalibratedTimeLimit | null; memoryLimit?: number; reps: number; seed: number; progress: boolean; allTests?: boolean; unsafeNoSandbox?: boolean;
  cacheDir?: string; store?: string | false; keepTests: 'failing' | 'all'; queue?: string; tenant?: string; since?: string;
  until?: string; tag: string[]; keepCode: KeepCode; limit?: number; tasks?: string[]; bigcodeStart?: number; includeReferenceFailures?: boolean;
  windowBy?: WindowBy; repoSource?: string[]; registry?: string; analysis?: true | string; formal?: boolean;
  efficiency?: boolean; efficiencyRepeats: number; efficiencyTests: number; instructions: boolean;
}

/**
 * For a run of repository tasks, the SWE-bench-style report (`src/kinds/repository/report.ts`) beside the verdicts:
 * `<out>/swe-bench-report.json`. Nothing for other runs.
 */
function writeSweBenchReport(input: EvalInput, records: readonly SampleRecord[], dir: string): void {
  const problems = input.problems.filter((p): p is RepositoryProblem => p.kind === 'repository');
  if (problems.length === 0) return;
  const samples = new Map(input.samples.map((s) => [`${s.taskId}\0${s.index}`, s]));
  const judged = records.map((r) => {
    const sample = samples.get(`${r.taskId}\0${r.sampleIndex}`);
    const patch = sample?.solution ?? sample?.completion ?? sample?.response ?? '';
    return { taskId: r.taskId, sampleIndex: r.sampleIndex, status: r.status, tests: r.tests, emptyPatch: patch.trim() === '',
      ...(r.reason === undefined ? {} : { reason: r.reason }) };
  });
  writeFileSync(join(dir, 'swe-bench-report.json'), `${JSON.stringify(sweBenchReport(problems, judged), null, 1)}\n`);
}

/** The analysers `--analysis` names (`[]`: every one that reads the sample's language). @throws InvalidArgumentError. */
function parseAnalysers(value: string): string {
  const unknown = value.split(',').map((t) => t.trim()).filter((t) => !(ANALYZER_IDS as readonly string[]).includes(t));
  if (unknown.length > 0) throw new InvalidArgumentError(`unknown analyser ${unknown.join(', ')}; analysers: ${ANALYZER_IDS.join(', ')}`);
  return value;
}

/** The analysers of `--analysis` as `evaluate` takes them; undefined without the flag. */
function analysersOf(flags: EvalFlags): readonly AnalyzerId[] | undefined {
  if (flags.analysis === undefined) return undefined;
  return flags.analysis === true ? [] : flags.analysis.split(',').map((t) => t.trim() as AnalyzerId);
}

/**
 * `--formal`: every verilog problem also gets the formal check (`VerilogProblem.formal`), and the run's problems
 * hash says so (a run directory judged without it is not resumed with it, nor the reverse).
 * @throws UsageError when no problem of the run is a verilog problem.
 */
function withFormal(flags: EvalFlags, input: EvalInput): EvalInput {
  if (flags.formal !== true) return input;
  if (!input.problems.some((p) => p.kind === 'verilog')) throw new UsageError('--formal checks verilog designs: the run has no verilog problem');
  const problems = input.problems.map((p) => (p.kind === 'verilog' ? { ...p, formal: true } : p));
  const problemsHash = createHash('sha256').update(`${input.problemsHash}\0formal`).digest('hex');
  return { ...input, problems, problemsHash };
}

/** Ids of the languages a run may use: each problem's default and every sample's, as the modes resolve them. */
function languagesUsed(problems: readonly Problem[], samples: readonly Sample[], context: SubmissionContext): Set<string> {
  const names = new Set<string>();
  for (const p of problems) names.add(context.modes.of(p).language(p, undefined));
  for (const s of samples) if (s.language) names.add(s.language);
  return new Set([...names].filter((n) => context.languages.has(n)).map((n) => context.languages.get(n).id));
}

/** Toolchain version of every language used, by id (null when the version command failed). */
async function toolchainsOf(used: ReadonlySet<string>, context: SubmissionContext): Promise<Record<string, string | null>> {
  // Only the languages used are asked: every version command of the registry costs seconds on a loaded host.
  const ids = [...used].sort();
  const statuses = await Promise.all(ids.map((id) => context.languages.toolchain(id)));
  return Object.fromEntries(ids.map((id, i) => [id, statuses[i]!.version ?? null]));
}

/** What one eval reads: problems, samples, their hashes and formats, what the run covers, and where it goes. */
interface EvalInput {
  readonly problemsPath: string;
  readonly samplesPath: string;
  readonly problems: Problem[];
  readonly samples: Sample[];
  readonly problemsHash: string;
  readonly samplesHash: string;
  /** The problem format read (detected for `auto`) and the samples file's kind and bigcode matching. */
  readonly format: string;
  readonly sampleFile: Omit<SampleFile, 'samples'>;
  readonly scope: RunScope;
  readonly limits: JudgeLimits;
  readonly out: string;
  /** With `--endpoint`: the samples are generated during the run (their text arrives later). */
  readonly generation?: EndpointGeneration;
  /** Model, tags and generation settings of the run (flags over `generate`'s provenance). */
  readonly labels: RunLabels;
}

/**
 * `--since`/`--until`: the problems released in the window (LiveCodeBench's `--start_date`/`--end_date`, inclusive;
 * `withinReleaseWindow`) and the samples of those problems. Problems without a release date are outside any window.
 * @throws UsageError for a bound that is not a date, or a window no problem is in.
 */
function inReleaseWindow(flags: EvalFlags, problems: Problem[], samples: Sample[]): { problems: Problem[]; samples: Sample[] } {
  if (flags.since === undefined && flags.until === undefined) return { problems, samples };
  const window = { ...(flags.since === undefined ? {} : { since: flags.since }), ...(flags.until === undefined ? {} : { until: flags.until }) };
  let kept: Problem[];
  try {
    kept = problems.filter((p) => withinReleaseWindow(p, window));
  } catch (err) {
    throw new UsageError(`--since/--until: ${(err as Error).message}`);
  }
  if (kept.length === 0) throw new UsageError(`no problem of ${problems.length} was released in the window (--since ${flags.since ?? '-'} --until ${flags.until ?? '-'})`);
  const ids = new Set(kept.map((p) => p.taskId));
  return { problems: kept, samples: samples.filter((s) => ids.has(s.taskId)) };
}

/** @throws UsageError naming the option when `path` is not there (a one-line error before anything is read). */
function mustExist(path: string, option: string): void {
  if (!existsSync(path)) throw new UsageError(`${option} ${path}: no such file or directory`);
}

/** The problem format `--format` names, resolved (`auto`: detected from the file). @throws UnknownFormatError. */
async function resolvedFormat(path: string, format: string): Promise<string> {
  if (format === 'auto') return detectProblemFormat(path);
  const entry = findProblemFormat(format);
  if (entry === undefined) throw new UnknownFormatError(format);
  return entry.id;
}

/** The judging limits the flags ask for. */
function limitsOf(flags: EvalFlags): JudgeLimits {
  return {
    ...JUDGE_DEFAULTS,
    ...(flags.timeLimit !== undefined ? { cpuMs: secondsToMs(flags.timeLimit) } : {}),
    ...(flags.memoryLimit !== undefined ? { memoryKiB: mibToKiB(flags.memoryLimit) } : {}),
  };
}

/** The input of an eval whose samples come from `--endpoint` (`eval-endpoint.ts`). @throws UsageError for bad flags. */
async function readEndpointInput(flags: EvalFlags): Promise<EvalInput> {
  if (flags.samples !== undefined) throw new UsageError('--endpoint generates the samples: give --problems without --samples');
  if (flags.problems === undefined) throw new UsageError('--endpoint needs --problems');
  mustExist(flags.problems, '--problems');
  const format = await resolvedFormat(flags.problems, flags.format);
  const all = await readProblems(flags.problems, format);
  const windowed = inReleaseWindow(flags, all, []);
  // The subset is chosen before generating, so only its prompts are sent.
  const { problems, scope } = chooseProblems(windowed.problems, {
    ...(flags.tasks === undefined ? {} : { tasks: flags.tasks }), ...(flags.limit === undefined ? {} : { limit: flags.limit }),
  });
  const generation = planEndpointGeneration(flags, problems);
  const problemsHash = await datasetHash(flags.problems);
  const model = generation.model.replace(/[^\w.-]+/g, '_');
  const out = flags.out ?? join('runs', `${basename(flags.problems).replace(/\.(jsonl?|json)(\.gz)?$/, '')}-${model}-${generation.specHash.slice(0, 12)}`);
  const labels: RunLabels = { model: generation.model, tags: flags.tag,
    generation: { endpoint: normalEndpoint(generation.options.endpoint), ...samplingFields(generation.params), seed: generation.params.seed, n: generation.n } };
  return { problemsPath: flags.problems, samplesPath: generation.label, problems, samples: generation.samples, problemsHash,
    samplesHash: generation.specHash, format, sampleFile: { format: 'jsonl' }, scope, limits: limitsOf(flags), out, generation, labels };
}

/** `readSampleFile`'s `sqlQuestions` for a Spider or BIRD question file (its prediction files are read as samples). */
function sqlQuestionsOption(format: string, problemsPath: string): { sqlQuestions?: SqlQuestionFile } {
  const questions = sqlQuestionFile(format, problemsPath);
  return questions === undefined ? {} : { sqlQuestions: questions };
}

async function readInput(flags: EvalFlags): Promise<EvalInput> {
  if (flags.endpoint !== undefined) return readEndpointInput(flags);
  if ((flags.problems === undefined) !== (flags.samples === undefined)) {
    throw new UsageError('--problems and --samples go together (omit both for the built-in benchmark)');
  }
  const problemsPath = flags.problems ?? DEFAULT_BENCHMARK.problems;
  const samplesPath = flags.samples ?? DEFAULT_BENCHMARK.samples;
  mustExist(problemsPath, '--problems');
  mustExist(samplesPath, '--samples');
  const format = await resolvedFormat(problemsPath, flags.format);
  const all = await readProblems(problemsPath, format);
  const { samples: read, ...sampleFile } = await readSampleFile(samplesPath,
    { problems: all, ...(flags.bigcodeStart === undefined ? {} : { bigcodeStart: flags.bigcodeStart }),
      ...sqlQuestionsOption(format, problemsPath) });
  problemsOfSamples(all, read, samplesPath); // a sample of no problem of the file: its line, before anything else
  const windowed = inReleaseWindow(flags, all, read);
  if (flags.windowBy !== undefined && releaseDatesOf(windowed.problems) === undefined) {
    throw new UsageError(`--window-by: no problem of ${problemsPath} has a release date (LiveCodeBench and TACO problems carry them)`);
  }
  const split = sampleFile.bigcode?.split.subsetOfFile === true ? sampleFile.bigcode.split : undefined;
  const { problems, samples, scope } = selectProblems(windowed.problems, windowed.samples, {
    ...(split === undefined ? {} : { split }), ...(flags.tasks === undefined ? {} : { tasks: flags.tasks }),
    ...(flags.limit === undefined ? {} : { limit: flags.limit }),
  }, samplesPath);
  const [problemsHash, samplesHash] = await Promise.all([datasetHash(problemsPath), datasetHash(samplesPath)]);
  const limits = limitsOf(flags);
  const window = `${flags.since === undefined ? '' : `-since-${flags.since}`}${flags.until === undefined ? '' : `-until-${flags.until}`}`;
  const subset = scope.subset ? `-${scope.problems}of${split?.taskIds.length ?? scope.problemsInFile}` : '';
  const out = flags.out ?? join('runs', `${basename(problemsPath).replace(/\.(jsonl?|json)(\.gz)?$/, '')}-${samplesHash.slice(0, 12)}${window}${subset}`);
  // --model without --endpoint names the model that wrote the samples (else generate's provenance, else the file).
  const labels = mergeLabels(labelsFromGenerationProvenance(samplesPath), { ...(flags.model === undefined ? {} : { model: flags.model }), tags: flags.tag });
  return { problemsPath, samplesPath, problems, samples, problemsHash, samplesHash, format, sampleFile, scope, limits, out, labels };
}

/** `--endpoint` evals: samples generated and failed so far, shown on the same bar. */
type GenerationCounts = { readonly done: number; readonly failed: number };

/**
 * The progress bar (standard error, a terminal only): `update` per sample, `stop` brings the cursor back; with
 * `generated`, the generation's counts on the same bar.
 */
function progressBar(flags: EvalFlags, generated?: () => GenerationCounts): { update: (done: number, total: number) => void; stop: () => void } {
  const format = generated === undefined ? 'eval [{bar}] {value}/{total} | {rate} samples/s | ETA {eta_formatted}'
    : 'eval [{bar}] {value}/{total} judged | {generated} generated, {failed} failed | {rate} samples/s | ETA {eta_formatted}';
  const bar = flags.progress && !flags.json && process.stderr.isTTY
    ? new SingleBar({ format, etaBuffer: 200, hideCursor: true, stream: process.stderr }) : null;
  const started = Date.now();
  let firstDone: number | null = null;
  let running = false;
  const stop = (): void => {
    if (running) bar?.stop();
    running = false;
  };
  return {
    update: (done, total) => {
      firstDone ??= done;
      const rate = (done - firstDone) / Math.max((Date.now() - started) / 1000, 1e-3);
      if (!bar) return;
      const payload = { rate: rate.toFixed(1), ...(generated === undefined ? {} : { generated: generated().done, failed: generated().failed }) };
      if (!running) bar.start(total, done, payload);
      else bar.update(done, payload);
      running = true;
      if (done === total) stop();
    },
    stop,
  };
}

/** What the store run and the summary record of the run besides its results. */
interface RunProvenance {
  readonly toolchains: Record<string, string | null>;
  readonly toolchainPackages: Record<string, ToolchainPackages>;
}

/**
 * The result store of the run (`--store`, default on; null with `--no-store` or when the default store cannot
 * be opened, after a warning).
 */
function openResults(flags: EvalFlags, input: EvalInput, runDir: RunStore, identityOptions: Record<string, number>,
  provenance: RunProvenance, context: SubmissionContext, judge: Judge): Promise<EvalStoreHandle | null> {
  return openEvalStore(flags.store, {
    name: basename(resolve(input.out)), model: input.labels.model ?? basename(input.samplesPath), dataset: basename(input.problemsPath),
    tags: input.labels.tags ?? [], ...(input.labels.generation === undefined ? {} : { generation: input.labels.generation }),
    problemsFile: input.problemsPath, samplesFile: input.samplesPath, format: input.format, problemsHash: input.problemsHash,
    samplesHash: input.samplesHash, crucibleVersion: CRUCIBLE_VERSION, options: { ...identityOptions }, keepTests: flags.keepTests,
    // Run provenance is JSON: what the run covers and the package sets need no column of their own.
    provenance: { runDir: resolve(input.out), code: codeVersion(), toolchains: provenance.toolchains, toolchainPackages: provenance.toolchainPackages,
      node: process.version, allTests: flags.allTests === true, formatGiven: flags.format, sampleFormat: input.sampleFile.format,
      scope: input.scope, includeReferenceFailures: flags.includeReferenceFailures === true },
    totalSamples: input.samples.length,
  }, input.problems, {
    testCount: (problem) => context.modes.of(problem).testCount(problem),
    resumed: runDir.existing.values(),
    describeTests: (problem) => judge.describeTests({ datasetHash: input.problemsHash, taskId: problem.taskId }),
  }, (message) => process.stderr.write(`crucible: warning: ${message}\n`));
}

/** The judge of the run: this machine's sandbox, or a fleet's through `--queue` (`openJudge`). */
async function makeJudge(flags: EvalFlags, input: EvalInput, context: SubmissionContext, cacheDir: string): Promise<Judge> {
  const { judge } = await openJudge({ slots: flags.jobs ?? availableParallelism(), unsafeNoSandbox: flags.unsafeNoSandbox === true,
    languages: context.languages, modes: context.modes, limits: input.limits, cacheDir,
    ...flags.timeLimitRule === undefined ? {} : { calibration: flags.timeLimitRule },
    environments: repositoryEnvironments(flags, cacheDir, true, (line) => process.stderr.write(`crucible: ${line}\n`)),
    ...flags.queue === undefined ? {} : { queue: flags.queue }, ...flags.tenant === undefined ? {} : { tenant: flags.tenant } });
  return judge;
}

async function runEval(flags: EvalFlags, input: EvalInput, context: SubmissionContext, cacheDir: string, signal: AbortSignal): Promise<void> {
  // The run's identity keeps the field names run directories have always had (resume compares them).
  // A run judged under another time-limit rule is another run (resume must not mix them). The rule is recorded
  // unless it is fixed, the only rule of run directories made before it existed, so those still resume with
  // --time-limit-rule fixed.
  const rule = flags.timeLimitRule === undefined ? CALIBRATED_TIME_DEFAULTS : flags.timeLimitRule;
  const identityOptions = { timeLimitMs: input.limits.cpuMs, memoryLimitKiB: input.limits.memoryKiB, outputBytes: input.limits.outputBytes,
    ...(rule === null ? {} : { timeLimitFactor: rule.factor, timeLimitFloorMs: rule.floorMs }) };
  const store = RunStore.open(input.out, { problemsHash: input.problemsHash, samplesHash: input.samplesHash, options: identityOptions,
    labels: { ...input.labels, model: input.labels.model ?? basename(input.samplesPath) } },
    { rejudge: (record) => record.status === 'internal_error' || record.status === 'reference_failed' });
  try {
    const judge = await makeJudge(flags, input, context, cacheDir);
    try {
      const used = languagesUsed(input.problems, input.samples, context);
      const provenance = { toolchains: await toolchainsOf(used, context), toolchainPackages: await toolchainPackages(used, context.languages, judge) };
      const results = await openResults(flags, input, store, identityOptions, provenance, context, judge);
      try {
        await judgeAndReport(flags, input, { store, judge, results, context, provenance, cacheDir, signal });
      } finally {
        // Marks the store run failed unless it was finished (a no-op then); the run directory has every record.
        await results?.close().catch(() => undefined);
      }
    } finally {
      await judge.close();
    }
  } finally {
    store.close();
  }
}

/**
 * Evaluate; with `--endpoint`, generate the samples meanwhile (each judged as it arrives, one progress bar) and
 * write them into the run directory at the end. The bar is stopped (cursor back) however it ends.
 * @throws EvaluationInterrupted when `run.signal` stopped it.
 */
async function evaluateWithGeneration(flags: EvalFlags, input: EvalInput, run: { store: RunStore; judge: Judge;
  results: EvalStoreHandle | null; context: SubmissionContext; signal: AbortSignal }): Promise<{ evaluation: EvaluationResult;
  generation?: ReturnType<typeof finishEndpointGeneration> }> {
  let judged: [number, number] | undefined;
  const refresh = (): void => { if (judged !== undefined) progress.update(...judged); };
  const generation = input.generation === undefined ? undefined : await startEndpointGeneration(input.generation, flags.store, refresh);
  const progress = progressBar(flags, generation === undefined ? undefined : () => generation.counts);
  try {
    const evaluation = await evaluate({
      judge: run.judge, store: run.store, problems: input.problems, datasetHash: input.problemsHash, samples: input.samples,
      samplesFile: input.samplesPath, submission: run.context, ks: flags.k, allTests: flags.allTests === true, bootstrapReps: flags.reps,
      keepCode: flags.keepCode,
      seed: flags.seed, onProgress: (done, total) => progress.update(...(judged = [done, total])),
      includeReferenceFailures: flags.includeReferenceFailures === true, signal: run.signal,
      ...(run.results === null ? {} : { sink: run.results.sink }), ...(generation === undefined ? {} : { arrivals: generation.arrivals }),
      ...(analysersOf(flags) === undefined ? {} : { analysis: analysersOf(flags)! }),
    });
    if (generation === undefined || input.generation === undefined) return { evaluation };
    return { evaluation, generation: finishEndpointGeneration(input.generation, await generation.done, input) };
  } finally {
    progress.stop();
    await generation?.close();
  }
}

/** Evaluate, write the summary into the run directory, print it, and finish the store run with it. */
async function judgeAndReport(flags: EvalFlags, input: EvalInput, run: { store: RunStore; judge: Judge; results: EvalStoreHandle | null;
  context: SubmissionContext; provenance: RunProvenance; cacheDir: string; signal: AbortSignal }): Promise<void> {
  const { judge, results, provenance, cacheDir } = run;
  let evaluated;
  try {
    evaluated = await evaluateWithGeneration(flags, input, run);
  } catch (error) {
    if (!(error instanceof EvaluationInterrupted)) throw error;
    await results?.close(undefined, 'interrupted').catch(() => undefined);
    process.stderr.write(`crucible: interrupted: ${error.done} of ${error.total} samples are judged and kept in ${input.out}; `
      + `to resume, run the same command with --out ${input.out}: ${resumeCommand(input.out)}\n`);
    process.exitCode = 130;
    return;
  }
  const { evaluation: result, generation } = evaluated;
  const efficiency = await efficiencyOf(flags, input.problems, input.samples, input.limits, run.context, result);
  const stats = judge.stats();
  const modes = modeSummaries(input.problems, run.context.modes);
  const summary = buildSummary({ problemsPath: input.problemsPath, samplesPath: input.samplesPath, format: input.format,
    formatGiven: flags.format, sampleFormat: input.sampleFile.format, ...(input.sampleFile.bigcode === undefined ? {} : { bigcode: input.sampleFile.bigcode }),
    problemsHash: input.problemsHash, samplesHash: input.samplesHash,
    ...(flags.since === undefined && flags.until === undefined ? {} : { releaseWindow: { since: flags.since ?? null, until: flags.until ?? null } }),
    scope: input.scope, problems: input.problems, sampleCount: input.samples.length, out: input.out, limits: input.limits,
    timeLimitRule: flags.timeLimitRule === undefined ? CALIBRATED_TIME_DEFAULTS : flags.timeLimitRule,
    toolchains: provenance.toolchains, toolchainPackages: provenance.toolchainPackages,
    includeReferenceFailures: flags.includeReferenceFailures === true, result,
    groundTruth: { runs: stats.groundTruthRuns, cacheHits: stats.groundTruthCacheHits, cacheDir }, internalErrorRetries: stats.retries,
    modeSummaries: modes, ...(generation === undefined ? {} : { generation: generation.summary }), extras: { ...contaminationOf(flags, input, result), ...(efficiency === undefined ? {} : { efficiency }) } });
  run.store.writeSummary(summary);
  writeSweBenchReport(input, result.records, run.store.dir);
  process.stdout.write(flags.json ? JSON.stringify(summary) + '\n'
    : humanSummary(summary, result, modes.map((m) => m.text)) + (generation?.lines ?? []).map((l) => `generation: ${l}\n`).join('')
      + (efficiency === undefined ? '' : efficiencyLines(efficiency).map((l) => `${l}\n`).join('')));
  if (result.countsByStatus['internal_error']) process.exitCode = 1;
  // A store that could not be written fails the command; the run directory above has every result.
  const stored = await (async () => {
    if (results !== null && efficiency !== undefined) await results.store.addEfficiency(results.sink.runId, efficiencyRows(efficiency));
    return results?.close(summary);
  })().catch((error: Error) => {
    process.stderr.write(`crucible: ${error.message}\n`);
    process.exitCode = 1;
    return '';
  });
  if (stored && !flags.json) process.stdout.write(`${stored}\n`);
}

/**
 * The contamination analyses of a run: the problems' release dates, pass@k by window (`--window-by`), and the
 * samples that copy their problem's reference solution (not for `--endpoint` runs, whose text arrives later).
 */
function contaminationOf(flags: EvalFlags, input: EvalInput, result: EvaluationResult): SummaryExtras {
  const dates = releaseDatesOf(input.problems);
  const copies = input.generation === undefined ? copyReport(input.problems, input.samples) : undefined;
  const windows = flags.windowBy === undefined || dates === undefined ? undefined
    : windowsFromRecords(result.records, new Map(Object.entries(dates)), flags.windowBy,
      { ks: flags.k, reps: flags.reps, seed: flags.seed, includeReferenceFailures: flags.includeReferenceFailures === true });
  return { ...(dates === undefined ? {} : { releaseDates: dates }), ...(windows === undefined ? {} : { windows }),
    ...(copies === undefined ? {} : { copies }) };
}

/** This command line again, with `--out OUT` when it had none (arguments quoted for a POSIX shell). */
function resumeCommand(out: string): string {
  const args = process.argv.slice(2);
  const withOut = args.some((a) => a === '--out' || a.startsWith('--out=')) ? args : [...args, '--out', out];
  return ['crucible', ...withOut].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/**
 * Ctrl-C: the first one aborts `controller` (the eval stops and says how to resume); a second one quits at once,
 * bringing the terminal's cursor back first. Returns the function that removes the handler.
 */
function onInterrupt(controller: AbortController): () => void {
  const handler = (): void => {
    if (controller.signal.aborted) {
      if (process.stderr.isTTY) process.stderr.write('\x1b[?25h\n');
      process.exit(130);
    }
    process.stderr.write('\ncrucible: stopping: cancelling the samples under way (Ctrl-C again to quit at once)\n');
    controller.abort(new Error('interrupted (SIGINT)'));
  };
  process.on('SIGINT', handler);
  return () => process.off('SIGINT', handler);
}

/** Parse `--tasks`: a comma-separated list of task ids. */
function parseTaskList(value: string): string[] {
  const ids = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (ids.length === 0) throw new InvalidArgumentError('give task ids separated by commas, e.g. HumanEval/0,HumanEval/1');
  return ids;
}

/** Parse a non-negative integer (`--bigcode-start`). */
function parseStart(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) throw new InvalidArgumentError(`expected a non-negative integer, got "${value}"`);
  return n;
}

/** Add `eval` to the program. */
export function register(program: Command): void {
  const command = program.command('eval')
    .description('judge a model\'s samples on a benchmark and report pass@k (default: the built-in benchmark)')
    .option('--problems <file>', 'problems file (any format of crucible formats; .gz ok)')
    .option('--samples <file>', 'samples file ({task_id, completion|solution|response} JSONL, CodeT {prompt, samples}, bigcode generations, LiveCodeBench outputs; with --format spider|bird also Spider one-SQL-per-line and BIRD predict_dev.json files)')
    .option('--format <format>', `problems format: ${problemFormatNames().join(', ')} (see crucible formats)`, 'auto')
    .option('--since <date>', 'only problems released on or after this date, YYYY-MM-DD (contamination windows; LiveCodeBench, TACO)')
    .option('--until <date>', 'only problems released on or before this date, YYYY-MM-DD')
    .addOption(new Option('--window-by <window>', 'also report pass@k per release window: calendar month, or LiveCodeBench release (v1..v6)')
      .choices(['month', 'release']))
    .option('--limit <n>', 'a deliberate subset: only the first N problems (file order, or the split\'s of bigcode generations); stamped on the result', parsePositiveInt)
    .option('--tasks <ids>', 'a deliberate subset: only these task ids, comma-separated; stamped on the result', parseTaskList)
    .option('--bigcode-start <n>', 'bigcode generations made with --limit: the --limit_start they were made with (0 if not set)', parseStart)
    .option('--include-reference-failures', 'count the samples of problems whose reference solution failed under the limits as failed (default: leave those problems out of pass@k)')
    .option('--k <list>', 'k values for pass@k', parseIntList, [1, 10, 100])
    .option('--jobs <n>', 'sandbox slots (default: number of cores)', parsePositiveInt)
    .option('--out <dir>', 'run directory (re-running with the same --out resumes, judging internal errors again)')
    .option('--json', 'print the summary as one JSON object')
    .option('--time-limit <seconds>', 'CPU time limit per program (unit tests) or per test/input', parseTimeLimitSeconds)
    .option('--time-limit-rule <rule>', 'unit tests with a canonical solution: calibrated (default, 4x+200ms: min(--time-limit, 4 x the solution\'s CPU time + 200 ms)), FACTORx+FLOORms, or fixed (--time-limit for every program)', parseTimeLimitRule)
    .option('--memory-limit <MiB>', 'memory limit', parseMemoryLimitMiB)
    .option('--cache-dir <dir>', `ground-truth cache (default: $${CACHE_DIR_ENV}, $XDG_CACHE_HOME/crucible or ~/.cache/crucible)`)
    .option('--reps <n>', 'bootstrap repetitions for confidence intervals', parsePositiveInt, 2000)
    .option('--seed <n>', 'bootstrap seed', parsePositiveInt, 20240601)
    .option('--analysis [analysers]', `static analysis of every judged program, counted per sample and summarised (comma-separated: ${ANALYZER_IDS.join(', ')}; default every one that reads the language)`, parseAnalysers)
    .option('--formal', 'verilog problems: after the simulation, check each design against the reference with yosys in the sandbox (proven/refuted/unknown beside the verdict, in verdicts.jsonl `formal`)')
    .option('--all-tests', 'run every test of a failing sample (default: stop at its first failing test)')
    .option('--tag <tag>', 'a label of the run, to filter and group runs by (repeatable); with --samples, --model NAME names the model that wrote them',
      (value: string, previous: string[]) => [...previous, value], [] as string[])
    .option('--no-progress', 'no progress bar')
    .option('--unsafe-no-sandbox', UNSAFE_NO_SANDBOX_HELP)
    .option('--store <spec>', STORE_OPTION_HELP)
    .option('--no-store', 'write the run directory only, not the result store')
    .option('--repo-source <repo=path>', 'repository tasks: where a repository\'s code is, owner/name=PATH (a git directory, bundle or tree); repeatable', collectRepoSource)
    .option('--registry <url>', 'repository tasks: the package registry an install may reach (default https://registry.npmjs.org/)')
    .option('--lean-endpoint <url>', LEAN_ENDPOINT_HELP, parseLeanEndpoint)
    .option('--queue <url>', 'judge on a fleet of `crucible worker`s through this Redis queue (redis://HOST:PORT) instead of here')
    .option('--tenant <name>', 'with --queue: who the jobs are for (fair shares between tenants; default "default")', parseTenant)
    .addOption(new Option('--keep-code <what>', 'what verdicts.jsonl keeps of each sample\'s text: the text (completion), its sha256, or none')
      .choices(['full', 'hash', 'none']).default('full'))
    .addOption(new Option('--keep-tests <which>', 'per-test results the store keeps: failing tests in full and passing tests as counts, or all')
      .choices(['failing', 'all']).default('failing'));
  // --endpoint URL --model NAME: generate the samples from a model endpoint and judge each as it arrives (docs/GENERATE.md).
  addEfficiencyOptions(command);
  addGenerationOptions(command, 'sampling-seed')
    .action(async (flags: EvalFlags) => {
      if (flags.queue !== undefined) queueLocation(flags.queue); // a bad URL fails before anything is read
      applyLeanEndpoint(flags.leanEndpoint);
      const input = withFormal(flags, await readInput(flags));
      const context = defaultSubmissionContext();
      const cacheDir = flags.cacheDir === undefined ? defaultCacheDir() : resolve(flags.cacheDir);
      const controller = new AbortController();
      const removeHandler = onInterrupt(controller);
      try {
        await runEval(flags, input, context, cacheDir, controller.signal);
      } finally {
        removeHandler();
      }
    });
}

/** `crucible eval`: judge a model's samples on a benchmark and report pass@k — the main job. */
import { availableParallelism } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { SingleBar } from 'cli-progress';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { DatasetError, datasetHash, problemFormatNames, readProblems, readSamples, UnknownFormatError } from '../formats/index.js';
import type { Problem, Sample } from '../formats/types.js';
import { withinReleaseWindow } from '../formats/livecodebench.js';
import type { Judge } from '../judge/judge.js';
import type { SubmissionContext } from '../judge/submission.js';
import { defaultSubmissionContext } from '../kinds/index.js';
import { JUDGE_DEFAULTS, mibToKiB, secondsToMs, type JudgeLimits } from '../limits.js';
import { evaluate, type EvaluationResult } from '../apps/evaluate.js';
import { analysisSummary, type AnalysisSummary } from '../apps/analyse.js';
import { ANALYZER_IDS, type AnalyzerId } from '../verdict/analysis.js';
import { openJudge } from '../queue/open.js';
import { queueLocation, QueueUnreachableError, QueueUrlError } from '../queue/connection.js';
import { INTERNAL_ERROR_RETRIES } from '../engine/local-judge.js';
import { CACHE_DIR_ENV, DEFAULT_BENCHMARK, defaultCacheDir } from '../paths.js';
import { SAMPLE_STATUSES } from '../verdict/index.js';
import { openEvalStore, type EvalStoreHandle } from '../store/eval-sink.js';
import { RunStore, RunStoreError } from '../store/run-store.js';
import { registerUserError, UsageError } from './errors.js';
import { STORE_OPTION_HELP } from './store.js';
import { CRUCIBLE_VERSION } from './version.js';
import { addGenerationOptions, type GenerationFlags } from './generate.js';
import { finishEndpointGeneration, planEndpointGeneration, startEndpointGeneration, type EndpointGeneration } from './eval-endpoint.js';
import {
  parseIntList, parseMemoryLimitMiB, parsePositiveInt, parseTenant, parseTimeLimitSeconds, UNSAFE_NO_SANDBOX_HELP
} from './options.js';

registerUserError(DatasetError);
registerUserError(UnknownFormatError);
registerUserError(RunStoreError);
registerUserError(QueueUrlError);
registerUserError(QueueUnreachableError);

interface EvalFlags extends GenerationFlags {
  samplingSeed: number | false;
  problems?: string; samples?: string; format: string; k: number[]; jobs?: number; out?: string; json?: boolean;
  timeLimit?: number; memoryLimit?: number; reps: number; seed: number; progress: boolean; allTests?: boolean; unsafeNoSandbox?: boolean;
  cacheDir?: string; store?: string | false; keepTests: 'failing' | 'all'; queue?: string; tenant?: string; since?: string;
  until?: string; analysis?: true | string;
}

/** The analysers `--analysis` names (`[]`: every one that reads the sample's language). @throws InvalidArgumentError. */
function parseAnalysers(value: string): string {
  const unknown = value.split(',').map((t) => t.trim()).filter((t) => !(ANALYZER_IDS as readonly string[]).includes(t));
  if (unknown.length > 0) throw new InvalidArgumentError(`unknown analyser ${unknown.join(', ')}; analysers: ${ANALYZER_IDS.join(', ')}`);
  return value;
}

function analysersOf(flags: EvalFlags): readonly AnalyzerId[] | undefined {
  if (flags.analysis === undefined) return undefined;
  return flags.analysis === true ? [] : flags.analysis.split(',').map((t) => t.trim() as AnalyzerId);
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
  const statuses = await context.languages.toolchains();
  return Object.fromEntries([...used].sort().map((id) => [id, statuses.find((s) => s.id === id)?.version ?? null]));
}

/**
 * What each kind's mode says about how the run's problems of its kind are judged (`JudgingMode.summarise`, e.g.
 * `scriptJudging`: split, replayed, one program): the summary's fields, and a line each for people.
 */
function modeSummaries(problems: readonly Problem[], context: SubmissionContext): { fields: Record<string, unknown>; lines: string[] } {
  const fields: Record<string, unknown> = {};
  const lines: string[] = [];
  for (const mode of context.modes.modes) {
    const summary = mode.summarise?.(problems.filter((p) => p.kind === mode.kind));
    if (summary === undefined) continue;
    fields[summary.field] = summary.value;
    lines.push(summary.text);
  }
  return { fields, lines };
}

function percent(x: number): string {
  return (100 * x).toFixed(2);
}

function humanSummary(summary: ReturnType<typeof buildSummary>, result: EvaluationResult, modeLines: readonly string[]): string {
  const lines: string[] = [];
  lines.push(`problems ${summary.problems}, samples ${summary.samples} (${summary.distinctPrograms} distinct programs), ` +
    `judged ${result.judged} now, ${result.resumed} resumed, ${(result.wallMs / 1000).toFixed(1)} s, ${summary.samplesPerSecond.toFixed(1)} samples/s`);
  lines.push('');
  lines.push('  k   pass@k   95% CI');
  for (const [k, value] of Object.entries(summary.passAtK)) {
    const ci = summary.passAtKCI[k]!;
    lines.push(`${k.padStart(3)}   ${percent(value).padStart(6)}   [${percent(ci[0])}, ${percent(ci[1])}]`);
  }
  if (summary.plusPassAtK) {
    lines.push('plus (base and plus inputs pass):');
    for (const [k, value] of Object.entries(summary.plusPassAtK)) lines.push(`${k.padStart(3)}   ${percent(value).padStart(6)}`);
  }
  if (summary.unsupportedKs.length > 0) lines.push(`(k = ${summary.unsupportedKs.join(', ')} left out: some problem has fewer samples)`);
  lines.push('');
  lines.push('verdicts: ' + SAMPLE_STATUSES.filter((s) => summary.countsByStatus[s]).map((s) => `${s} ${summary.countsByStatus[s]}`).join(', '));
  lines.push(...modeLines);
  if (summary.analysis !== undefined) {
    const a = summary.analysis;
    lines.push(`static analysis: ${a.samples} samples, ${a.findingsPerSample.toFixed(2)} findings per sample, `
      + `${a.securityPerKloc.toFixed(2)} security findings per 1,000 lines${a.failedAnalyses > 0 ? ` (${a.failedAnalyses} analyser runs failed)` : ''}`);
  }
  if (summary.groundTruth.runs + summary.groundTruth.cacheHits > 0) {
    lines.push(`ground truth: ${summary.groundTruth.runs} runs, ${summary.groundTruth.cacheHits} from the cache (${summary.groundTruth.cacheDir})`);
  }
  if (summary.internalErrorRetries > 0) {
    lines.push(`${summary.internalErrorRetries} attempts failed inside Crucible and were retried (a failure left after ${INTERNAL_ERROR_RETRIES} retries is internal_error)`);
  }
  lines.push(`results: ${summary.out}`);
  return lines.join('\n') + '\n';
}

/** The summary's `analysis` field when some record carries an analysis. */
function analysisField(records: EvaluationResult['records']): { analysis?: AnalysisSummary } {
  const summary = analysisSummary(records);
  return summary === null ? {} : { analysis: summary };
}

function buildSummary(input: { flags: EvalFlags; problemsPath: string; samplesPath: string; format: string; problemsHash: string;
  samplesHash: string; problems: readonly Problem[]; sampleCount: number; out: string; limits: JudgeLimits;
  toolchains: Record<string, string | null>; result: EvaluationResult; groundTruth: { runs: number; cacheHits: number; cacheDir: string };
  internalErrorRetries: number; modeFields: Record<string, unknown>; generation?: Record<string, unknown> }) {
  const { result } = input;
  const ci = (summary: EvaluationResult['passAtKSummary']) => Object.fromEntries(Object.keys(result.passAtK).map((k) => {
    const point = summary.points.find((p) => p.k === Number(k))!;
    return [k, [point.lower, point.upper] as const];
  }));
  return {
    crucibleVersion: CRUCIBLE_VERSION,
    problemsFile: input.problemsPath,
    samplesFile: input.samplesPath,
    format: input.format,
    datasetHash: input.problemsHash,
    samplesHash: input.samplesHash,
    ...(input.flags.since === undefined && input.flags.until === undefined ? {}
      : { releaseWindow: { since: input.flags.since ?? null, until: input.flags.until ?? null } }),
    problems: input.problems.length,
    samples: input.sampleCount,
    distinctPrograms: result.distinctPrograms,
    judged: result.judged,
    resumed: result.resumed,
    wallMs: result.wallMs,
    samplesPerSecond: result.judged > 0 ? result.judged / Math.max(result.wallMs / 1000, 1e-3) : 0,
    limits: { cpuMsPerProgramOrTest: input.limits.cpuMs, memoryKiB: input.limits.memoryKiB,
      outputBytes: input.limits.outputBytes, timeMeasure: 'CPU time (user+system) of the whole process tree' },
    groundTruth: input.groundTruth,
    internalErrorRetries: input.internalErrorRetries,
    toolchains: input.toolchains,
    ...input.modeFields,
    ...analysisField(input.result.records),
    countsByStatus: result.countsByStatus,
    passAtK: result.passAtK,
    passAtKCI: ci(result.passAtKSummary),
    ...(result.plusPassAtK && result.plusPassAtKSummary
      ? { plusPassAtK: result.plusPassAtK, plusPassAtKCI: ci(result.plusPassAtKSummary) } : {}),
    passAtKCurve: result.passAtKSummary.points,
    bootstrap: result.passAtKSummary.bootstrap,
    unsupportedKs: result.unsupportedKs,
    ...(input.generation === undefined ? {} : { generation: input.generation }),
    out: input.out,
  };
}

/** What one eval reads: problems, samples, their hashes, and where the run goes. */
interface EvalInput {
  readonly problemsPath: string;
  readonly samplesPath: string;
  readonly problems: Problem[];
  readonly samples: Sample[];
  readonly problemsHash: string;
  readonly samplesHash: string;
  readonly limits: JudgeLimits;
  readonly out: string;
  /** With `--endpoint`: the samples are generated during the run (their text arrives later). */
  readonly generation?: EndpointGeneration;
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
  const { problems } = inReleaseWindow(flags, await readProblems(flags.problems, flags.format), []);
  const generation = planEndpointGeneration(flags, problems);
  const problemsHash = await datasetHash(flags.problems);
  const limits = limitsOf(flags);
  const model = generation.model.replace(/[^\w.-]+/g, '_');
  const out = flags.out ?? join('runs', `${basename(flags.problems).replace(/\.(jsonl?|json)(\.gz)?$/, '')}-${model}-${generation.specHash.slice(0, 12)}`);
  return { problemsPath: flags.problems, samplesPath: generation.label, problems, samples: generation.samples, problemsHash,
    samplesHash: generation.specHash, limits, out, generation };
}

async function readInput(flags: EvalFlags): Promise<EvalInput> {
  if (flags.endpoint !== undefined || flags.model !== undefined) return readEndpointInput(flags);
  if ((flags.problems === undefined) !== (flags.samples === undefined)) {
    throw new UsageError('--problems and --samples go together (omit both for the built-in benchmark)');
  }
  const problemsPath = flags.problems ?? DEFAULT_BENCHMARK.problems;
  const samplesPath = flags.samples ?? DEFAULT_BENCHMARK.samples;
  const all = await readProblems(problemsPath, flags.format);
  const { problems, samples } = inReleaseWindow(flags, all, await readSamples(samplesPath, { problems: all }));
  const [problemsHash, samplesHash] = await Promise.all([datasetHash(problemsPath), datasetHash(samplesPath)]);
  const limits = limitsOf(flags);
  const window = `${flags.since === undefined ? '' : `-since-${flags.since}`}${flags.until === undefined ? '' : `-until-${flags.until}`}`;
  const out = flags.out ?? join('runs', `${basename(problemsPath).replace(/\.(jsonl?|json)(\.gz)?$/, '')}-${samplesHash.slice(0, 12)}${window}`);
  return { problemsPath, samplesPath, problems, samples, problemsHash, samplesHash, limits, out };
}

/** `--endpoint` evals: samples generated and failed so far, shown on the same bar. */
type GenerationCounts = { readonly done: number; readonly failed: number };

function progressBar(flags: EvalFlags, generated?: () => GenerationCounts): (done: number, total: number) => void {
  const format = generated === undefined ? 'eval [{bar}] {value}/{total} | {rate} samples/s | ETA {eta_formatted}'
    : 'eval [{bar}] {value}/{total} judged | {generated} generated, {failed} failed | {rate} samples/s | ETA {eta_formatted}';
  const bar = flags.progress && !flags.json && process.stderr.isTTY
    ? new SingleBar({ format, etaBuffer: 200, hideCursor: true, stream: process.stderr }) : null;
  const started = Date.now();
  let firstDone: number | null = null;
  let running = false;
  return (done, total) => {
    firstDone ??= done;
    const rate = (done - firstDone) / Math.max((Date.now() - started) / 1000, 1e-3);
    if (!bar) return;
    const payload = { rate: rate.toFixed(1), ...(generated === undefined ? {} : { generated: generated().done, failed: generated().failed }) };
    if (!running) bar.start(total, done, payload);
    else bar.update(done, payload);
    running = true;
    if (done === total) bar.stop();
  };
}

/**
 * The result store of the run (`--store`, default on; null with `--no-store` or when the default store cannot
 * be opened, after a warning). `describeTests` is asked only once samples are judged, so through the judge made
 * after it (`judge()`).
 */
function openResults(flags: EvalFlags, input: EvalInput, runDir: RunStore, identityOptions: Record<string, number>,
  toolchains: Record<string, string | null>, context: SubmissionContext, judge: () => Judge): Promise<EvalStoreHandle | null> {
  return openEvalStore(flags.store, {
    name: basename(resolve(input.out)), model: input.generation?.model ?? basename(input.samplesPath), dataset: basename(input.problemsPath),
    problemsFile: input.problemsPath, samplesFile: input.samplesPath, format: flags.format, problemsHash: input.problemsHash,
    samplesHash: input.samplesHash, crucibleVersion: CRUCIBLE_VERSION, options: { ...identityOptions }, keepTests: flags.keepTests,
    provenance: { runDir: resolve(input.out), toolchains, node: process.version, allTests: flags.allTests === true,
      bootstrap: { reps: flags.reps, seed: flags.seed } },
    totalSamples: input.samples.length,
  }, input.problems, {
    testCount: (problem) => context.modes.of(problem).testCount(problem),
    resumed: runDir.existing.values(),
    describeTests: (problem) => judge().describeTests({ datasetHash: input.problemsHash, taskId: problem.taskId }),
  }, (message) => process.stderr.write(`crucible: warning: ${message}\n`));
}

async function runEval(flags: EvalFlags, input: EvalInput, context: SubmissionContext, cacheDir: string): Promise<void> {
  // The run's identity keeps the field names run directories have always had (resume compares them).
  const identityOptions = { timeLimitMs: input.limits.cpuMs, memoryLimitKiB: input.limits.memoryKiB, outputBytes: input.limits.outputBytes };
  const store = RunStore.open(input.out, { problemsHash: input.problemsHash, samplesHash: input.samplesHash, options: identityOptions },
    { rejudge: (record) => record.status === 'internal_error' });
  try {
    const toolchains = await toolchainsOf(languagesUsed(input.problems, input.samples, context), context);
    // The result store before the sandbox: a store that cannot be opened leaves no sandbox to close.
    let judge: Judge | undefined;
    const results = await openResults(flags, input, store, identityOptions, toolchains, context, () => {
      if (judge === undefined) throw new Error('tests were described before the judge was made');
      return judge;
    });
    try {
      ({ judge } = await openJudge({ slots: flags.jobs ?? availableParallelism(), unsafeNoSandbox: flags.unsafeNoSandbox === true,
        languages: context.languages, modes: context.modes, limits: input.limits, cacheDir,
        ...flags.queue === undefined ? {} : { queue: flags.queue }, ...flags.tenant === undefined ? {} : { tenant: flags.tenant } }));
      await judgeAndReport(flags, input, { store, judge, results, context, toolchains, cacheDir });
    } finally {
      // Marks the store run failed unless it was finished (a no-op then); the run directory has every record.
      await results?.close().catch(() => undefined);
      await judge?.close();
    }
  } finally {
    store.close();
  }
}

/**
 * Evaluate; with `--endpoint`, generate the samples meanwhile (each judged as it arrives, one progress bar) and
 * write them into the run directory at the end.
 */
async function evaluateWithGeneration(flags: EvalFlags, input: EvalInput, run: { store: RunStore; judge: Judge;
  results: EvalStoreHandle | null; context: SubmissionContext }): Promise<{ evaluation: EvaluationResult;
  generation?: ReturnType<typeof finishEndpointGeneration> }> {
  let judged: [number, number] | undefined;
  const refresh = (): void => { if (judged !== undefined) bar(...judged); };
  const generation = input.generation === undefined ? undefined : await startEndpointGeneration(input.generation, flags.store, refresh);
  const bar = progressBar(flags, generation === undefined ? undefined : () => generation.counts);
  try {
    const evaluation = await evaluate({
      judge: run.judge, store: run.store, problems: input.problems, datasetHash: input.problemsHash, samples: input.samples,
      samplesFile: input.samplesPath, submission: run.context, ks: flags.k, allTests: flags.allTests === true, bootstrapReps: flags.reps,
      seed: flags.seed, onProgress: (done, total) => bar(...(judged = [done, total])), ...(run.results === null ? {} : { sink: run.results.sink }),
      ...(generation === undefined ? {} : { arrivals: generation.arrivals }),
      ...(analysersOf(flags) === undefined ? {} : { analysis: analysersOf(flags)! }),
    });
    if (generation === undefined || input.generation === undefined) return { evaluation };
    return { evaluation, generation: finishEndpointGeneration(input.generation, await generation.done, input) };
  } finally {
    await generation?.close();
  }
}

/** Evaluate, write the summary into the run directory, print it, and finish the store run with it. */
async function judgeAndReport(flags: EvalFlags, input: EvalInput, run: { store: RunStore; judge: Judge; results: EvalStoreHandle | null;
  context: SubmissionContext; toolchains: Record<string, string | null>; cacheDir: string }): Promise<void> {
  const { store, judge, results, context, toolchains, cacheDir } = run;
  const result = await evaluateWithGeneration(flags, input, run);
  const stats = judge.stats();
  const modes = modeSummaries(input.problems, context);
  const summary = buildSummary({ flags, problemsPath: input.problemsPath, samplesPath: input.samplesPath, format: flags.format,
    problemsHash: input.problemsHash, samplesHash: input.samplesHash, problems: input.problems, sampleCount: input.samples.length,
    out: input.out, limits: input.limits, toolchains, result: result.evaluation, modeFields: modes.fields,
    groundTruth: { runs: stats.groundTruthRuns, cacheHits: stats.groundTruthCacheHits, cacheDir }, internalErrorRetries: stats.retries,
    ...(result.generation === undefined ? {} : { generation: result.generation.summary }) });
  store.writeSummary(summary);
  process.stdout.write(flags.json ? JSON.stringify(summary) + '\n'
    : humanSummary(summary, result.evaluation, modes.lines) + (result.generation?.lines ?? []).map((l) => `generation: ${l}\n`).join(''));
  if (result.evaluation.countsByStatus['internal_error']) process.exitCode = 1;
  // A store that could not be written fails the command; the run directory above has every result.
  const stored = await results?.close(summary).catch((error: Error) => {
    process.stderr.write(`crucible: ${error.message}\n`);
    process.exitCode = 1;
    return '';
  });
  if (stored && !flags.json) process.stdout.write(`${stored}\n`);
}

/** Add `eval` to the program. */
export function register(program: Command): void {
  const command = program.command('eval')
    .description('judge a model\'s samples on a benchmark and report pass@k (default: the built-in benchmark)')
    .option('--problems <file>', 'problems file (any format of crucible formats; .gz ok)')
    .option('--samples <file>', 'samples file ({task_id, completion|solution|response} JSONL, CodeT {prompt, samples}, bigcode generations, LiveCodeBench outputs)')
    .option('--format <format>', `problems format: ${problemFormatNames().join(', ')} (see crucible formats)`, 'auto')
    .option('--since <date>', 'only problems released on or after this date, YYYY-MM-DD (contamination windows; LiveCodeBench, TACO)')
    .option('--until <date>', 'only problems released on or before this date, YYYY-MM-DD')
    .option('--k <list>', 'k values for pass@k', parseIntList, [1, 10, 100])
    .option('--jobs <n>', 'sandbox slots (default: number of cores)', parsePositiveInt)
    .option('--out <dir>', 'run directory (re-running with the same --out resumes, judging internal errors again)')
    .option('--json', 'print the summary as one JSON object')
    .option('--time-limit <seconds>', 'CPU time limit per program (unit tests) or per test/input', parseTimeLimitSeconds)
    .option('--memory-limit <MiB>', 'memory limit', parseMemoryLimitMiB)
    .option('--cache-dir <dir>', `ground-truth cache (default: $${CACHE_DIR_ENV}, $XDG_CACHE_HOME/crucible or ~/.cache/crucible)`)
    .option('--reps <n>', 'bootstrap repetitions for confidence intervals', parsePositiveInt, 2000)
    .option('--seed <n>', 'bootstrap seed', parsePositiveInt, 20240601)
    .option('--analysis [analysers]', `static analysis of every judged program, counted per sample and summarised (comma-separated: ${ANALYZER_IDS.join(', ')}; default every one that reads the language)`, parseAnalysers)
    .option('--all-tests', 'run every test of a failing sample (default: stop at its first failing test)')
    .option('--no-progress', 'no progress bar')
    .option('--unsafe-no-sandbox', UNSAFE_NO_SANDBOX_HELP)
    .option('--store <spec>', STORE_OPTION_HELP)
    .option('--no-store', 'write the run directory only, not the result store')
    .option('--queue <url>', 'judge on a fleet of `crucible worker`s through this Redis queue (redis://HOST:PORT) instead of here')
    .option('--tenant <name>', 'with --queue: who the jobs are for (fair shares between tenants; default "default")', parseTenant)
    .addOption(new Option('--keep-tests <which>', 'per-test results the store keeps: failing tests in full and passing tests as counts, or all')
      .choices(['failing', 'all']).default('failing'));
  // --endpoint URL --model NAME: generate the samples from a model endpoint and judge each as it arrives (docs/GENERATE.md).
  addGenerationOptions(command, 'sampling-seed')
    .action(async (flags: EvalFlags) => {
      if (flags.queue !== undefined) queueLocation(flags.queue); // a bad URL fails before anything is read
      const input = await readInput(flags);
      const context = defaultSubmissionContext();
      const cacheDir = flags.cacheDir === undefined ? defaultCacheDir() : resolve(flags.cacheDir);
      await runEval(flags, input, context, cacheDir);
    });
}

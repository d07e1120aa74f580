/** `crucible eval`: judge a model's samples on a benchmark and report pass@k — the main job. */
import { availableParallelism } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { SingleBar } from 'cli-progress';
import { Option, type Command } from 'commander';
import { DatasetError, datasetHash, readProblems, readSamples, type ProblemFormat } from '../formats/index.js';
import type { Problem } from '../formats/types.js';
import { LanguageRegistry } from '../languages/registry.js';
import { evaluate, type EvaluationResult } from '../runner/evaluate.js';
import { describeTestCase } from '../runner/test-case-text.js';
import { DEFAULT_PIPELINE_OPTIONS, Pipeline, type PipelineOptions } from '../runner/pipeline.js';
import { Sandbox } from '../sandbox/index.js';
import { PROJECT_ROOT } from '../sandbox/paths.js';
import { SAMPLE_STATUSES } from '../store/record-schema.js';
import { RunStore, RunStoreError } from '../store/run-store.js';
import { openEvalStore } from '../store/eval-sink.js';
import { STORE_OPTION_HELP } from './store.js';
import { registerUserError, UsageError } from './errors.js';
import { CRUCIBLE_VERSION } from './version.js';
import { parseIntList, parsePositiveInt, parsePositiveNumber } from './options.js';

registerUserError(DatasetError);
registerUserError(RunStoreError);

/** The built-in default benchmark, used when --problems is not given. */
export const DEFAULT_BENCHMARK = {
  problems: join(PROJECT_ROOT, 'benchmarks', 'default', 'problems.json'),
  samples: join(PROJECT_ROOT, 'benchmarks', 'default', 'samples.jsonl'),
};

interface EvalFlags {
  problems?: string; samples?: string; format: string; k: number[]; jobs?: number; out?: string; json?: boolean;
  timeLimit?: number; memoryLimit?: number; reps: number; seed: number; progress: boolean; allTests?: boolean; unsafeNoSandbox?: boolean;
  store?: string | false; keepTests: 'failing' | 'all';
}

function languagesUsed(problems: readonly Problem[], sampleLanguages: readonly (string | undefined)[]): Set<string> {
  const used = new Set<string>();
  for (const p of problems) used.add(p.kind === 'io' ? p.language ?? '' : 'python');
  for (const l of sampleLanguages) if (l) used.add(l);
  used.delete('');
  return used;
}

function percent(x: number): string {
  return (100 * x).toFixed(2);
}

function humanSummary(summary: ReturnType<typeof buildSummary>, result: EvaluationResult): string {
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
  lines.push(`results: ${summary.out}`);
  return lines.join('\n') + '\n';
}

function buildSummary(input: { flags: EvalFlags; problemsPath: string; samplesPath: string; format: string; problemsHash: string;
  samplesHash: string; problems: readonly Problem[]; sampleCount: number; out: string; options: PipelineOptions;
  toolchains: Record<string, string | null>; result: EvaluationResult }) {
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
    problems: input.problems.length,
    samples: input.sampleCount,
    distinctPrograms: result.distinctPrograms,
    judged: result.judged,
    resumed: result.resumed,
    wallMs: result.wallMs,
    samplesPerSecond: result.judged > 0 ? result.judged / Math.max(result.wallMs / 1000, 1e-3) : 0,
    limits: { cpuMsPerProgramOrTest: input.options.timeLimitMs, memoryKiB: input.options.memoryLimitKiB,
      outputBytes: input.options.outputBytes, timeMeasure: 'CPU time (user+system) of the whole process tree' },
    toolchains: input.toolchains,
    countsByStatus: result.countsByStatus,
    passAtK: result.passAtK,
    passAtKCI: ci(result.passAtKSummary),
    ...(result.plusPassAtK && result.plusPassAtKSummary
      ? { plusPassAtK: result.plusPassAtK, plusPassAtKCI: ci(result.plusPassAtKSummary) } : {}),
    passAtKCurve: result.passAtKSummary.points,
    bootstrap: result.passAtKSummary.bootstrap,
    unsupportedKs: result.unsupportedKs,
    out: input.out,
  };
}

/** Add `eval` to the program. */
export function register(program: Command): void {
  program.command('eval')
    .description('judge a model\'s samples on a benchmark and report pass@k (default: the built-in benchmark)')
    .option('--problems <file>', 'problems file (HumanEval, EvalPlus, Crucible JSON/JSONL; .gz ok)')
    .option('--samples <file>', 'samples file ({task_id, completion|solution} JSONL or CodeT {prompt, samples})')
    .option('--format <format>', 'problems format: auto|humaneval|evalplus|codet|crucible', 'auto')
    .option('--k <list>', 'k values for pass@k', parseIntList, [1, 10, 100])
    .option('--jobs <n>', 'sandbox slots (default: number of cores)', parsePositiveInt)
    .option('--out <dir>', 'run directory (re-running with the same --out resumes)')
    .option('--json', 'print the summary as one JSON object')
    .option('--time-limit <seconds>', 'CPU time limit per program (unit tests) or per test/input', parsePositiveNumber)
    .option('--memory-limit <MiB>', 'memory limit', parsePositiveNumber)
    .option('--reps <n>', 'bootstrap repetitions for confidence intervals', parsePositiveInt, 2000)
    .option('--seed <n>', 'bootstrap seed', parsePositiveInt, 20240601)
    .option('--all-tests', 'run every test of a failing sample (default: stop at its first failing test)')
    .option('--no-progress', 'no progress bar')
    .option('--unsafe-no-sandbox', 'run without isolation if the host has none (dangerous)')
    .option('--store <spec>', STORE_OPTION_HELP)
    .option('--no-store', 'write the run directory only, not the result store')
    .addOption(new Option('--keep-tests <which>', 'per-test results the store keeps: failing tests in full and passing tests as counts, or all')
      .choices(['failing', 'all']).default('failing'))
    .action(async (flags: EvalFlags) => {
      if ((flags.problems === undefined) !== (flags.samples === undefined)) {
        throw new UsageError('--problems and --samples go together (omit both for the built-in benchmark)');
      }
      const problemsPath = flags.problems ?? DEFAULT_BENCHMARK.problems;
      const samplesPath = flags.samples ?? DEFAULT_BENCHMARK.samples;
      const formats = ['auto', 'humaneval', 'evalplus', 'codet', 'crucible'];
      if (!formats.includes(flags.format)) throw new UsageError(`--format must be one of ${formats.join('|')}`);
      // CodeT's HumanEval variant has HumanEval's fields.
      const format = (flags.format === 'codet' ? 'humaneval' : flags.format) as ProblemFormat | 'auto';
      const problems = await readProblems(problemsPath, format);
      const samples = await readSamples(samplesPath, { problems });
      const [problemsHash, samplesHash] = await Promise.all([datasetHash(problemsPath), datasetHash(samplesPath)]);
      const options: PipelineOptions = {
        ...DEFAULT_PIPELINE_OPTIONS,
        ...(flags.timeLimit !== undefined ? { timeLimitMs: Math.round(flags.timeLimit * 1000) } : {}),
        ...(flags.memoryLimit !== undefined ? { memoryLimitKiB: Math.round(flags.memoryLimit * 1024) } : {}),
      };
      const out = flags.out ?? join('runs', `${basename(problemsPath).replace(/\.(jsonl?|json)(\.gz)?$/, '')}-${samplesHash.slice(0, 12)}`);
      const store = RunStore.open(out, { problemsHash, samplesHash, options: { ...options } });
      const languages = LanguageRegistry.load();
      const statuses = await languages.toolchains();
      const used = languagesUsed(problems, samples.map((s) => s.language));
      const toolchains = Object.fromEntries(languages.languages
        .filter((l) => [...used].some((u) => languages.has(u) && languages.get(u).id === l.id))
        .map((l) => [l.id, statuses.find((s) => s.id === l.id)?.version ?? null]));
      // The result store (before the sandbox: a store that cannot be opened leaves nothing to close).
      const results = await openEvalStore(flags.store, {
        name: basename(resolve(out)), model: basename(samplesPath), dataset: basename(problemsPath), problemsFile: problemsPath, samplesFile: samplesPath,
        format: flags.format, problemsHash, samplesHash, crucibleVersion: CRUCIBLE_VERSION, options: { ...options }, keepTests: flags.keepTests,
        provenance: { runDir: resolve(out), toolchains, node: process.version, allTests: flags.allTests === true }, totalSamples: samples.length,
      }, problems, { resumed: store.existing.values(), describeTest: (p, i) => describeTestCase(pipeline, p, i) },
      (message) => process.stderr.write(`crucible: warning: ${message}\n`));
      const sandbox = Sandbox.create({ slots: flags.jobs ?? availableParallelism(), unsafeNoSandbox: flags.unsafeNoSandbox === true });
      const pipeline = new Pipeline(sandbox, languages, options);
      const bar = flags.progress && !flags.json && process.stderr.isTTY
        ? new SingleBar({ format: 'eval [{bar}] {value}/{total} | {rate} samples/s | ETA {eta_formatted}', etaBuffer: 200,
          hideCursor: true, stream: process.stderr }) : null;
      const started = Date.now();
      let firstDone: number | null = null;
      try {
        const result = await evaluate({
          pipeline, store, problems, samples, ks: flags.k, allTests: flags.allTests === true, bootstrapReps: flags.reps, seed: flags.seed,
          ...(results === null ? {} : { sink: results.sink }),
          onProgress: (done, total) => {
            firstDone ??= done;
            const rate = (done - firstDone) / Math.max((Date.now() - started) / 1000, 1e-3);
            if (bar) {
              if (done === firstDone) bar.start(total, done, { rate: '0.0' });
              else bar.update(done, { rate: rate.toFixed(1) });
            }
          },
        });
        bar?.stop();
        const summary = buildSummary({ flags, problemsPath, samplesPath, format: flags.format, problemsHash, samplesHash,
          problems, sampleCount: samples.length, out, options, toolchains, result });
        store.writeSummary(summary);
        process.stdout.write(flags.json ? JSON.stringify(summary) + '\n' : humanSummary(summary, result));
        if (result.countsByStatus['internal_error']) process.exitCode = 1;
        const stored = await results?.close(summary).catch((error: Error) => {
          process.stderr.write(`crucible: ${error.message}\n`);
          process.exitCode = 1;
          return '';
        });
        if (stored && !flags.json) process.stdout.write(`${stored}\n`);
      } finally {
        bar?.stop();
        await results?.close().catch(() => undefined);
        store.close();
        await pipeline.close();
        sandbox.close();
      }
    });
}

/** `crucible rerank`: pick samples with generated tests (CodeT), by majority of outputs, or take the first. */
import { availableParallelism } from 'node:os';
import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { datasetHash, problemFormatNames, readCodetTests, readProblems, readSamples, UnknownFormatError } from '../formats/index.js';
import type { Judge } from '../judge/judge.js';
import { queueLocation, QueueUnreachableError, QueueUrlError } from '../queue/connection.js';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { openJudge } from '../queue/open.js';
import { executeRerank, RERANK_METHODS, RerankInputError, rerankIntervals, scoreRerank, type RerankMethod, type RerankResult } from '../apps/rerank.js';
import { PriorVerdictsError, priorVerdictsOf } from '../apps/rerank-prior.js';
import { loadRunOrStored, RunLoadError } from '../report/load-run.js';
import type { SampleRecord } from '../store/records.js';
import { importRunDirectory } from '../store/run-dir.js';
import { codeVersion } from '../version.js';
import { CRUCIBLE_VERSION } from './version.js';
import { STORE_OPTION_HELP, withStore } from './store.js';
import { registerUserError, UsageError } from './errors.js';
import {
  parseIntList, parsePositiveInt, parseTenant, parseTimeLimitSeconds, UNSAFE_NO_SANDBOX_HELP
} from './options.js';
import { CALIBRATED_TIME_DEFAULTS, GENERATED_TEST_CPU_MS, JUDGE_DEFAULTS, secondsToMs } from '../limits.js';

registerUserError(RerankInputError);
registerUserError(PriorVerdictsError);
registerUserError(RunLoadError);
registerUserError(UnknownFormatError);
registerUserError(QueueUrlError);
registerUserError(QueueUnreachableError);

interface RerankFlags {
  method: string; problems: string; samples: string; tests?: string; format: string; k: number[]; json?: boolean;
  jobs?: number; timeLimit?: number; testTimeLimit?: number; testsPerSample: number; scoring: string; progress: boolean;
  unsafeNoSandbox?: boolean; queue?: string; tenant?: string; out?: string; store?: string | false; model?: string; tag: string[];
  reps: number; seed: number; verdictsFrom?: string;
}

/** What `--out` writes besides the records: the files named, the hashes, the rerank and its intervals. */
interface RerankOutput {
  readonly flags: RerankFlags;
  readonly result: RerankResult;
  readonly records: readonly SampleRecord[];
  readonly problemsHash: string;
  readonly samplesHash: string;
  readonly testsHash: string | null;
}

/**
 * `--out DIR`: the rerank as a run directory (`run.json`, `verdicts.jsonl` with every sample's verdict on the real
 * tests, `summary.json` with the reranked and baseline pass@k and their bootstrap intervals), then, unless
 * `--no-store`, the same run in the result store (`crucible store import`), where the dashboard shows it.
 * @throws UsageError when DIR already holds a run.
 */
async function writeRerankRun(out: RerankOutput): Promise<string> {
  const { flags, result } = out;
  const dir = resolve(flags.out!);
  if (existsSync(join(dir, 'verdicts.jsonl'))) throw new UsageError(`${dir} already holds a run (verdicts.jsonl): choose another --out`);
  mkdirSync(dir, { recursive: true });
  const intervals = rerankIntervals(result, { reps: flags.reps, seed: flags.seed });
  const options = { timeLimitMs: result.limits.programCpuMs, rerank: { method: result.method, scoring: result.scoring ?? null, testsHash: out.testsHash,
    testCpuMs: result.limits.testCpuMs, testsPerSample: flags.testsPerSample } };
  const labels = { model: flags.model ?? basename(flags.samples), tags: ['rerank', result.method, ...flags.tag] };
  writeFileSync(join(dir, 'run.json'), JSON.stringify({ problemsHash: out.problemsHash, samplesHash: out.samplesHash, options, labels }, null, 2) + '\n');
  writeFileSync(join(dir, 'verdicts.jsonl'), out.records.map((r) => JSON.stringify(r) + '\n').join(''));
  const { problems: perProblem, ...rest } = result;
  const summary = {
    crucibleVersion: CRUCIBLE_VERSION, code: codeVersion(), problemsFile: flags.problems, samplesFile: flags.samples, format: flags.format,
    datasetHash: out.problemsHash, samplesHash: out.samplesHash, samples: out.records.length, bootstrap: intervals.bootstrap,
    rerank: { ...rest, passAtKCI: intervals.passAtKCI, baselinePassAtKCI: intervals.baselinePassAtKCI, perProblem, testsFile: flags.tests ?? null },
  };
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
  if (flags.store === false) return `results: ${dir}`;
  return withStore(flags.store, async (store) => {
    const imported = await importRunDirectory(store, dir, { model: labels.model, tags: labels.tags });
    return `results: ${dir}; stored as run ${imported.runId} in ${store.location}`;
  });
}

function percent(x: number | undefined): string {
  return x === undefined ? '   -  ' : (100 * x).toFixed(2).padStart(6);
}

function humanReport(r: RerankResult): string {
  const lines = [
    `method ${r.method}${r.scoring ? ` (score = |tests| x ${r.scoring === 'sqrt' ? 'sqrt(|solutions|)' : '|solutions|'})` : ''}: ` +
      `${r.counts.problems} problems, ${r.counts.samples} samples, ${r.counts.distinctSolutions} distinct solutions` +
      (r.counts.reusedVerdicts > 0 ? ` (${r.counts.reusedVerdicts} real-test verdicts taken from --verdicts-from)` : ''),
  ];
  if (r.method !== 'first') {
    const statuses = Object.entries(r.counts.generatedTestStatuses).map(([s, n]) => `${s} ${n}`).join(', ');
    lines.push(`generated tests: ${r.counts.distinctGeneratedTests} distinct, ${r.counts.generatedTestRuns} runs ` +
      `(${r.limits.testCpuMs} ms CPU each): ${statuses}`);
  }
  const fallbacks = r.problems.filter((p) => p.fallback === true).length;
  if (fallbacks > 0) lines.push(`${fallbacks} problems had no consensus set and use plain pass@k`);
  lines.push('', '  k   reranked   baseline');
  for (const k of r.ks) lines.push(`${String(k).padStart(3)}   ${percent(r.passAtK[String(k)])}     ${percent(r.baselinePassAtK[String(k)])}`);
  lines.push('', `${(r.wallMs / 1000).toFixed(1)} s`);
  return lines.join('\n') + '\n';
}

/** Add `rerank` to the program. */
export function register(program: Command): void {
  program.command('rerank')
    .description('select samples with generated tests (CodeT dual agreement), majority of outputs, or first sample; report pass@k next to the baseline')
    .requiredOption('--method <method>', `selection method: ${RERANK_METHODS.join('|')}`)
    .requiredOption('--problems <file>', 'problems file (HumanEval, CodeT HumanEval, EvalPlus; .gz ok)')
    .requiredOption('--samples <file>', 'samples file ({task_id, completion} JSONL or CodeT {prompt, samples})')
    .option('--tests <file>', 'generated test cases (CodeT {prompt, samples} JSONL; needed by codet and majority)')
    .option('--format <format>', `problems format: ${problemFormatNames().join(', ')} (see crucible formats)`, 'auto')
    .option('--k <list>', 'k values', parseIntList, [1, 2, 10])
    .option('--json', 'print one JSON object with passAtK and baselinePassAtK keyed by k')
    .option('--jobs <n>', 'sandbox slots (default: number of cores)', parsePositiveInt)
    .option('--time-limit <seconds>', 'CPU time limit per program on the real tests', parseTimeLimitSeconds)
    .option('--test-time-limit <seconds>', `CPU time limit per generated test (default ${GENERATED_TEST_CPU_MS / 1000})`, parseTimeLimitSeconds)
    .option('--tests-per-sample <n>', 'generated assertions kept per generated sample (CodeT --test_case_limit)', parsePositiveInt, 5)
    .option('--scoring <scoring>', 'CodeT consensus score: sqrt (released code) | product (paper)', 'sqrt')
    .option('--no-progress', 'no progress bar')
    .option('--verdicts-from <run>', 'take the real-test verdicts from an earlier `crucible eval` of these samples on these problems '
      + '(its run directory, or a run of the store): only the programs it lacks are judged')
    .option('--unsafe-no-sandbox', UNSAFE_NO_SANDBOX_HELP)
    .option('--queue <url>', 'judge on a fleet of `crucible worker`s through this Redis queue (redis://HOST:PORT) instead of here')
    .option('--tenant <name>', 'with --queue: who the jobs are for (fair shares between tenants; default "default")', parseTenant)
    .option('--out <dir>', 'write the rerank as a run directory (every sample\'s verdict, reranked and baseline pass@k with bootstrap intervals) and store it')
    .option('--store <spec>', STORE_OPTION_HELP)
    .option('--no-store', 'with --out: the run directory only, not the result store')
    .option('--model <name>', 'with --out: the model that wrote the samples (default: the samples file\'s name)')
    .option('--tag <tag>', 'with --out: a label of the run (repeatable)', (value: string, previous: string[]) => [...previous, value], [] as string[])
    .option('--reps <n>', 'bootstrap repetitions for the intervals (--out)', parsePositiveInt, 2000)
    .option('--seed <n>', 'bootstrap seed', parsePositiveInt, 20240601)
    .action(async (flags: RerankFlags) => {
      if (!(RERANK_METHODS as readonly string[]).includes(flags.method)) throw new UsageError(`--method must be one of ${RERANK_METHODS.join('|')}`);
      const method = flags.method as RerankMethod;
      if (flags.scoring !== 'sqrt' && flags.scoring !== 'product') throw new UsageError('--scoring must be sqrt or product');
      if (method !== 'first' && flags.tests === undefined) throw new UsageError(`--method ${method} needs --tests (generated test cases)`);
      const problems = await readProblems(flags.problems, flags.format);
      const samples = await readSamples(flags.samples, { problems });
      const tests = method === 'first' || flags.tests === undefined ? undefined
        : await readCodetTests(flags.tests, problems, { limit: flags.testsPerSample });
      const limits = flags.timeLimit === undefined ? {} : { cpuMs: secondsToMs(flags.timeLimit) };
      const problemsHash = await datasetHash(flags.problems);
      const priorVerdicts = flags.verdictsFrom === undefined ? undefined
        : priorVerdictsOf(await loadRunOrStored(flags.verdictsFrom, flags.store === false ? undefined : flags.store), problemsHash,
          limits.cpuMs ?? JUDGE_DEFAULTS.cpuMs, CALIBRATED_TIME_DEFAULTS);
      if (flags.queue !== undefined) queueLocation(flags.queue); // a bad URL fails before anything runs
      const { judge } = await openJudge({ slots: flags.jobs ?? availableParallelism(), unsafeNoSandbox: flags.unsafeNoSandbox === true, limits,
        ...flags.queue === undefined ? {} : { queue: flags.queue }, ...flags.tenant === undefined ? {} : { tenant: flags.tenant } });
      const bar = flags.progress && !flags.json && process.stderr.isTTY
        ? new SingleBar({ format: 'rerank {phase} [{bar}] {value}/{total} | ETA {eta_formatted}', hideCursor: true, stream: process.stderr })
        : null;
      let phase = '';
      try {
        if (method !== 'first' && tests === undefined) throw new UsageError(`--method ${method} needs --tests (generated test cases)`);
        const data = await executeRerank({
          judge, problems, datasetHash: problemsHash, samples, samplesFile: flags.samples, tests, limits, runGeneratedTests: method !== 'first',
          ...(priorVerdicts === undefined ? {} : { priorVerdicts }),
          ...(flags.testTimeLimit !== undefined ? { testTimeLimitMs: secondsToMs(flags.testTimeLimit) } : {}),
          onProgress: (p, done, total) => {
            if (!bar) return;
            if (p !== phase) {
              if (phase !== '') bar.stop();
              phase = p;
              bar.start(total, done, { phase: p });
            } else bar.update(done);
          },
        });
        const result = scoreRerank(data, method, flags.k, flags.scoring);
        bar?.stop();
        const written = flags.out === undefined ? undefined : await writeRerankRun({ flags, result, records: data.records, problemsHash,
          samplesHash: await datasetHash(flags.samples), testsHash: flags.tests === undefined ? null : await datasetHash(flags.tests) });
        process.stdout.write(flags.json ? JSON.stringify(result) + '\n' : humanReport(result) + (written === undefined ? '' : `${written}\n`));
        if (result.internalErrors.length > 0) {
          // The figures are printed (nothing is thrown away), but they count Crucible's failures as failed: say so.
          process.stderr.write(`crucible rerank: ${result.internalErrors.length} judgements or generated-test runs failed inside ` +
            `Crucible (internal_error) and count as failed, e.g. ${result.internalErrors[0]}\n`);
          process.exitCode = 1;
        }
      } finally {
        bar?.stop();
        await judge.close();
      }
    });
}

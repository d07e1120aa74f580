/** `crucible rerank`: pick samples with generated tests (CodeT), by majority of outputs, or take the first. */
import { availableParallelism } from 'node:os';
import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { datasetHash, problemFormatNames, readCodetTests, readProblems, readSamples, UnknownFormatError } from '../formats/index.js';
import type { Judge } from '../judge/judge.js';
import { queueLocation, QueueUnreachableError, QueueUrlError } from '../queue/connection.js';
import { openJudge } from '../queue/open.js';
import { RERANK_METHODS, rerank, RerankInputError, type RerankMethod, type RerankResult } from '../apps/rerank.js';
import { registerUserError, UsageError } from './errors.js';
import {
  parseIntList, parsePositiveInt, parseTenant, parseTimeLimitSeconds, UNSAFE_NO_SANDBOX_HELP
} from './options.js';
import { GENERATED_TEST_CPU_MS, secondsToMs } from '../limits.js';

registerUserError(RerankInputError);
registerUserError(UnknownFormatError);
registerUserError(QueueUrlError);
registerUserError(QueueUnreachableError);

interface RerankFlags {
  method: string; problems: string; samples: string; tests?: string; format: string; k: number[]; json?: boolean;
  jobs?: number; timeLimit?: number; testTimeLimit?: number; testsPerSample: number; scoring: string; progress: boolean;
  unsafeNoSandbox?: boolean; queue?: string; tenant?: string;
}

function percent(x: number | undefined): string {
  return x === undefined ? '   -  ' : (100 * x).toFixed(2).padStart(6);
}

function humanReport(r: RerankResult): string {
  const lines = [
    `method ${r.method}${r.scoring ? ` (score = |tests| x ${r.scoring === 'sqrt' ? 'sqrt(|solutions|)' : '|solutions|'})` : ''}: ` +
      `${r.counts.problems} problems, ${r.counts.samples} samples, ${r.counts.distinctSolutions} distinct solutions`,
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
    .option('--unsafe-no-sandbox', UNSAFE_NO_SANDBOX_HELP)
    .option('--queue <url>', 'judge on a fleet of `crucible worker`s through this Redis queue (redis://HOST:PORT) instead of here')
    .option('--tenant <name>', 'with --queue: who the jobs are for (fair shares between tenants; default "default")', parseTenant)
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
      if (flags.queue !== undefined) queueLocation(flags.queue); // a bad URL fails before anything runs
      const { judge } = await openJudge({ slots: flags.jobs ?? availableParallelism(), unsafeNoSandbox: flags.unsafeNoSandbox === true, limits,
        ...flags.queue === undefined ? {} : { queue: flags.queue }, ...flags.tenant === undefined ? {} : { tenant: flags.tenant } });
      const bar = flags.progress && !flags.json && process.stderr.isTTY
        ? new SingleBar({ format: 'rerank {phase} [{bar}] {value}/{total} | ETA {eta_formatted}', hideCursor: true, stream: process.stderr })
        : null;
      let phase = '';
      try {
        const result = await rerank({
          judge, problems, datasetHash: await datasetHash(flags.problems), samples, samplesFile: flags.samples, tests, method,
          ks: flags.k, scoring: flags.scoring, limits,
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
        bar?.stop();
        process.stdout.write(flags.json ? JSON.stringify(result) + '\n' : humanReport(result));
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

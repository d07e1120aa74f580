/**
 * `crucible tests-quality --problems P --correct C --incorrect I`: how good each problem's tests are, judged on
 * solutions labelled correct and incorrect and on mutants of the reference solution (`src/apps/tests-quality/`;
 * formulas in docs/METRICS.md, "Test-suite quality"). Prints pooled and per-problem TPR/TNR, redundant tests, the
 * minimal subset and the mutation score; `--json` (or `--out FILE`) gives everything, which tests catch which
 * solutions included.
 */
import { availableParallelism } from 'node:os';
import { basename, resolve } from 'node:path';
import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { DEFAULT_STOP_AFTER_TIMEOUTS, firstPerProblem, testsQuality, type ProblemQuality, type TestsQualityReport } from '../apps/tests-quality/index.js';
import { createJudge } from '../engine/factory.js';
import { datasetHash, detectProblemFormat, readProblems, readSampleFile } from '../formats/index.js';
import type { Problem, Sample } from '../formats/types.js';
import { defaultSubmissionContext } from '../kinds/index.js';
import { JUDGE_DEFAULTS, mibToKiB, secondsToMs } from '../limits.js';
import { defaultCacheDir } from '../paths.js';
import { UsageError } from './errors.js';
import { SIGNAL_STORE_HELP, storeSignalResult } from './signal-results.js';
import { parseMemoryLimitMiB, parsePositiveInt, parseTimeLimitSeconds, UNSAFE_NO_SANDBOX_HELP } from './options.js';
import { existsSync } from 'node:fs';

interface Flags {
  problems: string; correct: string; incorrect: string; format: string; mutants: number; jobs?: number; json?: boolean; out?: string;
  timeLimit?: number; memoryLimit?: number; cacheDir?: string; unsafeNoSandbox?: boolean; show: number; perProblem?: number;
  store?: string | true; name?: string; stopAfterTimeouts: number;
}

function pct(x: number | null | undefined): string {
  return x === null || x === undefined ? '–' : `${(100 * x).toFixed(2)}%`;
}

async function samplesOf(path: string, problems: readonly Problem[], option: string): Promise<Sample[]> {
  if (!existsSync(path)) throw new UsageError(`${option} ${path}: no such file or directory`);
  const { samples } = await readSampleFile(path, { problems });
  const ids = new Set(problems.map((p) => p.taskId));
  const unknown = samples.find((s) => !ids.has(s.taskId));
  if (unknown !== undefined) throw new UsageError(`${option} ${path}: sample ${unknown.index} names task "${unknown.taskId}", which the problems file does not have`);
  return samples;
}

function problemLine(p: ProblemQuality): string {
  const m = p.mutation;
  const mutation = m === undefined ? `mutants: ${p.mutationSkipped ?? '–'}` : `mutation ${pct(m.score)} (${m.killed}/${m.generated - m.stillborn}, ${m.stillborn} stillborn)`;
  return `  ${p.taskId}: ${p.testCount} tests, TPR ${pct(p.tpr)} (${p.correct}), TNR ${pct(p.tnr)} (${p.incorrect})`
    + `${p.base === undefined ? '' : `, base-only TNR ${pct(p.base.tnr)}`}, ${p.redundant.length} redundant, minimal subset ${p.minimalSubset.length}`
    + `${p.minimalSubsetExact ? '' : ' (greedy)'}, ${mutation}${p.notRunCells > 0 ? `, ${p.notRunCells} cells not run` : ''}${p.excluded.internalErrors > 0 ? `, ${p.excluded.internalErrors} internal errors left out` : ''}`;
}

function text(report: TestsQualityReport, show: number): string {
  const o = report.overall;
  const lines = [
    `${o.problems} problems, ${o.correct} correct and ${o.incorrect} incorrect solutions, ${o.tests} tests`,
    `TPR ${pct(o.tpr)} (mean over problems ${pct(o.meanTpr)}), TNR ${pct(o.tnr)} (mean over problems ${pct(o.meanTnr)})`
      + (o.baseTnr === null ? '' : `; base inputs only: TNR ${pct(o.baseTnr)}`),
    `redundant tests ${o.redundantTests} of ${o.tests}; minimal subsets with the same detection: ${o.minimalSubsetTests} tests`,
    `mutation score ${pct(o.mutationScore)} (${o.killedMutants} killed of ${o.mutants - o.stillbornMutants} viable mutants, ${o.stillbornMutants} stillborn)`,
    o.stopAfterTimeouts === null ? 'every test of every program run'
      : `not run (programs stopped after ${o.stopAfterTimeouts} time-out${o.stopAfterTimeouts === 1 ? '' : 's'}): ${o.notRunCells} solution×test cells`
        + ` of ${o.stoppedSolutions} solutions, ${o.mutantNotRunCells} mutant×test cells`,
  ];
  const worst = [...report.problems].sort((a, b) => (a.tnr ?? 2) - (b.tnr ?? 2) || (a.taskId < b.taskId ? -1 : 1)).slice(0, show);
  if (worst.length > 0) lines.push(`problems by TNR, lowest first (${worst.length} of ${report.problems.length}; --json for all):`, ...worst.map(problemLine));
  return lines.join('\n') + '\n';
}

/** Add `tests-quality` to the program. */
export function register(program: Command): void {
  program.command('tests-quality')
    .description('measure each problem\'s tests on known-correct and known-incorrect solutions and on mutants of its reference: TPR/TNR, redundant tests, minimal subset, mutation score')
    .requiredOption('--problems <file>', 'problems file (any format of crucible formats)')
    .requiredOption('--correct <file>', 'samples known to be correct (any samples format of crucible eval)')
    .requiredOption('--incorrect <file>', 'samples known to be incorrect')
    .option('--format <format>', 'problems format', 'auto')
    .option('--mutants <n>', 'mutants of the reference solution per problem (0: none)', (v) => (v === '0' ? 0 : parsePositiveInt(v)), 20)
    .option('--stop-after-timeouts <k>', 'stop a program\'s remaining tests after its k-th time-out (not run, counted; 0: run every test)',
      (v) => (v === '0' ? 0 : parsePositiveInt(v)), DEFAULT_STOP_AFTER_TIMEOUTS)
    .option('--jobs <n>', 'sandbox slots (default: number of cores)', parsePositiveInt)
    .option('--time-limit <seconds>', 'CPU time limit per test', parseTimeLimitSeconds)
    .option('--memory-limit <MiB>', 'memory limit', parseMemoryLimitMiB)
    .option('--cache-dir <dir>', 'ground-truth cache')
    .option('--per-problem <n>', 'only the first N correct and the first N incorrect samples of each problem (file order)', parsePositiveInt)
    .option('--show <n>', 'problems listed in the text output', parsePositiveInt, 20)
    .option('--json', 'print the whole report as JSON')
    .option('--out <file>', 'also write the whole report as JSON to FILE')
    .option('--store [spec]', SIGNAL_STORE_HELP)
    .option('--name <name>', 'name of the stored result (default: the problems file\'s name)')
    .option('--unsafe-no-sandbox', UNSAFE_NO_SANDBOX_HELP)
    .action(async (flags: Flags) => {
      if (!existsSync(flags.problems)) throw new UsageError(`--problems ${flags.problems}: no such file or directory`);
      const format = flags.format === 'auto' ? await detectProblemFormat(flags.problems) : flags.format;
      const problems = await readProblems(flags.problems, format);
      const subset = (samples: Sample[]): Sample[] => (flags.perProblem === undefined ? samples : firstPerProblem(samples, flags.perProblem));
      const correct = subset(await samplesOf(flags.correct, problems, '--correct'));
      const incorrect = subset(await samplesOf(flags.incorrect, problems, '--incorrect'));
      const context = defaultSubmissionContext();
      const limits = { ...JUDGE_DEFAULTS, ...(flags.timeLimit === undefined ? {} : { cpuMs: secondsToMs(flags.timeLimit) }),
        ...(flags.memoryLimit === undefined ? {} : { memoryKiB: mibToKiB(flags.memoryLimit) }) };
      const judge = createJudge({ slots: flags.jobs ?? availableParallelism(), unsafeNoSandbox: flags.unsafeNoSandbox === true,
        languages: context.languages, modes: context.modes, limits, cacheDir: flags.cacheDir === undefined ? defaultCacheDir() : resolve(flags.cacheDir) });
      try {
        const stopAfterTimeouts = flags.stopAfterTimeouts === 0 ? null : flags.stopAfterTimeouts;
        const report = await testsQuality({ judge, problems, datasetHash: await datasetHash(flags.problems), correct, incorrect,
          mutantsPerProblem: flags.mutants, submission: context, stopAfterTimeouts,
          onProgress: (done, total) => { if (process.stderr.isTTY && !flags.json) process.stderr.write(`\rjudged ${done}/${total}`); } });
        if (process.stderr.isTTY && !flags.json) process.stderr.write('\n');
        const inputs = { problemsFile: flags.problems, correctFile: flags.correct, incorrectFile: flags.incorrect, format,
          ...(flags.perProblem === undefined ? {} : { perProblem: flags.perProblem }), mutantsPerProblem: flags.mutants,
          stopAfterTimeouts };
        const json = JSON.stringify({ ...inputs, ...report });
        if (flags.out !== undefined) await writeFile(flags.out, json + '\n');
        if (flags.store !== undefined) {
          const o = report.overall;
          const stored = await storeSignalResult(flags.store === true ? undefined : flags.store, { kind: 'tests-quality',
            name: flags.name ?? basename(flags.problems), inputs, result: JSON.parse(json) as unknown,
            headline: { problems: o.problems, correct: o.correct, incorrect: o.incorrect, tests: o.tests, tpr: o.tpr, tnr: o.tnr, baseTnr: o.baseTnr,
              mutationScore: o.mutationScore, redundantTests: o.redundantTests, minimalSubsetTests: o.minimalSubsetTests } });
          process.stderr.write(`stored as signal result ${stored.id} in ${stored.location}\n`);
        }
        process.stdout.write(flags.json ? json + '\n' : text(report, flags.show));
      } finally {
        await judge.close();
      }
    });
}

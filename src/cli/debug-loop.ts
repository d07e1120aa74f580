/**
 * `crucible debug-loop`: replay model samples as first attempts of a self-debug loop, judge them, turn each
 * failing one into the feedback a `program` session gives, and report how much of that feedback a model could
 * debug from (`replayFirstAttempts`, `src/apps/debug-loop.ts`).
 */
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { datasetHash, problemFormatNames, readProblems, readSamples } from '../formats/index.js';
import { defaultSubmissionContext } from '../kinds/index.js';
import { secondsToMs } from '../limits.js';
import { replayFirstAttempts, type DebugLoopReport, type FeedbackRecord } from '../apps/debug-loop.js';
import { openJudge } from '../queue/open.js';
import { MAX_FEEDBACK_CHARS, MIN_FEEDBACK_CHARS } from '../sessions/index.js';
import { UsageError } from './errors.js';
import { parsePositiveInt, parseTimeLimitSeconds, UNSAFE_NO_SANDBOX_HELP } from './options.js';

interface DebugLoopFlags {
  problems: string; samples: string; format: string; tasks?: number; samplesPerProblem?: number; budgetChars?: number;
  jobs?: number; timeLimit?: number; json?: boolean; out?: string; progress: boolean; unsafeNoSandbox?: boolean;
}

function share(n: number, of: number): string {
  return of === 0 ? `${n}/0` : `${n}/${of} (${(100 * n / of).toFixed(1)}%)`;
}

function humanReport(r: DebugLoopReport, wallMs: number): string {
  const statuses = Object.entries(r.byStatus).sort((a, b) => b[1] - a[1]).map(([s, n]) => `${s} ${n}`).join(', ');
  return [
    `${r.samples} samples of ${r.tasks} tasks (${r.distinctPrograms} distinct programs): ${statuses}`,
    `failing samples: ${r.failing}${r.internalErrors > 0 ? ` (and ${r.internalErrors} internal errors, not counted)` : ''}`,
    `feedback shows an input of the failing test:     ${share(r.namesInput, r.failing)}`,
    `feedback names the failing case itself:          ${share(r.namesFailingCase, r.failing)}`,
    `runtime errors with a traceback:                 ${share(r.runtimeErrors.withTraceback, r.runtimeErrors.total)}` +
      `, naming the failing case ${share(r.runtimeErrors.namesFailingCase, r.runtimeErrors.total)}`,
    `wrong answers with expected vs got:              ${share(r.wrongAnswers.withExpectedAndGot, r.wrongAnswers.total)}` +
      `, naming the failing case ${share(r.wrongAnswers.namesFailingCase, r.wrongAnswers.total)}`,
    `time-outs:                                       ${r.timeouts.total}, naming the failing case ${share(r.timeouts.namesFailingCase, r.timeouts.total)}`,
    `feedback cut to the budget:                      ${share(r.cut, r.failing)}`,
    `${(wallMs / 1000).toFixed(1)} s`,
  ].join('\n') + '\n';
}

function parseBudget(value: string): number {
  const n = parsePositiveInt(value);
  if (n < MIN_FEEDBACK_CHARS || n > MAX_FEEDBACK_CHARS) throw new UsageError(`--budget-chars must be ${MIN_FEEDBACK_CHARS} to ${MAX_FEEDBACK_CHARS}, got ${n}`);
  return n;
}

/** Add `debug-loop` to the program. */
export function register(program: Command): void {
  program.command('debug-loop')
    .description('replay samples as first attempts of a self-debug loop: judge them, build the feedback a program session gives, report its quality')
    .requiredOption('--problems <file>', 'problems file (HumanEval, CodeT HumanEval, EvalPlus, Crucible; .gz ok)')
    .requiredOption('--samples <file>', 'samples file ({task_id, completion|solution|response} JSONL or CodeT {prompt, samples})')
    .option('--format <format>', `problems format: ${problemFormatNames().join(', ')} (see crucible formats)`, 'auto')
    .option('--tasks <n>', 'only the first n tasks of the problems file that have samples', parsePositiveInt)
    .option('--samples-per-problem <m>', 'only the first m samples of each task', parsePositiveInt)
    .option('--budget-chars <n>', `feedback budget in characters (${MIN_FEEDBACK_CHARS}-${MAX_FEEDBACK_CHARS}; default the formatter's)`, parseBudget)
    .option('--jobs <n>', 'sandbox slots (default: number of cores)', parsePositiveInt)
    .option('--time-limit <seconds>', 'CPU time limit per program or test (default: as crucible eval)', parseTimeLimitSeconds)
    .option('--out <file>', 'write each failing program\'s feedback as JSONL {taskId, samples, status, feedback, quality}')
    .option('--json', 'print the report as one JSON object')
    .option('--no-progress', 'no progress bar')
    .option('--unsafe-no-sandbox', UNSAFE_NO_SANDBOX_HELP)
    .action(async (flags: DebugLoopFlags) => {
      const problems = await readProblems(flags.problems, flags.format);
      let samples = await readSamples(flags.samples, { problems });
      const order = problems.map((p) => p.taskId).filter((id) => samples.some((s) => s.taskId === id));
      if (flags.tasks !== undefined) {
        const keep = new Set(order.slice(0, flags.tasks));
        samples = samples.filter((s) => keep.has(s.taskId));
      }
      if (flags.samplesPerProblem !== undefined) samples = samples.filter((s) => s.index < flags.samplesPerProblem!);
      const context = defaultSubmissionContext();
      const { judge } = await openJudge({ slots: flags.jobs ?? availableParallelism(), unsafeNoSandbox: flags.unsafeNoSandbox === true,
        languages: context.languages, modes: context.modes, cacheDir: null,
        ...(flags.timeLimit === undefined ? {} : { limits: { cpuMs: secondsToMs(flags.timeLimit) } }) });
      const hash = await datasetHash(flags.problems);
      judge.catalog.add(hash, problems);
      const bar = flags.progress && !flags.json && process.stderr.isTTY
        ? new SingleBar({ format: 'debug-loop [{bar}] {value}/{total} programs | ETA {eta_formatted}', hideCursor: true, stream: process.stderr })
        : null;
      const startedMs = performance.now();
      let result: { report: DebugLoopReport; records: FeedbackRecord[] };
      try {
        result = await replayFirstAttempts({ judge, context, datasetHash: hash, problems, samples,
          ...(flags.budgetChars === undefined ? {} : { budgetChars: flags.budgetChars }),
          onProgress: (done, total) => {
            if (bar === null) return;
            if (done === 1) bar.start(total, 0);
            bar.update(done);
          } });
      } finally {
        bar?.stop();
        await judge.close();
      }
      const wallMs = performance.now() - startedMs;
      if (flags.out !== undefined) writeFileSync(flags.out, result.records.map((r) => JSON.stringify(r) + '\n').join(''));
      process.stdout.write(flags.json ? JSON.stringify({ ...result.report, wallMs: Math.round(wallMs) }) + '\n' : humanReport(result.report, wallMs));
    });
}

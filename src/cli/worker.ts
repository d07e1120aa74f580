/**
 * `crucible worker --queue redis://HOST:PORT`: judge jobs from a Redis/BullMQ queue on this machine's sandbox
 * until SIGTERM/SIGINT, then drain (finish the jobs held, take no more) and exit. See docs/SCALING.md.
 */
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { defaultSubmissionContext } from '../kinds/index.js';
import { mibToKiB, secondsToMs } from '../limits.js';
import { defaultCacheDir } from '../paths.js';
import { queueLocation, QueueUnreachableError, QueueUrlError } from '../queue/connection.js';
import { registerUserError } from './errors.js';
import { runUnderReaperIfPid1 } from './reaper.js';
import {
  CACHE_DIR_HELP, parseMemoryLimitMiB, parsePositiveInt, parseTimeLimitSeconds, UNSAFE_NO_SANDBOX_HELP
} from './options.js';
import { CRUCIBLE_VERSION } from './version.js';

registerUserError(QueueUrlError);
registerUserError(QueueUnreachableError);

interface WorkerFlags {
  queue: string; slots?: number; name?: string; concurrency?: number; timeLimit?: number; memoryLimit?: number;
  cacheDir?: string; unsafeNoSandbox?: boolean;
}

/** Add `worker` to the program. */
export function register(program: Command): void {
  program.command('worker')
    .description('judge jobs from a Redis queue (BullMQ) on this machine until SIGTERM, then drain (see docs/SCALING.md)')
    .requiredOption('--queue <url>', 'the queue: redis://HOST:PORT')
    .option('--slots <n>', 'sandbox slots (default: number of cores)', parsePositiveInt)
    .option('--name <name>', 'name in the fleet and in verdicts\' provenance (default HOST-PID)')
    .option('--concurrency <n>', 'jobs held at once (default: twice the slots or harness boxes)', parsePositiveInt)
    .option('--time-limit <seconds>', 'CPU time limit of jobs that set none', parseTimeLimitSeconds)
    .option('--memory-limit <MiB>', 'memory limit of jobs that set none', parseMemoryLimitMiB)
    .option('--cache-dir <dir>', CACHE_DIR_HELP)
    .option('--unsafe-no-sandbox', UNSAFE_NO_SANDBOX_HELP)
    .action(async (flags: WorkerFlags) => {
      // As pid 1 of a container without an init, run under a reaper of orphans (src/cli/reaper.ts).
      const reaped = await runUnderReaperIfPid1();
      if (reaped !== null) {
        process.exitCode = reaped;
        return;
      }
      const location = queueLocation(flags.queue);
      const context = defaultSubmissionContext();
      const name = flags.name ?? `${hostname()}-${process.pid}`;
      // Loaded only here: the Redis client and BullMQ cost every other command ~0.5 s of start-up.
      const { startWorker } = await import('../queue/worker.js');
      const worker = await startWorker({
        location, name, crucibleVersion: CRUCIBLE_VERSION,
        ...(flags.concurrency === undefined ? {} : { concurrency: flags.concurrency }),
        judge: {
          languages: context.languages, modes: context.modes, unsafeNoSandbox: flags.unsafeNoSandbox === true,
          cacheDir: flags.cacheDir === undefined ? defaultCacheDir() : resolve(flags.cacheDir),
          ...(flags.slots === undefined ? {} : { slots: flags.slots }),
          limits: {
            ...(flags.timeLimit === undefined ? {} : { cpuMs: secondsToMs(flags.timeLimit) }),
            ...(flags.memoryLimit === undefined ? {} : { memoryKiB: mibToKiB(flags.memoryLimit) }),
          },
        },
        onFailure: (jobId, reason) => process.stderr.write(`crucible worker ${name}: job ${jobId} failed an attempt: ${reason}\n`),
      });
      process.stderr.write(`crucible worker ${name}: taking jobs from ${location.url} (${worker.concurrency} at once)\n`);
      await new Promise<void>((done) => {
        const stop = (signal: string): void => {
          process.stderr.write(`crucible worker ${name}: ${signal}, draining\n`);
          void worker.drain().then(() => {
            process.stderr.write(`crucible worker ${name}: drained after ${worker.completed()} jobs\n`);
            done();
          });
        };
        process.once('SIGTERM', () => stop('SIGTERM'));
        process.once('SIGINT', () => stop('SIGINT'));
      });
    });
}

/** `crucible serve`: run the reward service until SIGTERM/SIGINT, then drain and exit. */
import { collectRepoSource } from './repo-options.js';
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { ServeConfigSchema, startServer, type ServeConfigInput } from '../server/index.js';
import { ProblemLoadError } from '../server/problem-index.js';
import { mibToKiB, secondsToMs } from '../limits.js';
import { resolveStoreLocation } from '../store/open.js';
import { queueLocation, QueueUnreachableError, QueueUrlError } from '../queue/connection.js';
import { registerUserError } from './errors.js';
import { runUnderReaperIfPid1 } from './reaper.js';
import { STORE_OPTION_HELP } from './store.js';
import {
  applyLeanEndpoint, CACHE_DIR_HELP, LEAN_ENDPOINT_HELP, parseLeanEndpoint, parseMemoryLimitMiB, parsePositiveInt, parsePositiveNumber, parseTimeLimitSeconds,
  UNSAFE_NO_SANDBOX_HELP
} from './options.js';

registerUserError(QueueUrlError);
registerUserError(QueueUnreachableError);
registerUserError(ProblemLoadError);

function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError(`expected a port 0-65535, got "${value}"`);
  return n;
}

function parseCount(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`expected a non-negative integer, got "${value}"`);
  return n;
}

interface ServeFlags {
  host: string;
  port: number;
  problems?: string[];
  leanEndpoint?: string;
  token?: string;
  slots?: number;
  inFlightPerSlot?: number;
  queueCapacity?: number;
  maxQueueWaitMs?: number;
  bodyLimitMib?: number;
  timeLimit?: number;
  memoryLimit?: number;
  shutdownDeadline?: number;
  logLevel?: string;
  cacheDir?: string;
  unsafeNoSandbox?: boolean;
  store?: string | false;
  trainingRun?: string;
  maxSessions?: number;
  sessionTtl?: number;
  sessionMemory?: number;
  maxMcpSessions?: number;
  allowedHosts?: string[];
  queue?: string;
  fleetBacklogPerSlot?: number;
  repoSource?: string[];
  registry?: string;
}

/** The server's configuration as the flags give it (validated by `ServeConfigSchema` afterwards). */
function configOf(flags: ServeFlags): ServeConfigInput {
  return {
    host: flags.host,
    port: flags.port,
    problems: flags.problems ?? [],
    token: flags.token ?? (process.env.CRUCIBLE_SERVE_TOKEN || undefined),
    slots: flags.slots,
    inFlightPerSlot: flags.inFlightPerSlot,
    queueCapacity: flags.queueCapacity,
    maxQueueWaitMs: flags.maxQueueWaitMs,
    bodyLimitBytes: flags.bodyLimitMib === undefined ? undefined : Math.round(flags.bodyLimitMib * 1024 * 1024),
    timeLimitMs: flags.timeLimit === undefined ? undefined : secondsToMs(flags.timeLimit),
    memoryLimitKiB: flags.memoryLimit === undefined ? undefined : mibToKiB(flags.memoryLimit),
    shutdownDeadlineMs: flags.shutdownDeadline === undefined ? undefined : secondsToMs(flags.shutdownDeadline),
    logLevel: flags.logLevel as ServeConfigInput['logLevel'],
    cacheDir: flags.cacheDir,
    unsafeNoSandbox: flags.unsafeNoSandbox === true,
    // The default store as `crucible eval` resolves it, so the dashboard shows evals and training together.
    store: flags.store === false ? undefined : resolveStoreLocation(flags.store).target,
    trainingRun: flags.trainingRun,
    maxSessions: flags.maxSessions,
    sessionTtlSeconds: flags.sessionTtl,
    sessionMemoryKiB: flags.sessionMemory === undefined ? undefined : mibToKiB(flags.sessionMemory),
    maxMcpSessions: flags.maxMcpSessions,
    allowedHosts: flags.allowedHosts,
    queue: flags.queue,
    fleetBacklogPerSlot: flags.fleetBacklogPerSlot,
    repoSources: flags.repoSource ?? [],
    registry: flags.registry,
  };
}

/** Add `serve` to the program. */
export function register(program: Command): void {
  program.command('serve')
    .description('serve judging and rewards over HTTP (native API + SandboxFusion, OpenRLHF and Piston compatible)')
    .option('--host <address>', 'address to bind', '127.0.0.1')
    .option('--port <n>', 'TCP port (0: any free port)', parsePort, 8080)
    .option('--problems <file...>', 'problem files to load (any format of crucible formats); a problem is named <file>:<task id> (HumanEvalPlus:HumanEval/0), or by its task id alone when one file has it')
    .option('--token <token>', 'require "Authorization: Bearer <token>" (default: $CRUCIBLE_SERVE_TOKEN, else none)')
    .option('--slots <n>', 'sandbox slots (default: number of cores)', parsePositiveInt)
    .option('--in-flight-per-slot <n>', 'items judged at once per slot (default 2)', parsePositiveInt)
    .option('--queue-capacity <n>', 'items admitted beyond those in flight before answering 429 (default 4096)', parseCount)
    .option('--max-queue-wait-ms <ms>', 'refuse a request (429, 504 on /run_code, with Retry-After) when the estimated wait before it starts exceeds this (default: no bound but the queue capacity)', parseCount)
    .option('--body-limit-mib <MiB>', 'largest request body in MiB (default 16)', parsePositiveNumber)
    .option('--time-limit <seconds>', 'default CPU time limit per test or program in seconds (default: as crucible eval)', parseTimeLimitSeconds)
    .option('--memory-limit <MiB>', 'default memory limit in MiB (default 1024)', parseMemoryLimitMiB)
    .option('--shutdown-deadline <seconds>', 'on SIGTERM, time in-flight work gets to finish (default 30)', parsePositiveNumber)
    .option('--cache-dir <dir>', CACHE_DIR_HELP)
    .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent (default info)')
    .option('--unsafe-no-sandbox', UNSAFE_NO_SANDBOX_HELP)
    .option('--lean-endpoint <url>', LEAN_ENDPOINT_HELP, parseLeanEndpoint)
    .option('--queue <url>', 'judge on a fleet of `crucible worker`s through this Redis queue (redis://HOST:PORT) instead of here')
    .option('--fleet-backlog-per-slot <n>', 'with --queue: answer 429 once jobs waiting exceed this many per slot of the fleet (default 8)', parsePositiveNumber)
    .option('--store <spec>', `${STORE_OPTION_HELP}; the dashboard is served at /ui and rewarded rollouts are recorded as a training run`)
    .option('--no-store', 'no result store: no dashboard at /ui, no training events')
    .option('--training-run <name>', 'name of the training run rewarded rollouts go to (default serve-<start time>)')
    .option('--max-sessions <n>', 'most sessions (/v1/sessions) open at once (default 256)', parsePositiveInt)
    .option('--session-ttl <seconds>', 'idle seconds before a session that set no ttlSeconds is evicted (default 600)', parsePositiveInt)
    .option('--session-memory <MiB>', 'host memory the open sessions may pin at once, their memory limits and files (default: half the host\'s)', parsePositiveNumber)
    .option('--max-mcp-sessions <n>', 'most MCP sessions (/mcp) open at once (default 256; 16 per client)', parsePositiveInt)
    .option('--allowed-hosts <name...>', 'without --token: host names (Host header) to serve besides IP addresses and localhost; "*" for any')
    .option('--repo-source <repo=path>', 'repository problems: where a repository\'s code is, owner/name=PATH (a git directory, bundle or tree); repeatable', collectRepoSource)
    .option('--registry <url>', 'repository problems: the package registry an install may reach (default https://registry.npmjs.org/)')
    .action(async (flags: ServeFlags) => {
      // As pid 1 of a container without an init, run under a reaper of orphans (src/cli/reaper.ts).
      const reaped = await runUnderReaperIfPid1();
      applyLeanEndpoint(flags.leanEndpoint);
      if (reaped !== null) {
        process.exitCode = reaped;
        return;
      }
      const input = configOf(flags);
      if (flags.queue !== undefined) queueLocation(flags.queue); // a bad URL fails before anything starts
      const parsed = ServeConfigSchema.safeParse(input);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new InvalidArgumentError(`${issue.path.join('.')}: ${issue.message}`);
      }
      const server = await startServer(parsed.data);
      process.stderr.write(`crucible serve: listening on ${server.url}${server.context.training === null ? "" : ` (dashboard: ${server.url}/ui/, training run ${server.context.training.run})`}\n`);
      await new Promise<void>((resolve) => {
        const stop = (signal: string): void => {
          process.stderr.write(`crucible serve: ${signal}, draining\n`);
          void server.shutdown().then((report) => {
            if (report.failedItems > 0) process.exitCode = 1;
            resolve();
          });
        };
        process.once('SIGTERM', () => stop('SIGTERM'));
        process.once('SIGINT', () => stop('SIGINT'));
      });
    });
}

/**
 * The configuration surface of `crucible serve`: one schema, with description, default and unit per field.
 * Flags and environment (`src/cli/serve.ts`) parse into it once; the server never reads either itself.
 */
import { z } from 'zod';
import { JUDGE_DEFAULTS, LIMIT_RANGES, limitSchema, SERVER_MAX_MEMORY_KIB } from '../limits.js';

export const ServeConfigSchema = z.object({
  host: z.string().min(1).default('127.0.0.1').describe('Address to bind; loopback unless you mean to expose it.'),
  port: z.number().int().min(0).max(65535).default(8080).describe('TCP port; 0 picks a free one.'),
  token: z.string().min(1).optional().describe('Bearer token every route but /health requires; none = no auth.'),
  bodyLimitBytes: z.number().int().positive().default(16 * 1024 * 1024).describe('Largest request body, bytes.'),
  maxBatchItems: z.number().int().positive().default(8192).describe('Most items in one /v1/rewards request.'),
  slots: z.number().int().positive().optional().describe('Sandbox slots (concurrent executions); default: cores.'),
  inFlightPerSlot: z.number().int().positive().default(2).describe('Items judged at once per slot.'),
  queueCapacity: z.number().int().nonnegative().default(4096).describe('Items admitted beyond those in flight.'),
  maxQueueWaitMs: z.number().int().nonnegative().optional()
    .describe('Refuse a request (429, 504 on /run_code, with Retry-After) when the estimated wait before its first item starts exceeds this, ms; none = only queueCapacity bounds the wait.'),
  timeLimitMs: limitSchema(LIMIT_RANGES.cpuMs, 'ms').optional().describe('Default CPU time per test (io) or program, ms; default `crucible eval`\'s (JUDGE_DEFAULTS).'),
  maxTimeLimitMs: limitSchema(LIMIT_RANGES.cpuMs, 'ms').default(LIMIT_RANGES.cpuMs.max).describe('Largest time limit a request may ask for, ms.'),
  memoryLimitKiB: limitSchema(LIMIT_RANGES.memoryKiB, 'KiB').default(JUDGE_DEFAULTS.memoryKiB).describe('Default memory limit, KiB.'),
  maxMemoryLimitKiB: limitSchema(LIMIT_RANGES.memoryKiB, 'KiB').default(SERVER_MAX_MEMORY_KIB).describe('Largest memory limit a request may ask for, KiB (at most LIMIT_RANGES.memoryKiB.max).'),
  shutdownDeadlineMs: z.number().int().nonnegative().default(30_000).describe('On SIGTERM: time in-flight work gets to finish, ms.'),
  problems: z.array(z.string()).default([]).describe('Problem files loaded at start (any format `readProblems` reads).'),
  cacheDir: z.string().min(1).optional().describe('Ground-truth cache directory; default $CRUCIBLE_CACHE_DIR, $XDG_CACHE_HOME/crucible or ~/.cache/crucible.'),
  store: z.string().min(1).optional().describe('Result store (a SQLite file or a postgres:// URL): mounts the dashboard at /ui and records every rewarded rollout as a training event; none = neither.'),
  trainingRun: z.string().regex(/^[A-Za-z0-9.:@/_-]{1,200}$/, 'letters, digits and . : @ / - _, at most 200').optional().describe('Name of the training run the rollouts go to; default serve-<start time>.'),
  maxSessions: z.number().int().min(1).max(4096).default(256).describe('Most sessions (/v1/sessions) open at once.'),
  sessionTtlSeconds: limitSchema(LIMIT_RANGES.ttlSeconds, 's').default(600).describe('Idle seconds before a session that set no ttlSeconds is evicted.'),
  maxSessionTtlSeconds: limitSchema(LIMIT_RANGES.ttlSeconds, 's').default(LIMIT_RANGES.ttlSeconds.max).describe('Largest ttlSeconds a session may ask for.'),
  sessionMemoryKiB: z.number().int().min(LIMIT_RANGES.sessionMemoryKiB.min).optional()
    .describe('Host memory the open sessions may pin at once (their memory limits, files included), KiB; default half the host\'s physical memory.'),
  maxMcpSessions: z.number().int().min(1).max(65_536).default(256).describe('Most MCP sessions (/mcp) open at once; past it the least recently used idle one is closed.'),
  maxMcpSessionsPerClient: z.number().int().min(1).max(65_536).default(16)
    .describe('Most MCP sessions one client (remote address) holds; past it that client\'s least recently used idle one is closed.'),
  allowedHosts: z.array(z.string().min(1)).default([])
    .describe('Host names (the Host header) served besides IP addresses and localhost, when the server has no token; "*" allows any (DNS rebinding, docs/SECURITY.md).'),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').describe('pino level.'),
  queue: z.string().min(1).optional().describe('Judge on a fleet of `crucible worker`s through this Redis queue (redis://HOST:PORT) instead of this machine\'s sandbox; none = local.'),
  fleetBacklogPerSlot: z.number().positive().default(8).describe('With `queue`: 429 once the queue\'s backlog (jobs no worker holds) exceeds this many per slot of the fleet.'),
  unsafeNoSandbox: z.boolean().default(false).describe('Run without isolation if the host has none (dangerous).'),
  repoSources: z.array(z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+=.+$/, 'owner/name=PATH')).default([])
    .describe('Where repositories\' code is for repository problems (owner/name=PATH: a git directory, bundle or tree).'),
  registry: z.string().url().optional().describe('The package registry a repository\'s install may reach; default https://registry.npmjs.org/.'),
}).strict();

export type ServeConfig = z.output<typeof ServeConfigSchema>;
export type ServeConfigInput = z.input<typeof ServeConfigSchema>;

/**
 * `crucible serve`: assembly of the HTTP service and its lifecycle.
 *
 * Request lifecycle (fastify phases): onRequest (without a token, a `Host` that is not an IP address, localhost or
 * an allowed name -> 403 `host_not_allowed`; refuse while draining -> 503 `shutting_down`; bearer token
 * -> 401 `unauthorized`) -> JSON body parsing with `bodyLimit` (413 `payload_too_large`, 400 `invalid_json`)
 * -> handler (zod validation -> 400 `invalid_body` naming the field; admission -> 429 `overloaded` +
 * `Retry-After`, or the family's own overload status; judging) -> onResponse (metrics). Every error leaves
 * through one handler as a catalog body (`errors.ts`).
 *
 * Shutdown (`ServerHandle.shutdown`, SIGTERM in the CLI): stop accepting connections and answer 503 to new
 * requests; in-flight requests get `shutdownDeadlineMs` to finish; then every admitted item that has not
 * started is failed as `internal_error` ("the server is shutting down"), items already in the sandbox finish
 * within their own limits, and remaining connections are closed. Nothing is silently dropped.
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { hostAllowed, hostRefusal } from '../dashboard/allowed-hosts.js';
import { datasetHash, readProblems } from '../formats/index.js';
import type { Problem } from '../formats/types.js';
import type { Judge, PlainRunOutcome } from '../judge/judge.js';
import { defaultSubmissionContext } from '../kinds/index.js';
import { type SubmissionContext } from '../judge/submission.js';
import type { LanguageRegistry } from '../languages/registry.js';
import { openJudge as openFactoryJudge, type OpenedJudge } from '../queue/open.js';
import type { SharedWork } from '../engine/shared-work.js';
import { Sandbox } from '../sandbox/index.js';
import { RepositoryEnvironments } from '../environments/repository/provider.js';
import { defaultCacheDir } from '../paths.js';
import { repositorySources } from './repositories.js';
import { AdmissionQueue } from './admission.js';
import { ServeConfigSchema, type ServeConfig, type ServeConfigInput } from './config.js';
import type { ServerContext, ServerMetrics } from './context.js';
import { ClientGoneError } from './scope.js';
import { ServiceError } from './errors.js';
import { HealthMonitor } from './health.js';
import { createLogger } from './logging.js';
import { Counter, Histogram, LATENCY_BUCKETS_SECONDS, RateWindow, Registry, Sampled } from './metrics.js';
import { registerMcp } from './mcp/route.js';
import { registerNative } from './native.js';
import { registerOpenRlhf } from './openrlhf.js';
import { registerOps } from './ops.js';
import { registerPiston } from './piston.js';
import { plainRunMemo } from './run-plain.js';
import { addQueueMetrics } from './queue-metrics.js';
import type { QueueJudge } from '../queue/queue-judge.js';
import { registerSandboxFusion } from './sandbox-fusion.js';
import { registerSessions } from './sessions.js';
import { registerSignals } from './signals.js';
import { JudgeService } from './service.js';
import { datasetName, ProblemIndex } from './problem-index.js';
import { defaultTrainingRunName, openTrainingFeed } from './training.js';

export interface StartOptions {
  /** Use this sandbox (the caller closes it); default: create one from the config and close it on shutdown. */
  readonly sandbox?: Sandbox;
  readonly logger?: Logger;
  /** Problems in addition to those read from `config.problems`. */
  readonly problems?: readonly Problem[];
}

export interface ShutdownReport {
  /** Admitted items that never started and were failed as internal_error. */
  readonly failedItems: number;
  /** Whether every request finished within the deadline. */
  readonly drainedInTime: boolean;
}

export interface ServerHandle {
  readonly app: FastifyInstance;
  readonly url: string;
  readonly port: number;
  readonly context: ServerContext;
  readonly logger: Logger;
  shutdown(deadlineMs?: number): Promise<ShutdownReport>;
}

/**
 * Load problem files into one index (`ProblemIndex`: `<file>:<taskId>` always, a bare task id when one file has
 * it) and register each file in the judge's catalog under its dataset hash (extra problems form one more
 * dataset, named `inline`, hashed by content).
 * @throws ProblemLoadError for two files of one name or a task id twice in one file; DatasetError for a bad file.
 */
export async function loadProblems(judge: Judge, paths: readonly string[], extra: readonly Problem[] = []): Promise<ProblemIndex> {
  const index = new ProblemIndex();
  const add = (name: string, where: string, hash: string, problems: readonly Problem[]): void => {
    index.addFile(name, where, hash, problems);
    judge.catalog.add(hash, problems);
  };
  for (const path of paths) add(datasetName(path), path, await datasetHash(path), await readProblems(path));
  if (extra.length > 0) add('inline', 'start options', createHash('sha256').update(JSON.stringify(extra)).digest('hex'), extra);
  return index;
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!m) return false;
  // Compare digests so the comparison takes the same time whatever the length.
  const a = createHash('sha256').update(m[1]!.trim()).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b);
}

function buildMetrics(registry: Registry): ServerMetrics {
  return {
    httpRequests: registry.add(new Counter('crucible_http_requests_total', 'HTTP requests answered, by route and status code.')),
    httpSeconds: registry.add(new Histogram('crucible_http_request_duration_seconds', 'HTTP request latency, seconds, by route.', LATENCY_BUCKETS_SECONDS)),
    verdicts: registry.add(new Counter('crucible_verdicts_total', 'Verdicts and plain runs finished, by status.')),
    verdictSeconds: registry.add(new Histogram('crucible_verdict_duration_seconds', 'Time from admission to verdict of one item (queue wait + judging), seconds.', LATENCY_BUCKETS_SECONDS)),
    rejected: registry.add(new Counter('crucible_overload_rejections_total', 'Requests refused because the admission queue was full, by route (429, or 504 on /run_code).')),
    internalErrors: registry.add(new Counter('crucible_internal_errors_total', 'Items Crucible failed to judge or run (internal_error: sandbox, harness, shutdown; never the program\'s fault), by route.')),
  };
}

/**
 * The judging side of a server: sandbox (null when judging on a queue's fleet), judge, problems, admission
 * queue, service; `close` releases it.
 */
interface Judging {
  readonly sandbox: Sandbox | null;
  readonly judge: Judge;
  /** The judge when it is a queue's (its fleet's metrics are exported), else null. */
  readonly queue: QueueJudge | null;
  readonly problems: ProblemIndex;
  readonly admission: AdmissionQueue;
  readonly service: JudgeService;
  readonly languages: LanguageRegistry;
  readonly plainRuns: SharedWork<PlainRunOutcome>;
  readonly health: HealthMonitor;
  /** Repository environments prepared on this machine's sandbox; null when judging on a queue's fleet. */
  readonly repositories: RepositoryEnvironments | null;
  close(): Promise<void>;
}

/**
 * The judge of a server (`openJudge`, the one factory): on this machine's sandbox, or (`config.queue`) a
 * `QueueJudge` on a fleet of workers whose status this server watches for its admission.
 */
async function openJudge(config: ServeConfig, options: StartOptions, submission: SubmissionContext): Promise<{ judge: Judge;
  queue: QueueJudge | null; sandbox: Sandbox | null; ownSandbox: boolean; repositories: RepositoryEnvironments | null }> {
  const limits = { memoryKiB: config.memoryLimitKiB, ...(config.timeLimitMs === undefined ? {} : { cpuMs: config.timeLimitMs }) };
  const sandbox = config.queue !== undefined ? null : options.sandbox ?? Sandbox.create({ slots: config.slots, unsafeNoSandbox: config.unsafeNoSandbox });
  const ownSandbox = sandbox !== null && options.sandbox === undefined;
  // Repository problems' environments: prepared on this sandbox, also for repository sessions (`repositories`).
  const repositories = sandbox === null ? null : new RepositoryEnvironments({ sandbox, cacheDir: config.cacheDir ?? defaultCacheDir(),
    sources: repositorySources(config.repoSources), instanceSources: true, ...(config.registry === undefined ? {} : { registry: config.registry }) });
  let opened: OpenedJudge | undefined;
  try {
    opened = await openFactoryJudge({ ...sandbox === null ? {} : { sandbox }, languages: submission.languages, modes: submission.modes, limits,
      ...config.cacheDir === undefined ? {} : { cacheDir: config.cacheDir }, ...config.queue === undefined ? {} : { queue: config.queue },
      ...repositories === null ? {} : { environments: () => [repositories] }, priority: 'interactive' });
    await opened.queue?.watchFleet();
    return { judge: opened.judge, queue: opened.queue, sandbox, ownSandbox, repositories };
  } catch (error) {
    await opened?.judge.close();
    if (ownSandbox) sandbox?.close();
    throw error;
  }
}

async function openJudging(config: ServeConfig, options: StartOptions): Promise<Judging> {
  const submission = defaultSubmissionContext();
  const { judge, queue, sandbox, ownSandbox, repositories } = await openJudge(config, options, submission);
  const close = async (): Promise<void> => {
    await judge.close();
    if (ownSandbox) sandbox?.close();
  };
  let problems: ProblemIndex;
  try {
    problems = await loadProblems(judge, config.problems, options.problems ?? []);
  } catch (error) {
    await close();
    throw error;
  }
  // On a fleet every admitted item goes to Redis at once (no local line): the queue's priorities order them
  // (tenants, interactive before batch) and fleet admission bounds the backlog.
  const admission = queue === null
    ? new AdmissionQueue({ maxInFlight: judge.capacity.slots * config.inFlightPerSlot, capacity: config.queueCapacity,
      ...config.maxQueueWaitMs === undefined ? {} : { maxQueueWaitMs: config.maxQueueWaitMs } })
    : new AdmissionQueue({ maxInFlight: judge.capacity.concurrency + config.queueCapacity, capacity: 0 });
  const service = new JudgeService(judge, submission, problems, admission,
    { maxTimeLimitMs: config.maxTimeLimitMs, maxMemoryLimitKiB: config.maxMemoryLimitKiB },
    queue === null ? undefined : (items) => queue.admission(items, config.fleetBacklogPerSlot));
  // On a fleet the self-test waits behind this server's own jobs once every admitted slot is taken.
  const saturated = sandbox === null ? () => admission.running >= admission.maxInFlight : () => sandbox.busySlots >= sandbox.slotCount;
  const health = new HealthMonitor(judge, { saturated });
  return { sandbox, judge, queue, problems, admission, service, languages: submission.languages, plainRuns: plainRunMemo(), health, close,
    repositories };
}

/** Gauges and counters read from the judging side when `/metrics` is scraped. */
function addSampledMetrics(registry: Registry, j: Judging): void {
  const { service, admission, judge, sandbox } = j;
  const executions = new RateWindow(() => service.executions);
  registry.add(new Sampled('crucible_executions_total', 'Sandboxed executions started (runs, compilations, Python harness jobs).', 'counter', () => service.executions));
  registry.add(new Sampled('crucible_executions_per_second', 'Executions per second over the last 10 s.', 'gauge', () => executions.rate()));
  registry.add(new Sampled('crucible_queue_depth', 'Admitted items waiting for a turn.', 'gauge', () => admission.depth));
  registry.add(new Sampled('crucible_items_in_flight', 'Items being judged now.', 'gauge', () => admission.running));
  registry.add(new Sampled('crucible_queue_limit', 'Most items held at once (in flight + queue capacity).', 'gauge', () => admission.limit));
  registry.add(new Sampled('crucible_rejected_items_total', 'Items refused by admission control.', 'counter', () => admission.stats.rejectedItems));
  registry.add(new Sampled('crucible_deduplicated_total', 'Submissions and plain runs answered from an identical one already judged or running.', 'counter',
    () => judge.stats().deduplicated + j.plainRuns.stats.shared));
  registry.add(new Sampled('crucible_cancelled_items_total', 'Items whose client disconnected before the answer (left the queue, or their runs were killed).', 'counter',
    () => service.cancelledItems));
  if (sandbox !== null) {
    registry.add(new Sampled('crucible_sandbox_slots', 'Sandbox slots.', 'gauge', () => sandbox.slotCount));
    registry.add(new Sampled('crucible_sandbox_busy_slots', 'Sandbox slots running something now.', 'gauge', () => sandbox.busySlots));
  }
  registry.add(new Sampled('process_resident_memory_bytes', 'Resident memory of the server process, bytes.', 'gauge', () => process.memoryUsage.rss()));
}

/** Any error a handler or fastify raised, as a catalog error (`errors.ts`). */
function asServiceError(error: FastifyError | ServiceError, config: ServeConfig, log: FastifyRequest['log']): ServiceError {
  if (error instanceof ServiceError) return error;
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new ServiceError('payload_too_large', `the body is larger than ${config.bodyLimitBytes} bytes`);
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return new ServiceError('invalid_json', `the body must be JSON sent with Content-Type: application/json (${error.message})`);
  }
  if (error.code?.startsWith('FST_ERR_CTP_') || (error.statusCode === 400 && error instanceof SyntaxError)) {
    return new ServiceError('invalid_json', `the body is not valid JSON (${error.message})`);
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) return new ServiceError('invalid_json', error.message);
  log.error({ err: error }, 'unhandled error');
  return new ServiceError('internal_error', `crucible failed: ${error.message}`);
}

/** The fastify app: lifecycle hooks (drain, auth, metrics), one error handler, and every route family. */
function buildApp(config: ServeConfig, logger: Logger, context: ServerContext, registry: Registry): FastifyInstance {
  const { metrics } = context;
  const app = Fastify({
    loggerInstance: logger,
    bodyLimit: config.bodyLimitBytes,
    requestIdHeader: 'x-request-id',
    return503OnClosing: true,
  }) as unknown as FastifyInstance;

  app.addHook('onRequest', async (request, reply) => {
    // Without a token, only requests that name this server may be served (DNS rebinding: src/dashboard/allowed-hosts.ts).
    if (config.token === undefined && !hostAllowed(request.headers.host, config.allowedHosts)) {
      throw new ServiceError('host_not_allowed', hostRefusal(request.headers.host));
    }
    if (context.draining() && request.url !== '/health') {
      reply.header('connection', 'close');
      throw new ServiceError('shutting_down', 'the server is shutting down');
    }
    if (config.token !== undefined && request.url !== '/health' && !tokenMatches(request.headers.authorization, config.token)) {
      reply.header('www-authenticate', 'Bearer');
      throw new ServiceError('unauthorized', 'missing or wrong bearer token');
    }
  });
  // While draining, every answer closes its connection so keep-alive sockets do not hold the shutdown open.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (context.draining()) reply.header('connection', 'close');
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpRequests.inc({ route, status: String(reply.statusCode) });
    metrics.httpSeconds.observe({ route }, reply.elapsedTime / 1000);
  });
  app.setErrorHandler((error: FastifyError | ServiceError | ClientGoneError, request, reply) => {
    // The one disconnect answer (`JudgeService.admitted`): nobody is there to read a body.
    if (error instanceof ClientGoneError) return reply.code(499).send();
    const serviceError = asServiceError(error, config, request.log);
    if (serviceError.code === 'overloaded') {
      metrics.rejected.inc({ route: request.routeOptions.url ?? 'unmatched' });
      reply.header('retry-after', String(serviceError.retryAfterSeconds ?? 1));
    }
    return reply.code(serviceError.status).send(serviceError.body());
  });
  app.setNotFoundHandler((request, reply) => {
    const error = new ServiceError('not_found', `no route ${request.method} ${request.url}`);
    return reply.code(error.status).send(error.body());
  });

  // Bodies are JSON only: a text/plain body would reach the schemas as a string (and fail as invalid_body).
  app.removeContentTypeParser('text/plain');
  // An empty body is no body, whatever its Content-Type says: clients send `Content-Type: application/json` with
  // a body-less DELETE or session reset, which fastify's JSON parser would refuse as invalid JSON. (HTTP/1.1: a
  // request without Content-Length and Transfer-Encoding has no body.)
  app.addHook('onRequest', async (request) => {
    const length = request.headers['content-length'];
    if ((length === undefined || length === '0') && request.headers['transfer-encoding'] === undefined) delete request.headers['content-type'];
  });
  registerOps(app, context, registry);
  registerNative(app, context);
  registerSignals(app, context);
  registerSandboxFusion(app, context);
  registerOpenRlhf(app, context);
  registerPiston(app, context);
  const sessions = registerSessions(app, context, registry);
  const mcp = registerMcp(app, context, sessions);
  registry.add(new Sampled('crucible_mcp_sessions_open', 'MCP sessions (/mcp) open now.', 'gauge', () => mcp.open()));
  return app;
}

/** Drain, then release: see the module comment ("Shutdown"). */
async function drainAndClose(app: FastifyInstance, j: Judging, config: ServeConfig, logger: Logger, deadlineMs: number): Promise<ShutdownReport> {
  logger.info({ deadlineMs, outstanding: j.admission.outstanding }, 'shutting down: no new work accepted');
  const closing = app.close();
  // Sockets that turn idle after close() began (a response just sent on keep-alive) are closed too.
  const sweeper = setInterval(() => app.server.closeIdleConnections(), 100);
  void closing.finally(() => clearInterval(sweeper));
  const closed = await Promise.race([closing.then(() => true), sleep(deadlineMs).then(() => false)]);
  let failedItems = 0;
  if (!closed) {
    failedItems = j.admission.failWaiting('the server is shutting down');
    logger.warn({ failedItems, running: j.admission.running }, 'shutdown deadline passed: failed queued items, waiting for running ones');
    // Running items end within their own limits (wall bound of the largest allowed time limit).
    const last = await Promise.race([closing.then(() => true), sleep(3 * config.maxTimeLimitMs + 2000).then(() => false)]);
    if (!last) app.server.closeAllConnections();
    await closing;
  }
  await j.close();
  logger.info({ failedItems, drainedInTime: closed }, 'shut down');
  return { failedItems, drainedInTime: closed };
}

/** The judging side of a server and its context, without HTTP: what routes (and `crucible mcp`) work on. */
export interface ServiceHandle {
  readonly context: ServerContext;
  /** The metrics registry `/metrics` renders. */
  readonly registry: Registry;
  /** Release the judge and, if it made one, the sandbox. */
  close(): Promise<void>;
}

/**
 * Open the judging side of a server from its config: sandbox, judge, problems, admission, metrics and the
 * route context. `startServer` listens on top of it; `crucible mcp` (stdio) serves MCP on it with no listener.
 * `draining` tells routes that shutdown began (default: never). Rejects when a problem file cannot be read.
 */
export async function openService(config: ServeConfig, options: StartOptions = {}, draining: () => boolean = () => false): Promise<ServiceHandle> {
  const { judging, context, registry } = await openContext(config, options, draining);
  return { context, registry, close: () => judging.close() };
}

async function openContext(config: ServeConfig, options: StartOptions, draining: () => boolean): Promise<{ judging: Judging; context: ServerContext; registry: Registry }> {
  const judging = await openJudging(config, options);
  const registry = new Registry();
  const metrics = buildMetrics(registry);
  addSampledMetrics(registry, judging);
  if (judging.queue !== null) addQueueMetrics(registry, judging.queue);
  judging.service.onVerdict((status, seconds, route) => {
    metrics.verdicts.inc({ status });
    if (seconds > 0) metrics.verdictSeconds.observe({}, seconds);
    if (status === 'internal_error') {
      metrics.internalErrors.inc({ route });
      judging.health.noteInternalError();
    }
  });
  const context: ServerContext = { config, service: judging.service, judge: judging.judge, languages: judging.languages,
    sandbox: judging.sandbox, metrics, plainRuns: judging.plainRuns, health: judging.health, draining, repositories: judging.repositories,
    startedMs: Date.now(), training: null };
  return { judging, context, registry };
}

/** Start the service and listen. */
export async function startServer(input: ServeConfigInput, options: StartOptions = {}): Promise<ServerHandle> {
  const config: ServeConfig = ServeConfigSchema.parse(input);
  const logger = options.logger ?? createLogger(config.logLevel);
  let draining = false;
  const { judging, context, registry } = await openContext(config, options, () => draining);
  const app = buildApp(config, logger, context, registry);
  try {
    if (config.store !== undefined) {
      context.training = await openTrainingFeed(app, config.store, config.trainingRun ?? defaultTrainingRunName(), logger);
    }
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await context.training?.close();
    await judging.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  logger.info({ host: config.host, port, slots: judging.sandbox?.slotCount ?? null, queue: config.queue ?? null, maxInFlight: judging.admission.maxInFlight,
    queueCapacity: judging.admission.capacity, problems: judging.problems.size, auth: config.token !== undefined,
    dashboard: context.training === null ? null : '/ui', trainingRun: context.training?.run ?? null }, 'crucible serve listening');
  // The first self-test starts now, so the first probe of /health finds a result instead of waiting for a cold
  // harness (report() never rejects).
  void judging.health.report();
  let shutdownPromise: Promise<ShutdownReport> | null = null;
  const shutdown = (deadlineMs = config.shutdownDeadlineMs): Promise<ShutdownReport> => {
    draining = true;
    shutdownPromise ??= drainAndClose(app, judging, config, logger, deadlineMs)
      .then(async (report) => {
        await context.training?.close().catch((error: Error) => logger.warn({ err: error }, 'closing the result store failed'));
        return report;
      });
    return shutdownPromise;
  };
  return { app, url: `http://${host}:${port}`, port, context, logger, shutdown };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

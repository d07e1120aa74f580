/**
 * `QueueJudge`: the `Judge` (`src/judge/judge.ts`) that sends each request as one BullMQ job to a queue in Redis
 * and awaits the verdict a `crucible worker` (`src/queue/worker.ts`) reports, so a front end (`crucible eval
 * --queue`) judges on a fleet of machines through the same interface as on its own.
 *
 * Datasets: `catalog.add(hash, problems)` keeps the problems here (requests are checked against them as a
 * `LocalJudge` would) and ships them once to Redis under their dataset hash (`SET NX`, content-addressed); a job
 * names its problem by `{datasetHash, taskId}` and each worker fetches a dataset once. Inline problems travel
 * in the job.
 *
 * Results: one `QueueEvents` reader (BullMQ's events stream) from the stream position taken before the first
 * job, so no completion can slip between adding a job and listening for it; a job whose event is missed (the
 * stream is capped) is found by a reconciliation pass over the jobs pending longer than `reconcileAfterMs`.
 * Every result read back is validated (`jobResultSchema`).
 *
 * Failure policy (as `LocalJudge`'s, across machines): a request the workers' judge refuses rejects with
 * `JudgeRequestError`; a job that failed on every attempt (`attempts`: Crucible's failures on a worker, or a job
 * whose worker died more than BullMQ's `maxStalledCount` times) resolves as an `internal_error` verdict with
 * the reason, never as a verdict on the program. Cancellation (`CallOptions.signal`): the call rejects with
 * the signal's reason at once and the job is removed if no worker holds it yet (else its result is ignored).
 */
import { Queue, QueueEvents, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { IoProblem, ProblemBase } from '../formats/types.js';
import type { HarnessJob, HarnessResponse } from '../judge/harness/protocol.js';
import {
  isInline, JudgeRequestError, type CallOptions, type JobPriority, type Judge, type JudgeCapacity, type JudgeRequest, type JudgeStats,
  type PackageRequest, type PackageResult, type PlainRunOutcome, type PlainRunRequest, type ProblemCatalog, type ProblemRef, type ProblemSpec,
  type SelfTestCheck, type SelfTestReport,
} from '../judge/judge.js';
import { defaultModes, type ModeRegistry } from '../kinds/index.js';
import { definedOnly, type JudgeLimits } from '../limits.js';
import { MemoryCatalog } from '../engine/local-judge.js';
import { verdictWithoutTests, type DetailedVerdict, type FailedTestDetail } from '../verdict/index.js';
import { internalRun, type ExecutionResult } from '../sandbox/types.js';
import type { QueueLocation } from './connection.js';
import { reachable, redisConnection } from './redis.js';
import { fleetConcurrency, readFleet, readFleetStatus, type FleetStatus } from './fleet.js';
import {
  datasetKey, jobLimitsProblem, judgePayload, MAX_BATCH, wireHarnessJob, jobResultSchema, resultTests, resultVerdict, WIRE_VERSION, wireProblemSpec, zodMessage,
  type JobKind, type JobPayload, type JobResult,
} from './wire.js';

/** The problem of `QueueJudge.selfTest`: add two numbers. */
const SELF_TEST_PROBLEM: IoProblem = {
  kind: 'io', taskId: 'crucible-self-test', comparator: { kind: 'tokens' }, tests: [{ input: '2 3\n', output: '5\n' }],
};

/** Options of a queue judge. */
export interface QueueJudgeOptions {
  /** Attempts of a job before it is an `internal_error` (BullMQ `attempts`; default 3). */
  readonly attempts?: number;
  /** A job pending longer than this is looked up directly in case its event was missed, ms (default 15 000). */
  readonly reconcileAfterMs?: number;
  /** Requests in flight when no worker advertises itself yet (default 8). */
  readonly defaultConcurrency?: number;
  /** Limits of requests that set none (sent in every job, so every worker applies the front end's defaults). */
  readonly limits?: Partial<JudgeLimits>;
  /** Judging modes requests are checked against (default: the built-in kinds; workers must know the same). */
  readonly modes?: ModeRegistry;
  /** Priority of calls that name none (`CallOptions.priority`; default `batch`: `crucible serve` asks `interactive`). */
  readonly priority?: JobPriority;
  /** Tenant of calls that name none (default `default`). */
  readonly tenant?: string;
  /**
   * Most `judge` requests one job carries (default 8; 1: one job per request). Requests made in the same turn of
   * the event loop with the same priority and tenant travel as one `batch` job, so the queue's cost per job (adding
   * it, locking it, its events, its result) is paid once for all of them; a request alone goes as it is, with no
   * wait. `capacity.concurrency` grows by this factor so callers keep every worker busy.
   */
  readonly maxBatch?: number;
  /**
   * Time to live of the datasets this judge ships to Redis, s (default `DATASET_TTL_S`, a day). While the judge
   * runs it starts their time again every third of it, so a dataset expires only once no front end has used it
   * for that long; a worker that has it keeps its copy.
   */
  readonly datasetTtlS?: number;
}

/** Default time to live of a shipped dataset in Redis, s (one day). */
export const DATASET_TTL_S = 24 * 3600;

/** A `judge` request waiting for the end of the event loop's turn to leave in a batch. */
interface BatchItem {
  readonly payload: Extract<JobPayload, { kind: 'judge' }>;
  readonly options: CallOptions;
  settled: boolean;
  settle(result: JobResult | { kind: 'failed'; reason: string }): void;
  fail(error: unknown): void;
}

/**
 * BullMQ job priorities (1 is taken first, at most 2^21 = 2,097,152): interactive jobs take 1 to 2^20 - 1 and
 * batch jobs from 2^20 up, so every interactive job goes before every batch job; within a class a job's
 * priority is 1 + the jobs its tenant already has in flight from this front end, so a tenant with 1,000 jobs
 * queued does not delay another tenant's first job (theirs is 1, taken next: round-robin across tenants in the
 * manner of start-time fair queueing). BullMQ takes jobs of equal priority in the order they were added.
 */
const BATCH_PRIORITY_BASE = 1 << 20;
const MAX_TENANT_RANK = (1 << 20) - 2;

/** The BullMQ priority of a job of `priority` class whose tenant has `inFlight` jobs already. */
export function jobPriority(priority: JobPriority, inFlight: number): number {
  return (priority === 'batch' ? BATCH_PRIORITY_BASE : 0) + Math.min(inFlight, MAX_TENANT_RANK) + 1;
}

/** Fleet admission (`QueueJudge.admission`): backlog allowed per slot of the fleet. */
export const DEFAULT_BACKLOG_PER_SLOT = 8;


/** Called when a job's result (or final failure) arrives: its kind and seconds from adding it to the result. */
export type LatencyObserver = (kind: JobKind, seconds: number) => void;

interface Pending {
  readonly kind: JobKind;
  readonly tenant: string;
  readonly weight: number;
  readonly addedAtMs: number;
  readonly testCount: number;
  settle(result: JobResult | { kind: 'failed'; reason: string }): void;
}

/** How long finished jobs stay in Redis for a front end that missed their event, s. */
const KEEP_FINISHED_S = 3600;

/** Problems by dataset, each dataset shipped to Redis once (the promise of its upload). */
class ShippingCatalog implements ProblemCatalog {
  private readonly problems = new MemoryCatalog();
  private readonly lists = new Map<string, readonly ProblemBase[]>();
  private readonly uploads = new Map<string, Promise<void>>();

  constructor(private readonly redis: Redis, private readonly location: QueueLocation, private readonly ttlS: number) {}

  add(datasetHash: string, problems: readonly ProblemBase[]): void {
    if (this.problems.has(datasetHash)) return;
    this.problems.add(datasetHash, problems);
    this.lists.set(datasetHash, problems);
    void this.shipped(datasetHash).catch(() => undefined); // start now; a failure surfaces in the first request
  }

  get(ref: ProblemRef): ProblemBase | undefined {
    return this.problems.get(ref);
  }

  has(datasetHash: string): boolean {
    return this.problems.has(datasetHash);
  }

  /** Resolves once a dataset of the catalog is in Redis (shipping it again if an earlier upload failed). */
  shipped(datasetHash: string): Promise<void> {
    let upload = this.uploads.get(datasetHash);
    if (upload === undefined) {
      upload = this.ship(datasetHash, this.lists.get(datasetHash) ?? []);
      upload.catch(() => this.uploads.delete(datasetHash)); // the next request tries again
      this.uploads.set(datasetHash, upload);
    }
    return upload;
  }

  /** Ship a dataset unless Redis has it (then its time to live starts again). */
  private async ship(datasetHash: string, problems: readonly ProblemBase[]): Promise<void> {
    const key = datasetKey(this.location.prefix, this.location.queueName, datasetHash);
    if ((await this.redis.expire(key, this.ttlS)) === 1) return;
    await this.redis.set(key, JSON.stringify({ v: WIRE_VERSION, problems }), 'EX', this.ttlS, 'NX');
  }

  /** Start the time to live of every dataset this catalog shipped again (one round trip). */
  async refresh(): Promise<void> {
    const hashes = [...this.lists.keys()];
    if (hashes.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const hash of hashes) pipeline.expire(datasetKey(this.location.prefix, this.location.queueName, hash), this.ttlS);
    await pipeline.exec();
  }
}

export class QueueJudge implements Judge {
  readonly catalog: ShippingCatalog;
  private readonly pending = new Map<string, Pending>();
  private readonly counters = { requests: 0, retries: 0 };
  private concurrency: number;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly latencyObservers: LatencyObserver[] = [];
  /** Jobs in flight from this front end, by tenant (their rank orders a tenant's next job). */
  private readonly tenantInFlight = new Map<string, number>();
  /** The fleet as last read (`watchFleet`), jobs added since, and the mean job latency (s, for Retry-After). */
  private watched: { status: FleetStatus; addedSince: number } | null = null;
  private meanJobSeconds = 1;
  /** Requests gathered this turn, by priority and tenant. */
  private readonly gathering = new Map<string, BatchItem[]>();
  private closed = false;

  private constructor(
    readonly location: QueueLocation,
    /** The connections this judge made: BullMQ does not close connections it is handed. */
    private readonly connections: readonly [Redis, Redis],
    private readonly queue: Queue,
    private readonly events: QueueEvents,
    private readonly options: Required<QueueJudgeOptions>,
  ) {
    this.catalog = new ShippingCatalog(connections[0], location, options.datasetTtlS);
    this.concurrency = options.defaultConcurrency;
    events.on('completed', ({ jobId, returnvalue }) => this.onCompleted(jobId, returnvalue));
    events.on('failed', ({ jobId, failedReason }) => this.settle(jobId, { kind: 'failed', reason: failedReason }));
    events.on('error', () => undefined); // ioredis reconnects; a lost event is found by reconciliation
    this.timers.push(setInterval(() => void this.refreshCapacity().catch(() => undefined), 5_000).unref());
    // A dataset in use never expires: its time to live starts again three times per period.
    this.timers.push(setInterval(() => void this.catalog.refresh().catch(() => undefined), (options.datasetTtlS * 1000) / 3).unref());
    this.timers.push(setInterval(() => void this.reconcile().catch(() => undefined),
      Math.max(1_000, Math.floor(options.reconcileAfterMs / 3))).unref());
  }

  /**
   * Connect to the queue at `location`: listen for results from the events stream's current end, and read the
   * fleet's capacity. @throws Error when Redis cannot be reached.
   */
  static async connect(location: QueueLocation, options: QueueJudgeOptions = {}): Promise<QueueJudge> {
    const redis = redisConnection(location);
    try {
      await reachable(redis, location);
      const queue = new Queue(location.queueName, { connection: redis, prefix: location.prefix });
      const streamKey = queue.toKey('events');
      const last = await redis.xrevrange(streamKey, '+', '-', 'COUNT', 1);
      const lastEventId = last[0]?.[0] ?? '0-0';
      const eventsConnection = redis.duplicate();
      const events = new QueueEvents(location.queueName, { connection: eventsConnection, prefix: location.prefix, lastEventId });
      await events.waitUntilReady();
      const judge = new QueueJudge(location, [redis, eventsConnection], queue, events, {
        attempts: options.attempts ?? 3, reconcileAfterMs: options.reconcileAfterMs ?? 15_000,
        defaultConcurrency: options.defaultConcurrency ?? 8, modes: options.modes ?? defaultModes(), limits: options.limits ?? {},
        priority: options.priority ?? 'batch', tenant: options.tenant ?? 'default',
        maxBatch: Math.max(1, Math.min(MAX_BATCH, Math.floor(options.maxBatch ?? 8))), datasetTtlS: options.datasetTtlS ?? DATASET_TTL_S,
      });
      await judge.refreshCapacity();
      return judge;
    } catch (error) {
      redis.disconnect();
      throw error;
    }
  }

  get capacity(): JudgeCapacity {
    return { slots: Math.ceil(this.concurrency / 2), harnessSlots: Math.ceil(this.concurrency / 2), concurrency: this.concurrency * this.options.maxBatch };
  }

  async judge(request: JudgeRequest, options: CallOptions = {}): Promise<DetailedVerdict> {
    this.counters.requests++;
    const testCount = await this.checkProblem(request.problem, options);
    const limits = { ...definedOnly(this.options.limits), ...definedOnly(request.limits ?? {}) };
    const payload = judgePayload({ ...request, limits }, options.detail === true) as Extract<JobPayload, { kind: 'judge' }>;
    const outOfRange = jobLimitsProblem(payload);
    if (outOfRange !== null) throw new JudgeRequestError(outOfRange.message, outOfRange.field);
    const result = this.options.maxBatch > 1 ? await this.gather(payload, options) : await this.submit(payload, testCount, options);
    if (result.kind === 'failed') return verdictWithoutTests('internal_error', testCount, result.reason);
    if (result.kind === 'request_error') throw new JudgeRequestError(result.message, result.field);
    if (result.kind !== 'verdict') return verdictWithoutTests('internal_error', testCount, `queue: a worker answered a judge job with ${result.kind}`);
    const verdict = resultVerdict(result);
    if (request.analysis !== undefined && verdict.analysis === undefined && verdict.status !== 'internal_error') {
      // A worker of a Crucible that predates `analysis` drops the field: never let that read as "not analysed, clean".
      return verdictWithoutTests('internal_error', testCount, `queue: worker ${result.provenance.worker} (Crucible ${result.provenance.crucibleVersion}) answered without the static analysis the request asked for`);
    }
    return { ...verdict, judgedBy: result.provenance };
  }

  async describeTests(problem: ProblemSpec, options: CallOptions = {}): Promise<readonly FailedTestDetail[]> {
    await this.checkProblem(problem, options);
    const payload: JobPayload = { v: WIRE_VERSION, kind: 'describe', problem: wireProblemSpec(problem) };
    const result = await this.submit(payload, 0, options);
    if (result.kind === 'tests') return resultTests(result);
    if (result.kind === 'request_error') throw new JudgeRequestError(result.message, result.field);
    throw new Error(`queue: describing the tests failed: ${result.kind === 'failed' ? result.reason : `a worker answered with ${result.kind}`}`);
  }

  /**
   * One plain run on a worker of the fleet. A job that fails every attempt (Crucible's failure on each worker)
   * is an `internal_error` run with the reason, never an outcome of the program.
   */
  async runPlain(request: PlainRunRequest, options: CallOptions = {}): Promise<PlainRunOutcome> {
    this.counters.requests++;
    const payload: JobPayload = { v: WIRE_VERSION, kind: 'plain', request: {
      program: { language: request.program.language, source: request.program.source }, stdin: request.stdin,
      ...request.files === undefined ? {} : { files: Object.fromEntries(Object.entries(request.files)
        .map(([path, bytes]) => [path, Buffer.from(bytes).toString('base64')])) },
      limits: definedOnly({ ...request.limits }) as Extract<JobPayload, { kind: 'plain' }>['request']['limits'] } };
    const outOfRange = jobLimitsProblem(payload);
    if (outOfRange !== null) throw new JudgeRequestError(outOfRange.message, outOfRange.field);
    const result = await this.submit(payload, 0, options);
    if (result.kind === 'plain') return { compile: result.compile, run: result.run };
    if (result.kind === 'request_error') throw new JudgeRequestError(result.message, result.field);
    return { compile: null, run: internalRun(result.kind === 'failed' ? result.reason : `queue: a worker answered a plain run with ${result.kind}`) };
  }

  /** One raw harness job on a worker of the fleet; a job failing every attempt answers `internal_error`. */
  async runHarness(job: HarnessJob, options: CallOptions = {}): Promise<HarnessResponse> {
    this.counters.requests++;
    const result = await this.submit({ v: WIRE_VERSION, kind: 'harness', job: wireHarnessJob(job) }, 0, options);
    if (result.kind === 'harness') return result.response;
    const reason = result.kind === 'failed' ? result.reason
      : result.kind === 'request_error' ? result.message : `queue: a worker answered a harness job with ${result.kind}`;
    return { id: 'queue', status: 'internal_error', cpuMs: 0, wallMs: 0, memoryKiB: 0, reason };
  }

  /**
   * One contest-package job on a worker of the fleet; a job failing every attempt is an `error` (Crucible's
   * failure), a job the workers' package refuses rejects with `JudgeRequestError`.
   */
  async runPackage(request: PackageRequest, options: CallOptions = {}): Promise<PackageResult> {
    this.counters.requests++;
    const payload: JobPayload = { v: WIRE_VERSION, kind: 'package', request: { ...request, files: request.files.map((f) => ({ ...f })) } };
    const result = await this.submit(payload, 0, options);
    if (result.kind === 'package') return { outcome: result.outcome };
    if (result.kind === 'request_error') throw new JudgeRequestError(result.message, result.field);
    return { error: result.kind === 'failed' ? result.reason : `queue: a worker answered a package job with ${result.kind}` };
  }

  stats(): JudgeStats {
    return {
      requests: this.counters.requests, deduplicated: 0, retries: this.counters.retries, executions: 0, runs: 0, compilations: 0,
      compileCacheHits: 0, harnessJobs: 0, testerReuses: 0, groundTruthRuns: 0, groundTruthCacheHits: 0,
    };
  }

  /**
   * Judge a known-good Python program on an inline problem through the queue: ok when a worker of the fleet
   * answers `passed`. Never rejects; a cancelled or failed check is reported as not ok with the reason.
   */
  async selfTest(options: CallOptions = {}): Promise<SelfTestReport> {
    const started = Date.now();
    let check: SelfTestCheck;
    try {
      const verdict = await this.judge({
        problem: { inline: SELF_TEST_PROBLEM },
        program: { language: 'python', source: 'a, b = map(int, input().split())\nprint(a + b)\n' },
      }, options);
      check = verdict.status === 'passed'
        ? { name: 'queue', ok: true, wallMs: Date.now() - started }
        : { name: 'queue', ok: false, wallMs: Date.now() - started, reason: `a worker judged a correct program ${verdict.status}: ${verdict.reason ?? ''}`.trim() };
    } catch (error) {
      check = { name: 'queue', ok: false, wallMs: Date.now() - started, reason: `the queue self-test failed: ${(error as Error).message}` };
    }
    return { ok: check.ok, checks: [check] };
  }

  /**
   * Keep the fleet's status fresh (read every `everyMs`, default 1 000) for `admission`; a server on a queue
   * calls this once. Failures to read keep the last status.
   */
  async watchFleet(everyMs = 1_000): Promise<void> {
    const read = async (): Promise<void> => {
      this.watched = { status: await this.fleetStatus(), addedSince: 0 };
    };
    await read();
    this.timers.push(setInterval(() => void read().catch(() => undefined), everyMs).unref());
  }

  /**
   * Fleet admission: null when `items` more jobs fit, else why not and when to retry. They fit while the
   * queue's backlog (jobs no worker holds: the last read plus what this front end added since) stays within
   * `backlogPerSlot` jobs per slot of the live, non-draining workers; a fleet with no worker admits nothing.
   * `retryAfterSeconds` is the time the fleet needs to work the excess off at the mean job latency seen here
   * (1 to 60 s). Admits everything until `watchFleet` has read the fleet once.
   */
  admission(items: number, backlogPerSlot = DEFAULT_BACKLOG_PER_SLOT): { reason: string; retryAfterSeconds: number } | null {
    if (this.watched === null) return null;
    const { status, addedSince } = this.watched;
    const limit = status.slots * backlogPerSlot;
    const backlog = status.backlog + addedSince;
    if (backlog + items <= limit) return null;
    const excess = backlog + items - limit;
    const retryAfterSeconds = Math.min(60, Math.max(1, Math.ceil(status.slots === 0 ? 5 : (excess * this.meanJobSeconds) / status.slots)));
    return {
      reason: status.slots === 0 ? 'the fleet has no live worker taking jobs (crucible queue status shows it)'
        : `the fleet's queue is full: ${backlog} jobs wait for ${status.slots} slots (at most ${backlogPerSlot} per slot)`,
      retryAfterSeconds,
    };
  }

  /** Observe every job's end-to-end latency (for `/metrics`). */
  onLatency(observer: LatencyObserver): void {
    this.latencyObservers.push(observer);
  }

  /** The queue's depth, the fleet and its counters now (`readFleetStatus`). @throws when Redis fails. */
  fleetStatus(): Promise<FleetStatus> {
    return readFleetStatus(this.connections[0], this.location);
  }

  /** Stop listening; calls still waiting reject. The queue and its jobs stay in Redis. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.timers.forEach((t) => clearInterval(t));
    for (const p of this.pending.values()) p.settle({ kind: 'failed', reason: 'queue: the judge was closed before the job finished' });
    this.pending.clear();
    await this.events.close().catch(() => undefined);
    await this.queue.close().catch(() => undefined);
    this.connections.forEach((c) => c.disconnect());
  }

  /** The problem's test count, after checking the catalog and shipping its dataset. @throws JudgeRequestError */
  private async checkProblem(spec: ProblemSpec, options: CallOptions): Promise<number> {
    options.signal?.throwIfAborted();
    if (isInline(spec)) return this.testCount(spec.inline);
    const problem = this.catalog.get(spec);
    if (problem === undefined) {
      throw new JudgeRequestError(this.catalog.has(spec.datasetHash)
        ? `no problem "${spec.taskId}" in dataset ${spec.datasetHash.slice(0, 12)}`
        : `dataset ${spec.datasetHash.slice(0, 12)} is not in this judge's catalog (catalog.add it first)`);
    }
    await this.catalog.shipped(spec.datasetHash);
    return this.testCount(problem);
  }

  /** Wait for the end of this turn of the event loop, then leave with the requests gathered meanwhile (`maxBatch`). */
  private gather(payload: Extract<JobPayload, { kind: 'judge' }>, options: CallOptions): Promise<JobResult | { kind: 'failed'; reason: string }> {
    const key = `${options.priority ?? this.options.priority}\0${options.tenant ?? this.options.tenant}`;
    return new Promise((resolve, reject) => {
      const signal = options.signal;
      const item: BatchItem = {
        payload, options, settled: false,
        settle: (result) => {
          if (item.settled) return;
          item.settled = true;
          signal?.removeEventListener('abort', onAbort);
          resolve(result);
        },
        fail: (error) => {
          if (item.settled) return;
          item.settled = true;
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      const onAbort = (): void => item.fail(signal!.reason);
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      let items = this.gathering.get(key);
      if (items === undefined) {
        items = [];
        this.gathering.set(key, items);
        setImmediate(() => this.flush(key));
      }
      items.push(item);
      if (items.length >= this.options.maxBatch) this.flush(key);
    });
  }

  /** Send what was gathered under `key`: one request as a `judge` job, several as a `batch` job. */
  private flush(key: string): void {
    const gathered = this.gathering.get(key);
    if (gathered === undefined) return;
    this.gathering.delete(key);
    const items = gathered.filter((i) => !i.settled);
    if (items.length === 0) return;
    const first = items[0]!;
    // The job is cancelled (removed if no worker holds it) only once every caller in it has cancelled.
    const controller = new AbortController();
    const cancelledAll = (): void => {
      if (items.every((i) => i.settled)) controller.abort(new DOMException('every caller cancelled', 'AbortError'));
    };
    for (const i of items) i.options.signal?.addEventListener('abort', cancelledAll, { once: true });
    const options: CallOptions = { signal: controller.signal, priority: first.options.priority ?? this.options.priority,
      tenant: first.options.tenant ?? this.options.tenant };
    const payload: JobPayload = items.length === 1 ? first.payload : { v: WIRE_VERSION, kind: 'batch', items: items.map((i) => i.payload) };
    this.submit(payload, 0, options, items.length).then((result) => {
      if (items.length === 1) return first.settle(result);
      if (result.kind === 'failed') return items.forEach((i) => i.settle(result));
      if (result.kind !== 'batch' || result.results.length !== items.length) {
        const reason = `queue: a worker answered a batch of ${items.length} with ${result.kind === 'batch' ? `${result.results.length} results` : result.kind}`;
        return items.forEach((i) => i.settle({ kind: 'failed', reason }));
      }
      items.forEach((i, n) => i.settle(result.results[n]!));
    }, (error: unknown) => items.forEach((i) => i.fail(error)));
  }

  /**
   * Add one job and wait for its result (or its final failure); honours `options.signal`. `weight`: the requests
   * it carries (a batch's), counted in its tenant's jobs in flight.
   */
  private async submit(payload: JobPayload, testCount: number, options: CallOptions, weight = 1): Promise<JobResult | { kind: 'failed'; reason: string }> {
    if (this.closed) throw new Error('queue: the judge is closed');
    const signal = options.signal;
    signal?.throwIfAborted();
    const tenant = options.tenant ?? this.options.tenant;
    const rank = this.tenantInFlight.get(tenant) ?? 0;
    this.tenantInFlight.set(tenant, rank + weight);
    let job: Job;
    try {
      job = await this.queue.add(payload.kind, payload, {
        attempts: this.options.attempts, removeOnComplete: { age: KEEP_FINISHED_S }, removeOnFail: { age: KEEP_FINISHED_S },
        priority: jobPriority(options.priority ?? this.options.priority, rank),
      });
    } catch (error) {
      this.leave(tenant, weight);
      throw error;
    }
    if (this.watched !== null) this.watched.addedSince++;
    const id = job.id!;
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        if (this.pending.delete(id)) this.leave(tenant, weight);
        reject(signal!.reason);
        // Taken by no worker yet: remove it. Held by a worker: it finishes and its result is ignored.
        void job.remove().catch(() => undefined);
      };
      this.pending.set(id, {
        kind: payload.kind, tenant, weight, addedAtMs: Date.now(), testCount,
        settle: (result) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(result);
        },
      });
      if (signal !== undefined) {
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      }
    });
  }

  private onCompleted(jobId: string, returnvalue: unknown): void {
    if (!this.pending.has(jobId)) return;
    this.settle(jobId, parseResult(returnvalue));
  }

  private settle(jobId: string, result: JobResult | { kind: 'failed'; reason: string }): void {
    const pending = this.pending.get(jobId);
    if (pending === undefined) return;
    this.pending.delete(jobId);
    this.leave(pending.tenant, pending.weight);
    const seconds = (Date.now() - pending.addedAtMs) / 1000;
    this.meanJobSeconds += (seconds - this.meanJobSeconds) / 20; // exponentially weighted over ~20 jobs
    for (const observe of this.latencyObservers) observe(pending.kind, seconds);
    pending.settle(result.kind === 'failed' ? { kind: 'failed', reason: `queue: job ${jobId} failed on every attempt: ${result.reason}` } : result);
  }

  /** Look up jobs pending for long in case their event was missed (the events stream is capped). */
  private async reconcile(): Promise<void> {
    const now = Date.now();
    const overdue = [...this.pending].filter(([, p]) => now - p.addedAtMs > this.options.reconcileAfterMs).map(([id]) => id);
    for (const id of overdue) {
      const job: Job | undefined = await this.queue.getJob(id);
      if (job === undefined) {
        this.settle(id, { kind: 'failed', reason: 'the job is no longer in Redis (removed, or Redis lost it)' });
      } else if (job.finishedOn !== undefined && job.failedReason !== undefined && (await job.isFailed())) {
        this.settle(id, { kind: 'failed', reason: job.failedReason });
      } else if (await job.isCompleted()) {
        this.settle(id, parseResult(job.returnvalue));
      }
    }
  }

  /** `weight` of `tenant`'s requests are no longer in flight. */
  private leave(tenant: string, weight: number): void {
    const left = (this.tenantInFlight.get(tenant) ?? weight) - weight;
    if (left <= 0) this.tenantInFlight.delete(tenant);
    else this.tenantInFlight.set(tenant, left);
  }

  /** @throws JudgeRequestError for a kind no mode judges. */
  private testCount(problem: ProblemBase): number {
    return this.options.modes.of(problem).testCount(problem);
  }

  private async refreshCapacity(): Promise<void> {
    const { workers } = await readFleet(this.connections[0], this.location);
    const fleet = fleetConcurrency(workers);
    if (fleet > 0) this.concurrency = fleet;
  }
}

/** A job's return value, validated; anything else is Crucible's failure (`failed`). */
function parseResult(returnvalue: unknown): JobResult | { kind: 'failed'; reason: string } {
  let value = returnvalue;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return { kind: 'failed', reason: 'a worker returned a result that is not JSON' };
    }
  }
  const parsed = jobResultSchema.safeParse(value);
  return parsed.success ? parsed.data : { kind: 'failed', reason: `a worker returned an invalid result (${zodMessage(parsed.error)})` };
}

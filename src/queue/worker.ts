/**
 * The worker loop behind `crucible worker --queue redis://HOST:PORT`: takes judging jobs from the BullMQ queue,
 * judges them on this machine's sandbox (a `LocalJudge` made by `createJudge`) and returns each verdict with
 * its provenance (worker name, Crucible version, toolchain versions).
 *
 * Theory of operation:
 * - BullMQ's `Worker` takes up to `concurrency` jobs at once (default: the local judge's `capacity.concurrency`,
 *   enough to keep every slot and harness box busy) and holds a lock on each, renewed every `lockMs / 2`.
 * - A worker that dies (SIGKILL, machine lost) stops renewing; its jobs' locks expire after `lockMs` and the
 *   stalled-job check of any live worker (every `stalledIntervalMs`) puts them back in the queue for another
 *   worker. A job that stalls more than `maxStalledCount` times (it keeps killing workers) fails for good: its
 *   front end reports `internal_error` (the dead letters are BullMQ's failed set).
 * - Five kinds of job (`JobPayload`, `wire.ts`): `judge` a submission, `describe` a problem's tests, a `plain` run
 *   (`crucible run`, `/run_code`), a raw `harness` job (CodeT generated tests) and a contest `package` job
 *   (Piston's codeforces and cms_ioi); each is answered by the local judge's method of the same name
 *   (`runPackage` for `package`), and an `internal_error` (a package's `error`) from any of them fails the attempt.
 * - A payload that does not validate fails at once (`UnrecoverableError`: no retry). Crucible's own failure
 *   (a dataset that cannot be fetched, an `internal_error` verdict after the local judge's retries) fails the
 *   attempt, and BullMQ retries the job (perhaps elsewhere) up to the job's `attempts`. A request the local
 *   judge refuses (`JudgeRequestError`) is an answer (`request_error`), not a failure.
 * - Datasets are fetched from Redis once per worker (`ShippedDataset`, validated) and registered in the local
 *   judge's catalog, so its ground-truth cache on disk and its deduplication memo work as in a local run.
 * - It advertises itself (`WorkerAdvert`, `fleet.ts`) every `ADVERT_TTL_MS / 3`. `drain()` (SIGTERM in the
 *   CLI) marks it draining, stops taking jobs, lets the jobs it holds finish, then closes everything.
 */
import { hostname } from 'node:os';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { JudgeRequestError, type Judge, type PackageRequest } from '../judge/judge.js';
import type { HarnessJob } from '../judge/harness/protocol.js';
import { createJudge, type JudgeOptions } from '../engine/factory.js';
import { OnDemandPostgres } from '../environments/postgres/on-demand.js';
import type { LanguageRegistry } from '../languages/registry.js';
import { plainVerdict } from '../verdict/index.js';
import type { QueueLocation } from './connection.js';
import { reachable, redisConnection } from './redis.js';
import { ADVERT_TTL_MS, advertise, countFleetEvent, withdraw } from './fleet.js';
import {
  datasetKey, jobLimitsProblem, jobPayloadSchema, shippedDatasetSchema, zodMessage, type JobAnswer, type JobPayload, type RequestErrorAnswer,
  type VerdictAnswer, type WorkerAdvert,
  type WorkerProvenance,
} from './wire.js';

/** How a worker runs. */
export interface WorkerOptions {
  readonly location: QueueLocation;
  /** The worker's name in the fleet and in every verdict's provenance (unique per fleet). */
  readonly name: string;
  /** The local judge's options (slots, limits, cache directory, languages, modes). */
  readonly judge: JudgeOptions & { readonly languages: LanguageRegistry };
  /** Jobs held at once (default: the local judge's `capacity.concurrency`). */
  readonly concurrency?: number;
  /** Lock of a held job, ms: a dead worker's jobs go back to the queue after about this long (default 10 000). */
  readonly lockMs?: number;
  /** How often live workers look for jobs of dead workers, ms (default 5 000). */
  readonly stalledIntervalMs?: number;
  /** Times a job may lose its worker before it fails for good (default 2). */
  readonly maxStalledCount?: number;
  /** Version of this Crucible (provenance and advertisement). */
  readonly crucibleVersion: string;
  /** Called for each job that fails an attempt (the CLI logs it). */
  readonly onFailure?: (jobId: string, reason: string) => void;
}

/** A running worker. */
export interface RunningWorker {
  readonly name: string;
  readonly concurrency: number;
  /** Stop taking jobs, finish those held, withdraw the advertisement and release everything. */
  drain(): Promise<void>;
  /** Jobs judged (completed) so far. */
  readonly completed: () => number;
}

/** Thrown by a job attempt for Crucible's own failure (BullMQ retries the job). */
class AttemptFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AttemptFailed';
  }
}

/** Start a worker: make the local judge, detect toolchains, advertise, and take jobs. @throws as `createJudge`. */
export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  // PostgreSQL problems need a server: one starts on the worker's first such job (OnDemandPostgres).
  const judge = createJudge({ ...options.judge, sqlEngines: options.judge.sqlEngines ?? [new OnDemandPostgres()] });
  const redis = redisConnection(options.location);
  try {
    await reachable(redis, options.location);
    const toolchains = Object.fromEntries((await options.judge.languages.toolchains()).map((t) => [t.id, t.version ?? null]));
    const languages = options.judge.languages;
    /** Who answers a job in `language` (an id or alias; unknown: no toolchain, the judge refuses the job). */
    const provenance = (language: string | undefined): WorkerProvenance => ({
      worker: options.name, crucibleVersion: options.crucibleVersion,
      toolchain: language !== undefined && languages.has(language) ? toolchains[languages.get(language).id] ?? null : null,
    });
    const datasets = new DatasetFetcher(redis, options.location, judge);
    const concurrency = options.concurrency ?? judge.capacity.concurrency;
    let completed = 0;
    let inFlight = 0;
    const workerConnection = redis.duplicate(); // BullMQ does not close connections it is handed
    const worker = new Worker<unknown, JobAnswer>(options.location.queueName,
      async (job: Job<unknown, JobAnswer>, _token?: string, signal?: AbortSignal) => {
        inFlight++;
        try {
          const result = await processJob(job.data, { judge, datasets, provenance, ...(signal === undefined ? {} : { signal }) });
          completed++;
          return result;
        } finally {
          inFlight--;
        }
      }, {
        connection: workerConnection, prefix: options.location.prefix, name: options.name, concurrency,
        lockDuration: options.lockMs ?? 10_000, stalledInterval: options.stalledIntervalMs ?? 5_000,
        maxStalledCount: options.maxStalledCount ?? 2, autorun: true,
      });
    // Rare events only: a count per completed job would cost every job a round trip (the completed set has them).
    const count = (counter: 'retries' | 'stalled' | 'deadLetters'): void =>
      void countFleetEvent(redis, options.location, counter).catch(() => undefined);
    worker.on('failed', (job, error) => {
      // BullMQ sets finishedOn only when the job fails for good (no attempt left, or an UnrecoverableError).
      count(job?.finishedOn === undefined ? 'retries' : 'deadLetters');
      options.onFailure?.(job?.id ?? '?', error.message);
    });
    worker.on('stalled', () => count('stalled'));
    worker.on('error', () => undefined); // connection errors: ioredis reconnects
    const started = Date.now();
    const advert = (draining: boolean): WorkerAdvert => ({
      name: options.name, slots: judge.capacity.slots, harnessSlots: judge.capacity.harnessSlots,
      languages: Object.entries(toolchains).filter(([, v]) => v !== null).map(([id]) => id), crucibleVersion: options.crucibleVersion,
      startedAtMs: started, refreshedAtMs: Date.now(), draining, pid: process.pid, host: hostname(), concurrency, inFlight,
    });
    await worker.waitUntilReady();
    await advertise(redis, options.location, advert(false));
    const refresh = setInterval(() => void advertise(redis, options.location, advert(false)).catch(() => undefined), ADVERT_TTL_MS / 3);
    let draining: Promise<void> | undefined;
    return {
      name: options.name, concurrency, completed: () => completed,
      drain(): Promise<void> {
        draining ??= (async () => {
          clearInterval(refresh);
          await advertise(redis, options.location, advert(true)).catch(() => undefined);
          await worker.close(); // waits for the jobs it holds
          await withdraw(redis, options.location, options.name).catch(() => undefined);
          await judge.close();
          workerConnection.disconnect();
          redis.disconnect();
        })();
        return draining;
      },
    };
  } catch (error) {
    redis.disconnect();
    await judge.close();
    throw error;
  }
}

/** What a job attempt needs. */
interface JobContext {
  readonly judge: Judge;
  readonly datasets: DatasetFetcher;
  readonly provenance: (language: string | undefined) => WorkerProvenance;
  readonly signal?: AbortSignal;
}

/** One job attempt: validate, judge, answer. @throws UnrecoverableError (bad payload), AttemptFailed (retry). */
async function processJob(data: unknown, context: JobContext): Promise<JobAnswer> {
  const parsed = jobPayloadSchema.safeParse(data);
  if (!parsed.success) throw new UnrecoverableError(`invalid job payload: ${zodMessage(parsed.error)}`);
  const payload: JobPayload = parsed.data;
  const call = context.signal === undefined ? {} : { signal: context.signal };
  if (payload.kind === 'batch') {
    // Every request at once: the local judge runs them on its slots (and deduplicates identical programs).
    const results = await Promise.all(payload.items.map((item) => judgeOne(item, context)));
    return { kind: 'batch', results, provenance: results[0]?.provenance ?? context.provenance(undefined) };
  }
  if (payload.kind === 'judge') return judgeOne(payload, context);
  const by = context.provenance(payload.kind === 'plain' ? payload.request.program.language : payload.kind === 'harness' ? 'python' : undefined);
  const worker = by.worker;
  // Limits outside LIMIT_RANGES are the request's error, answered before anything runs.
  const limits = jobLimitsProblem(payload);
  if (limits !== null) return { kind: 'request_error', message: limits.message, field: limits.field, provenance: by };
  if (payload.kind === 'plain') {
    const { files, ...request } = payload.request;
    const outcome = await context.judge.runPlain(files === undefined ? request : { ...request,
      files: Object.fromEntries(Object.entries(files).map(([path, b64]) => [path, new Uint8Array(Buffer.from(b64, 'base64'))])) }, call);
    const failed = [outcome.compile, outcome.run].find((r) => r?.status === 'internal_error');
    if (failed) throw new AttemptFailed(`on worker ${worker}: ${failed.reason ?? 'internal_error'}`);
    return { kind: 'plain', compile: outcome.compile, run: outcome.run, provenance: by };
  }
  if (payload.kind === 'harness') {
    const response = await context.judge.runHarness(payload.job as HarnessJob, call);
    if (response.status === 'internal_error') throw new AttemptFailed(`on worker ${worker}: ${response.reason ?? 'internal_error'}`);
    return { kind: 'harness', response, provenance: by };
  }
  if (payload.kind === 'package') return runPackage(payload.request, context, by);
  const problem = payload.problem;
  if ('datasetHash' in problem) await context.datasets.ensure(problem.datasetHash);
  try {
    return { kind: 'tests', tests: await context.judge.describeTests(problem, call), provenance: by };
  } catch (error) {
    if (error instanceof JudgeRequestError) return { kind: 'request_error', message: error.message, field: error.field, provenance: by };
    throw error;
  }
}

/**
 * One contest-package job: its outcome, or the judge's refusal.
 * @throws AttemptFailed when Crucible failed on it (the job is retried, perhaps elsewhere).
 */
async function runPackage(request: PackageRequest, context: JobContext, by: WorkerProvenance): Promise<JobAnswer> {
  try {
    const result = await context.judge.runPackage(request, context.signal === undefined ? {} : { signal: context.signal });
    if ('error' in result) throw new AttemptFailed(`on worker ${by.worker}: ${result.error}`);
    return { kind: 'package', outcome: result.outcome, provenance: by };
  } catch (error) {
    if (error instanceof JudgeRequestError) return { kind: 'request_error', message: error.message, field: error.field, provenance: by };
    throw error;
  }
}

/**
 * One `judge` request (alone or in a batch): its verdict, or the judge's refusal.
 * @throws AttemptFailed on an `internal_error` verdict (the whole job is retried, perhaps elsewhere).
 */
async function judgeOne(payload: Extract<JobPayload, { kind: 'judge' }>, context: JobContext): Promise<VerdictAnswer | RequestErrorAnswer> {
  const by = context.provenance(payload.request.program.language);
  const limits = jobLimitsProblem(payload);
  if (limits !== null) return { kind: 'request_error', message: limits.message, field: limits.field, provenance: by };
  const problem = payload.request.problem;
  if ('datasetHash' in problem) await context.datasets.ensure(problem.datasetHash);
  try {
    const verdict = await context.judge.judge(payload.request, { ...(context.signal === undefined ? {} : { signal: context.signal }), detail: payload.detail });
    if (verdict.status === 'internal_error') throw new AttemptFailed(`on worker ${by.worker}: ${verdict.reason ?? 'internal_error'}`);
    return { kind: 'verdict', verdict: payload.detail ? verdict : plainVerdict(verdict), provenance: by };
  } catch (error) {
    if (error instanceof JudgeRequestError) return { kind: 'request_error', message: error.message, field: error.field, provenance: by };
    throw error;
  }
}

/** Datasets fetched from Redis once per worker into the local judge's catalog. */
class DatasetFetcher {
  private readonly fetching = new Map<string, Promise<void>>();

  constructor(private readonly redis: Redis, private readonly location: QueueLocation, private readonly judge: Judge) {}

  /** @throws AttemptFailed when the dataset is not in Redis or does not validate. */
  ensure(datasetHash: string): Promise<void> {
    if (this.judge.catalog.has(datasetHash)) return Promise.resolve();
    let pending = this.fetching.get(datasetHash);
    if (pending === undefined) {
      pending = this.fetch(datasetHash).finally(() => this.fetching.delete(datasetHash));
      this.fetching.set(datasetHash, pending);
    }
    return pending;
  }

  private async fetch(datasetHash: string): Promise<void> {
    const text = await this.redis.get(datasetKey(this.location.prefix, this.location.queueName, datasetHash));
    const short = datasetHash.slice(0, 12);
    if (text === null) throw new AttemptFailed(`dataset ${short} is not in Redis (its front end ships it before its first job)`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new AttemptFailed(`dataset ${short} in Redis is not JSON`);
    }
    const parsed = shippedDatasetSchema.safeParse(json);
    if (!parsed.success) throw new AttemptFailed(`dataset ${short} in Redis does not validate: problems.${zodMessage(parsed.error)}`);
    this.judge.catalog.add(datasetHash, parsed.data.problems);
  }
}

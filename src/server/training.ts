/**
 * The dashboard and the live training feed of `crucible serve` (issue #16): when the server has a result store
 * (`ServeConfig.store`), the dashboard is mounted at `/ui` and every rollout the reward endpoints answer
 * (`/v1/rewards`, OpenRLHF `/get_reward`) becomes a training event of a training run, which the dashboard's training
 * page follows live. The run is the client's to name (the body's `trainingRun` or the `X-Crucible-Training-Run`
 * header, so several trainers can share one server); `ServeConfig.trainingRun` is only the default. A request's
 * `Idempotency-Key` (or `batchId`) keys its events by item index, so a batch the trainer retries is counted once. Events are buffered and written in batches by a
 * `TrainingRecorder`, so judging never waits on the database; a failed write is logged and counted, never turned
 * into a reward or an error of the request.
 */
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { registerDashboard } from '../dashboard/routes.js';
import { openResultStore } from '../store/open.js';
import type { ResultStore } from '../store/result-store.js';
import { TrainingRecorder } from '../store/training-recorder.js';
import type { SampleStatus, Verdict } from '../verdict/index.js';

/** Where the dashboard is mounted under `crucible serve`. */
export const DASHBOARD_PREFIX = '/ui';

/** One answered rollout, as the reward endpoints report it to the feed. Times in ms. */
export interface Rollout {
  readonly taskId: string;
  readonly reward: number;
  readonly status: SampleStatus;
  /** GRPO group key (rollouts of one prompt at one step), when the request gave or implied one. */
  readonly groupId?: string;
  /** Trainer step, when the request carried one. */
  readonly step?: number;
  readonly cpuMs?: number;
  readonly wallMs?: number;
  /** Request received to this item's answer, ms. */
  readonly latencyMs?: number;
  /** Idempotency key of the event (`<request key>#<item index>`), when the request had a key. */
  readonly eventKey?: string;
}

/** Header naming the training run of a request's rollouts. */
export const TRAINING_RUN_HEADER = 'x-crucible-training-run';

/** A training run name as the store takes it. */
export const TRAINING_RUN_NAME = /^[A-Za-z0-9.:@/_-]{1,200}$/;

/**
 * The rollout a reward endpoint answered: the problem, the reward, the verdict's status and resource use, and
 * the GRPO group and trainer step when the request gave them.
 */
export function rolloutOf(taskId: string, reward: number, verdict: Pick<Verdict, 'status' | 'cpuMs' | 'wallMs'>,
  context: { readonly groupId?: string; readonly step?: number | undefined; readonly latencyMs?: number; readonly eventKey?: string | undefined } = {}): Rollout {
  return { taskId, reward, status: verdict.status, cpuMs: verdict.cpuMs, wallMs: verdict.wallMs,
    ...(context.groupId === undefined ? {} : { groupId: context.groupId }),
    ...(context.step === undefined ? {} : { step: context.step }),
    ...(context.latencyMs === undefined ? {} : { latencyMs: context.latencyMs }),
    ...(context.eventKey === undefined ? {} : { eventKey: context.eventKey }) };
}

/** The training feed of a running server: `record` never throws into the judging path. */
export interface TrainingFeed {
  /** The default training run's name in the store (`--training-run`). */
  readonly run: string;
  /** The store the events go to (difficulty statistics and the curriculum read it). */
  readonly store: ResultStore;
  /** Record a rollout into training run `run` (default: the server's). */
  record(rollout: Rollout, run?: string): void;
  /** Write the buffered events of every training run (a reader that must see the rollouts just answered calls it first). */
  flush(): Promise<void>;
  /** Flush buffered events and close the store. */
  close(): Promise<void>;
}

/** A name for a training run of this server when none is configured: `serve-<ISO time to the second>`. */
export function defaultTrainingRunName(nowMs = Date.now()): string {
  return `serve-${new Date(nowMs).toISOString().slice(0, 19).replace(/:/g, '-')}`;
}

/**
 * Open the store named by `storeSpec` (a SQLite path or a `postgres://` URL), mount the dashboard on `app` at
 * `/ui`, and return the feed writing to training run `run`.
 * @throws StoreError when the store cannot be opened (the server does not start: a named store is a promise).
 */
export async function openTrainingFeed(app: FastifyInstance, storeSpec: string, run: string, logger: Logger): Promise<TrainingFeed> {
  const store: ResultStore = await openResultStore(storeSpec);
  try {
    await registerDashboard(app, { store, prefix: DASHBOARD_PREFIX });
  } catch (error) {
    await store.close();
    throw error;
  }
  let warned = false;
  const recorders = new Map<string, TrainingRecorder>();
  const recorderOf = (name: string): TrainingRecorder => {
    let recorder = recorders.get(name);
    if (recorder === undefined) {
      recorder = new TrainingRecorder(store, name, {
        onError: (error) => {
          // Once, then counted: a database that is down must not flood the log at the reward rate.
          if (!warned) logger.warn({ err: error, run: name }, 'training events not stored (the rewards were answered)');
          warned = true;
        },
      });
      recorders.set(name, recorder);
    }
    return recorder;
  };
  return {
    run,
    store,
    async flush(): Promise<void> {
      for (const recorder of recorders.values()) await recorder.flush();
    },
    record(rollout: Rollout, name = run): void {
      try {
        recorderOf(name).record(rollout);
      } catch (error) {
        logger.warn({ err: error, run: name }, 'training event refused');
      }
    },
    async close(): Promise<void> {
      for (const [name, recorder] of recorders) {
        await recorder.close();
        if (recorder.failedEvents > 0) logger.warn({ run: name, failedEvents: recorder.failedEvents }, 'training events lost');
      }
      await store.close();
    },
  };
}

/**
 * The one factory of judges for front ends: a `LocalJudge` on this machine's sandbox (`createJudge`,
 * `src/engine/factory.ts`), or, with `queue`, a `QueueJudge` on a fleet of `crucible worker`s through Redis
 * (`./queue-judge.ts`) with the same modes and limits. `crucible eval`, `rerank` and `serve` make their judge here,
 * so none of them chooses by hand; the queue's client (BullMQ, ioredis: ~0.5 s of start-up) is loaded only when a
 * queue is asked for.
 */
import type { Judge, JobPriority } from '../judge/judge.js';
import { createJudge, type JudgeOptions } from '../engine/factory.js';
import { OnDemandPostgres } from '../environments/postgres/on-demand.js';
import { queueLocation } from './connection.js';
import type { QueueJudge } from './queue-judge.js';

/**
 * How to make a judge: `JudgeOptions` for a local one; with `queue` (a `redis://HOST:PORT` URL) a judge on that
 * queue's fleet instead, whose calls name `tenant` and `priority` when they name none (the sandbox fields are then
 * the workers' business and ignored).
 */
export interface OpenJudgeOptions extends JudgeOptions {
  readonly queue?: string;
  readonly tenant?: string;
  readonly priority?: JobPriority;
}

/** A judge, and the queue judge behind it when it is one (its fleet's status and admission), else null. */
export interface OpenedJudge {
  readonly judge: Judge;
  readonly queue: QueueJudge | null;
}

/**
 * Make the judge `options` ask for.
 * @throws as `createJudge` (no isolation, a broken language file); for a queue: a bad URL (`queueLocation`), or
 *   Redis unreachable.
 */
export async function openJudge(options: OpenJudgeOptions): Promise<OpenedJudge> {
  if (options.queue === undefined) {
    // PostgreSQL problems need a server: one starts on the first such job (OnDemandPostgres), none otherwise.
    return { judge: createJudge({ ...options, sqlEngines: options.sqlEngines ?? [new OnDemandPostgres()] }), queue: null };
  }
  const location = queueLocation(options.queue);
  const { QueueJudge: Queued } = await import('./queue-judge.js');
  const queue = await Queued.connect(location, {
    ...options.modes === undefined ? {} : { modes: options.modes },
    ...options.limits === undefined ? {} : { limits: options.limits },
    ...options.tenant === undefined ? {} : { tenant: options.tenant },
    ...options.priority === undefined ? {} : { priority: options.priority },
  });
  return { judge: queue, queue };
}

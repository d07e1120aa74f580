/**
 * The fleet as Redis knows it: each `crucible worker` advertises itself (`WorkerAdvert`) under a key with a time
 * to live that it refreshes, so a worker that died drops out within `ADVERT_TTL_MS`. Front ends size how many
 * requests they keep in flight from the sum of the live workers' capacity.
 */
import type { Redis } from 'ioredis';
import type { QueueLocation } from './connection.js';
import { statsKey, workerAdvertSchema, workerKey, type WorkerAdvert } from './wire.js';

/** How long an advertisement lives without a refresh, ms; workers refresh it every third of that. */
export const ADVERT_TTL_MS = 15_000;

/** Publish (or refresh) a worker's advertisement. */
export async function advertise(redis: Redis, location: QueueLocation, advert: WorkerAdvert): Promise<void> {
  await redis.set(workerKey(location.prefix, location.queueName, advert.name), JSON.stringify(advert), 'PX', ADVERT_TTL_MS);
}

/** Remove a worker's advertisement (it stopped). */
export async function withdraw(redis: Redis, location: QueueLocation, name: string): Promise<void> {
  await redis.del(workerKey(location.prefix, location.queueName, name));
}

/**
 * The live workers' advertisements, by name. Entries that do not validate (another version, corruption) are
 * left out and named in `invalid`.
 */
export async function readFleet(redis: Redis, location: QueueLocation): Promise<{ workers: WorkerAdvert[]; invalid: string[] }> {
  const pattern = workerKey(location.prefix, location.queueName, '*');
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    keys.push(...found);
  } while (cursor !== '0');
  const values = keys.length === 0 ? [] : await redis.mget(keys);
  const workers: WorkerAdvert[] = [];
  const invalid: string[] = [];
  values.forEach((value, i) => {
    if (value === null) return; // expired between SCAN and MGET
    let json: unknown;
    try {
      json = JSON.parse(value);
    } catch {
      invalid.push(keys[i]!);
      return;
    }
    const parsed = workerAdvertSchema.safeParse(json);
    if (parsed.success) workers.push(parsed.data);
    else invalid.push(keys[i]!);
  });
  workers.sort((a, b) => a.name.localeCompare(b.name));
  return { workers, invalid };
}

/** Requests worth keeping in flight for a fleet: as `LocalJudge` does per machine, twice its slots or boxes. */
export function fleetConcurrency(workers: readonly WorkerAdvert[]): number {
  return workers.filter((w) => !w.draining).reduce((sum, w) => sum + 2 * Math.max(w.slots, w.harnessSlots), 0);
}

/** Jobs of the queue by BullMQ state (`prioritized`: waiting jobs added with a priority). */
export interface QueueDepth {
  readonly waiting: number;
  readonly prioritized: number;
  readonly delayed: number;
  readonly active: number;
  readonly completed: number;
  /** The dead letters: jobs that failed every attempt (kept `KEEP_FINISHED_S`, `queue-judge.ts`). */
  readonly failed: number;
}

/** The fleet's counters (`statsKey`, `wire.ts`), since the queue was made. */
export interface FleetCounters {
  readonly retries: number;
  readonly stalled: number;
  readonly deadLetters: number;
}

/** What `crucible queue status` prints and `/metrics` exports: the queue's depth, the fleet and its counters. */
export interface FleetStatus {
  readonly depth: QueueDepth;
  readonly workers: readonly WorkerAdvert[];
  readonly counters: FleetCounters;
  /** Jobs waiting for a worker (waiting + prioritized + delayed). */
  readonly backlog: number;
  /** Sum of the live, non-draining workers' slots (programs running at once across the fleet). */
  readonly slots: number;
}

/**
 * Read the queue's depth (BullMQ's keys: lists `wait` and `active`, sorted sets `prioritized`, `delayed`,
 * `completed`, `failed`, as BullMQ's `getJobCounts` reads them) and counters in one round trip, and the fleet.
 */
export async function readFleetStatus(redis: Redis, location: QueueLocation): Promise<FleetStatus> {
  const key = (name: string): string => `${location.prefix}:${location.queueName}:${name}`;
  const replies = await redis.multi()
    .llen(key('wait')).zcard(key('prioritized')).zcard(key('delayed')).llen(key('active')).zcard(key('completed')).zcard(key('failed'))
    .hgetall(statsKey(location.prefix, location.queueName)).exec();
  const value = (i: number): unknown => {
    const [error, result] = replies?.[i] ?? [new Error('no reply'), null];
    if (error) throw error;
    return result;
  };
  const count = (i: number): number => Number(value(i));
  const stats = (value(6) ?? {}) as Record<string, string>;
  const stat = (name: string): number => Number(stats[name] ?? 0) || 0;
  const depth: QueueDepth = { waiting: count(0), prioritized: count(1), delayed: count(2), active: count(3), completed: count(4), failed: count(5) };
  const { workers } = await readFleet(redis, location);
  return {
    depth, workers, backlog: depth.waiting + depth.prioritized + depth.delayed,
    slots: workers.filter((w) => !w.draining).reduce((sum, w) => sum + w.slots, 0),
    counters: { retries: stat('retries'), stalled: stat('stalled'), deadLetters: stat('deadLetters') },
  };
}

/** Count one event of the fleet (a worker calls this; failures to count are ignored by the caller). */
export async function countFleetEvent(redis: Redis, location: QueueLocation, counter: keyof FleetCounters): Promise<void> {
  await redis.hincrby(statsKey(location.prefix, location.queueName), counter, 1);
}

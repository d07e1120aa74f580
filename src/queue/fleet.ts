/**
 * The fleet as Redis knows it: each `crucible worker` advertises itself (`WorkerAdvert`) under a key with a time
 * to live that it refreshes, so a worker that died drops out within `ADVERT_TTL_MS`. Front ends size how many
 * requests they keep in flight from the sum of the live workers' capacity.
 */
import type { Redis } from 'ioredis';
import type { QueueLocation } from './connection.js';
import { workerAdvertSchema, workerKey, type WorkerAdvert } from './wire.js';

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

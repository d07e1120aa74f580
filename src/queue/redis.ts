/** Redis connections (ioredis) to a queue's location. */
import { Redis } from 'ioredis';
import { QueueUnreachableError, type QueueLocation } from './connection.js';

/**
 * A new Redis connection. `maxRetriesPerRequest: null` is what BullMQ asks of the connections it blocks on
 * (commands wait for a reconnection instead of failing after a few retries). Connection errors are not printed:
 * ioredis reconnects, and an unreachable Redis is reported once by `reachable`.
 */
export function redisConnection(location: QueueLocation): Redis {
  const redis = new Redis(location.url, { maxRetriesPerRequest: null, lazyConnect: false });
  redis.on('error', () => undefined);
  return redis;
}

/**
 * Wait until Redis answers a PING (the connection retries meanwhile).
 * @throws QueueUnreachableError naming the URL after `timeoutMs` (default 10 000 ms).
 */
export async function reachable(redis: Redis, location: QueueLocation, timeoutMs = 10_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new QueueUnreachableError(`--queue ${location.url}: Redis does not answer (waited ${timeoutMs / 1000} s)`)), timeoutMs);
  });
  try {
    await Promise.race([redis.ping(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

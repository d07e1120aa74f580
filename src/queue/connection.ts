/**
 * Where the queue is: a `redis://[user:password@]HOST:PORT[/DB]` URL, parsed and checked once (connections are
 * made in `redis.ts`, so that commands that only check a URL do not load the Redis client).
 * `crucible worker --queue` and `crucible eval --queue` take the URL.
 */
import { z } from 'zod';
import { DEFAULT_PREFIX, DEFAULT_QUEUE_NAME } from './wire.js';

/** A queue's location: the Redis URL, the key prefix and the queue name (defaults `crucible`, `judge`). */
export interface QueueLocation {
  readonly url: string;
  readonly prefix: string;
  readonly queueName: string;
}

const urlSchema = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '' && url.port !== '';
  } catch {
    return false;
  }
}, 'expected redis://HOST:PORT (or rediss:// for TLS), with an explicit port');

/** Thrown for a queue URL that is not `redis://HOST:PORT[/DB]`. */
export class QueueUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueueUrlError';
  }
}

/** Thrown when Redis does not answer at the queue's URL (`reachable`, `redis.ts`). */
export class QueueUnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueueUnreachableError';
  }
}

/** Check a queue URL and fill in the defaults. @throws QueueUrlError naming the URL. */
export function queueLocation(url: string, options: { prefix?: string; queueName?: string } = {}): QueueLocation {
  const parsed = urlSchema.safeParse(url);
  if (!parsed.success) throw new QueueUrlError(`--queue ${JSON.stringify(url)}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return { url, prefix: options.prefix ?? DEFAULT_PREFIX, queueName: options.queueName ?? DEFAULT_QUEUE_NAME };
}

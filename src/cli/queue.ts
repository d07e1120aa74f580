/**
 * `crucible queue status --queue redis://HOST:PORT [--json]`: the fleet as Redis knows it — each live worker
 * (name, host, slots, jobs held at its last advert, languages, draining), the queue's depth by state and the
 * fleet's counters (retries, stalled jobs, dead letters). Reads only; see docs/SCALING.md.
 */
import type { Command } from 'commander';
import { queueLocation, QueueUnreachableError, QueueUrlError } from '../queue/connection.js';
import type { FleetStatus } from '../queue/fleet.js';
import { registerUserError } from './errors.js';

registerUserError(QueueUrlError);
registerUserError(QueueUnreachableError);

/** The status as a table for people. */
export function fleetText(url: string, status: FleetStatus): string {
  const { depth, counters } = status;
  const lines = [`queue ${url}: ${status.backlog} waiting for a worker (${depth.waiting} waiting, ${depth.prioritized} prioritized, ` +
    `${depth.delayed} delayed), ${depth.active} active, ${depth.completed} completed kept, ${depth.failed} dead letters kept`];
  lines.push(`fleet: ${status.workers.length} workers, ${status.slots} slots; since the queue was made: ${counters.retries} retries, ` +
    `${counters.stalled} stalled jobs recovered, ${counters.deadLetters} dead letters`);
  if (status.workers.length > 0) {
    const rows = status.workers.map((w) => [w.name, w.host, String(w.slots), `${w.inFlight}/${w.concurrency ?? '?'}`,
      w.draining ? 'draining' : 'taking jobs', `${Math.round((Date.now() - w.startedAtMs) / 1000)} s`, w.languages.join(',')]);
    const header = ['worker', 'host', 'slots', 'in flight', 'state', 'up', 'languages'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const row = (cells: readonly string[]): string => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
    lines.push('', row(header), ...rows.map(row));
  }
  return lines.join('\n') + '\n';
}

/** Add `queue` (with `queue status`) to the program. */
export function register(program: Command): void {
  const queue = program.command('queue').description('inspect a Redis queue of `crucible worker`s (see docs/SCALING.md)');
  queue.command('status')
    .description('print the fleet: workers, slots, jobs in flight, languages, queue depth, retries and dead letters')
    .requiredOption('--queue <url>', 'the queue: redis://HOST:PORT')
    .option('--json', 'print one JSON object')
    .action(async (flags: { queue: string; json?: boolean }) => {
      const location = queueLocation(flags.queue);
      // Loaded only here: the Redis client costs every other command start-up time.
      const { reachable, redisConnection } = await import('../queue/redis.js');
      const { readFleetStatus } = await import('../queue/fleet.js');
      const redis = redisConnection(location);
      try {
        await reachable(redis, location);
        const status = await readFleetStatus(redis, location);
        process.stdout.write(flags.json === true ? JSON.stringify(status) + '\n' : fleetText(location.url, status));
      } finally {
        redis.disconnect();
      }
    });
}

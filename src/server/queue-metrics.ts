/**
 * `/metrics` of a server judging on a queue's fleet (`crucible serve --queue`): what Redis says about the queue
 * and the fleet, read once per scrape (`readFleetStatus`, one round trip plus the workers' adverts), and the
 * end-to-end latency of this server's jobs (from adding a job to its result), by job kind.
 *
 * Series: `crucible_fleet_queue_jobs{state}` (waiting, prioritized, delayed, active, completed, failed: the
 * failed set is the dead letters kept), `crucible_fleet_workers`, `crucible_fleet_slots`,
 * `crucible_fleet_worker_jobs_in_flight{worker}` and `crucible_fleet_worker_slots{worker}` (as each worker last
 * advertised, every 5 s), `crucible_fleet_retries_total`, `crucible_fleet_stalled_jobs_total`,
 * `crucible_fleet_dead_letters_total` (counted by the workers since the queue was made), and the histogram
 * `crucible_queue_job_duration_seconds{kind}`. A scrape while Redis does not answer keeps the last values and
 * sets `crucible_fleet_up` to 0.
 */
import type { FleetStatus } from '../queue/fleet.js';
import type { QueueJudge } from '../queue/queue-judge.js';
import { Histogram, LATENCY_BUCKETS_SECONDS, Sampled, SampledSeries, type Registry } from './metrics.js';

/** Add the fleet's metrics to `registry`, read from `judge`'s queue at each scrape. */
export function addQueueMetrics(registry: Registry, judge: QueueJudge): void {
  let status: FleetStatus | null = null;
  let up = 0;
  registry.onScrape(async () => {
    try {
      status = await judge.fleetStatus();
      up = 1;
    } catch {
      up = 0;
    }
  });
  const latency = registry.add(new Histogram('crucible_queue_job_duration_seconds',
    'Seconds from adding a job to the queue to its result (queue wait + judging on a worker + transport), by job kind.', LATENCY_BUCKETS_SECONDS));
  judge.onLatency((kind, seconds) => latency.observe({ kind }, seconds));
  registry.add(new Sampled('crucible_fleet_up', 'Whether Redis answered the last scrape (1) or not (0: the fleet figures are the last known).', 'gauge', () => up));
  registry.add(new SampledSeries('crucible_fleet_queue_jobs', 'Jobs in the queue by BullMQ state (failed: dead letters kept for an hour).', 'gauge',
    () => status === null ? [] : Object.entries(status.depth).map(([state, value]) => ({ labels: { state }, value }))));
  registry.add(new Sampled('crucible_fleet_workers', 'Live workers advertising themselves (draining ones included).', 'gauge', () => status?.workers.length ?? 0));
  registry.add(new Sampled('crucible_fleet_slots', 'Sandbox slots of the live, non-draining workers.', 'gauge', () => status?.slots ?? 0));
  registry.add(new SampledSeries('crucible_fleet_worker_jobs_in_flight', 'Jobs each worker held at its last advert.', 'gauge',
    () => (status?.workers ?? []).map((w) => ({ labels: { worker: w.name }, value: w.inFlight }))));
  registry.add(new SampledSeries('crucible_fleet_worker_slots', 'Sandbox slots of each worker.', 'gauge',
    () => (status?.workers ?? []).map((w) => ({ labels: { worker: w.name }, value: w.slots }))));
  registry.add(new Sampled('crucible_fleet_retries_total', 'Job attempts that failed inside Crucible on a worker and were retried.', 'counter', () => status?.counters.retries ?? 0));
  registry.add(new Sampled('crucible_fleet_stalled_jobs_total', 'Jobs taken back from a worker that stopped renewing its lock (died) and queued again.', 'counter', () => status?.counters.stalled ?? 0));
  registry.add(new Sampled('crucible_fleet_dead_letters_total', 'Jobs that failed for good (every attempt, or lost their worker too often): internal_error.', 'counter', () => status?.counters.deadLetters ?? 0));
}

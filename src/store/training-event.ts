/**
 * Training reward events: what `crucible serve` (or any trainer-side caller) reports per judged rollout so the
 * dashboard's training page can follow an RL run live. Validated with one schema at every entry (HTTP body,
 * library call); docs/DASHBOARD.md ("Training events") documents it for callers.
 */
import { z } from 'zod';
import { SAMPLE_STATUSES, type SampleStatus } from '../verdict/index.js';
import { StoreError } from './errors.js';

/** One judged rollout of a training run. */
export interface TrainingEvent {
  /** The problem (prompt) the rollout answered. */
  readonly taskId: string;
  /** The reward given (any finite number: binary, fraction, shaped). */
  readonly reward: number;
  /** The rollout's verdict status. */
  readonly status: SampleStatus;
  /** Whether every test passed (default: status is `passed`). */
  readonly passed: boolean;
  /** Trainer step, when the caller knows it (buckets are steps when every event has one, else minutes). */
  readonly step?: number;
  /** GRPO group: rollouts of one prompt at one step share it (zero-variance groups give no gradient). */
  readonly groupId?: string;
  /** When it was judged, epoch ms (default: when recorded). */
  readonly timeMs: number;
  readonly cpuMs?: number;
  readonly wallMs?: number;
  /** Latency of the reward call that carried the event (request received to answer), ms. */
  readonly latencyMs?: number;
  /**
   * Idempotency key, unique within the training run: an event whose key the run holds already is not stored again
   * (a retried batch counts once). `crucible serve` makes it from the request's `Idempotency-Key` and the item's
   * index; ingest callers give `eventKey`, or the batch's `Idempotency-Key` header keys its events by index.
   */
  readonly eventKey?: string;
}

const statusSet = new Set<string>(SAMPLE_STATUSES);

/** Schema of a training event as received (JSON); `passed` and `timeMs` get their defaults. */
export const trainingEventSchema = z.object({
  taskId: z.string().min(1).max(1000),
  reward: z.number().finite(),
  status: z.string().refine((s) => statusSet.has(s), { message: `status must be one of ${SAMPLE_STATUSES.join(', ')}` }),
  passed: z.boolean().optional(),
  step: z.number().int().nonnegative().optional(),
  groupId: z.string().min(1).max(1000).optional(),
  timeMs: z.number().int().nonnegative().optional(),
  cpuMs: z.number().finite().nonnegative().optional(),
  wallMs: z.number().finite().nonnegative().optional(),
  latencyMs: z.number().finite().nonnegative().optional(),
  eventKey: z.string().min(1).max(300).optional(),
}).strict();

/** What callers may pass: `passed` and `timeMs` optional. */
export type TrainingEventInput = z.input<typeof trainingEventSchema>;

/** Body of `POST …/api/training/:run/events`. */
export const trainingEventsBodySchema = z.object({
  events: z.array(trainingEventSchema).min(1).max(10_000),
}).strict();

/**
 * Validate one event and fill its defaults.
 * @throws StoreError `invalid_event` naming the field (and `where`, e.g. `events[3]`).
 */
export function parseTrainingEvent(value: unknown, where = 'event', nowMs = Date.now()): TrainingEvent {
  const parsed = trainingEventSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = [where, ...issue.path].join('.');
    throw new StoreError('invalid_event', `${field}: ${issue.message}`);
  }
  return normaliseEvent(parsed.data, nowMs);
}

/** Fill the defaults of a validated event. */
export function normaliseEvent(event: z.output<typeof trainingEventSchema>, nowMs = Date.now()): TrainingEvent {
  const status = event.status as SampleStatus;
  return {
    taskId: event.taskId,
    reward: event.reward,
    status,
    passed: event.passed ?? status === 'passed',
    timeMs: event.timeMs ?? nowMs,
    ...(event.step === undefined ? {} : { step: event.step }),
    ...(event.groupId === undefined ? {} : { groupId: event.groupId }),
    ...(event.cpuMs === undefined ? {} : { cpuMs: event.cpuMs }),
    ...(event.wallMs === undefined ? {} : { wallMs: event.wallMs }),
    ...(event.latencyMs === undefined ? {} : { latencyMs: event.latencyMs }),
    ...(event.eventKey === undefined ? {} : { eventKey: event.eventKey }),
  };
}

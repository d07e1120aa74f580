/**
 * What every session environment is: a `start` that gives the first observation, `step(action)`, `reset` to a
 * pristine environment of the same task, and `close` that leaves nothing behind. The manager
 * (`src/sessions/manager.ts`) serialises calls on one environment; environments need no locking of their own.
 */
import type { Observation, SessionLimits, StepOutcome } from '../types.js';

/** One environment instance (one session). */
export interface Environment {
  /** Start (or restart after `close`) and return the first observation. @throws SessionError('invalid_task'), Error */
  start(signal?: AbortSignal): Promise<Observation>;
  /**
   * Take one action: validated here (@throws SessionError('invalid_action') naming the field), then run under
   * the session's per-step limits. Never throws for what the action's program does (that is the observation).
   */
  step(action: unknown, signal?: AbortSignal): Promise<StepOutcome>;
  /** Release everything (processes, files, cgroups, slot). Idempotent; never throws. */
  close(): Promise<void>;
}

/** How an environment is made from a session's task and limits. */
export type EnvironmentFactory = (task: unknown, limits: SessionLimits) => Environment;

/**
 * Shared types of sessions: the environments, the per-step limits, what one step observes, and the errors a
 * session operation raises. Plain, readonly data with units in the names (ms, KiB, bytes, chars, seconds).
 */
import { LIMIT_RANGES, type LimitRange, type LimitUnit } from '../limits.js';
import type { ExecutionStatus } from '../sandbox/types.js';
import type { SampleStatus } from '../verdict/index.js';

/** The environments a session can be (each a module of `src/sessions/environments/`). */
export const ENVIRONMENT_KINDS = ['python', 'bash', 'sqlite', 'program'] as const;
export type EnvironmentKind = (typeof ENVIRONMENT_KINDS)[number];

/**
 * Limits of a session, enforced per step from outside the box (except `maxSteps`, `diskKiB`, `ttlSeconds`):
 * - `cpuMs`: CPU time of the step's whole process tree (the session sub-cgroup's counter delta), ms.
 * - `wallMs`: wall-clock bound of one step, ms (catches sleepers).
 * - `memoryKiB`: memory of the session's processes (cgroup limit of the sub-group; tmpfs files count too), KiB.
 * - `processes`: processes + threads the session's tree may hold at once (pids.max).
 * - `outputBytes`: bytes of stdout and of stderr each a step may write; more is `output_limit_exceeded`.
 * - `diskKiB`: the session's writable space, KiB: /box, /tmp and /dev/shm are one tmpfs of this size each,
 *   kept between steps (files persist), gone with the session.
 * - `maxSteps`: steps a session may take; the last one answers `done: true`, later ones are refused.
 * - `maxSubmits`: `submit` actions a `program` session may take over its whole life (resets included): the last
 *   one answers `done: true`, later ones are refused. Bounds what a policy can learn about hidden tests from
 *   pass/fail signals (issue #23).
 * - `feedbackChars`: budget of a `program` submit's feedback text, characters.
 */
export interface SessionLimits {
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly memoryKiB: number;
  readonly processes: number;
  readonly outputBytes: number;
  readonly diskKiB: number;
  readonly maxSteps: number;
  readonly maxSubmits: number;
  readonly feedbackChars: number;
}

/**
 * Defaults of `SessionLimits`: 2 s CPU, 10 s wall, 256 MiB, 64 processes, 64 KiB output, 64 MiB disk, 1000 steps,
 * 10 submits.
 */
export const DEFAULT_SESSION_LIMITS: SessionLimits = {
  cpuMs: 2000,
  wallMs: 10_000,
  memoryKiB: 256 * 1024,
  processes: 64,
  outputBytes: 64 * 1024,
  diskKiB: 64 * 1024,
  maxSteps: 1000,
  maxSubmits: 10,
  feedbackChars: 2000,
};

/** Inclusive ranges a caller may ask for, with their units: the session rows of `LIMIT_RANGES` (`src/limits.ts`). */
export const SESSION_LIMIT_RANGES: { readonly [K in keyof SessionLimits]: LimitRange & { readonly unit: LimitUnit } } = {
  cpuMs: { ...LIMIT_RANGES.sessionCpuMs, unit: 'ms' },
  wallMs: { ...LIMIT_RANGES.sessionWallMs, unit: 'ms' },
  memoryKiB: { ...LIMIT_RANGES.sessionMemoryKiB, unit: 'KiB' },
  processes: { ...LIMIT_RANGES.processes, unit: 'count' },
  outputBytes: { ...LIMIT_RANGES.sessionOutputBytes, unit: 'bytes' },
  diskKiB: { ...LIMIT_RANGES.diskKiB, unit: 'KiB' },
  maxSteps: { ...LIMIT_RANGES.steps, unit: 'count' },
  maxSubmits: { ...LIMIT_RANGES.submits, unit: 'count' },
  feedbackChars: { ...LIMIT_RANGES.feedbackChars, unit: 'count' },
};

/**
 * What one step observed. `status` is the step's execution status (`ok`, `runtime_error`, `time_limit_exceeded`,
 * `memory_limit_exceeded`, `output_limit_exceeded`, `internal_error`) or, for a `program` submit, the verdict's
 * sample status. `exitCode` is the step's (a REPL step: 0, or 1 after an exception; a shell: the command's
 * status); null when the step was killed. `cpuMs`/`wallMs`/`memoryKiB` are the step's own (memory: peak of the
 * session's tree during the step). `restarted`: the environment's process was killed or ended and a fresh one
 * started; `notice` says what was lost. Environment-specific fields: `columns`/`rows`/`rowsTruncated` (sqlite),
 * `verdict`/`feedback`/`failingTest` (program submit).
 */
export interface Observation {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number | null;
  readonly status: ExecutionStatus | SampleStatus;
  readonly signal?: string | null;
  readonly cpuMs?: number;
  readonly wallMs?: number;
  readonly memoryKiB?: number;
  readonly stdoutTruncated?: boolean;
  readonly stderrTruncated?: boolean;
  readonly reason?: string;
  readonly restarted?: boolean;
  readonly notice?: string;
  readonly [extra: string]: unknown;
}

/** One step's answer: the observation, the reward (null where the environment gives none) and `done`. */
export interface StepOutcome {
  readonly observation: Observation;
  readonly reward: number | null;
  readonly done: boolean;
}

/** Error codes of session operations (the server maps them to HTTP statuses). */
export type SessionErrorCode = 'unknown_session' | 'invalid_action' | 'invalid_task' | 'session_limit' | 'session_done' | 'closed';

/**
 * A session operation that cannot be done as asked: an unknown (or evicted) id, an action or task the
 * environment cannot take (`field` names it), no room for another session, a session past its step limit, a
 * closed manager. Never raised for what a step's program does (that is the observation's status).
 */
export class SessionError extends Error {
  override readonly name = 'SessionError';
  constructor(readonly code: SessionErrorCode, message: string, readonly field?: string) {
    super(message);
  }
}

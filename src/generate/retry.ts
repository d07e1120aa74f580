/**
 * When to try a failed request again: exponential backoff with full jitter (Brooker, "Exponential Backoff And
 * Jitter", AWS Architecture Blog, 2015: the wait before retry r is uniform in [0, min(cap, base · 2^(r-1))]),
 * a server's Retry-After taken as a floor, and two bounds: attempts per request and total time per request
 * (first attempt to last answer, waits included; the last attempt's time-out is shortened to fit).
 * Only transient causes are retried (`RETRYABLE`); a request the server refuses as wrong is not.
 */
import type { CallFailure, FailureCause } from './openai.js';

/** Retry bounds of one request. */
export interface RetryPolicy {
  /** Most attempts per request, the first included (1: never retry). */
  readonly maxAttempts: number;
  /** Backoff base, ms. */
  readonly baseDelayMs: number;
  /** Largest backoff (before a Retry-After floor), ms. */
  readonly maxDelayMs: number;
  /** Most time per request from its first attempt, waits included, ms. */
  readonly budgetMs: number;
}

/** Defaults: 8 attempts, 1 s base, 60 s cap, 30 min per request. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 8, baseDelayMs: 1000, maxDelayMs: 60_000, budgetMs: 30 * 60_000 };

/** Failure causes worth another attempt. */
export const RETRYABLE: ReadonlySet<FailureCause> = new Set<FailureCause>(['rate_limited', 'server_error', 'timeout', 'network', 'malformed']);

/**
 * The wait before the next attempt after attempt `attempt` (1-based) failed with `failure`, `elapsedMs` into the
 * request, ms; or null to give up (not retryable, attempts used up, or the wait would end past the budget).
 * `random` returns a uniform number in [0, 1).
 */
export function retryDelayMs(failure: CallFailure, attempt: number, elapsedMs: number, policy: RetryPolicy,
  random: () => number = Math.random): number | null {
  if (!RETRYABLE.has(failure.cause) || attempt >= policy.maxAttempts) return null;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const wait = failure.retryAfterMs !== undefined
    ? failure.retryAfterMs + random() * Math.min(policy.baseDelayMs, ceiling)
    : random() * ceiling;
  return elapsedMs + wait >= policy.budgetMs ? null : wait;
}

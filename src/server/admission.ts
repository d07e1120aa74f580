/**
 * Admission control: a bounded queue of work items in front of the judging pipeline.
 *
 * The unit is one *item* (one submission to judge, or one plain run), not one HTTP request: a rollout batch of
 * 2048 responses costs 2048. A request is admitted whole or not at all (`tryReserve(n)`), so a client never
 * receives half a batch judged and half refused. Admitted items then run through a semaphore of `maxInFlight`
 * (a small multiple of the sandbox slots, so a slot freed is refilled without a round trip through the event
 * loop); the rest wait in FIFO order. `outstanding` (admitted, not finished) never exceeds
 * `maxInFlight + capacity`, which bounds the memory the service holds for work it has accepted.
 *
 * An optional bound on the wait (`maxQueueWaitMs`) refuses a request, even with room in the queue, when the work
 * already ahead of it would take longer than that to reach a turn (estimated from the mean service time of recent
 * items): under a flood, callers get an honest `overloaded` + `Retry-After` at once instead of a long silent wait
 * that their own client time-out would turn into a failure. (Little's law: the wait is the work ahead over the rate.)
 *
 * On shutdown `failWaiting` rejects every item that has not started with `ShutdownError`; items already in
 * the sandbox finish.
 */

/** Raised for admitted items that never started because the server is shutting down. */
export class ShutdownError extends Error {
  override readonly name = 'ShutdownError';
}

export interface AdmissionOptions {
  /** Items judged at once. */
  readonly maxInFlight: number;
  /** Items admitted beyond `maxInFlight` that wait their turn. */
  readonly capacity: number;
  /**
   * Refuse a request when the estimated wait before its first item starts exceeds this many ms (the items ahead
   * of it beyond `maxInFlight`, times the mean item time, over `maxInFlight`). Absent: only `capacity` bounds it.
   */
  readonly maxQueueWaitMs?: number;
}

interface Waiter {
  readonly start: () => void;
  readonly fail: (error: Error) => void;
}

export class AdmissionQueue {
  readonly maxInFlight: number;
  readonly capacity: number;
  readonly maxQueueWaitMs: number | null;
  private outstandingItems = 0;
  private runningItems = 0;
  private readonly waiters: Waiter[] = [];
  /** Exponentially weighted mean of an item's service time, ms (for `Retry-After`). */
  private meanItemMs = 200;
  /** When (performance.now() ms) the last refused caller was told to come back (`retryAfterSeconds`). */
  private comebackAtMs = 0;
  /** Counters for metrics. */
  readonly stats = { admittedItems: 0, rejectedItems: 0, rejectedRequests: 0, completedItems: 0, cancelledItems: 0 };

  constructor(options: AdmissionOptions) {
    if (!(options.maxInFlight >= 1) || !(options.capacity >= 0)) throw new RangeError('admission: maxInFlight >= 1 and capacity >= 0');
    this.maxInFlight = Math.floor(options.maxInFlight);
    this.capacity = Math.floor(options.capacity);
    if (options.maxQueueWaitMs !== undefined && !(options.maxQueueWaitMs >= 0)) throw new RangeError('admission: maxQueueWaitMs >= 0');
    this.maxQueueWaitMs = options.maxQueueWaitMs ?? null;
  }

  /** Largest number of items the service holds at once (running + waiting). */
  get limit(): number {
    return this.maxInFlight + this.capacity;
  }

  get outstanding(): number {
    return this.outstandingItems;
  }

  get running(): number {
    return this.runningItems;
  }

  /** Items admitted and waiting for a turn. */
  get depth(): number {
    return this.waiters.length;
  }

  /**
   * Reserve room for `n` items, all or nothing. Returns false when the queue cannot take them now (no room, or
   * the wait ahead exceeds `maxQueueWaitMs`); every
   * reserved item must then go through `run` exactly once (or `release` when it turned out not to need it).
   */
  tryReserve(n: number): boolean {
    if (n === 0) return true;
    if (this.refusal(n) !== undefined) {
      this.stats.rejectedItems += n;
      this.stats.rejectedRequests++;
      return false;
    }
    this.outstandingItems += n;
    this.stats.admittedItems += n;
    return true;
  }

  /** Give back reservations that will not run. */
  release(n: number): void {
    this.outstandingItems = Math.max(0, this.outstandingItems - n);
  }

  /**
   * Run one reserved item when its turn comes. Rejects with `ShutdownError` if it never started, or with
   * `signal`'s reason when the caller cancels while the item waits (it then never starts and gives its place
   * back); a cancellation after the start is `work`'s to honour.
   */
  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    try {
      signal?.throwIfAborted();
      if (this.runningItems >= this.maxInFlight) {
        await this.waitTurn(signal);
      } else {
        this.runningItems++;
      }
      const startedMs = performance.now();
      try {
        return await work();
      } finally {
        this.meanItemMs = 0.9 * this.meanItemMs + 0.1 * (performance.now() - startedMs);
        this.stats.completedItems++;
        const next = this.waiters.shift();
        // The slot passes straight to the next waiter: `runningItems` stays the same.
        if (next) next.start();
        else this.runningItems--;
      }
    } finally {
      this.outstandingItems--;
    }
  }

  /** Wait for a running item to hand over its place; leave the line when `signal` aborts. */
  private waitTurn(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((start, fail) => {
      const onAbort = (): void => {
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
        this.stats.cancelledItems++;
        fail(signal!.reason ?? new DOMException('the operation was aborted', 'AbortError'));
      };
      const waiter: Waiter = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          start();
        },
        fail: (error) => {
          signal?.removeEventListener('abort', onAbort);
          fail(error);
        },
      };
      this.waiters.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Why `n` items cannot be reserved now (the queue's room, then the wait bound), or undefined when they can: the
   * one test `tryReserve` applies, worded for the caller's `overloaded` answer.
   */
  refusal(n: number): string | undefined {
    const held = this.outstandingItems;
    if (held + n > this.limit) return `the judging queue is full (${held} items held, limit ${this.limit})`;
    if (this.maxQueueWaitMs !== null && this.waitAheadMs() > this.maxQueueWaitMs) {
      return `the judging queue's wait exceeds ${this.maxQueueWaitMs} ms (${held} items held, about ${Math.round(this.waitAheadMs())} ms of work ahead)`;
    }
    return undefined;
  }

  /**
   * Estimated ms before a newcomer's first item starts: the items that would wait ahead of it (outstanding beyond
   * `maxInFlight`, plus one: it waits for the next place) times the mean item time, over `maxInFlight`; 0 while a
   * place is free.
   */
  waitAheadMs(): number {
    const ahead = this.outstandingItems - this.maxInFlight + 1;
    return ahead <= 0 ? 0 : (ahead * this.meanItemMs) / this.maxInFlight;
  }

  /**
   * `Retry-After` for a refused request of `n` items, in whole seconds (1–60), from an appointment book: the first
   * refusal is told to come back when the work held now is done (`outstanding` × mean item time / `maxInFlight`),
   * and every further refusal books its own items' time after the previous appointment. Refused callers thus come
   * back spread at about the rate the queue drains, instead of all together one second later (a thundering herd that
   * spends the server's CPU on refusals). Books the appointment: call once per refusal.
   */
  retryAfterSeconds(n = 1): number {
    const nowMs = performance.now();
    const perItemMs = this.meanItemMs / this.maxInFlight;
    const drainedAtMs = nowMs + this.outstandingItems * perItemMs;
    this.comebackAtMs = Math.min(nowMs + 60_000, Math.max(this.comebackAtMs, drainedAtMs) + Math.max(1, n) * perItemMs);
    return Math.min(60, Math.max(1, Math.ceil((this.comebackAtMs - nowMs) / 1000)));
  }

  /** Reject every item that has not started (shutdown past its deadline). */
  failWaiting(reason: string): number {
    const failed = this.waiters.splice(0);
    for (const waiter of failed) waiter.fail(new ShutdownError(reason));
    return failed.length;
  }
}

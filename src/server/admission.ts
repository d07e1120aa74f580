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
}

interface Waiter {
  readonly start: () => void;
  readonly fail: (error: Error) => void;
}

export class AdmissionQueue {
  readonly maxInFlight: number;
  readonly capacity: number;
  private outstandingItems = 0;
  private runningItems = 0;
  private readonly waiters: Waiter[] = [];
  /** Exponentially weighted mean of an item's service time, ms (for `Retry-After`). */
  private meanItemMs = 200;
  /** Counters for metrics. */
  readonly stats = { admittedItems: 0, rejectedItems: 0, rejectedRequests: 0, completedItems: 0, cancelledItems: 0 };

  constructor(options: AdmissionOptions) {
    if (!(options.maxInFlight >= 1) || !(options.capacity >= 0)) throw new RangeError('admission: maxInFlight >= 1 and capacity >= 0');
    this.maxInFlight = Math.floor(options.maxInFlight);
    this.capacity = Math.floor(options.capacity);
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
   * Reserve room for `n` items, all or nothing. Returns false when the queue cannot take them now; every
   * reserved item must then go through `run` exactly once (or `release` when it turned out not to need it).
   */
  tryReserve(n: number): boolean {
    if (n === 0) return true;
    if (this.outstandingItems + n > this.limit) {
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

  /** Seconds until room is likely: the work ahead of a newcomer divided by the parallelism, at least 1. */
  retryAfterSeconds(): number {
    const aheadMs = (this.outstandingItems * this.meanItemMs) / this.maxInFlight;
    return Math.min(60, Math.max(1, Math.ceil(aheadMs / 1000)));
  }

  /** Reject every item that has not started (shutdown past its deadline). */
  failWaiting(reason: string): number {
    const failed = this.waiters.splice(0);
    for (const waiter of failed) waiter.fail(new ShutdownError(reason));
    return failed.length;
  }
}

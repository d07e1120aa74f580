/**
 * The global cap on requests in flight: a counting semaphore, first come first served. One per run, owned by
 * the generator (requests waiting in a retry backoff hold no place).
 */
export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`concurrency must be a positive integer, got ${capacity}`);
  }

  /** Places taken now. */
  get inFlight(): number {
    return this.active;
  }

  /** Run `fn` in a place, waiting for one; the place is given back however `fn` ends. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.capacity) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next !== undefined) next(); // the place passes to the next waiter as is
      else this.active--;
    }
  }
}

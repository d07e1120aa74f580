/**
 * Deduplicated, cancellable work by key: the judge's memo. Identical requests share one execution, whether it
 * is still running (joined in flight) or done (answered from memory, bounded); each caller may cancel its own
 * wait with an `AbortSignal`, and the shared execution is cancelled only when every caller waiting on it has
 * cancelled (one client hanging up never cancels another's judgement).
 *
 * Results the caller's `keep` rejects (Crucible's own failures) and rejections are forgotten when they settle,
 * so a later identical request tries again.
 *
 * Memory is bounded twice: by the count of entries (`capacity`), and, when a `weight` bound is given, by the summed
 * weight of the settled results remembered (e.g. test results held: a HumanEval+ verdict with every test kept holds
 * ~1,000, a fail-fast one a few). Past either bound the oldest entries go first; a result heavier than the whole
 * budget is returned to its callers and not remembered.
 */

/** A bound on the summed weight of remembered results: `weigh` (a non-negative number) and the most kept. */
export interface WeightBound<T> {
  readonly weigh: (value: T) => number;
  readonly maxWeight: number;
}

/** Counters: calls, and calls answered by an existing entry. */
export interface SharedWorkStats {
  calls: number;
  shared: number;
}

interface Entry<T> {
  readonly promise: Promise<T>;
  readonly controller: AbortController;
  waiters: number;
  settled: boolean;
  /** The settled result's weight while it is remembered (0 in flight). */
  weight: number;
}

/** The reason a cancelled wait rejects with: the signal's own, or an `AbortError` like `fetch`'s. */
function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('the operation was aborted', 'AbortError');
}

export class SharedWork<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private heldWeight = 0;
  readonly stats: SharedWorkStats = { calls: 0, shared: 0 };

  /**
   * `capacity`: entries remembered (oldest first out); `keep`: whether a result may be remembered; `bound`: the
   * most summed weight of remembered results (none by default).
   */
  constructor(private readonly capacity: number, private readonly keep: (value: T) => boolean = () => true,
    private readonly bound?: WeightBound<T>) {}

  /** Entries held (in flight or remembered). */
  get size(): number {
    return this.entries.size;
  }

  /** Summed weight of the remembered results (0 without a weight bound). */
  get weight(): number {
    return this.heldWeight;
  }

  /** Whether a call for `key` now would join an execution in flight or a remembered result. */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  /**
   * The result of `start` for `key`, started once for all callers of the same key. `start` gets a signal that
   * aborts when every waiting caller has cancelled.
   * @throws (rejects) with `signal`'s reason when this caller cancels; with `start`'s error when it fails.
   */
  run(key: string, start: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
    this.stats.calls++;
    signal?.throwIfAborted();
    let entry = this.entries.get(key);
    if (entry) this.stats.shared++;
    else entry = this.begin(key, start);
    entry.waiters++;
    return signal === undefined ? entry.promise : this.waitOrCancel(key, entry, signal);
  }

  private begin(key: string, start: (signal: AbortSignal) => Promise<T>): Entry<T> {
    const controller = new AbortController();
    const entry: Entry<T> = { promise: start(controller.signal), controller, waiters: 0, settled: false, weight: 0 };
    this.entries.set(key, entry);
    const forget = (): void => {
      if (this.entries.get(key) === entry) this.remove(key, entry);
    };
    entry.promise.then((value) => {
      entry.settled = true;
      if (!this.keep(value)) forget();
      else if (this.bound !== undefined && this.entries.get(key) === entry) this.hold(key, entry, this.bound.weigh(value));
    }, () => {
      entry.settled = true;
      forget();
    });
    // Bounded memory: the oldest entries go first (a long-running server judges unboundedly many programs).
    while (this.entries.size > this.capacity) {
      const [oldest, old] = this.entries.entries().next().value as [string, Entry<T>];
      this.remove(oldest, old);
    }
    return entry;
  }

  private remove(key: string, entry: Entry<T>): void {
    this.entries.delete(key);
    this.heldWeight -= entry.weight;
    entry.weight = 0;
  }

  /** Remember a settled result of `weight`, then drop the oldest remembered results while over the bound. */
  private hold(key: string, entry: Entry<T>, weight: number): void {
    const max = this.bound!.maxWeight;
    if (weight > max) {
      this.remove(key, entry);
      return;
    }
    entry.weight = weight;
    this.heldWeight += weight;
    for (const [k, e] of this.entries) {
      if (this.heldWeight <= max) break;
      if (e.settled && e !== entry) this.remove(k, e);
    }
  }

  private waitOrCancel(key: string, entry: Entry<T>, signal: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        reject(abortReason(signal));
        if (--entry.waiters === 0 && !entry.settled) {
          entry.controller.abort(abortReason(signal));
          if (this.entries.get(key) === entry) this.remove(key, entry);
        }
      };
      signal.addEventListener('abort', onAbort, { once: true });
      entry.promise.then((value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      }, (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      });
    });
  }
}

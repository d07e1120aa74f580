/**
 * `WriteBatcher`: the buffer between a judging path and the store. Items are queued at once (`push` never
 * waits), written in batches of at most `maxBatch` or after `flushMs`, one batch at a time and in order. A failed
 * write goes to `onError` with its batch and never into the caller of `push`. Used by the eval sink (samples) and
 * the training recorder (reward events).
 */

/** Options of a `WriteBatcher`. Times in ms. */
export interface WriteBatcherOptions<T> {
  /** Longest wait before queued items are written, ms. */
  readonly flushMs: number;
  /** Items per write; reaching it writes at once. */
  readonly maxBatch: number;
  /** Called with each failed write and the items it held. */
  readonly onError: (error: Error, batch: readonly T[]) => void;
}

/** Queues items and writes them in ordered batches with `write` (see the module comment). */
export class WriteBatcher<T> {
  private pending: T[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly write: (batch: readonly T[]) => Promise<void>, private readonly options: WriteBatcherOptions<T>) {}

  /** Queue one item; a full batch is written now, else within `flushMs`. */
  push(item: T): void {
    this.pending.push(item);
    if (this.pending.length >= this.options.maxBatch) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.options.flushMs);
  }

  /** Write what is queued after the writes already started; resolves when written (or failed and reported). */
  flush(): Promise<void> {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return this.writing;
    this.writing = this.writing.then(() => this.write(batch)).catch((error: Error) => this.options.onError(error, batch));
    return this.writing;
  }
}

/**
 * `TrainingRecorder`: the call a reward service makes per judged rollout to feed the dashboard's training
 * page (docs/DASHBOARD.md, "Training events"). `record` validates at once (a bad event is the caller's bug and
 * throws), buffers, and writes batches every `flushMs` or `maxBatch` events, so judging never waits on the
 * database. Write failures are counted and passed to `onError`, never thrown into the judging path.
 */
import type { ResultStore } from './result-store.js';
import { parseTrainingEvent, type TrainingEvent } from './training-event.js';

/** Options of a `TrainingRecorder`. */
export interface TrainingRecorderOptions {
  /** Longest wait before buffered events are written, ms (default 250). */
  readonly flushMs?: number;
  /** Events per write (default 1000). */
  readonly maxBatch?: number;
  /** Called with each write failure (default: none; see `failedEvents`). */
  readonly onError?: (error: Error) => void;
}

/** Buffers training events of one training run and writes them in batches. */
export class TrainingRecorder {
  private pending: TrainingEvent[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private readonly flushMs: number;
  private readonly maxBatch: number;
  /** Events whose write failed (lost to the dashboard; the verdicts themselves were already answered). */
  failedEvents = 0;

  constructor(readonly store: ResultStore, readonly run: string, private readonly options: TrainingRecorderOptions = {}) {
    this.flushMs = options.flushMs ?? 250;
    this.maxBatch = options.maxBatch ?? 1000;
  }

  /**
   * Queue one event (`TrainingEventInput` shape: `taskId`, `reward`, `status` required).
   * @throws StoreError `invalid_event` naming the field.
   */
  record(event: unknown): void {
    this.pending.push(parseTrainingEvent(event));
    if (this.pending.length >= this.maxBatch) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.flushMs);
  }

  /** Write what is buffered; resolves when written (or failed and counted). */
  flush(): Promise<void> {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return this.writing;
    this.writing = this.writing.then(async () => {
      try {
        await this.store.recordTrainingEvents(this.run, batch);
      } catch (error) {
        this.failedEvents += batch.length;
        this.options.onError?.(error as Error);
      }
    });
    return this.writing;
  }

  /** Flush and stop (the store stays open: it belongs to the caller). */
  close(): Promise<void> {
    return this.flush();
  }
}

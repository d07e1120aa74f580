/**
 * `TrainingRecorder`: the call a reward service makes per judged rollout to feed the dashboard's training
 * page (docs/DASHBOARD.md, "Training events"). `record` validates at once (a bad event is the caller's bug and
 * throws), buffers, and writes batches every `flushMs` or `maxBatch` events, so judging never waits on the
 * database. Write failures are counted and passed to `onError`, never thrown into the judging path.
 */
import { WriteBatcher } from './batcher.js';
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

/**
 * Buffers training events of one training run and writes them in batches; events with an `eventKey` are stored at
 * most once per key (`ResultStore.recordTrainingBatch`), so a reward batch retried by the trainer counts once.
 */
export class TrainingRecorder {
  private readonly batcher: WriteBatcher<TrainingEvent>;
  /** Events whose write failed (lost to the dashboard; the verdicts themselves were already answered). */
  failedEvents = 0;
  /** Events not stored because the run had their `eventKey` already (retried batches). */
  duplicateEvents = 0;

  constructor(readonly store: ResultStore, readonly run: string, options: TrainingRecorderOptions = {}) {
    this.batcher = new WriteBatcher(async (batch) => {
      const result = await this.store.recordTrainingBatch(this.run, batch);
      this.duplicateEvents += result.duplicates;
    }, {
      flushMs: options.flushMs ?? 250,
      maxBatch: options.maxBatch ?? 1000,
      onError: (error, batch) => {
        this.failedEvents += batch.length;
        options.onError?.(error);
      },
    });
  }

  /**
   * Queue one event (`TrainingEventInput` shape: `taskId`, `reward`, `status` required).
   * @throws StoreError `invalid_event` naming the field.
   */
  record(event: unknown): void {
    this.batcher.push(parseTrainingEvent(event));
  }

  /** Write what is buffered; resolves when written (or failed and counted). */
  flush(): Promise<void> {
    return this.batcher.flush();
  }

  /** Flush and stop (the store stays open: it belongs to the caller). */
  close(): Promise<void> {
    return this.flush();
  }
}

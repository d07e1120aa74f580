/**
 * Live updates for open pages: server-sent events. One poller per dashboard asks the store what changed
 * (`changesSince`) every `pollMs` while at least one page listens, and sends each client the runs and training
 * runs whose numbers moved: `event: run` with `{id, status, done, total, passed, samplesPerSecond, etaSeconds}`
 * (the eval's progress-bar numbers) and `event: training` with `{id, name, events, updatedMs}`. Polling the
 * store, rather than an in-process signal, is what lets a dashboard follow a `crucible eval` running in another
 * process, on SQLite or PostgreSQL alike.
 */
import type { ServerResponse } from 'node:http';
import type { ResultStore, RunListRow, TrainingRunRow } from '../store/result-store.js';

/** Default time between two store polls while pages listen, ms. */
export const DEFAULT_POLL_MS = 500;

/** Look-back of each poll, ms: a change stamped just before the previous poll's clock read is not missed. */
const OVERLAP_MS = 2000;

/** Live-update message of a run. */
export interface RunUpdate {
  readonly id: number;
  readonly status: string;
  readonly done: number;
  readonly total: number;
  readonly passed: number;
  readonly samplesPerSecond: number | null;
  readonly etaSeconds: number | null;
  readonly updatedMs: number;
}

function runUpdate(r: RunListRow): RunUpdate {
  return { id: r.id, status: r.status, done: r.doneSamples, total: r.totalSamples, passed: r.passedSamples,
    samplesPerSecond: r.progress?.samplesPerSecond ?? null, etaSeconds: r.progress?.etaSeconds ?? null, updatedMs: r.updatedMs };
}

/** The poller and its clients. */
export class LiveFeed {
  private readonly clients = new Set<ServerResponse>();
  private timer: NodeJS.Timeout | null = null;
  private polling = false;
  private lastPollMs = Date.now();
  private readonly sentRuns = new Map<number, string>();
  private readonly sentTraining = new Map<number, string>();
  /** Poll failures (the store was unreachable); the next poll tries again. */
  errors = 0;

  constructor(private readonly store: ResultStore, private readonly pollMs = DEFAULT_POLL_MS) {}

  /** Attach an SSE response (headers are written here); it is dropped when the client goes. */
  attach(response: ServerResponse): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    response.write(`retry: 2000\n: connected\n\n`);
    this.clients.add(response);
    response.on('close', () => {
      this.clients.delete(response);
      if (this.clients.size === 0) this.stop();
    });
    this.timer ??= setInterval(() => void this.poll(), this.pollMs);
  }

  private stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  private send(event: string, data: unknown): void {
    const message = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const client of this.clients) client.write(message);
  }

  /** One poll: send what changed since the last one (skipped when the previous poll is still running). */
  async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    const started = Date.now();
    try {
      const changes = await this.store.changesSince(this.lastPollMs - OVERLAP_MS);
      this.lastPollMs = started;
      for (const r of changes.runs) {
        const update = runUpdate(r);
        const key = JSON.stringify(update);
        if (this.sentRuns.get(r.id) === key) continue;
        this.sentRuns.set(r.id, key);
        this.send('run', update);
      }
      for (const t of changes.training as readonly TrainingRunRow[]) {
        const key = `${t.events}:${t.updatedMs}`;
        if (this.sentTraining.get(t.id) === key) continue;
        this.sentTraining.set(t.id, key);
        this.send('training', { id: t.id, name: t.name, events: t.events, updatedMs: t.updatedMs });
      }
    } catch {
      this.errors++;
    } finally {
      this.polling = false;
    }
  }

  /** End every stream and stop polling (the dashboard is closing). */
  close(): void {
    this.stop();
    for (const client of this.clients) client.end();
    this.clients.clear();
  }
}

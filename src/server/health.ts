/**
 * The truth behind `GET /health`: whether this server can judge right now, proven by running real programs
 * through its own judge (`Judge.selfTest`: a confined probe in the sandbox, a known-good program through the
 * Python judge harness), not by the process being alive.
 *
 * A self-test result is reused for `freshMs` (default 5 s), so probes that poll every second cost one boxed run
 * per 5 s. When it is older, a new self-test starts and:
 * - while every sandbox slot is busy with work (the probe waits for a slot like any run) and no internal error
 *   was seen since the last result, the answer does not wait: the last result (or, before the first one, ok
 *   with no checks) with `pending: true` — a saturated server is busy, not broken, and the queue figures say so;
 * - otherwise the request waits for the self-test, at most `waitMs` (default 10 s): its result decides (`ok`, or
 *   `degraded` with every failing check's reason); still running after that is `degraded` ("the self-test has
 *   not finished after N s").
 * An `internal_error` verdict or run anywhere (`noteInternalError`) makes the next `/health` test again and wait
 * for it, so Crucible's own failures turn into `degraded` within one probe when the sandbox or harness is broken.
 */
import type { Judge, SelfTestCheck } from '../judge/judge.js';

/** What the last self-test said, and when (ms since the epoch). */
export interface HealthReport {
  readonly ok: boolean;
  /** Every failing check's reason, joined (absent when ok). */
  readonly reason?: string;
  readonly checks: readonly SelfTestCheck[];
  /** When the self-test that decided this report finished (ms since the epoch); null: none has finished yet. */
  readonly testedAtMs: number | null;
  /** True when a self-test was still running (the report is the last finished one). */
  readonly pending: boolean;
}

export interface HealthOptions {
  /** How long a self-test result is reused, ms. */
  readonly freshMs?: number;
  /** How long a request waits for a running self-test, ms. */
  readonly waitMs?: number;
  /** Whether every sandbox slot is busy now (a saturated server's self-test may wait for a slot). */
  readonly saturated: () => boolean;
}

export class HealthMonitor {
  private last: HealthReport | null = null;
  private running: Promise<HealthReport> | null = null;
  private runningSinceMs = 0;
  /** An internal error was seen since the last self-test started. */
  private suspect = false;
  private readonly freshMs: number;
  private readonly waitMs: number;

  constructor(private readonly judge: Judge, private readonly options: HealthOptions) {
    this.freshMs = options.freshMs ?? 5000;
    this.waitMs = options.waitMs ?? 10_000;
  }

  /** Crucible failed somewhere: the next `report` tests again instead of reusing a result. */
  noteInternalError(): void {
    this.suspect = true;
  }

  /** A report no older than `freshMs` (see the module comment). Never rejects. */
  async report(nowMs = Date.now()): Promise<HealthReport> {
    const last = this.last;
    if (!this.suspect && last !== null && last.testedAtMs !== null && nowMs - last.testedAtMs < this.freshMs) return last;
    const waitForIt = this.suspect || !this.options.saturated();
    const running = this.start();
    if (!waitForIt) return last === null ? { ok: true, checks: [], testedAtMs: null, pending: true } : { ...last, pending: true };
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), this.waitMs);
      timer.unref();
    });
    const finished = await Promise.race([running, timedOut]);
    clearTimeout(timer);
    if (finished !== null) return finished;
    const seconds = Math.round((Date.now() - this.runningSinceMs) / 1000);
    return { ok: false, reason: `the self-test has not finished after ${seconds} s`, checks: this.last?.checks ?? [],
      testedAtMs: this.last?.testedAtMs ?? null, pending: true };
  }

  private start(): Promise<HealthReport> {
    if (this.running !== null) return this.running;
    this.runningSinceMs = Date.now();
    this.suspect = false;
    this.running = this.judge.selfTest().then((r): HealthReport => {
      const failing = r.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.reason ?? 'failed'}`);
      return { ok: r.ok, ...(failing.length === 0 ? {} : { reason: failing.join('; ') }), checks: r.checks, testedAtMs: Date.now(), pending: false };
    }, (error: unknown): HealthReport => ({ ok: false, reason: `the self-test threw: ${(error as Error).message}`, checks: [],
      testedAtMs: Date.now(), pending: false }))
      .then((report) => {
        this.last = report;
        this.running = null;
        return report;
      });
    return this.running;
  }
}

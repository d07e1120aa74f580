/**
 * Prometheus metrics in the text exposition format (version 0.0.4), written by hand: counters, gauges read
 * at scrape time, and cumulative histograms. Format reference: prometheus.io/docs/instrumenting/exposition_formats
 * (`# HELP`, `# TYPE`, `name{label="v"} value`; histograms as `_bucket{le=...}` cumulative counts plus
 * `_sum` and `_count`, with a final `le="+Inf"` bucket equal to `_count`).
 */

type Labels = Readonly<Record<string, string>>;

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function labelText(labels: Labels, extra?: [string, string]): string {
  const pairs = Object.entries(labels);
  if (extra) pairs.push(extra);
  if (pairs.length === 0) return '';
  return `{${pairs.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}`;
}

function keyOf(labels: Labels): string {
  return JSON.stringify(Object.entries(labels).sort());
}

interface Metric {
  render(): string;
}

export class Counter implements Metric {
  private readonly values = new Map<string, { labels: Labels; value: number }>();
  constructor(readonly name: string, readonly help: string) {}

  inc(labels: Labels = {}, by = 1): void {
    const key = keyOf(labels);
    const entry = this.values.get(key);
    if (entry) entry.value += by;
    else this.values.set(key, { labels, value: by });
  }

  get(labels: Labels = {}): number {
    return this.values.get(keyOf(labels))?.value ?? 0;
  }

  /** Values summed by one label (e.g. `{"/v1/judge": 2}` for label `route`); series without it are left out. */
  byLabel(name: string): Record<string, number> {
    const out: Record<string, number> = {};
    for (const { labels, value } of this.values.values()) {
      const key = labels[name];
      if (key !== undefined) out[key] = (out[key] ?? 0) + value;
    }
    return out;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const { labels, value } of this.values.values()) lines.push(`${this.name}${labelText(labels)} ${value}`);
    return lines.join('\n');
  }
}

/** A gauge (or a counter owned elsewhere) whose value is read when scraped. */
export class Sampled implements Metric {
  constructor(readonly name: string, readonly help: string, readonly type: 'gauge' | 'counter',
    private readonly read: () => number) {}

  render(): string {
    return `# HELP ${this.name} ${this.help}\n# TYPE ${this.name} ${this.type}\n${this.name} ${this.read()}`;
  }
}

export class Histogram implements Metric {
  private readonly series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
  /** `buckets`: upper bounds in seconds, ascending. */
  constructor(readonly name: string, readonly help: string, readonly buckets: readonly number[]) {}

  observe(labels: Labels, value: number): void {
    const key = keyOf(labels);
    let s = this.series.get(key);
    if (!s) {
      s = { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.series.set(key, s);
    }
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]!) s.counts[i]!++;
    s.sum += value;
    s.count++;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const s of this.series.values()) {
      this.buckets.forEach((le, i) => lines.push(`${this.name}_bucket${labelText(s.labels, ['le', String(le)])} ${s.counts[i]}`));
      lines.push(`${this.name}_bucket${labelText(s.labels, ['le', '+Inf'])} ${s.count}`);
      lines.push(`${this.name}_sum${labelText(s.labels)} ${s.sum}`);
      lines.push(`${this.name}_count${labelText(s.labels)} ${s.count}`);
    }
    return lines.join('\n');
  }
}

/** Executions per second over a sliding window, from a monotone counter sampled at most once a second. */
export class RateWindow {
  private readonly samples: { ms: number; value: number }[] = [];
  constructor(private readonly read: () => number, private readonly windowMs = 10_000) {}

  rate(nowMs = Date.now()): number {
    const value = this.read();
    const last = this.samples[this.samples.length - 1];
    if (!last || nowMs - last.ms >= 1000) this.samples.push({ ms: nowMs, value });
    while (this.samples.length > 1 && nowMs - this.samples[0]!.ms > this.windowMs) this.samples.shift();
    const first = this.samples[0]!;
    const seconds = (nowMs - first.ms) / 1000;
    return seconds <= 0 ? 0 : (value - first.value) / seconds;
  }
}

/** Latency buckets, seconds: from a cached verdict to a slow batch. */
export const LATENCY_BUCKETS_SECONDS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
/** Labelled series of a gauge (or a counter owned elsewhere) read when scraped, e.g. one per worker. */
export class SampledSeries implements Metric {
  constructor(readonly name: string, readonly help: string, readonly type: 'gauge' | 'counter',
    private readonly read: () => readonly { readonly labels: Labels; readonly value: number }[]) {}

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} ${this.type}`];
    for (const { labels, value } of this.read()) lines.push(`${this.name}${labelText(labels)} ${value}`);
    return lines.join('\n');
  }
}

/** A set of metrics rendered together. */
export class Registry {
  private readonly metrics: Metric[] = [];
  private readonly refreshers: (() => Promise<void>)[] = [];

  add<M extends Metric>(metric: M): M {
    this.metrics.push(metric);
    return metric;
  }

  /** Run `refresh` before each scrape (values read from elsewhere, e.g. Redis); its failure is the caller's. */
  onScrape(refresh: () => Promise<void>): void {
    this.refreshers.push(refresh);
  }

  /** Refresh what `onScrape` registered (call before `render`). */
  async refresh(): Promise<void> {
    await Promise.all(this.refreshers.map((r) => r()));
  }

  render(): string {
    return this.metrics.map((m) => m.render()).join('\n') + '\n';
  }
}

/**
 * Sampling a box's memory over time from OUTSIDE the box (issue #28, item 7: EffiBench's total memory usage, TMU).
 * The sandbox runs on cgroup v1 (`slots.ts`): a slot's memory group is the box's, and `memory.usage_in_bytes`
 * there is what the box holds now (the program's tree, plus bubblewrap and box-init, which every run of a slot has
 * alike, plus the page cache charged to it). Crucible's Node process reads that file every `periodMs` with a timer
 * and integrates the samples by the trapezoid rule over their own `performance.now()` times. The box cannot reach
 * the file or the timer. Resolution: Node's timers fire at best every ~1 ms, later under load; a run of a few ms
 * gets few samples (the first is read at start and the last when the launcher exits, so there are at least two).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MemoryIntegral } from './types.js';

/** One reading: `atMs` on `performance.now()`'s clock, `kiB` the group's usage. */
export interface MemorySample {
  readonly atMs: number;
  readonly kiB: number;
}

/**
 * The trapezoid-rule integral of `samples` (sorted by time): Σ (t[i+1] − t[i]) · (m[i] + m[i+1]) / 2, KiB·ms.
 * 0 for fewer than two samples.
 */
export function trapezoidKiBMs(samples: readonly MemorySample[]): number {
  let total = 0;
  for (let i = 1; i < samples.length; i++) {
    const a = samples[i - 1]!;
    const b = samples[i]!;
    total += (b.atMs - a.atMs) * (a.kiB + b.kiB) / 2;
  }
  return total;
}

/** A running sampler of one memory cgroup directory; `stop()` takes the last sample and integrates. */
export class MemorySampler {
  private readonly samples: MemorySample[] = [];
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly memoryDir: string, private readonly periodMs: number) {
    this.sample();
    this.timer = setInterval(() => this.sample(), Math.max(1, periodMs));
  }

  private sample(): void {
    try {
      const bytes = Number(readFileSync(join(this.memoryDir, 'memory.usage_in_bytes'), 'utf8'));
      if (Number.isFinite(bytes)) this.samples.push({ atMs: performance.now(), kiB: bytes / 1024 });
    } catch {
      // The group is being torn down: the samples taken so far stand.
    }
  }

  /** Stop sampling (one last reading first) and integrate; the samples are kept for tests. */
  stop(): MemoryIntegral {
    clearInterval(this.timer);
    this.sample();
    return { kiBMs: trapezoidKiBMs(this.samples), samples: this.samples.length, periodMs: this.periodMs };
  }
}

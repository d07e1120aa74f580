/**
 * Eval and training runs of the store as TensorBoard summaries (`tfevents.ts` writes them):
 * - an eval run: `pass@k/base` (and `pass@k/base+plus`) with `…_lower` / `…_upper` (its bootstrap interval) at step k,
 *   so TensorBoard draws the pass@k curve; `verdicts/<status>` counts and a `problems/pass_rate` histogram at step 0;
 * - a training run: per step (or minute), `reward/mean`, `reward/std`, `reward/min`, `reward/max`, `rollouts/count`,
 *   `rollouts/passed`, `rollouts/time_outs`, `rollouts/internal_errors`, `grpo/zero_variance_share`, and, when recorded,
 *   `calls/latency_mean_ms` and `calls/latency_max_ms`; a `reward/histogram` per column of steps.
 * Wall times are the run's (an eval: when it finished; a step: its last event), so TensorBoard's relative-time axis
 * means what it says.
 */
import type { RunAnalysis } from '../store/analysis.js';
import type { ProblemCountsRow, RunRow, TrainingSeries } from '../store/result-store.js';
import { SAMPLE_STATUSES } from '../verdict/index.js';
import type { Histogram, SummaryEvent, SummaryValue } from './tfevents.js';

/** A histogram of `values` in `buckets` equal buckets over [lo, hi]. */
export function histogramOf(values: readonly number[], lo: number, hi: number, buckets: number): Histogram {
  const width = (hi - lo) / buckets || 1;
  const counts = new Array<number>(buckets).fill(0);
  for (const v of values) counts[Math.min(buckets - 1, Math.max(0, Math.floor((v - lo) / width)))]!++;
  return {
    min: values.length === 0 ? 0 : Math.min(...values), max: values.length === 0 ? 0 : Math.max(...values), num: values.length,
    sum: values.reduce((s, v) => s + v, 0), sumSquares: values.reduce((s, v) => s + v * v, 0),
    bucketLimit: counts.map((_, i) => lo + (i + 1) * width), bucket: counts,
  };
}

/** The summaries of an eval run (see the module comment). */
export function evalRunEvents(run: RunRow, analysis: RunAnalysis, problems: readonly ProblemCountsRow[]): SummaryEvent[] {
  const wallTime = (run.finishedMs ?? run.updatedMs) / 1000;
  const series: [string, RunAnalysis['base']][] = [['base', analysis.base], ...(analysis.plus === undefined ? [] : [['base+plus', analysis.plus] as [string, RunAnalysis['base']]])];
  const byK = new Map<number, SummaryValue[]>();
  for (const [name, summary] of series) {
    for (const p of summary.points) {
      const values = byK.get(p.k) ?? [];
      values.push({ tag: `pass@k/${name}`, scalar: p.passAtK }, { tag: `pass@k/${name}_lower`, scalar: p.lower }, { tag: `pass@k/${name}_upper`, scalar: p.upper });
      byK.set(p.k, values);
    }
  }
  const verdicts: SummaryValue[] = SAMPLE_STATUSES.map((s) => ({ tag: `verdicts/${s}`, scalar: problems.reduce((n, p) => n + (p.statuses[s] ?? 0), 0) }));
  const rates = problems.filter((p) => p.n > 0).map((p) => p.c / p.n);
  const start: SummaryEvent = { step: 0, wallTime, values: [...verdicts, { tag: 'samples/judged', scalar: run.doneSamples },
    { tag: 'problems/pass_rate', histogram: histogramOf(rates, 0, 1, 10) }] };
  return [start, ...[...byK].sort(([a], [b]) => a - b).map(([k, values]) => ({ step: k, wallTime, values }))];
}

/** The summaries of a training run (see the module comment). */
export function trainingRunEvents(series: TrainingSeries): SummaryEvent[] {
  const events: SummaryEvent[] = series.buckets.map((b) => ({
    step: b.bucket, wallTime: b.lastMs / 1000, values: [
      { tag: 'reward/mean', scalar: b.rewardMean }, { tag: 'reward/std', scalar: b.rewardStd },
      { tag: 'reward/min', scalar: b.rewardMin }, { tag: 'reward/max', scalar: b.rewardMax },
      { tag: 'rollouts/count', scalar: b.events }, { tag: 'rollouts/passed', scalar: b.passed / b.events },
      { tag: 'rollouts/time_outs', scalar: b.timeouts }, { tag: 'rollouts/internal_errors', scalar: b.internalErrors },
      ...(b.groups > 0 ? [{ tag: 'grpo/zero_variance_share', scalar: b.zeroVarianceGroups / b.groups }] : []),
      ...(b.latencyMeanMs === null ? [] : [{ tag: 'calls/latency_mean_ms', scalar: b.latencyMeanMs }, { tag: 'calls/latency_max_ms', scalar: b.latencyMaxMs ?? b.latencyMeanMs }]),
    ],
  }));
  const h = series.histogram;
  const columns = new Map<number, number[]>();
  for (const r of h.rows) {
    const counts = columns.get(r.stepFrom) ?? new Array<number>(h.discrete ? h.edges.length : h.edges.length - 1).fill(0);
    counts[r.bin]! += r.events;
    columns.set(r.stepFrom, counts);
  }
  const last = new Map(series.buckets.map((b) => [b.bucket, b.lastMs]));
  for (const [step, counts] of [...columns].sort(([a], [b]) => a - b)) {
    // A discrete reward's bins end at its values; a ranged one's at the right edges.
    const limits = h.discrete ? h.edges : h.edges.slice(1);
    const centres = h.discrete ? h.edges : h.edges.slice(0, -1).map((e, i) => (e + h.edges[i + 1]!) / 2);
    const num = counts.reduce((s, c) => s + c, 0);
    const sum = counts.reduce((s, c, i) => s + c * centres[i]!, 0);
    const used = centres.filter((_, i) => counts[i]! > 0);
    events.push({ step, wallTime: (last.get(step) ?? 0) / 1000, values: [{ tag: 'reward/histogram', histogram: {
      min: Math.min(...used), max: Math.max(...used), num, sum, sumSquares: counts.reduce((s, c, i) => s + c * centres[i]! ** 2, 0),
      bucketLimit: [...limits], bucket: counts,
    } }] });
  }
  return events.sort((a, b) => a.step - b.step);
}

/**
 * Vega-lite specs of the training monitor. Every chart fills the page width; step axes are integers
 * (`tickMinStep: 1`, `format: "d"`, labels that would overlap are dropped), so 1,000 steps read as well as 10;
 * the reward axis spans the rewards' own range and a mean ± std band is clipped to each bucket's smallest and
 * largest reward (a 0/1 reward's band never leaves [0, 1]); drag to pan and scroll to zoom the step axis (a scale
 * binding, double-click resets). Several training runs overlay in the palette's colours.
 *
 * Smoothing is TensorBoard's: a debiased exponential moving average, s_t = (w·m_{t−1} + (1 − w)·x_t) / (1 − w^t)
 * with m the running (biased) average and w in [0, 1) (tensorboard/plugins/scalar, `smoothing` of the scalar
 * dashboard, which debiases the same way); the raw series stays drawn, faint.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { TrainingRunRow, TrainingSeries } from '../store/result-store.js';
import { PALETTE } from './html.js';

/** One training run as the charts draw it. */
export interface TrainingLine {
  readonly run: TrainingRunRow;
  readonly series: TrainingSeries;
}

/** Debiased exponential moving average (see the module comment); `weight` 0 returns the values. */
export function emaSmooth(values: readonly number[], weight: number): number[] {
  if (!(weight >= 0 && weight < 1)) throw new RangeError(`smoothing weight must be in [0, 1), got ${weight}`);
  let biased = 0;
  let debias = 1;
  return values.map((x) => {
    biased = weight * biased + (1 - weight) * x;
    debias *= weight;
    return weight === 0 ? x : biased / (1 - debias);
  });
}

function stepAxis(unit: string, domain?: readonly [number, number]) {
  return {
    field: 'bucket', type: 'quantitative' as const, title: unit,
    scale: { nice: false, zero: false, ...(domain === undefined ? {} : { domain: [...domain] }) },
    axis: { format: 'd', tickMinStep: 1, labelOverlap: true, labelFlush: true, tickCount: 10 },
  };
}

/** The x extent of the lines' buckets (one domain for every chart, so they line up). */
function extent(lines: readonly TrainingLine[]): [number, number] | undefined {
  const all = lines.flatMap((l) => l.series.buckets.map((b) => b.bucket));
  return all.length === 0 ? undefined : [Math.min(...all), Math.max(all.length === 1 ? all[0]! + 1 : Math.max(...all), Math.min(...all) + 1)];
}

const ZOOM = [{ name: 'zoom', select: { type: 'interval' as const, encodings: ['x' as const] }, bind: 'scales' as const }];

function colourOf(lines: readonly TrainingLine[]) {
  return { field: 'run', type: 'nominal' as const, title: null, scale: { domain: lines.map((l) => l.run.name), range: lines.map((_, i) => PALETTE[i % PALETTE.length]!) },
    legend: lines.length > 1 ? { orient: 'top' as const } : null };
}

function base(height: number): { width: 'container'; height: number; autosize: { type: 'fit-x'; contains: 'padding' } } {
  return { width: 'container', height, autosize: { type: 'fit-x', contains: 'padding' } };
}

/** A y domain covering `lo`..`hi`, widened a little when flat (a constant reward still gets a readable axis). */
function yDomain(lo: number, hi: number): [number, number] {
  if (hi > lo) return [lo, hi];
  const pad = lo === 0 ? 1 : Math.abs(lo) * 0.1;
  return [lo - pad, hi + pad];
}

/** Reward mean per bucket with its clipped ± std band and a smoothed line, for each run. */
export function rewardSpec(lines: readonly TrainingLine[], smoothing: number): TopLevelSpec {
  const values = lines.flatMap(({ run, series }) => {
    const smooth = emaSmooth(series.buckets.map((b) => b.rewardMean), smoothing);
    return series.buckets.map((b, i) => ({
      run: run.name, bucket: b.bucket, mean: b.rewardMean, smooth: smooth[i]!,
      lo: Math.max(b.rewardMin, b.rewardMean - b.rewardStd), hi: Math.min(b.rewardMax, b.rewardMean + b.rewardStd), std: b.rewardStd, events: b.events,
    }));
  });
  const ranges = lines.flatMap((l) => (l.series.rewardRange === null ? [] : [l.series.rewardRange]));
  const domain = ranges.length === 0 ? [0, 1] as [number, number] : yDomain(Math.min(...ranges.map((r) => r[0])), Math.max(...ranges.map((r) => r[1])));
  const unit = lines[0]?.series.unit ?? 'step';
  const color = colourOf(lines);
  const y = { type: 'quantitative' as const, scale: { domain, nice: false }, axis: { format: '~g' } };
  return {
    ...base(260),
    data: { values },
    encoding: { x: stepAxis(unit, extent(lines)) },
    layer: [
      { mark: { type: 'area', opacity: 0.15 }, encoding: { y: { field: 'lo', ...y, title: 'reward (mean, ± std clipped to the observed range)' }, y2: { field: 'hi' }, color } },
      { mark: { type: 'line', opacity: smoothing > 0 ? 0.3 : 1, strokeWidth: 1 }, encoding: { y: { field: 'mean', ...y }, color } },
      { params: ZOOM, mark: { type: 'line', strokeWidth: 2 }, encoding: { y: { field: 'smooth', ...y }, color,
        tooltip: [{ field: 'run' }, { field: 'bucket', title: unit }, { field: 'mean', format: '.4f' }, { field: 'std', format: '.4f' }, { field: 'events', title: 'rollouts' }] } },
    ],
  } as TopLevelSpec;
}

/** Share of rollouts that passed, per bucket (smoothed like the reward). */
export function passRateSpec(lines: readonly TrainingLine[], smoothing: number): TopLevelSpec {
  const values = lines.flatMap(({ run, series }) => {
    const rates = series.buckets.map((b) => b.passed / b.events);
    const smooth = emaSmooth(rates, smoothing);
    return series.buckets.map((b, i) => ({ run: run.name, bucket: b.bucket, rate: rates[i]!, smooth: smooth[i]! }));
  });
  const color = colourOf(lines);
  const y = { type: 'quantitative' as const, scale: { domain: [0, 1] }, axis: { format: '.0%' } };
  return {
    ...base(200), data: { values }, encoding: { x: stepAxis(lines[0]?.series.unit ?? 'step', extent(lines)) },
    layer: [
      { mark: { type: 'line', opacity: smoothing > 0 ? 0.3 : 1, strokeWidth: 1 }, encoding: { y: { field: 'rate', ...y, title: 'rollouts passed' }, color } },
      { params: ZOOM, mark: { type: 'line', strokeWidth: 2 }, encoding: { y: { field: 'smooth', ...y }, color } },
    ],
  } as TopLevelSpec;
}

/** Rewards per column of steps as a heat map (x steps, y reward, colour the share of the column's rollouts). */
export function rewardHistogramSpec(line: TrainingLine): TopLevelSpec {
  const { histogram: h, unit } = line.series;
  const totals = new Map<number, number>();
  for (const r of h.rows) totals.set(r.stepFrom, (totals.get(r.stepFrom) ?? 0) + r.events);
  const discrete = h.discrete;
  const label = (bin: number) => (discrete ? `${+h.edges[bin]!.toPrecision(4)}` : `${+h.edges[bin]!.toPrecision(3)} – ${+h.edges[bin + 1]!.toPrecision(3)}`);
  const order = h.edges.slice(0, discrete ? h.edges.length : h.edges.length - 1).map((_, i) => label(i)).reverse();
  const values = h.rows.map((r) => ({ bucket: r.stepFrom, bucketEnd: r.stepTo + 1, reward: label(r.bin), share: r.events / totals.get(r.stepFrom)!, events: r.events }));
  return {
    ...base(Math.max(120, 18 * order.length)),
    data: { values },
    params: ZOOM,
    mark: 'rect',
    encoding: {
      x: stepAxis(h.stepsPerColumn > 1 ? `${unit} (${h.stepsPerColumn} per column)` : unit), x2: { field: 'bucketEnd' },
      y: { field: 'reward', type: 'ordinal', sort: order, title: 'reward' },
      color: { field: 'share', type: 'quantitative', title: 'share of rollouts', scale: { scheme: 'viridis', domain: [0, 1] }, legend: { format: '.0%' } },
      tooltip: [{ field: 'bucket', title: `from ${unit}` }, { field: 'reward' }, { field: 'events', title: 'rollouts' }, { field: 'share', format: '.1%' }],
    },
  } as TopLevelSpec;
}

/** Time-outs and internal errors per bucket (counts), for the first run. */
export function failuresSpec(line: TrainingLine): TopLevelSpec {
  const values = line.series.buckets.flatMap((b) => [
    { bucket: b.bucket, kind: 'time-outs', count: b.timeouts },
    { bucket: b.bucket, kind: 'internal errors', count: b.internalErrors },
  ]);
  return {
    ...base(160), data: { values }, params: ZOOM,
    mark: { type: 'line', point: line.series.buckets.length <= 60 },
    encoding: {
      x: stepAxis(line.series.unit),
      y: { field: 'count', type: 'quantitative', title: 'rollouts', axis: { format: 'd', tickMinStep: 1 } },
      color: { field: 'kind', type: 'nominal', title: null, scale: { domain: ['time-outs', 'internal errors'], range: [PALETTE[1]!, '#000000'] }, legend: { orient: 'top' } },
    },
  } as TopLevelSpec;
}

/** Share of GRPO groups whose rewards all agree (zero variance: no gradient), per bucket. */
export function zeroVarianceSpec(line: TrainingLine): TopLevelSpec {
  return {
    ...base(160),
    data: { values: line.series.buckets.filter((b) => b.groups > 0).map((b) => ({ bucket: b.bucket, share: b.zeroVarianceGroups / b.groups, groups: b.groups })) },
    params: ZOOM,
    mark: { type: 'line', color: PALETTE[2], point: line.series.buckets.length <= 60 },
    encoding: {
      x: stepAxis(line.series.unit),
      y: { field: 'share', type: 'quantitative', title: 'zero-variance groups', scale: { domain: [0, 1] }, axis: { format: '.0%' } },
      tooltip: [{ field: 'bucket' }, { field: 'groups' }, { field: 'share', format: '.1%' }],
    },
  } as TopLevelSpec;
}

/** Reward calls over wall-clock time: rollouts per second and latency (mean and largest), for the first run. */
export function callsSpec(line: TrainingLine): TopLevelSpec {
  const values = line.series.calls.flatMap((c) => [
    { time: c.startMs, what: 'rollouts per second', value: c.events / c.seconds },
    ...(c.latencyMeanMs === null ? [] : [{ time: c.startMs, what: 'latency mean (ms)', value: c.latencyMeanMs },
      { time: c.startMs, what: 'latency max (ms)', value: c.latencyMaxMs ?? c.latencyMeanMs }]),
  ]);
  return {
    ...base(140),
    data: { values },
    facet: { row: { field: 'what', type: 'nominal', title: null, sort: ['rollouts per second', 'latency mean (ms)', 'latency max (ms)'] } },
    resolve: { scale: { y: 'independent' } },
    spec: {
      width: 'container', height: 110,
      mark: { type: 'line', color: PALETTE[0], interpolate: 'step-after' },
      encoding: {
        x: { field: 'time', type: 'temporal', title: 'time (UTC)', axis: { format: '%H:%M', labelOverlap: true } },
        y: { field: 'value', type: 'quantitative', title: null, axis: { format: '~s' } },
        tooltip: [{ field: 'time', type: 'temporal', format: '%H:%M:%S' }, { field: 'what' }, { field: 'value', format: '.1f' }],
      },
    },
  } as unknown as TopLevelSpec;
}

/** Pass rate per problem over steps (heat map of the `maxProblems` problems with most rollouts). */
export function problemHeatSpec(line: TrainingLine, maxProblems = 40): TopLevelSpec {
  const rows = line.series.problems;
  const totals = new Map<string, number>();
  for (const r of rows) totals.set(r.taskId, (totals.get(r.taskId) ?? 0) + r.events);
  const keep = new Set([...totals].sort((a, b) => b[1] - a[1]).slice(0, maxProblems).map(([id]) => id));
  const w = line.series.histogram.stepsPerColumn;
  return {
    ...base(Math.max(120, 14 * keep.size)),
    data: { values: rows.filter((r) => keep.has(r.taskId)).map((r) => ({ bucket: r.bucket, bucketEnd: r.bucket + w, taskId: r.taskId, rate: r.passed / r.events, n: r.events })) },
    params: ZOOM,
    mark: 'rect',
    encoding: {
      x: stepAxis(w > 1 ? `${line.series.unit} (${w} per column)` : line.series.unit), x2: { field: 'bucketEnd' },
      y: { field: 'taskId', type: 'nominal', title: null, sort: [...keep] },
      color: { field: 'rate', type: 'quantitative', title: 'pass rate', scale: { domain: [0, 1], scheme: 'viridis' }, legend: { format: '.0%' } },
      tooltip: [{ field: 'taskId' }, { field: 'bucket' }, { field: 'rate', format: '.1%' }, { field: 'n', title: 'rollouts' }],
    },
  } as TopLevelSpec;
}

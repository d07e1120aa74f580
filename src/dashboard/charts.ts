/**
 * Vega-lite specs of the dashboard's charts (rendered in the browser by vega-embed; data inline). The run
 * page reuses the report's pass@k curve and verdict bar (`report/charts.ts`), so both show the same thing.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { PassAtKDifference, ProblemComparison } from '../metrics/paired.js';
import type { TrainingBucketRow, TrainingProblemBucketRow } from '../store/result-store.js';

export { passAtKCurveSpec, verdictChartSpec } from '../report/charts.js';

/** Histogram of per-problem pass rates (difficulty), in percent. */
export function difficultySpec(rates: readonly { readonly taskId: string; readonly passRate: number }[]): TopLevelSpec {
  return {
    width: 520, height: 180,
    data: { values: rates.map((r) => ({ taskId: r.taskId, rate: 100 * r.passRate })) },
    mark: 'bar',
    encoding: {
      x: { field: 'rate', type: 'quantitative', bin: { step: 10, extent: [0, 100] }, title: 'pass rate of the problem (%)' },
      y: { aggregate: 'count', type: 'quantitative', title: 'problems' },
    },
  };
}

/** A − B per k with its paired-bootstrap interval, in points of pass@k. */
export function differenceSpec(differences: readonly PassAtKDifference[]): TopLevelSpec {
  const values = differences.map((d) => ({ k: `pass@${d.k}`, diff: 100 * d.difference, lower: 100 * d.lower, upper: 100 * d.upper }));
  return {
    width: 420, height: 40 + 30 * values.length,
    data: { values },
    encoding: { y: { field: 'k', type: 'nominal', title: null, sort: null } },
    layer: [
      { mark: { type: 'rule', strokeWidth: 2 }, encoding: { x: { field: 'lower', type: 'quantitative', title: 'A − B (points), 95% CI' }, x2: { field: 'upper' } } },
      { mark: { type: 'point', filled: true, size: 80 }, encoding: { x: { field: 'diff', type: 'quantitative' } } },
      { data: { values: [{ zero: 0 }] }, mark: { type: 'rule', strokeDash: [4, 4], color: '#888' }, encoding: { x: { field: 'zero', type: 'quantitative' }, y: {} } },
    ],
  };
}

/** Per-problem pass rate of A against B (one point per shared problem; off the diagonal = a difference). */
export function rateScatterSpec(problems: readonly ProblemComparison[]): TopLevelSpec {
  return {
    width: 320, height: 320,
    data: { values: problems.map((p) => ({ taskId: p.taskId, a: 100 * p.rateA, b: 100 * p.rateB, outcome: p.outcome })) },
    layer: [
      { data: { values: [{ x: 0, y: 0 }, { x: 100, y: 100 }] }, mark: { type: 'line', color: '#bbb' },
        encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'y', type: 'quantitative' } } },
      { mark: { type: 'point', filled: true, opacity: 0.7 }, encoding: {
        x: { field: 'a', type: 'quantitative', title: 'pass rate A (%)', scale: { domain: [0, 100] } },
        y: { field: 'b', type: 'quantitative', title: 'pass rate B (%)', scale: { domain: [0, 100] } },
        color: { field: 'outcome', type: 'nominal', title: null, scale: { domain: ['win', 'tie', 'loss'], range: ['#2a7', '#999', '#c33'] } },
        tooltip: [{ field: 'taskId' }, { field: 'a', format: '.1f' }, { field: 'b', format: '.1f' }],
      } },
    ],
  };
}

/** Reward mean per bucket with a ±1 std band. */
export function rewardSpec(buckets: readonly TrainingBucketRow[], unit: string): TopLevelSpec {
  const values = buckets.map((b) => ({ bucket: b.bucket, mean: b.rewardMean, lo: b.rewardMean - b.rewardStd, hi: b.rewardMean + b.rewardStd }));
  return {
    width: 520, height: 200,
    data: { values },
    encoding: { x: { field: 'bucket', type: 'quantitative', title: unit } },
    layer: [
      { mark: { type: 'area', opacity: 0.25 }, encoding: { y: { field: 'lo', type: 'quantitative', title: 'reward (mean ± std)' }, y2: { field: 'hi' } } },
      { mark: { type: 'line', point: values.length <= 60 }, encoding: { y: { field: 'mean', type: 'quantitative' } } },
    ],
  };
}

/** Time-outs and internal errors per bucket (counts). */
export function failuresSpec(buckets: readonly TrainingBucketRow[], unit: string): TopLevelSpec {
  const values = buckets.flatMap((b) => [
    { bucket: b.bucket, kind: 'time-outs', count: b.timeouts },
    { bucket: b.bucket, kind: 'internal errors', count: b.internalErrors },
  ]);
  return {
    width: 520, height: 160,
    data: { values },
    mark: { type: 'line', point: buckets.length <= 60 },
    encoding: {
      x: { field: 'bucket', type: 'quantitative', title: unit },
      y: { field: 'count', type: 'quantitative', title: 'rollouts' },
      color: { field: 'kind', type: 'nominal', title: null },
    },
  };
}

/** Fraction of GRPO groups whose rewards all agree (zero variance: no gradient), per bucket. */
export function zeroVarianceSpec(buckets: readonly TrainingBucketRow[], unit: string): TopLevelSpec {
  return {
    width: 520, height: 160,
    data: { values: buckets.filter((b) => b.groups > 0).map((b) => ({ bucket: b.bucket, share: 100 * b.zeroVarianceGroups / b.groups, groups: b.groups })) },
    mark: { type: 'bar' },
    encoding: {
      x: { field: 'bucket', type: 'ordinal', title: unit },
      y: { field: 'share', type: 'quantitative', title: 'zero-variance groups (%)', scale: { domain: [0, 100] } },
      tooltip: [{ field: 'groups' }, { field: 'share', format: '.1f' }],
    },
  };
}

/** Pass rate per problem over time (heat map; the `maxProblems` problems with most rollouts). */
export function problemHeatSpec(rows: readonly TrainingProblemBucketRow[], unit: string, maxProblems = 40): TopLevelSpec {
  const totals = new Map<string, number>();
  for (const r of rows) totals.set(r.taskId, (totals.get(r.taskId) ?? 0) + r.events);
  const keep = new Set([...totals].sort((a, b) => b[1] - a[1]).slice(0, maxProblems).map(([id]) => id));
  return {
    width: 520, height: { step: 12 },
    data: { values: rows.filter((r) => keep.has(r.taskId)).map((r) => ({ bucket: r.bucket, taskId: r.taskId, rate: 100 * r.passed / r.events, n: r.events })) },
    mark: 'rect',
    encoding: {
      x: { field: 'bucket', type: 'ordinal', title: unit },
      y: { field: 'taskId', type: 'nominal', title: null },
      color: { field: 'rate', type: 'quantitative', title: 'pass rate (%)', scale: { domain: [0, 100], scheme: 'viridis' } },
      tooltip: [{ field: 'taskId' }, { field: 'bucket' }, { field: 'rate', format: '.1f' }, { field: 'n' }],
    },
  };
}

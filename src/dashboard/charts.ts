/**
 * Vega-lite specs of the dashboard's charts (rendered in the browser by vega-embed; data inline). Charts take the
 * width of their box (`width: "container"`); colours that tell runs or outcomes apart come from a colour-blind-safe
 * palette (`html.ts` `PALETTE`), sequential scales are viridis. The run page reuses the report's pass@k curve and
 * verdict bar (`report/charts.ts`), so both show the same thing.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { PassAtKDifference, ProblemComparison } from '../metrics/paired.js';
import type { Ranking } from '../metrics/ranking.js';
import type { PassAtKSummary } from '../metrics/summary.js';
import { passAtKCurveSpec as reportCurveSpec, verdictChartSpec as reportVerdictSpec } from '../report/charts.js';
import type { ProblemCountsRow, RunRow } from '../store/result-store.js';
import { SAMPLE_STATUSES, type SampleStatus } from '../verdict/index.js';
import { naturalCompare, OUTCOME_COLOURS, PALETTE } from './html.js';

/** A spec that fills its box's width. */
function fill(spec: TopLevelSpec): TopLevelSpec {
  return { ...spec, width: 'container', autosize: { type: 'fit-x', contains: 'padding' } } as TopLevelSpec;
}

/** The report's pass@k curve, full width. */
export function passAtKCurveSpec(series: Readonly<Record<string, PassAtKSummary>>): TopLevelSpec {
  return fill(reportCurveSpec(series));
}

/** The report's verdict bar chart, full width. */
export function verdictChartSpec(counts: readonly { status: SampleStatus; count: number }[]): TopLevelSpec {
  return fill(reportVerdictSpec(counts));
}

/** Histogram of per-problem pass rates (difficulty), in percent. */
export function difficultySpec(rates: readonly { readonly taskId: string; readonly passRate: number }[]): TopLevelSpec {
  return fill({
    height: 180,
    data: { values: rates.map((r) => ({ taskId: r.taskId, rate: 100 * r.passRate })) },
    mark: 'bar',
    encoding: {
      x: { field: 'rate', type: 'quantitative', bin: { step: 10, extent: [0, 100] }, title: 'pass rate of the problem (%)' },
      y: { aggregate: 'count', type: 'quantitative', title: 'problems', axis: { tickMinStep: 1, format: 'd' } },
    },
  });
}

/** Colours of the verdict statuses (passed blue, failures warm, limits orange, Crucible's own failure black). */
const STATUS_COLOURS: Readonly<Record<SampleStatus, string>> = Object.fromEntries(SAMPLE_STATUSES.map((s) => [s,
  s === 'passed' ? '#0072B2' : s === 'internal_error' ? '#000000' : s.endsWith('limit_exceeded') ? '#E69F00'
    : s === 'no_code' || s === 'invalid_submission' ? '#999999' : s === 'compile_error' ? '#CC79A7' : '#D55E00'])) as Record<SampleStatus, string>;

/**
 * The per-problem heat map of a run: one column per problem (task order), one row per verdict status, the cell's
 * colour the share of the problem's samples with that verdict; a click opens the problem.
 */
export function verdictHeatSpec(problems: readonly ProblemCountsRow[], runId: number): TopLevelSpec {
  const statuses = SAMPLE_STATUSES.filter((s) => problems.some((p) => (p.statuses[s] ?? 0) > 0));
  const order = [...problems].sort((a, b) => naturalCompare(a.taskId, b.taskId)).map((p) => p.taskId);
  const values = problems.flatMap((p) => statuses.filter((s) => (p.statuses[s] ?? 0) > 0).map((s) => ({
    taskId: p.taskId, status: s.replace(/_/g, ' '), share: (p.statuses[s] ?? 0) / p.n, samples: p.statuses[s] ?? 0, n: p.n,
    href: `runs/${runId}/problem?task=${encodeURIComponent(p.taskId)}`,
  })));
  return fill({
    height: { step: 16 },
    data: { values },
    mark: { type: 'rect', cursor: 'pointer' },
    encoding: {
      x: { field: 'taskId', type: 'ordinal', sort: order, title: `problems in task order (${order.length})`, axis: order.length > 60 ? { labels: false, ticks: false } : { labelAngle: -60 } },
      y: { field: 'status', type: 'nominal', sort: statuses.map((s) => s.replace(/_/g, ' ')), title: null },
      color: { field: 'share', type: 'quantitative', title: 'share of samples', scale: { scheme: 'viridis', domain: [0, 1] }, legend: { format: '.0%' } },
      href: { field: 'href' },
      tooltip: [{ field: 'taskId', title: 'problem' }, { field: 'status' }, { field: 'samples' }, { field: 'n', title: 'of samples' }],
    },
  } as TopLevelSpec);
}

/** pass@1 (or pass@k) per group with its interval: a breakdown (difficulty, platform, release month). Values in %. */
export function breakdownSpec(rows: readonly { group: string; passAtK: number; lower: number; upper: number; problems: number }[],
  title: string, k: number): TopLevelSpec {
  const values = rows.map((r) => ({ ...r, passAtK: 100 * r.passAtK, lower: 100 * r.lower, upper: 100 * r.upper }));
  return fill({
    height: { step: 24 },
    data: { values },
    encoding: { y: { field: 'group', type: 'nominal', title, sort: null } },
    layer: [
      { mark: { type: 'rule', strokeWidth: 2, color: PALETTE[0] }, encoding: { x: { field: 'lower', type: 'quantitative', title: `pass@${k} (%)`, scale: { domain: [0, 100] } }, x2: { field: 'upper' } } },
      { mark: { type: 'point', filled: true, size: 70, color: PALETTE[0] }, encoding: { x: { field: 'passAtK', type: 'quantitative' },
        tooltip: [{ field: 'group' }, { field: 'passAtK', format: '.2f' }, { field: 'problems' }] } },
    ],
  } as TopLevelSpec);
}

/** Pairwise differences A − B with their paired-bootstrap intervals, in points of pass@k. */
export function differenceSpec(differences: readonly (PassAtKDifference & { readonly label?: string })[]): TopLevelSpec {
  const values = differences.map((d) => ({ label: d.label ?? `pass@${d.k}`, diff: 100 * d.difference, lower: 100 * d.lower, upper: 100 * d.upper }));
  return fill({
    height: { step: 28 },
    data: { values },
    encoding: { y: { field: 'label', type: 'nominal', title: null, sort: null } },
    layer: [
      { mark: { type: 'rule', strokeWidth: 2, color: PALETTE[0] }, encoding: { x: { field: 'lower', type: 'quantitative', title: 'A − B (points), paired-bootstrap CI' }, x2: { field: 'upper' } } },
      { mark: { type: 'point', filled: true, size: 80, color: PALETTE[0] }, encoding: { x: { field: 'diff', type: 'quantitative' } } },
      { data: { values: [{ zero: 0 }] }, mark: { type: 'rule', strokeDash: [4, 4], color: '#888' }, encoding: { x: { field: 'zero', type: 'quantitative' }, y: {} } },
    ],
  } as TopLevelSpec);
}

/** The ranking: each run's pass@k with its interval, one palette colour per run. */
export function rankingSpec(ranking: Ranking, runs: readonly RunRow[], colour: ReadonlyMap<number, number>): TopLevelSpec {
  const byId = new Map(runs.map((r) => [r.id, r]));
  const label = (id: number) => `${id} · ${byId.get(id)?.name ?? ''}`;
  const values = ranking.runs.map((r) => ({ run: label(r.id), value: 100 * r.passAtK, lower: 100 * r.lower, upper: 100 * r.upper }));
  const domain = ranking.runs.map((r) => label(r.id));
  const range = ranking.runs.map((r) => PALETTE[(colour.get(r.id) ?? 0) % PALETTE.length]!);
  const color = { field: 'run', type: 'nominal' as const, legend: null, scale: { domain, range } };
  return fill({
    height: { step: 28 },
    data: { values },
    encoding: { y: { field: 'run', type: 'nominal', title: null, sort: domain } },
    layer: [
      { mark: { type: 'rule', strokeWidth: 3 }, encoding: { x: { field: 'lower', type: 'quantitative', title: `pass@${ranking.k} (%)` }, x2: { field: 'upper' }, color } },
      { mark: { type: 'point', filled: true, size: 90 }, encoding: { x: { field: 'value', type: 'quantitative' }, color,
        tooltip: [{ field: 'run' }, { field: 'value', format: '.2f' }, { field: 'lower', format: '.2f' }, { field: 'upper', format: '.2f' }] } },
    ],
  } as TopLevelSpec);
}

/** Per-problem pass rates of N runs on their shared problems: rows runs, columns problems (task order). */
export function problemRunsHeatSpec(shared: readonly string[], runs: readonly RunRow[], rates: ReadonlyMap<number, ReadonlyMap<string, number>>): TopLevelSpec {
  const order = [...shared].sort(naturalCompare);
  const values = runs.flatMap((r) => order.map((taskId) => ({ run: `${r.id} · ${r.name}`, taskId, rate: 100 * (rates.get(r.id)?.get(taskId) ?? 0),
    href: `runs/${r.id}/problem?task=${encodeURIComponent(taskId)}` })));
  return fill({
    height: { step: 22 },
    data: { values },
    mark: { type: 'rect', cursor: 'pointer' },
    encoding: {
      x: { field: 'taskId', type: 'ordinal', sort: order, title: `shared problems (${order.length})`, axis: order.length > 60 ? { labels: false, ticks: false } : { labelAngle: -60 } },
      y: { field: 'run', type: 'nominal', title: null, sort: runs.map((r) => `${r.id} · ${r.name}`) },
      color: { field: 'rate', type: 'quantitative', title: 'pass rate (%)', scale: { scheme: 'viridis', domain: [0, 100] } },
      href: { field: 'href' },
      tooltip: [{ field: 'run' }, { field: 'taskId', title: 'problem' }, { field: 'rate', format: '.1f', title: 'pass rate (%)' }],
    },
  } as TopLevelSpec);
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
        color: { field: 'outcome', type: 'nominal', title: null, scale: { domain: ['win', 'tie', 'loss'], range: [OUTCOME_COLOURS.win, OUTCOME_COLOURS.tie, OUTCOME_COLOURS.loss] } },
        shape: { field: 'outcome', type: 'nominal', title: null, scale: { domain: ['win', 'tie', 'loss'], range: ['circle', 'square', 'triangle-up'] } },
        tooltip: [{ field: 'taskId' }, { field: 'a', format: '.1f' }, { field: 'b', format: '.1f' }],
      } },
    ],
  };
}

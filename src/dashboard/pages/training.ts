/**
 * The training monitor: training runs fed live by reward events (`crucible serve`'s reward endpoints,
 * `TrainingRecorder`, `POST …/api/training/:run/events`). A run's page draws, across the page width: reward mean with
 * its clipped ± std band and a smoothed line, pass rate, the reward histogram per step, reward-call throughput and
 * latency, time-outs and internal errors, zero-variance GRPO groups, and pass rate per problem over steps; other
 * runs overlay on the reward and pass-rate charts (`?with=ID`), smoothing is a slider (`?smooth=0.6`), the step
 * axis zooms. The browser refreshes the charts from `api/training/:id/series` when the run changes.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { TrainingRunRow, TrainingSeries } from '../../store/result-store.js';
import { chart, esc, facts, page, PALETTE, when } from '../html.js';
import {
  callsSpec, failuresSpec, passRateSpec, problemHeatSpec, rewardHistogramSpec, rewardSpec, zeroVarianceSpec, type TrainingLine,
} from '../training-charts.js';

/** Default smoothing weight of the training charts (TensorBoard's default is 0.6). */
export const DEFAULT_SMOOTHING = 0.6;

/** The chart ids of a training page, in page order. */
export type TrainingChart = 'reward' | 'passRate' | 'histogram' | 'calls' | 'failures' | 'zero' | 'problems';

/** The specs of a training run's charts, by chart id (the page and the live refresh share them). `lines[0]` is the run. */
export function trainingSpecs(lines: readonly TrainingLine[], smoothing: number): Record<TrainingChart, TopLevelSpec> {
  const main = lines[0]!;
  return {
    reward: rewardSpec(lines, smoothing),
    passRate: passRateSpec(lines, smoothing),
    histogram: rewardHistogramSpec(main),
    calls: callsSpec(main),
    failures: failuresSpec(main),
    zero: zeroVarianceSpec(main),
    problems: problemHeatSpec(main),
  };
}

function fmtMs(value: number | null): string {
  return value === null ? '–' : `${value < 100 ? value.toFixed(1) : Math.round(value)} ms`;
}

/** Headline figures of a training run (the latest bucket) and its reward calls. */
export function trainingFacts(run: TrainingRunRow, series: TrainingSeries): [string, string][] {
  const last = series.buckets[series.buckets.length - 1];
  const calls = series.calls.filter((c) => c.latencyMeanMs !== null);
  const events = series.calls.reduce((s, c) => s + c.events, 0);
  const span = series.calls.length === 0 ? 0 : (series.calls[series.calls.length - 1]!.startMs + series.calls[series.calls.length - 1]!.seconds * 1000 - series.calls[0]!.startMs) / 1000;
  const latency = calls.length === 0 ? null : calls.reduce((s, c) => s + c.latencyMeanMs! * c.events, 0) / calls.reduce((s, c) => s + c.events, 0);
  return [
    ['rollouts', `<span data-testid="events">${run.events}</span>${series.unstepped > 0
      ? ` <span class="muted" data-testid="unstepped">(${series.unstepped} without a step: left off the step axis)</span>` : ''}`],
    [`latest ${series.unit}`, last === undefined ? '–' : `<span data-testid="bucket">${last.bucket}</span>`],
    ['reward mean ± std', last === undefined ? '–' : `<span data-testid="reward-mean">${last.rewardMean.toFixed(4)}</span> ± ${last.rewardStd.toFixed(4)}` +
      ` <span class="muted">(range ${+last.rewardMin.toFixed(4)} to ${+last.rewardMax.toFixed(4)})</span>`],
    ['passed', last === undefined ? '–' : `${last.passed} of ${last.events}`],
    ['time-outs / internal errors', last === undefined ? '–' : `${last.timeouts} / ${last.internalErrors}`],
    ['zero-variance groups', last === undefined ? '–' : `<span data-testid="zero-groups">${last.zeroVarianceGroups}</span> of ${last.groups}`],
    ['reward calls', `${span > 0 ? `${(events / span).toFixed(1)} rollouts/s over ${Math.round(span)} s` : '–'}, latency mean ${fmtMs(latency)}`],
    ['updated (UTC)', when(run.updatedMs)],
  ];
}

/** Render the list of training runs: tick several to overlay them. */
export function renderTrainingList(base: string, runs: readonly TrainingRunRow[]): string {
  const body = runs.length === 0
    ? '<p class="empty">No training run yet. <code>crucible serve</code> records reward events (run named by the request\'s <code>trainingRun</code> ' +
      'field or <code>X-Crucible-Training-Run</code> header, else <code>--training-run</code>); see docs/DASHBOARD.md.</p>'
    : `<form id="overlay-form" class="inline" method="get" action="training/${runs[0]!.id}"><button type="submit">Overlay selected</button>` +
      '<span class="muted">the first ticked run is the page, the others overlay its reward and pass-rate charts</span></form>' +
      `<table id="training-runs" class="sortable"><thead><tr><th></th><th data-type="number">id</th><th data-type="text">name</th><th data-type="number">rollouts</th>` +
      `<th data-type="number">updated (UTC)</th></tr></thead><tbody>${runs.map((r) =>
        `<tr data-training="${r.id}"><td><input type="checkbox" name="pick" value="${r.id}" aria-label="overlay ${esc(r.name)}"></td><td data-v="${r.id}">${r.id}</td>` +
        `<td data-v="${esc(r.name)}"><a href="training/${r.id}">${esc(r.name)}</a></td><td data-v="${r.events}" data-field="events">${r.events}</td>` +
        `<td data-v="${r.updatedMs}">${when(r.updatedMs)}</td></tr>`).join('')}</tbody></table>`;
  return page({ base, title: 'Training runs', page: 'training-list' }, body);
}

function controls(lines: readonly TrainingLine[], others: readonly TrainingRunRow[], smoothing: number): string {
  const overlaid = new Set(lines.slice(1).map((l) => l.run.id));
  const legend = lines.map((l, i) => `<span class="legend-item"><span class="swatch" style="background:${PALETTE[i % PALETTE.length]}"></span>${esc(l.run.name)}</span>`).join(' ');
  const choices = others.filter((o) => o.id !== lines[0]!.run.id).map((o) =>
    `<label><input type="checkbox" name="with" value="${o.id}"${overlaid.has(o.id) ? ' checked' : ''}> ${esc(o.name)}</label>`).join(' ');
  return `<form class="filters training-controls" method="get" action="training/${lines[0]!.run.id}">` +
    `<label>smoothing <input type="range" name="smooth" id="smoothing" min="0" max="0.99" step="0.01" value="${smoothing}" aria-label="smoothing">` +
    ` <output id="smoothing-value">${smoothing.toFixed(2)}</output></label>` +
    (choices === '' ? '' : `<details><summary>overlay runs</summary>${choices} <button type="submit">Overlay</button></details>`) +
    `<span class="legend">${legend}</span><span class="muted">drag to pan, scroll to zoom the ${lines[0]!.series.unit} axis, double-click to reset</span></form>`;
}

/** Render a training run page; `lines[0]` is the run, the rest overlay it. */
export function renderTraining(base: string, lines: readonly TrainingLine[], others: readonly TrainingRunRow[], smoothing: number): string {
  const { run, series } = lines[0]!;
  const specs = trainingSpecs(lines, smoothing);
  const unit = series.unit;
  // Thousands of points draw faster on a canvas than as SVG elements.
  const heavy = lines.reduce((n, l) => n + l.series.buckets.length, 0) > 300 ? 'canvas' as const : 'svg' as const;
  const body = `${facts(trainingFacts(run, series), 'training-facts')}
${controls(lines, others, smoothing)}
<section><h2>Reward per ${unit}</h2>${chart('reward', specs.reward, undefined, heavy)}</section>
<section><h2>Rollouts passed per ${unit}</h2>${chart('passRate', specs.passRate, undefined, heavy)}</section>
<section><h2>Reward histogram per ${unit}</h2>${chart('histogram', specs.histogram, 'colour: share of the rollouts of the column with that reward', 'canvas')}</section>
<section><h2>Reward calls</h2>${chart('calls', specs.calls, 'rollouts answered per second and the latency of the calls that carried them, over wall-clock time')}</section>
<section class="two"><div><h2>Time-outs and internal errors</h2>${chart('failures', specs.failures)}</div>
<div><h2>GRPO groups with zero reward variance</h2>${chart('zero', specs.zero, 'groups (same group id, ≥ 2 rollouts) whose rewards all agree give no gradient')}</div></section>
<section><h2>Pass rate per problem</h2>${chart('problems', specs.problems, 'the 40 problems with most rollouts', 'canvas')}
<p><a href="training/${run.id}/problems" data-testid="difficulty-link">Difficulty per problem: pass-rate EMA over steps</a></p></section>`;
  return page({ base, title: `Training: ${run.name}`, page: 'training', charts: true,
    data: { training: run.id, with: lines.slice(1).map((l) => l.run.id).join(','), smooth: smoothing },
    crumbs: [['Training', 'training'], [run.name, null]] }, body);
}

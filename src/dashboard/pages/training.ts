/**
 * Training runs fed live by reward events (`TrainingRecorder`, `POST …/api/training/:run/events`): reward mean
 * ± std per step (or minute), time-outs and internal errors, zero-variance GRPO groups, pass rate per problem
 * over time. The browser refreshes the charts from `api/training/:id/series` when the run changes.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { TrainingRunRow, TrainingSeries } from '../../store/result-store.js';
import { failuresSpec, problemHeatSpec, rewardSpec, zeroVarianceSpec } from '../charts.js';
import { chart, esc, facts, page, when } from '../html.js';

/** The specs of a training run's charts, by chart id (the page and the live refresh share them). */
export function trainingSpecs(series: TrainingSeries): Record<'reward' | 'failures' | 'zero' | 'problems', TopLevelSpec> {
  return {
    reward: rewardSpec(series.buckets, series.unit),
    failures: failuresSpec(series.buckets, series.unit),
    zero: zeroVarianceSpec(series.buckets, series.unit),
    problems: problemHeatSpec(series.problems, series.unit),
  };
}

/** Headline figures of a training run (the latest bucket). */
export function trainingFacts(run: TrainingRunRow, series: TrainingSeries): [string, string][] {
  const last = series.buckets[series.buckets.length - 1];
  return [
    ['rollouts', `<span data-testid="events">${run.events}</span>`],
    [`latest ${series.unit}`, last === undefined ? '–' : `<span data-testid="bucket">${last.bucket}</span>`],
    ['reward mean ± std', last === undefined ? '–' : `<span data-testid="reward-mean">${last.rewardMean.toFixed(4)}</span> ± ${last.rewardStd.toFixed(4)}`],
    ['passed', last === undefined ? '–' : `${last.passed} of ${last.events}`],
    ['time-outs / internal errors', last === undefined ? '–' : `${last.timeouts} / ${last.internalErrors}`],
    ['zero-variance groups', last === undefined ? '–' : `<span data-testid="zero-groups">${last.zeroVarianceGroups}</span> of ${last.groups}`],
    ['updated (UTC)', when(run.updatedMs)],
  ];
}

/** Render the list of training runs. */
export function renderTrainingList(base: string, runs: readonly TrainingRunRow[]): string {
  const body = runs.length === 0
    ? '<p class="empty">No training run yet. <code>crucible serve</code> records reward events when told a run name; see docs/DASHBOARD.md.</p>'
    : `<table id="training-runs"><thead><tr><th>id</th><th>name</th><th>rollouts</th><th>updated (UTC)</th></tr></thead><tbody>${runs.map((r) =>
      `<tr data-training="${r.id}"><td>${r.id}</td><td><a href="training/${r.id}">${esc(r.name)}</a></td><td data-field="events">${r.events}</td><td>${when(r.updatedMs)}</td></tr>`).join('')}</tbody></table>`;
  return page({ base, title: 'Training runs', page: 'training-list' }, body);
}

/** Render a training run page. */
export function renderTraining(base: string, run: TrainingRunRow, series: TrainingSeries): string {
  const specs = trainingSpecs(series);
  const body = `${facts(trainingFacts(run, series), 'training-facts')}
<section><h2>Reward per ${series.unit}</h2>${chart('reward', specs.reward)}</section>
<section><h2>Time-outs and internal errors</h2>${chart('failures', specs.failures)}</section>
<section><h2>GRPO groups with zero reward variance</h2>${chart('zero', specs.zero, 'groups (same group id, ≥ 2 rollouts) whose rewards all agree give no gradient')}</section>
<section><h2>Pass rate per problem over time</h2>${chart('problems', specs.problems)}
<p><a href="training/${run.id}/problems" data-testid="difficulty-link">Difficulty per problem: pass-rate EMA over steps</a></p></section>`;
  return page({ base, title: `Training: ${run.name}`, page: 'training', charts: true, data: { training: run.id },
    crumbs: [['Training', 'training'], [run.name, null]] }, body);
}

/**
 * Difficulty per problem of a training run (issue #28, item 2): every problem's rollouts, pass rate and the EMA of
 * its pass rate across trainer steps (`src/metrics/difficulty.ts`), hardest first, and a chart of the pass rate per
 * step with its EMA for the problems with most rollouts. Self-contained: its routes (`training/:id/problems`, the
 * JSON `api/training/:id/problems`) register beside the training pages, which link here.
 */
import type { PageRouteKit } from './route-kit.js';
import type { TopLevelSpec } from 'vega-lite';
import { difficultyByProblem, DEFAULT_DIFFICULTY_ALPHA, type DifficultyStats } from '../../metrics/difficulty.js';
import type { ResultStore, TrainingRunRow } from '../../store/result-store.js';
import { chart, esc, page, pct } from '../html.js';

/** Problems drawn in the chart (those with most rollouts). */
const CHART_PROBLEMS = 12;

/** Difficulty of every problem of a training run, hardest (lowest EMA) first; problems without steps last. */
export async function trainingDifficulty(store: ResultStore, run: TrainingRunRow, alpha = DEFAULT_DIFFICULTY_ALPHA): Promise<DifficultyStats[]> {
  const stats = [...difficultyByProblem(await store.problemSteps(run.id), alpha).values()];
  return stats.sort((a, b) => (a.ema ?? 2) - (b.ema ?? 2) || b.rollouts - a.rollouts || (a.taskId < b.taskId ? -1 : 1));
}

/** Pass rate per step (points) and its EMA (line) of the problems with most rollouts. */
export function difficultySeriesSpec(stats: readonly DifficultyStats[]): TopLevelSpec {
  const shown = [...stats].filter((s) => s.steps > 0).sort((a, b) => b.rollouts - a.rollouts).slice(0, CHART_PROBLEMS);
  const values = shown.flatMap((s) => s.series.map((p) => ({ taskId: s.taskId, step: p.step, rate: 100 * p.passRate, ema: 100 * p.ema, n: p.rollouts })));
  const color = { field: 'taskId', type: 'nominal' as const, title: 'problem' };
  return {
    width: 520, height: 240,
    data: { values },
    layer: [
      { mark: { type: 'line', interpolate: 'monotone' },
        encoding: { x: { field: 'step', type: 'quantitative', title: 'step' }, y: { field: 'ema', type: 'quantitative', title: 'pass rate (%)', scale: { domain: [0, 100] } }, color } },
      { mark: { type: 'point', opacity: 0.6 },
        encoding: { x: { field: 'step', type: 'quantitative' }, y: { field: 'rate', type: 'quantitative' }, color,
          tooltip: [{ field: 'taskId' }, { field: 'step' }, { field: 'rate', format: '.1f' }, { field: 'ema', format: '.1f' }, { field: 'n' }] } },
    ],
  };
}

function rate(value: number | null): string {
  return value === null ? '–' : pct(value);
}

/** Render the page. */
export function renderDifficulty(base: string, run: TrainingRunRow, stats: readonly DifficultyStats[], alpha: number): string {
  const rows = stats.map((s) => `<tr data-task="${esc(s.taskId)}"><td>${esc(s.taskId)}</td><td>${s.rollouts}</td><td>${s.passed}</td>` +
    `<td>${rate(s.passRate)}</td><td data-field="ema">${rate(s.ema)}</td><td>${rate(s.lastPassRate)}</td><td>${s.steps}</td>` +
    `<td>${s.firstStep ?? '–'}–${s.lastStep ?? '–'}</td></tr>`).join('');
  const body = `<p>Pass rate of each problem across trainer steps and its exponential moving average (α = ${alpha}: the latest step
weighs ${alpha}, docs/METRICS.md "Difficulty and curricula"); <code>GET /v1/problems/{id}/stats</code> and
<code>POST /v1/curriculum/sample</code> of <code>crucible serve</code> read the same numbers.</p>
<section><h2>Pass rate per problem over steps</h2>${chart('difficulty', difficultySeriesSpec(stats), `points: a step's pass rate; lines: the EMA (the ${CHART_PROBLEMS} problems with most rollouts)`)}</section>
<section><h2>Problems, hardest first</h2>${stats.length === 0 ? '<p class="empty">No rollout recorded yet.</p>'
    : `<table id="difficulty"><thead><tr><th>problem</th><th>rollouts</th><th>passed</th><th>pass rate (%)</th><th>EMA (%)</th><th>last step (%)</th><th>steps</th><th>first–last step</th></tr></thead><tbody>${rows}</tbody></table>`}</section>`;
  return page({ base, title: `Difficulty: ${run.name}`, page: 'difficulty', charts: true, data: { training: run.id },
    crumbs: [['Training', 'training'], [run.name, `training/${run.id}`], ['Difficulty', null]] }, body);
}

/** What these pages need of the dashboard's routes. */
export type DifficultyRouteKit = PageRouteKit;

/** `training/:id/problems` (page) and `api/training/:id/problems` (JSON: the stats and the chart spec). */
export function registerDifficultyPages(kit: DifficultyRouteKit): void {
  const { app, store, prefix, base, html, problemPage, apiError } = kit;
  const runOf = async (id: string): Promise<TrainingRunRow | undefined> => (/^\d+$/.test(id) ? store.getTrainingRun(id) : undefined);
  app.get<{ Params: { id: string } }>(`${prefix}/training/:id/problems`, async (request, reply) => {
    const run = await runOf(request.params.id);
    if (run === undefined) return problemPage(reply, 404, 'Training run not found', `There is no training run ${request.params.id}.`);
    return html(reply, renderDifficulty(base, run, await trainingDifficulty(store, run), DEFAULT_DIFFICULTY_ALPHA));
  });
  app.get<{ Params: { id: string } }>(`${prefix}/api/training/:id/problems`, async (request, reply) => {
    const run = await runOf(request.params.id);
    if (run === undefined) return apiError(reply, 404, 'training_run_not_found', `no training run ${request.params.id}`);
    const stats = await trainingDifficulty(store, run);
    return { run, alpha: DEFAULT_DIFFICULTY_ALPHA, problems: stats, specs: { difficulty: difficultySeriesSpec(stats) } };
  });
}

/**
 * The runs list as a leaderboard: one row per run with its model, dataset, tags and sampling settings as fields,
 * pass@k at a chosen k with its bootstrap interval (base, and base + plus for EvalPlus runs) and how many problems
 * it covers, live progress of running evals (a run whose progress stopped is shown as stalled, never with its last
 * speed), filters (text, model, dataset, tag, status), sorting by any column, and ticking runs to compare.
 */
import type { HeadlinePoint, RunFilter, RunHeadline, RunListRow } from '../../store/result-store.js';
import { ago, badge, esc, page, pct, progressBar, when } from '../html.js';

const STATUSES = ['running', 'finished', 'failed', 'interrupted'] as const;

/** A running run whose progress has not moved for this long is shown as stalled (its eval may have died). */
export const STALLED_MS = 60_000;

/** The k values the list offers. */
export const LIST_KS = [1, 2, 5, 10, 20, 50, 100] as const;

/** The status to show: `running` becomes `stalled` after `stalledMs` without an update. */
export function shownStatus(run: Pick<RunListRow, 'status' | 'updatedMs'>, nowMs = Date.now(), stalledMs = STALLED_MS): string {
  return run.status === 'running' && nowMs - run.updatedMs > stalledMs ? 'stalled' : run.status;
}

/** What the list is asked for besides the filter. */
export interface RunsView {
  readonly k: number;
  readonly nowMs?: number;
  readonly stalledMs?: number;
}

/** The headline point at k, or undefined when the run has none there (fewer than k samples per problem). */
export function pointAt(points: readonly HeadlinePoint[] | undefined, k: number): HeadlinePoint | undefined {
  return points?.find((p) => p.k === k);
}

/** "12/164" problems covered, with a title that says what the figure is over. */
function coverage(h: RunHeadline | null, status: string): string {
  if (h === null) return '<td data-v="0">–</td>';
  const partial = h.problemsJudged < h.problemsTotal;
  const title = partial ? (status === 'running' ? 'problems judged so far: pass@k is over these only'
    : 'problems with judged samples: the others had no sample') : 'every problem';
  return `<td data-v="${h.problemsJudged / Math.max(1, h.problemsTotal)}" data-field="coverage" title="${esc(title)}"${partial ? ' class="partial"' : ''}>` +
    `${h.problemsJudged}/${h.problemsTotal}</td>`;
}

/** A pass@k cell: the value, its interval below. */
function passCell(point: HeadlinePoint | undefined, field: string, k: number): string {
  if (point === undefined) return `<td data-v="-1" data-field="${field}" title="not reportable at k = ${k}: some problem has fewer than ${k} samples">–</td>`;
  return `<td data-v="${point.passAtK}" data-field="${field}" data-value="${point.passAtK}"><span class="num">${pct(point.passAtK)}</span>` +
    `<span class="ci">[${pct(point.lower)}, ${pct(point.upper)}]</span></td>`;
}

/** Sampling settings in a few words: "T 0.8 · p 0.95 · n 100". */
export function samplingText(generation: Readonly<Record<string, unknown>> | null): string {
  if (generation === null) return '';
  const num = (key: string) => (typeof generation[key] === 'number' ? String(generation[key]) : undefined);
  const parts = [['T', num('temperature')], ['top-p', num('top_p')], ['max', num('max_tokens')], ['n', num('n')]]
    .filter((p): p is [string, string] => p[1] !== undefined).map(([k, v]) => `${k} ${v}`);
  return parts.join(' · ');
}

function progressCell(r: RunListRow, shown: string, nowMs: number): string {
  if (shown === 'stalled') {
    return `<td data-v="${r.doneSamples}" data-field="samples"><span class="stalled-note" data-testid="stalled">` +
      `${r.doneSamples}/${r.totalSamples}, no progress for ${ago(nowMs - r.updatedMs)}</span></td>`;
  }
  const progress = r.status === 'running'
    ? progressBar(r.doneSamples, r.totalSamples, r.progress?.samplesPerSecond ?? null, r.progress?.etaSeconds ?? null)
    : `${r.doneSamples}/${r.totalSamples}`;
  return `<td data-v="${r.doneSamples}" data-field="samples">${progress}</td>`;
}

function row(r: RunListRow, view: Required<RunsView>, withPlus: boolean): string {
  const shown = shownStatus(r, view.nowMs, view.stalledMs);
  const tags = r.tags.map((t) => `<a class="tag" href="?tag=${encodeURIComponent(t)}">${esc(t)}</a>`).join(' ');
  const sampling = samplingText(r.generation);
  // A row drawn stalled is marked so: the page's stalled watch leaves its "no progress for N s" note as it is.
  return `<tr data-run="${r.id}" data-status="${esc(r.status)}" data-updated="${r.updatedMs}"${shown === 'stalled' ? ' data-shown="stalled"' : ''}>` +
    `<td class="pick"><input type="checkbox" name="run" value="${r.id}" form="compare-form" aria-label="compare run ${r.id}"></td>` +
    `<td data-v="${r.id}"><a href="runs/${r.id}">${r.id}</a></td>` +
    `<td data-v="${esc(r.name)}" class="name"><a href="runs/${r.id}">${esc(r.name)}</a>${tags === '' ? '' : `<div class="tags">${tags}</div>`}</td>` +
    `<td data-v="${esc(r.model)}" data-field="model" class="model">${esc(r.model)}</td>` +
    `<td data-v="${esc(r.dataset)}" class="col-dataset">${esc(r.dataset)}</td>` +
    `<td data-v="${esc(shown)}" data-field="status">${badge(shown)}</td>` +
    progressCell(r, shown, view.nowMs) +
    passCell(pointAt(r.headline?.base, view.k), 'pass', view.k) +
    (withPlus ? passCell(pointAt(r.headline?.plus, view.k), 'plus', view.k) : '') +
    coverage(r.headline, r.status) +
    `<td data-v="${esc(sampling)}" class="col-sampling">${esc(sampling)}</td>` +
    `<td data-v="${r.createdMs}" class="col-created">${when(r.createdMs)}</td></tr>`;
}

function filterForm(filter: RunFilter, k: number): string {
  const option = (value: string, selected: boolean, label = value) => `<option value="${esc(value)}"${selected ? ' selected' : ''}>${esc(label)}</option>`;
  return `<form class="filters" method="get" action="">
<input name="q" placeholder="name, model, dataset or tag" value="${esc(filter.text ?? '')}" aria-label="filter">
<input name="model" placeholder="model" value="${esc(filter.model ?? '')}" aria-label="model">
<input name="dataset" placeholder="dataset" value="${esc(filter.dataset ?? '')}" aria-label="dataset">
<input name="tag" placeholder="tag" value="${esc(filter.tag ?? '')}" aria-label="tag">
<select name="status" aria-label="status">${['', ...STATUSES].map((s) => option(s, (filter.status ?? '') === s, s || 'any status')).join('')}</select>
<label>pass@<select name="k" aria-label="k">${LIST_KS.map((x) => option(String(x), x === k)).join('')}</select></label>
<button type="submit">Show</button></form>`;
}

/** Render the runs list. */
export function renderRuns(base: string, runs: readonly RunListRow[], filter: RunFilter, view: RunsView): string {
  const full: Required<RunsView> = { k: view.k, nowMs: view.nowMs ?? Date.now(), stalledMs: view.stalledMs ?? STALLED_MS };
  const withPlus = runs.some((r) => r.headline?.plus !== undefined);
  const confidence = Math.round(100 * (runs.find((r) => r.headline !== null)?.headline?.confidence ?? 0.95));
  const table = runs.length === 0 ? '<p class="empty">No runs match. <code>crucible eval</code> writes one; <code>crucible store import DIR</code> adds a run directory.</p>'
    : `<form id="compare-form" method="get" action="compare" class="inline"><button type="submit" id="compare-selected">Compare selected runs</button>` +
      `<span class="muted">tick two or more runs</span></form>` +
      `<div class="table-wrap"><table class="sortable leaderboard" id="runs"><caption>pass@${full.k} (%) on each run's problems with ${confidence}% ` +
      'bootstrap intervals over problems; click a header to sort.</caption><thead><tr><th></th><th data-type="number">id</th>' +
      '<th data-type="text">name</th><th data-type="text">model</th><th data-type="text" class="col-dataset">dataset</th><th data-type="text">status</th>' +
      `<th data-type="number">samples</th><th data-type="number">pass@${full.k}</th>${withPlus ? `<th data-type="number">plus pass@${full.k}</th>` : ''}` +
      '<th data-type="number" title="problems the figures are over">problems</th><th data-type="text" class="col-sampling">sampling</th>' +
      `<th data-type="number" class="col-created">created (UTC)</th></tr></thead><tbody>${runs.map((r) => row(r, full, withPlus)).join('')}</tbody></table></div>`;
  return page({ base, title: 'Runs', page: 'runs', data: { k: full.k, 'stalled-ms': full.stalledMs } }, `${filterForm(filter, full.k)}\n${table}`);
}

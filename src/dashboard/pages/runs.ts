/** The runs list: filters (text, model, dataset, status) and one row per run, with live progress. */
import type { RunFilter, RunListRow } from '../../store/result-store.js';
import { badge, esc, page, pct, progressBar, when } from '../html.js';

const STATUSES = ['running', 'finished', 'failed', 'interrupted'] as const;

/** A running run whose progress has not moved for this long is shown as stalled (its eval may have died). */
export const STALLED_MS = 60_000;

/** The status to show: `running` becomes `stalled` after `STALLED_MS` without an update. */
export function shownStatus(run: Pick<RunListRow, 'status' | 'updatedMs'>, nowMs = Date.now()): string {
  return run.status === 'running' && nowMs - run.updatedMs > STALLED_MS ? 'stalled' : run.status;
}

/** Render the runs list. */
export function renderRuns(base: string, runs: readonly RunListRow[], filter: RunFilter): string {
  const option = (value: string, selected: boolean) => `<option value="${esc(value)}"${selected ? ' selected' : ''}>${esc(value || 'any status')}</option>`;
  const form = `<form class="filters" method="get" action="">
<input name="q" placeholder="name, model or dataset" value="${esc(filter.text ?? '')}" aria-label="filter">
<input name="model" placeholder="model" value="${esc(filter.model ?? '')}" aria-label="model">
<input name="dataset" placeholder="dataset" value="${esc(filter.dataset ?? '')}" aria-label="dataset">
<select name="status" aria-label="status">${['', ...STATUSES].map((s) => option(s, (filter.status ?? '') === s)).join('')}</select>
<button type="submit">Filter</button></form>`;
  const rows = runs.map((r) => {
    const progress = r.status === 'running'
      ? progressBar(r.doneSamples, r.totalSamples, r.progress?.samplesPerSecond ?? null, r.progress?.etaSeconds ?? null)
      : `${r.doneSamples}/${r.totalSamples}`;
    return `<tr data-run="${r.id}" data-status="${esc(r.status)}"><td data-v="${r.id}"><a href="runs/${r.id}">${r.id}</a></td>` +
      `<td data-v="${esc(r.name)}"><a href="runs/${r.id}">${esc(r.name)}</a></td><td data-v="${esc(shownStatus(r))}" data-field="status">${badge(shownStatus(r))}</td>` +
      `<td data-v="${esc(r.model)}">${esc(r.model)}</td><td data-v="${esc(r.dataset)}">${esc(r.dataset)}</td>` +
      `<td data-v="${r.doneSamples}" data-field="samples">${progress}</td>` +
      `<td data-v="${r.doneSamples > 0 ? r.passedSamples / r.doneSamples : 0}" data-field="passed">${r.doneSamples > 0 ? pct(r.passedSamples / r.doneSamples) : '–'}</td>` +
      `<td data-v="${r.createdMs}">${when(r.createdMs)}</td></tr>`;
  }).join('');
  const table = runs.length === 0 ? '<p class="empty">No runs match. <code>crucible eval</code> writes one; <code>crucible store import DIR</code> adds a run directory.</p>'
    : `<table class="sortable" id="runs"><thead><tr><th data-type="number">id</th><th data-type="text">name</th><th data-type="text">status</th>` +
      `<th data-type="text">model</th><th data-type="text">dataset</th><th data-type="number">samples</th><th data-type="number">samples passed (%)</th>` +
      `<th data-type="number">created (UTC)</th></tr></thead><tbody>${rows}</tbody></table>`;
  return page({ base, title: 'Runs', page: 'runs' }, `${form}\n${table}`);
}

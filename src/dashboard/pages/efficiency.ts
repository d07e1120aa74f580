/**
 * Efficiency on the dashboard (issue #28, item 8): the run page's section and the sample page's facts for a run
 * judged with `crucible eval --efficiency`, read from the store's `sample_efficiency` rows
 * (`ResultStore.efficiencyOf`) and the run's summary (`efficiency.aggregate`, `src/apps/efficiency.ts`). The
 * formulas and their sources are in docs/METRICS.md, "Efficiency measured"; this module only formats.
 */
import { countUnitOf } from '../../engine/count-unit.js';
import type { EfficiencyRow, RunRow } from '../../store/result-store.js';
import { esc, kib, naturalCompare, pct } from '../html.js';

/** What the run page reads of the summary's `efficiency.aggregate` (all optional: older summaries lack fields). */
interface AggregateParts {
  readonly measuredSamples?: number;
  readonly failedMeasurements?: number;
  readonly dps?: number | null;
  readonly dpsNorm?: number | null;
  readonly beyond?: number | null;
  readonly net?: number | null;
  readonly nmu?: number | null;
  readonly ntmu?: number | null;
  readonly ntmuNote?: string;
  readonly indistinguishableShare?: number | null;
}

/** The run's efficiency aggregate from its stored summary, or undefined when the eval did not measure. */
export function efficiencyAggregate(run: Pick<RunRow, 'summary'>): AggregateParts | undefined {
  const summary = run.summary as { efficiency?: { aggregate?: AggregateParts } } | undefined;
  const aggregate = summary?.efficiency?.aggregate;
  return typeof aggregate === 'object' && aggregate !== null ? aggregate : undefined;
}

/** A number with `digits` decimals, '–' for null/undefined. */
function fixed(v: number | null | undefined, digits: number): string {
  return v === null || v === undefined ? '–' : v.toFixed(digits);
}

/** An integer with thousands separators ('–' for null). */
function count(v: number | null): string {
  return v === null ? '–' : v.toLocaleString('en-US');
}

function aggregateTable(a: AggregateParts): string {
  const cell = (field: string, v: number | null | undefined, digits: number): string =>
    `<td data-field="${field}" data-value="${v ?? ''}">${fixed(v, digits)}</td>`;
  const share = a.indistinguishableShare;
  return `<table id="efficiency-aggregate"><caption>Means over measured passing samples (DPS: over problems); ` +
    `${a.measuredSamples ?? 0} measured, ${a.failedMeasurements ?? 0} could not be</caption>` +
    '<thead><tr><th>DPS</th><th>DPS_norm</th><th>Beyond (%)</th><th>NET</th><th>NMU</th><th>NTMU</th><th>indistinguishable from the reference (%)</th></tr></thead>' +
    `<tbody><tr>${cell('dps', a.dps, 2)}${cell('dps-norm', a.dpsNorm, 2)}${cell('beyond', a.beyond, 2)}${cell('net', a.net, 3)}${cell('nmu', a.nmu, 3)}` +
    `${cell('ntmu', a.ntmu, 3)}<td data-field="indistinguishable">${share === null || share === undefined ? '–' : pct(share)}</td></tr></tbody></table>` +
    (a.ntmuNote !== undefined ? `<p class="muted">NTMU's ${esc(a.ntmuNote)}.</p>` : '');
}

function sampleRow(runId: number, r: EfficiencyRow): string {
  const href = `runs/${runId}/sample?task=${encodeURIComponent(r.taskId)}&index=${r.sampleIndex}`;
  const wall = r.error === null ? `${r.wallMedianMs.toFixed(1)} <span class="ci">[${r.wallLowerMs.toFixed(1)}, ${r.wallUpperMs.toFixed(1)}]</span>` : '–';
  const v = (x: number | null): string => x === null ? '-1' : String(x);
  return `<tr data-task="${esc(r.taskId)}" data-sample="${r.sampleIndex}"><td data-v="${esc(r.taskId)}"><a href="${esc(href)}">${esc(r.taskId)}</a></td>` +
    `<td data-v="${r.sampleIndex}">${r.sampleIndex}</td><td data-v="${esc(r.language)}">${esc(r.language)}</td>` +
    `<td data-v="${v(r.instructions)}" data-field="instructions">${count(r.instructions)}</td>` +
    `<td data-v="${r.wallMedianMs}" data-field="wall">${wall}</td><td data-v="${r.peakMemoryKiB}">${kib(r.peakMemoryKiB)}</td>` +
    `<td data-v="${v(r.dps)}" data-field="dps">${fixed(r.dps, 2)}</td><td data-v="${v(r.beyond)}" data-field="beyond">${fixed(r.beyond, 3)}</td>` +
    `<td data-v="${v(r.net)}" data-field="net">${fixed(r.net, 3)}</td><td data-v="${v(r.nmu)}" data-field="nmu">${fixed(r.nmu, 3)}</td>` +
    `<td data-v="${v(r.ntmu ?? null)}" data-field="ntmu">${fixed(r.ntmu ?? null, 3)}</td>` +
    `<td data-field="indistinguishable">${r.indistinguishable === null ? '–' : r.indistinguishable ? 'yes' : 'no'}</td>` +
    `<td class="reason-cell">${esc(r.error ?? '')}</td></tr>`;
}

/**
 * The run page's "Efficiency" section: the run's aggregate (from the summary) and one sortable row per measured
 * sample (from the store); '' when the run was not measured (no rows and no aggregate).
 */
export function efficiencySection(run: Pick<RunRow, 'id' | 'summary'>, rows: readonly EfficiencyRow[]): string {
  const aggregate = efficiencyAggregate(run);
  if (rows.length === 0 && aggregate === undefined) return '';
  const sorted = [...rows].sort((a, b) => naturalCompare(a.taskId, b.taskId) || a.sampleIndex - b.sampleIndex);
  const table = sorted.length === 0 ? '<p class="empty">No passing sample was measured.</p>'
    : '<div class="table-wrap"><table class="sortable" id="efficiency"><caption>Measured passing samples against their problem\'s reference ' +
      '(cost: instructions, or bytecodes for Java, when both were counted in the same unit, else median wall time); click a header to sort</caption><thead><tr>' +
      '<th data-type="task">task</th><th data-type="number">sample</th><th data-type="text">language</th><th data-type="number">instructions (Java: bytecodes)</th>' +
      '<th data-type="number">wall ms [CI]</th><th data-type="number">peak memory</th><th data-type="number">DPS</th><th data-type="number">Beyond</th>' +
      '<th data-type="number">NET</th><th data-type="number">NMU</th><th data-type="number">NTMU</th><th>indistinguishable</th><th>measurement error</th></tr></thead>' +
      `<tbody>${sorted.map((r) => sampleRow(run.id, r)).join('')}</tbody></table></div>`;
  return `<section id="efficiency-section"><h2>Efficiency</h2><p class="muted">crucible eval --efficiency: EvalPerf's DPS/DPS_norm, Mercury's Beyond, ` +
    `EffiBench's NET/NMU/NTMU against each problem's reference solution (docs/METRICS.md, "Efficiency measured").</p>` +
    `${aggregate === undefined ? '' : aggregateTable(aggregate)}${table}</section>`;
}

/** The sample page's efficiency facts (label, HTML) for a measured sample; [] when it was not measured. */
export function sampleEfficiencyFacts(row: EfficiencyRow | undefined): [string, string][] {
  if (row === undefined) return [];
  if (row.error !== null) return [['efficiency', `<span data-testid="efficiency-error">not measured: ${esc(row.error)}</span>`]];
  const span = (id: string, text: string): string => `<span data-testid="${id}">${text}</span>`;
  return [
    [countUnitOf(row.language) === 'bytecodes' ? 'bytecodes (JVMTI counter)' : 'instructions (callgrind)', span('efficiency-instructions', count(row.instructions))],
    ['measured wall time', `${span('efficiency-wall', row.wallMedianMs.toFixed(1))} ms median <span class="ci">[${row.wallLowerMs.toFixed(1)}, ` +
      `${row.wallUpperMs.toFixed(1)}]</span>, CPU ${row.cpuMedianMs.toFixed(1)} ms, peak ${kib(row.peakMemoryKiB)}`],
    ['efficiency vs reference', `DPS ${span('efficiency-dps', fixed(row.dps, 2))}, DPS_norm ${fixed(row.dpsNorm, 2)}, Beyond ${span('efficiency-beyond', fixed(row.beyond, 3))}, ` +
      `NET ${span('efficiency-net', fixed(row.net, 3))}, NMU ${span('efficiency-nmu', fixed(row.nmu, 3))}` +
      `${row.indistinguishable === null ? '' : row.indistinguishable ? ' (wall time indistinguishable from the reference)' : ''}`],
  ];
}

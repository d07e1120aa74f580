/**
 * Self-contained HTML rendering of a run report: one file, inline CSS, inline SVG charts (rendered on
 * the server, see `charts.ts`) and a few lines of inline JS to sort the per-problem table. No external
 * URL, script, stylesheet or font, so the file opens offline and leaks nothing when shared.
 */
import type { PassAtKSummary } from '../metrics/summary.js';
import type { ReportData } from './build.js';
import type { ReportSection } from './sections.js';
import { passAtKCurveSpec, renderSvg, verdictChartSpec } from './charts.js';
import { estimateWithInterval, percent, pointAt } from './format.js';

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const STYLE = `
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:60em;color:#222}
table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:.25em .6em;text-align:right}
th:first-child,td:first-child{text-align:left}th[data-type]{cursor:pointer;background:#f3f3f3}
caption{text-align:left;color:#555;padding-bottom:.3em}`;

// Sorts the problem table by the clicked column (numbers by data-v, text otherwise); a second click reverses.
const SORT_SCRIPT = `
document.querySelectorAll('table.sortable th[data-type]').forEach(function(th){
  th.addEventListener('click',function(){
    var table=th.closest('table'),body=table.tBodies[0],i=th.cellIndex,num=th.dataset.type==='number';
    var dir=th.dataset.dir==='asc'?-1:1;th.dataset.dir=dir===1?'asc':'desc';
    var rows=Array.prototype.slice.call(body.rows);
    rows.sort(function(a,b){
      var x=a.cells[i].dataset.v,y=b.cells[i].dataset.v;
      return dir*(num?Number(x)-Number(y):x.localeCompare(y));
    });
    rows.forEach(function(r){body.appendChild(r);});
  });
});`;

function summaryRow(name: string, summary: PassAtKSummary, ks: readonly number[]): string {
  const cells = ks.map((k) => {
    const p = pointAt(summary.points, k);
    return `<td>${p === undefined ? '–' : escapeHtml(estimateWithInterval(p))}</td>`;
  });
  return `<tr><td>${escapeHtml(name)}</td>${cells.join('')}</tr>`;
}

function problemTable(data: ReportData): string {
  const hasPlus = data.plus !== undefined;
  const head =
    '<tr><th data-type="text">task</th><th data-type="number">samples</th><th data-type="number">passed</th>' +
    '<th data-type="number">pass rate (%)</th>' +
    (hasPlus ? '<th data-type="number">plus passed</th>' : '') +
    '<th>verdicts</th></tr>';
  const sorted = [...data.problems].sort((a, b) => a.passRate - b.passRate || a.taskId.localeCompare(b.taskId));
  const rows = sorted.map((p) => {
    const statuses = p.statuses.map((s) => `${s.status} ${s.count}`).join(', ');
    return (
      `<tr><td data-v="${escapeHtml(p.taskId)}">${escapeHtml(p.taskId)}</td>` +
      `<td data-v="${p.n}">${p.n}</td><td data-v="${p.c}">${p.c}</td>` +
      `<td data-v="${p.passRate}">${percent(p.passRate)}</td>` +
      (hasPlus ? `<td data-v="${p.plusC ?? 0}">${p.plusC ?? 0}</td>` : '') +
      `<td>${escapeHtml(statuses)}</td></tr>`
    );
  });
  return (
    '<table class="sortable" id="problems"><caption>Click a header to sort; hardest problems first.</caption>' +
    `<thead>${head}</thead><tbody>${rows.join('')}</tbody></table>`
  );
}

function sectionHtml(section: ReportSection): string {
  return `<h2>${escapeHtml(section.title)}</h2>${section.note === undefined ? '' : `<p>${escapeHtml(section.note)}</p>`}` +
    `<table id="${escapeHtml(section.id)}"><thead><tr>${section.header.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>` +
    section.rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('') + '</tbody></table>';
}

/** Renders the report as one self-contained HTML document. */
export async function renderHtml(data: ReportData): Promise<string> {
  const { base } = data;
  const ci = `${Math.round(base.bootstrap.confidence * 100)}%`;
  const series: Record<string, PassAtKSummary> = { base };
  if (data.plus !== undefined) series['base + plus'] = data.plus;
  const [curveSvg, verdictSvg] = await Promise.all([
    renderSvg(passAtKCurveSpec(series)),
    renderSvg(verdictChartSpec(data.verdictCounts)),
  ]);
  const headline = data.headlineKs.map((k) => `<th>pass@${k}</th>`).join('');
  const verdictRows = data.verdictCounts.map((v) => `<tr><td>${v.status}</td><td>${v.count}</td></tr>`).join('');
  const title = `Crucible run report: ${escapeHtml(data.runDir)}`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title><style>${STYLE}</style></head>
<body>
<h1>${title}</h1>
<p>${base.numProblems} problems, ${base.numSamples} samples, ${base.numCorrect} passed.
pass@k in percent with ${ci} percentile-bootstrap intervals over problems
(${base.bootstrap.reps} replicates, seed ${base.bootstrap.seed}${base.bootstrap.twoLevel ? ', two-level' : ''}).</p>
${data.coverage.map((line) => `<p class="coverage"><strong>${escapeHtml(line)}</strong></p>`).join('\n')}
<h2>Summary</h2>
<table><thead><tr><th>tests</th>${headline}</tr></thead><tbody>
${summaryRow('base', base, data.headlineKs)}${data.plus === undefined ? '' : summaryRow('base + plus', data.plus, data.headlineKs)}
</tbody></table>
<h2>pass@k against k</h2>
<figure>${curveSvg}</figure>
<h2>Verdicts</h2>
<table><thead><tr><th>status</th><th>samples</th></tr></thead><tbody>${verdictRows}</tbody></table>
<figure>${verdictSvg}</figure>
${data.sections.map(sectionHtml).join('\n')}
<h2>Problems</h2>
${problemTable(data)}
<script>${SORT_SCRIPT}</script>
</body></html>
`;
}

/**
 * A run: provenance, pass@k table and curve with CI bands (base, and base + plus for EvalPlus runs), verdict
 * breakdown, difficulty histogram, and the per-problem table (sortable; difficulty = pass rate). A run with partial
 * credit (IOI subtasks, checkers with points) also shows its mean score, overall and per problem.
 */
import type { PassAtKSummary } from '../../metrics/summary.js';
import { HEADLINE_KS } from '../../report/build.js';
import type { RunAnalysis } from '../../store/analysis.js';
import { SAMPLE_STATUSES, type SampleStatus } from '../../verdict/index.js';
import type { ProblemCountsRow, RunListRow, RunRow } from '../../store/result-store.js';
import { difficultySpec, passAtKCurveSpec, verdictChartSpec } from '../charts.js';
import { badge, chart, esc, facts, page, pct, progressBar, when } from '../html.js';
import { shownStatus } from './runs.js';

/** Verdict counts over a run (every status, zeros included), from per-problem counts. */
export function verdictCounts(problems: readonly ProblemCountsRow[]): { status: SampleStatus; count: number }[] {
  return SAMPLE_STATUSES.map((status) => ({ status, count: problems.reduce((s, p) => s + (p.statuses[status] ?? 0), 0) }));
}

function passAtKTable(analysis: RunAnalysis): string {
  const ks = HEADLINE_KS.filter((k) => k <= analysis.base.maxK);
  const row = (name: string, summary: PassAtKSummary) => `<tr data-series="${esc(name)}"><th>${esc(name)}</th>${ks.map((k) => {
    const p = summary.points.find((x) => x.k === k)!;
    return `<td data-k="${k}" data-value="${p.passAtK}">${pct(p.passAtK)} <span class="ci">[${pct(p.lower)}, ${pct(p.upper)}]</span></td>`;
  }).join('')}</tr>`;
  const ci = Math.round(analysis.base.bootstrap.confidence * 100);
  return `<table id="pass-at-k"><caption>pass@k (%) with ${ci}% percentile-bootstrap intervals over problems ` +
    `(${analysis.base.bootstrap.reps} replicates, seed ${analysis.base.bootstrap.seed})</caption>` +
    `<thead><tr><th>tests</th>${ks.map((k) => `<th>pass@${k}</th>`).join('')}</tr></thead><tbody>` +
    row('base', analysis.base) + (analysis.plus === undefined ? '' : row('base + plus', analysis.plus)) + '</tbody></table>';
}

function provenance(run: RunRow): string {
  const json = (value: unknown) => `<code>${esc(JSON.stringify(value))}</code>`;
  const rows: [string, string][] = [
    ['model (samples)', `${esc(run.model)}${run.samplesFile === undefined ? '' : ` <span class="muted">${esc(run.samplesFile)}</span>`}`],
    ['dataset (problems)', `${esc(run.dataset)}${run.problemsFile === undefined ? '' : ` <span class="muted">${esc(run.problemsFile)}</span>`}`],
    ['problems sha256', `<code>${esc(run.problemsHash)}</code>`],
    ['samples sha256', `<code>${esc(run.samplesHash)}</code>`],
    ['format', esc(run.format ?? '–')],
    ['Crucible', esc(run.crucibleVersion)],
    ['limits', json(run.options)],
    ['per-test results kept', run.keepTests === 'all' ? 'every test' : 'failing tests in full, passing tests as counts'],
    ['created / finished (UTC)', `${when(run.createdMs)} / ${when(run.finishedMs)}`],
  ];
  for (const [k, v] of Object.entries(run.provenance)) rows.push([k, json(v)]);
  return facts(rows, 'provenance');
}

/** ", mean score 41.50% (8 scored samples)" for a run with partial credit, else ''. */
function scoreLead(problems: readonly ProblemCountsRow[]): string {
  const mean = meanScore(problems);
  if (mean === null) return '';
  const scored = problems.reduce((sum, p) => sum + p.scored, 0);
  return `, mean score <span data-testid="mean-score">${pct(mean)}</span>% (${scored} scored samples)`;
}

function problemTable(runId: number, problems: readonly ProblemCountsRow[]): string {
  const hasPlus = problems.some((p) => p.hasPlus);
  const hasScore = problems.some((p) => p.scored > 0);
  const score = (p: ProblemCountsRow): string => !hasScore ? ''
    : p.scored === 0 ? '<td data-v="-1" data-field="score">–</td>' : `<td data-v="${p.scoreSum / p.scored}" data-field="score">${pct(p.scoreSum / p.scored)}</td>`;
  const rows = [...problems].sort((a, b) => a.c / a.n - b.c / b.n || a.taskId.localeCompare(b.taskId)).map((p) => {
    const statuses = SAMPLE_STATUSES.filter((s) => (p.statuses[s] ?? 0) > 0).map((s) => `${s.replace(/_/g, ' ')} ${p.statuses[s]}`).join(', ');
    const href = `runs/${runId}/problem?task=${encodeURIComponent(p.taskId)}`;
    return `<tr data-task="${esc(p.taskId)}"><td data-v="${esc(p.taskId)}"><a href="${esc(href)}">${esc(p.taskId)}</a></td>` +
      `<td data-v="${p.testCount}">${p.testCount}</td><td data-v="${p.n}">${p.n}</td><td data-v="${p.c}" data-field="c">${p.c}</td>` +
      `<td data-v="${p.c / p.n}" data-field="rate">${pct(p.c / p.n)}</td>${score(p)}` +
      (hasPlus ? `<td data-v="${p.plusC}">${p.plusC}</td>` : '') + `<td>${esc(statuses)}</td></tr>`;
  }).join('');
  return `<table class="sortable" id="problems"><caption>Hardest first; click a header to sort.</caption><thead><tr>` +
    `<th data-type="text">task</th><th data-type="number">tests</th><th data-type="number">samples</th><th data-type="number">passed</th>` +
    `<th data-type="number">pass rate = difficulty (%)</th>${hasScore ? '<th data-type="number">mean score (%)</th>' : ''}${hasPlus ? '<th data-type="number">plus passed</th>' : ''}<th>verdicts</th>` +
    `</tr></thead><tbody>${rows}</tbody></table>`;
}

/**
 * Mean partial credit of a run, a fraction: the mean over the problems with scored samples of their samples' mean
 * score (each problem weighs the same, as in pass@1); null when no sample has a score.
 */
export function meanScore(problems: readonly ProblemCountsRow[]): number | null {
  const scored = problems.filter((p) => p.scored > 0);
  if (scored.length === 0) return null;
  return scored.reduce((sum, p) => sum + p.scoreSum / p.scored, 0) / scored.length;
}

/** Render a run page. `others`: runs to offer for comparison. */
export function renderRun(base: string, run: RunRow, problems: readonly ProblemCountsRow[], analysis: RunAnalysis | undefined,
  others: readonly RunListRow[]): string {
  const counts = verdictCounts(problems);
  const status = shownStatus(run);
  const series: Record<string, PassAtKSummary> = {};
  if (analysis !== undefined) {
    series['base'] = analysis.base;
    if (analysis.plus !== undefined) series['base + plus'] = analysis.plus;
  }
  const head = `<p class="lead">${badge(status)} · ${esc(run.model)} on ${esc(run.dataset)} · ` +
    `<span data-testid="done">${run.doneSamples}</span> of ${run.totalSamples} samples judged, ` +
    `<span data-testid="passed">${run.passedSamples}</span> passed${scoreLead(problems)}</p>` +
    (run.status === 'running' ? progressBar(run.doneSamples, run.totalSamples, run.progress?.samplesPerSecond ?? null, run.progress?.etaSeconds ?? null) : '');
  const compare = others.filter((o) => o.id !== run.id);
  const compareForm = compare.length === 0 ? '' : `<form class="inline" method="get" action="compare"><input type="hidden" name="a" value="${run.id}">` +
    `<label>Compare with <select name="b">${compare.map((o) => `<option value="${o.id}">${o.id} · ${esc(o.name)} (${esc(o.model)})</option>`).join('')}</select></label>` +
    ` <button type="submit">Compare</button></form>`;
  const body = `${head}
<section><h2>pass@k</h2>${analysis === undefined ? '<p class="empty">No sample judged yet.</p>' : passAtKTable(analysis) + chart('curve', passAtKCurveSpec(series), 'pass@k against k with its confidence band')}</section>
<section class="two"><div><h2>Verdicts</h2><table id="verdicts"><thead><tr><th>status</th><th>samples</th></tr></thead><tbody>${counts.map((c) =>
    `<tr data-status="${c.status}"><td>${esc(c.status.replace(/_/g, ' '))}</td><td data-field="count">${c.count}</td></tr>`).join('')}</tbody></table></div>
<div>${counts.some((c) => c.count > 0) ? chart('verdicts', verdictChartSpec(counts)) : ''}</div></section>
<section><h2>Difficulty</h2>${problems.length === 0 ? '' : chart('difficulty', difficultySpec(problems.map((p) => ({ taskId: p.taskId, passRate: p.c / p.n }))), 'problems by the share of their samples that pass')}</section>
<section><h2>Problems</h2>${compareForm}${problemTable(run.id, problems)}</section>
<section><h2>Provenance</h2>${provenance(run)}</section>`;
  return page({ base, title: `Run ${run.id}: ${run.name}`, page: 'run', crumbs: [['Runs', ''], [`run ${run.id}`, null]], charts: true,
    data: { run: run.id, status: run.status } }, body);
}

/**
 * A run: what it is (model, dataset, tags, sampling), pass@k with CI bands (base, and base + plus for EvalPlus
 * runs) labelled with its coverage while the run is going, verdicts, a per-problem heat map (problems × verdicts),
 * LiveCodeBench-style breakdowns (difficulty, platform, release month) when the problems carry those labels,
 * failures grouped by reason, efficiency (runs judged with `--efficiency`), difficulty, the per-problem table (task ids in numeric order), and provenance as a
 * readable table with the code version. A run with partial credit also shows its mean score.
 */
import type { PassAtKSummary } from '../../metrics/summary.js';
import { HEADLINE_KS } from '../../metrics/summary.js';
import type { RunAnalysis } from '../../store/analysis.js';
import { SAMPLE_STATUSES, type SampleStatus } from '../../verdict/index.js';
import type { EfficiencyRow, ProblemCountsRow, ReasonCountRow, RunListRow, RunRow } from '../../store/result-store.js';
import type { Breakdown } from '../breakdowns.js';
import { breakdownSpec, difficultySpec, passAtKCurveSpec, verdictChartSpec, verdictHeatSpec } from '../charts.js';
import { badge, chart, esc, facts, naturalCompare, page, pct, progressBar, when } from '../html.js';
import { provenanceRows } from '../provenance.js';
import { efficiencySection } from './efficiency.js';
import { samplingText, shownStatus, STALLED_MS } from './runs.js';

/** Verdict counts over a run (every status, zeros included), from per-problem counts. */
export function verdictCounts(problems: readonly ProblemCountsRow[]): { status: SampleStatus; count: number }[] {
  return SAMPLE_STATUSES.map((status) => ({ status, count: problems.reduce((s, p) => s + (p.statuses[status] ?? 0), 0) }));
}

/**
 * What a pass@k figure is over: "over 30 of 164 problems judged so far (1,200 of 16,400 samples)" while running;
 * for a finished run that did not cover every problem, which problems it covers; '' when it covers them all.
 */
export function coverageText(run: Pick<RunRow, 'status' | 'doneSamples' | 'totalSamples'>, judgedProblems: number, totalProblems: number): string {
  const n = (x: number) => x.toLocaleString('en-US');
  if (run.status === 'running') {
    return `over ${n(judgedProblems)} of ${n(totalProblems)} problems judged so far (${n(run.doneSamples)} of ${n(run.totalSamples)} samples): ` +
      'not final, problems still to come may be harder or easier';
  }
  if (judgedProblems < totalProblems) return `over the ${n(judgedProblems)} of ${n(totalProblems)} problems that have judged samples`;
  return '';
}

function passAtKTable(analysis: RunAnalysis, coverage: string): string {
  const ks = HEADLINE_KS.filter((k) => k <= analysis.base.maxK);
  const row = (name: string, summary: PassAtKSummary) => `<tr data-series="${esc(name)}"><th>${esc(name)}</th>${ks.map((k) => {
    const p = summary.points.find((x) => x.k === k)!;
    return `<td data-k="${k}" data-value="${p.passAtK}">${pct(p.passAtK)} <span class="ci">[${pct(p.lower)}, ${pct(p.upper)}]</span></td>`;
  }).join('')}</tr>`;
  const ci = Math.round(analysis.base.bootstrap.confidence * 100);
  return (coverage === '' ? '' : `<p class="coverage" data-testid="coverage">pass@k ${esc(coverage)}</p>`) +
    `<table id="pass-at-k"><caption>pass@k (%) with ${ci}% percentile-bootstrap intervals over problems ` +
    `(${analysis.base.bootstrap.reps} replicates, seed ${analysis.base.bootstrap.seed})</caption>` +
    `<thead><tr><th>tests</th>${ks.map((k) => `<th>pass@${k}</th>`).join('')}</tr></thead><tbody>` +
    row('base', analysis.base) + (analysis.plus === undefined ? '' : row('base + plus', analysis.plus)) + '</tbody></table>';
}

/** ", mean score 41.50% (8 scored samples)" for a run with partial credit, else ''. */
function scoreLead(problems: readonly ProblemCountsRow[]): string {
  const mean = meanScore(problems);
  if (mean === null) return '';
  const scored = problems.reduce((sum, p) => sum + p.scored, 0);
  return `, mean score <span data-testid="mean-score">${pct(mean)}</span>% (${scored} scored samples)`;
}

/** Hardest first, ties in natural task order (HumanEval/2 before HumanEval/19). */
export function problemOrder(a: ProblemCountsRow, b: ProblemCountsRow): number {
  return a.c / a.n - b.c / b.n || naturalCompare(a.taskId, b.taskId);
}

function problemTable(runId: number, problems: readonly ProblemCountsRow[]): string {
  const hasPlus = problems.some((p) => p.hasPlus);
  const hasScore = problems.some((p) => p.scored > 0);
  const labels = (['difficulty', 'platform'] as const).filter((l) => problems.some((p) => p.labels[l] !== undefined));
  const score = (p: ProblemCountsRow): string => !hasScore ? ''
    : p.scored === 0 ? '<td data-v="-1" data-field="score">–</td>' : `<td data-v="${p.scoreSum / p.scored}" data-field="score">${pct(p.scoreSum / p.scored)}</td>`;
  const rows = [...problems].sort(problemOrder).map((p) => {
    const statuses = SAMPLE_STATUSES.filter((s) => (p.statuses[s] ?? 0) > 0).map((s) => `${s.replace(/_/g, ' ')} ${p.statuses[s]}`).join(', ');
    const href = `runs/${runId}/problem?task=${encodeURIComponent(p.taskId)}`;
    return `<tr data-task="${esc(p.taskId)}"><td data-v="${esc(p.taskId)}"><a href="${esc(href)}">${esc(p.taskId)}</a></td>` +
      labels.map((l) => `<td data-v="${esc(p.labels[l] ?? '')}">${esc(p.labels[l] ?? '')}</td>`).join('') +
      `<td data-v="${p.testCount}">${p.testCount}</td><td data-v="${p.n}">${p.n}</td><td data-v="${p.c}" data-field="c">${p.c}</td>` +
      `<td data-v="${p.c / p.n}" data-field="rate">${pct(p.c / p.n)}</td>${score(p)}` +
      (hasPlus ? `<td data-v="${p.plusC}">${p.plusC}</td>` : '') + `<td class="verdict-list">${esc(statuses)}</td></tr>`;
  }).join('');
  return `<div class="table-wrap"><table class="sortable" id="problems"><caption>Hardest first; click a header to sort (task ids in numeric order).</caption><thead><tr>` +
    `<th data-type="task">task</th>${labels.map((l) => `<th data-type="text">${l}</th>`).join('')}<th data-type="number">tests</th><th data-type="number">samples</th><th data-type="number">passed</th>` +
    `<th data-type="number">pass rate = difficulty (%)</th>${hasScore ? '<th data-type="number">mean score (%)</th>' : ''}${hasPlus ? '<th data-type="number">plus passed</th>' : ''}<th>verdicts</th>` +
    `</tr></thead><tbody>${rows}</tbody></table></div>`;
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

function breakdownSection(breakdowns: readonly Breakdown[]): string {
  if (breakdowns.length === 0) return '';
  const tables = breakdowns.map((b) => {
    const id = `breakdown-${b.label.replace(/\s+/g, '-')}`;
    const table = `<table id="${id}"><thead><tr><th>${esc(b.label)}</th><th>problems</th><th>pass@${b.k}</th><th>CI</th></tr></thead><tbody>${b.rows.map((r) =>
      `<tr data-group="${esc(r.group)}"><td>${esc(r.group)}</td><td data-field="problems">${r.problems}</td><td data-field="pass" data-value="${r.passAtK}">${pct(r.passAtK)}</td>` +
      `<td>[${pct(r.lower)}, ${pct(r.upper)}]</td></tr>`).join('')}</tbody></table>`;
    return `<div>${table}${chart(id, breakdownSpec(b.rows, b.label, b.k))}</div>`;
  }).join('');
  return `<section><h2>Breakdowns</h2><p class="muted">pass@${breakdowns[0]!.k} per group of problems, each with its own bootstrap interval ` +
    `(as the LiveCodeBench leaderboard shows a model by difficulty and release window).</p><div class="three">${tables}</div></section>`;
}

function reasonsSection(runId: number, reasons: readonly ReasonCountRow[]): string {
  if (reasons.length === 0) return '';
  const rows = reasons.map((r) => {
    const href = `runs/${runId}/sample?task=${encodeURIComponent(r.example.taskId)}&index=${r.example.sampleIndex}`;
    return `<tr><td>${badge(r.status)}</td><td class="reason-cell">${esc(r.reason ?? '–')}</td><td data-field="samples">${r.samples}</td><td>${r.problems}</td>` +
      `<td><a href="${esc(href)}">${esc(r.example.taskId)} #${r.example.sampleIndex}</a></td></tr>`;
  }).join('');
  return `<section><h2>Failures by reason</h2><div class="table-wrap"><table id="reasons"><caption>The most frequent (status, reason) pairs of failing samples</caption>` +
    `<thead><tr><th>verdict</th><th>reason</th><th>samples</th><th>problems</th><th>example</th></tr></thead><tbody>${rows}</tbody></table></div></section>`;
}

/** The rerank a run records (`crucible rerank --out`): method, reranked and baseline pass@k with their intervals. */
function rerankSection(run: RunRow): string {
  const r = (run.summary as { rerank?: { method?: string; scoring?: string | null; ks?: number[]; passAtK?: Record<string, number>;
    passAtKCI?: Record<string, [number, number]>; baselinePassAtK?: Record<string, number>; baselinePassAtKCI?: Record<string, [number, number]> } } | undefined)?.rerank;
  if (r === undefined || r.passAtK === undefined) return '';
  const cell = (v: number | undefined, ci: [number, number] | undefined) => v === undefined ? '<td>–</td>'
    : `<td data-value="${v}">${pct(v)}${ci === undefined ? '' : ` <span class="ci">[${pct(ci[0])}, ${pct(ci[1])}]</span>`}</td>`;
  const rows = Object.keys(r.passAtK).map((k) => `<tr data-k="${esc(k)}"><th>pass@${esc(k)}</th>${cell(r.passAtK![k], r.passAtKCI?.[k])}` +
    `${cell(r.baselinePassAtK?.[k], r.baselinePassAtKCI?.[k])}</tr>`).join('');
  return `<section><h2>Reranked: ${esc(r.method ?? '')}${r.scoring ? ` (${esc(r.scoring)} score)` : ''}</h2><table id="rerank"><caption>pass@k (%) of the ` +
    'samples the method picks, next to the unbiased pass@k of all samples; bootstrap intervals over problems</caption>' +
    `<thead><tr><th>k</th><th>reranked</th><th>baseline</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

/** What the run page shows besides the run. */
export interface RunPageData {
  readonly problems: readonly ProblemCountsRow[];
  readonly totalProblems: number;
  readonly analysis: RunAnalysis | undefined;
  readonly breakdowns: readonly Breakdown[];
  readonly reasons: readonly ReasonCountRow[];
  /** Runs to offer for comparison. */
  readonly others: readonly RunListRow[];
  readonly stalledMs?: number;
  /** The run's measured samples (`crucible eval --efficiency`; empty or absent when it was not measured). */
  readonly efficiency?: readonly EfficiencyRow[];
}

function head(run: RunRow, data: RunPageData): string {
  const status = shownStatus(run, Date.now(), data.stalledMs ?? STALLED_MS);
  const sampling = samplingText(run.generation);
  const rows: [string, string][] = [
    ['model', `<span data-testid="model">${esc(run.model)}</span>`],
    ['dataset', esc(run.dataset)],
    ...(run.tags.length === 0 ? [] : [['tags', run.tags.map((t) => `<a class="tag" href="?tag=${encodeURIComponent(t)}">${esc(t)}</a>`).join(' ')] as [string, string]]),
    ...(sampling === '' ? [] : [['sampling', esc(sampling)] as [string, string]]),
    ['status', `${badge(status)} <span class="muted">created ${when(run.createdMs)}, finished ${when(run.finishedMs)} (UTC)</span>`],
  ];
  const counts = verdictCounts(data.problems);
  return `${facts(rows, 'run-facts')}<p class="lead"><span data-testid="done">${run.doneSamples}</span> of ${run.totalSamples} samples judged, ` +
    `<span data-testid="passed">${counts.find((c) => c.status === 'passed')?.count ?? 0}</span> passed${scoreLead(data.problems)}.</p>` +
    (run.status === 'running' && status !== 'stalled'
      ? progressBar(run.doneSamples, run.totalSamples, run.progress?.samplesPerSecond ?? null, run.progress?.etaSeconds ?? null) : '');
}

/** What the "Compare with" form shows of a run. */
export type CompareOption = Pick<RunListRow, 'id' | 'name' | 'model' | 'dataset'>;

/**
 * The "Compare with" form (HTML): runs on the same dataset first (the first of them preselected, since comparing runs on
 * different datasets is refused or warned about on the compare page), then the others, marked with their dataset.
 */
export function compareWith(run: CompareOption, others: readonly CompareOption[]): string {
  const candidates = others.filter((o) => o.id !== run.id);
  if (candidates.length === 0) return '';
  const same = candidates.filter((o) => o.dataset === run.dataset);
  const ordered = [...same, ...candidates.filter((o) => o.dataset !== run.dataset)];
  const option = (o: CompareOption): string => `<option value="${o.id}">${o.id} · ${esc(o.name)} (${esc(o.model)})` +
    `${o.dataset === run.dataset ? '' : ` · other dataset: ${esc(o.dataset)}`}</option>`;
  return `<form class="inline" method="get" action="compare"><input type="hidden" name="run" value="${run.id}">` +
    `<label>Compare with <select name="run">${ordered.map(option).join('')}</select></label> <button type="submit">Compare</button></form>`;
}

/** Render a run page. */
export function renderRun(base: string, run: RunRow, data: RunPageData): string {
  const { problems, analysis } = data;
  const counts = verdictCounts(problems);
  const series = analysis === undefined ? {} : { base: analysis.base, ...(analysis.plus === undefined ? {} : { 'base + plus': analysis.plus }) };
  const coverage = coverageText(run, problems.length, data.totalProblems);
  const compareForm = compareWith(run, data.others);
  const body = `${head(run, data)}
<section><h2>pass@k</h2>${analysis === undefined ? '<p class="empty">No sample judged yet.</p>' : passAtKTable(analysis, coverage) + chart('curve', passAtKCurveSpec(series), 'pass@k against k with its confidence band')}</section>
${rerankSection(run)}
${efficiencySection(run, data.efficiency ?? [])}
<section class="two"><div><h2>Verdicts</h2><table id="verdicts"><thead><tr><th>status</th><th>samples</th></tr></thead><tbody>${counts.map((c) =>
    `<tr data-status="${c.status}"><td>${esc(c.status.replace(/_/g, ' '))}</td><td data-field="count">${c.count}</td></tr>`).join('')}</tbody></table></div>
<div>${counts.some((c) => c.count > 0) ? chart('verdicts', verdictChartSpec(counts)) : ''}</div></section>
<section><h2>Problems × verdicts</h2>${problems.length === 0 ? '' : chart('heatmap', verdictHeatSpec(problems, run.id), 'each column a problem (task order), each cell the share of its samples with that verdict; click a column for the problem', problems.length > 200 ? 'canvas' : 'svg')}</section>
${breakdownSection(data.breakdowns)}
${reasonsSection(run.id, data.reasons)}
<section><h2>Difficulty</h2>${problems.length === 0 ? '' : chart('difficulty', difficultySpec(problems.map((p) => ({ taskId: p.taskId, passRate: p.c / p.n }))), 'problems by the share of their samples that pass')}</section>
<section><h2>Problems</h2>${compareForm}${problemTable(run.id, problems)}</section>
<section><h2>Provenance</h2>${facts(provenanceRows(run), 'provenance')}</section>`;
  return page({ base, title: `Run ${run.id}: ${run.name}`, page: 'run', crumbs: [['Runs', ''], [`run ${run.id}`, null]], charts: true,
    data: { run: run.id, status: run.status } }, body);
}

/**
 * A problem of a run: what the model saw (title, statement, prompt or starter code) and the reference solution and
 * test code, syntax highlighted; its samples' verdicts grouped by reason and by identical program (a hundred copies
 * of one failure read as one line); a verdict filter; and every sample with its verdict, score (when graded), tests
 * passed, CPU, wall, memory, program hash and reason.
 */
import type { ProblemCountsRow, ProblemInfo, RunRow, SampleListRow } from '../../store/result-store.js';
import { SAMPLE_STATUSES } from '../../verdict/index.js';
import { codeHtml } from '../highlight.js';
import { badge, esc, kib, ms, page, pct, preText } from '../html.js';

/** Samples that share something (a reason, a program), with the first few to open. */
export interface SampleGroup {
  readonly key: string;
  readonly status: string;
  readonly samples: readonly number[];
}

/**
 * A reason without the values a failing assertion compared ("assertion failed (test line 4): assert 5 == 6" reads
 * "assertion failed (test line 4)"): failures of one assertion group together whatever their values.
 */
export function reasonKey(reason: string | null): string {
  return (reason ?? '').replace(/: assert .*$/s, '');
}

/** Failing samples grouped by (status, reason without compared values), most frequent first. */
export function groupByReason(samples: readonly SampleListRow[]): SampleGroup[] {
  const groups = new Map<string, { status: string; reason: string; samples: number[] }>();
  for (const s of samples) {
    if (s.passed) continue;
    const key = `${s.status}\0${reasonKey(s.reason)}`;
    const g = groups.get(key) ?? { status: s.status, reason: reasonKey(s.reason), samples: [] };
    g.samples.push(s.sampleIndex);
    groups.set(key, g);
  }
  return [...groups.values()].sort((a, b) => b.samples.length - a.samples.length || a.reason.localeCompare(b.reason))
    .map((g) => ({ key: g.reason, status: g.status, samples: g.samples }));
}

/** Samples grouped by identical program (same hash), groups of two or more, largest first. */
export function groupByProgram(samples: readonly SampleListRow[]): SampleGroup[] {
  const groups = new Map<string, { status: string; samples: number[] }>();
  for (const s of samples) {
    const g = groups.get(s.programHash) ?? { status: s.status, samples: [] };
    g.samples.push(s.sampleIndex);
    groups.set(s.programHash, g);
  }
  return [...groups].filter(([, g]) => g.samples.length > 1).sort((a, b) => b[1].samples.length - a[1].samples.length)
    .map(([key, g]) => ({ key, status: g.status, samples: g.samples }));
}

function sampleLinks(run: RunRow, taskId: string, indices: readonly number[], most = 8): string {
  const href = (i: number) => `runs/${run.id}/sample?task=${encodeURIComponent(taskId)}&index=${i}`;
  return indices.slice(0, most).map((i) => `<a href="${esc(href(i))}">#${i}</a>`).join(' ') + (indices.length > most ? ` … (${indices.length - most} more)` : '');
}

function groupsSection(run: RunRow, taskId: string, samples: readonly SampleListRow[]): string {
  const reasons = groupByReason(samples);
  const programs = groupByProgram(samples);
  const reasonTable = reasons.length === 0 ? '<p class="muted">No failing sample.</p>'
    : `<table id="reason-groups"><thead><tr><th>verdict</th><th>reason</th><th>samples</th><th>open</th></tr></thead><tbody>${reasons.map((g) =>
      `<tr><td>${badge(g.status)}</td><td class="reason-cell">${esc(g.key || '–')}</td><td data-field="count">${g.samples.length}</td><td>${sampleLinks(run, taskId, g.samples)}</td></tr>`).join('')}</tbody></table>`;
  const programTable = programs.length === 0 ? '<p class="muted">Every sample is a different program.</p>'
    : `<table id="program-groups"><thead><tr><th>program</th><th>verdict</th><th>samples</th><th>open</th></tr></thead><tbody>${programs.map((g) =>
      `<tr><td><code>${esc(g.key.slice(0, 10))}</code></td><td>${badge(g.status)}</td><td data-field="count">${g.samples.length}</td><td>${sampleLinks(run, taskId, g.samples)}</td></tr>`).join('')}</tbody></table>`;
  return `<section class="two"><div><h2>Failures by reason</h2>${reasonTable}</div><div><h2>Identical programs</h2>${programTable}</div></section>`;
}

function infoSection(info: ProblemInfo | null, kind: string): string {
  if (info === null) return '<p class="muted">The store has no statement or prompt for this problem (runs imported from a run directory hold none).</p>';
  const parts: string[] = [];
  if (info.title !== undefined) parts.push(`<p class="lead" data-testid="title">${esc(info.title)}</p>`);
  if (info.statement !== undefined) parts.push(`<h3>Statement</h3><div class="statement" data-testid="statement"><pre class="text">${preText(info.statement)}</pre></div>`);
  if (info.prompt !== undefined && info.prompt !== '') {
    parts.push(`<h3>${kind === 'expected_call' ? 'Starter code' : 'Prompt (the model continues it)'}</h3>${codeHtml(info.prompt, { language: 'python', testid: 'prompt' })}`);
  }
  const details: string[] = [];
  if (info.reference !== undefined) details.push(`<details class="block"><summary>Reference solution (${esc(info.reference.language)})</summary>${codeHtml(info.reference.code, { language: info.reference.language, testid: 'reference' })}</details>`);
  if (info.test !== undefined) details.push(`<details class="block"><summary>Test code</summary>${codeHtml(info.test, { language: 'python', testid: 'test-code' })}</details>`);
  return parts.join('') + details.join('');
}

function filterBar(samples: readonly SampleListRow[]): string {
  const present = SAMPLE_STATUSES.filter((s) => samples.some((x) => x.status === s));
  return `<div class="verdict-filter" id="verdict-filter" role="group" aria-label="filter by verdict"><span class="muted">show:</span>` +
    `<button type="button" data-status="" class="on">all (${samples.length})</button>` +
    present.map((s) => `<button type="button" data-status="${s}">${esc(s.replace(/_/g, ' '))} (${samples.filter((x) => x.status === s).length})</button>`).join('') + '</div>';
}

/** Render a problem page. `status`: the verdict the samples table starts filtered to (`?status=`), if any. */
export function renderProblem(base: string, run: RunRow, counts: ProblemCountsRow, samples: readonly SampleListRow[], info: ProblemInfo | null,
  status?: string): string {
  const graded = counts.scored > 0;
  const rows = samples.map((s) => {
    const href = `runs/${run.id}/sample?task=${encodeURIComponent(counts.taskId)}&index=${s.sampleIndex}`;
    const hidden = status !== undefined && status !== '' && s.status !== status;
    return `<tr data-sample="${s.sampleIndex}" data-status="${esc(s.status)}"${hidden ? ' hidden' : ''}><td data-v="${s.sampleIndex}"><a href="${esc(href)}">#${s.sampleIndex}</a></td>` +
      `<td data-v="${esc(s.status)}">${badge(s.status)}</td>` +
      (counts.hasPlus ? `<td data-v="${esc(s.plusStatus ?? '')}">${s.plusStatus === null ? '–' : badge(s.plusStatus)}</td>` : '') +
      (graded ? `<td data-v="${s.score ?? -1}" data-field="score">${s.score === null ? '–' : pct(s.score)}</td>` : '') +
      `<td data-v="${s.testsPassed}">${s.testsPassed}/${s.testsRun}</td><td data-v="${s.cpuMs}">${ms(s.cpuMs)}</td>` +
      `<td data-v="${s.wallMs}">${ms(s.wallMs)}</td><td data-v="${s.memoryKiB ?? 0}">${kib(s.memoryKiB)}</td>` +
      `<td data-v="${esc(s.programHash)}"><code>${esc(s.programHash.slice(0, 10))}</code></td><td class="reason">${esc(s.reason ?? '')}</td></tr>`;
  }).join('');
  const score = graded ? `, mean score <span data-testid="mean-score">${pct(counts.scoreSum / counts.scored)}</span>% over ${counts.scored} scored` : '';
  const labels = Object.entries(counts.labels).map(([k, v]) => `${k} ${v}`).join(', ');
  const body = `<p class="lead">${counts.n} samples, <span data-testid="c">${counts.c}</span> passed (pass rate ${pct(counts.c / counts.n)}%${score}), ` +
    `${counts.testCount} tests, kind ${esc(counts.kind)}${labels === '' ? '' : `; ${esc(labels)}`}</p>
<section><h2>Problem</h2>${infoSection(info, counts.kind)}</section>
${groupsSection(run, counts.taskId, samples)}
<section><h2>Samples</h2>${filterBar(samples)}<div class="table-wrap"><table class="sortable" id="samples"><thead><tr><th data-type="number">sample</th><th data-type="text">verdict</th>` +
    (counts.hasPlus ? '<th data-type="text">plus</th>' : '') + (graded ? '<th data-type="number">score (%)</th>' : '') +
    `<th data-type="number">tests passed/run</th><th data-type="number">CPU</th><th data-type="number">wall</th><th data-type="number">memory</th>` +
    `<th data-type="text">program</th><th>reason</th></tr></thead><tbody>${rows}</tbody></table></div></section>`;
  return page({ base, title: counts.taskId, page: 'problem', crumbs: [['Runs', ''], [`run ${run.id}`, `runs/${run.id}`], [counts.taskId, null]],
    data: { run: run.id, ...(status === undefined || status === '' ? {} : { filter: status }) } }, body);
}

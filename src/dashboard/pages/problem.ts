/** A problem of a run: its samples, their verdicts, partial credit (when graded), tests passed, resource use, reason. */
import type { ProblemCountsRow, RunRow, SampleListRow } from '../../store/result-store.js';
import { badge, esc, kib, ms, page, pct } from '../html.js';

/** Render a problem page. */
export function renderProblem(base: string, run: RunRow, counts: ProblemCountsRow, samples: readonly SampleListRow[]): string {
  const graded = counts.scored > 0;
  const rows = samples.map((s) => {
    const href = `runs/${run.id}/sample?task=${encodeURIComponent(counts.taskId)}&index=${s.sampleIndex}`;
    return `<tr data-sample="${s.sampleIndex}"><td data-v="${s.sampleIndex}"><a href="${esc(href)}">#${s.sampleIndex}</a></td>` +
      `<td data-v="${esc(s.status)}">${badge(s.status)}</td>` +
      (counts.hasPlus ? `<td data-v="${esc(s.plusStatus ?? '')}">${s.plusStatus === null ? '–' : badge(s.plusStatus)}</td>` : '') +
      (graded ? `<td data-v="${s.score ?? -1}" data-field="score">${s.score === null ? '–' : pct(s.score)}</td>` : '') +
      `<td data-v="${s.testsPassed}">${s.testsPassed}/${s.testsRun}</td><td data-v="${s.cpuMs}">${ms(s.cpuMs)}</td>` +
      `<td data-v="${s.wallMs}">${ms(s.wallMs)}</td><td data-v="${s.memoryKiB ?? 0}">${kib(s.memoryKiB)}</td>` +
      `<td data-v="${esc(s.programHash)}"><code>${esc(s.programHash.slice(0, 10))}</code></td><td class="reason">${esc(s.reason ?? '')}</td></tr>`;
  }).join('');
  const score = graded ? `, mean score <span data-testid="mean-score">${pct(counts.scoreSum / counts.scored)}</span>% over ${counts.scored} scored` : '';
  const body = `<p class="lead">${counts.n} samples, <span data-testid="c">${counts.c}</span> passed (pass rate ${pct(counts.c / counts.n)}%${score}), ` +
    `${counts.testCount} tests, kind ${esc(counts.kind)}</p>
<table class="sortable" id="samples"><thead><tr><th data-type="number">sample</th><th data-type="text">verdict</th>` +
    (counts.hasPlus ? '<th data-type="text">plus</th>' : '') + (graded ? '<th data-type="number">score (%)</th>' : '') +
    `<th data-type="number">tests passed/run</th><th data-type="number">CPU</th><th data-type="number">wall</th><th data-type="number">memory</th>` +
    `<th data-type="text">program</th><th>reason</th></tr></thead><tbody>${rows}</tbody></table>`;
  return page({ base, title: counts.taskId, page: 'problem', crumbs: [['Runs', ''], [`run ${run.id}`, `runs/${run.id}`], [counts.taskId, null]],
    data: { run: run.id } }, body);
}

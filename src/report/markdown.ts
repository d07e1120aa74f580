/** Markdown rendering of a run report (no charts: the pass@k curve is given as a table instead). */
import type { PassAtKSummary } from '../metrics/summary.js';
import type { ReportData } from './build.js';
import { estimateWithInterval, percent, pointAt } from './format.js';

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function summaryRows(name: string, summary: PassAtKSummary, ks: readonly number[]): string {
  const cells = ks.map((k) => {
    const p = pointAt(summary.points, k);
    return p === undefined ? '–' : estimateWithInterval(p);
  });
  return `| ${name} | ${cells.join(' | ')} |`;
}

/** Renders the report as GitHub-flavoured markdown. Problems are listed hardest first (lowest pass rate). */
export function renderMarkdown(data: ReportData): string {
  const { base } = data;
  const ci = `${Math.round(base.bootstrap.confidence * 100)}%`;
  const lines: string[] = [];
  lines.push(`# Crucible run report: ${cell(data.runDir)}`, '');
  lines.push(
    `${base.numProblems} problems, ${base.numSamples} samples, ${base.numCorrect} passed. ` +
      `pass@k in percent with ${ci} percentile-bootstrap intervals over problems ` +
      `(${base.bootstrap.reps} replicates, seed ${base.bootstrap.seed}${base.bootstrap.twoLevel ? ', two-level' : ''}).`,
    '',
  );
  for (const line of data.coverage) lines.push(`> **${cell(line)}**`, '');

  lines.push('## Summary', '');
  lines.push(`| tests | ${data.headlineKs.map((k) => `pass@${k}`).join(' | ')} |`);
  lines.push(`|---|${data.headlineKs.map(() => '---').join('|')}|`);
  lines.push(summaryRows('base', base, data.headlineKs));
  if (data.plus !== undefined) lines.push(summaryRows('base + plus', data.plus, data.headlineKs));
  lines.push('');

  lines.push('## pass@k against k', '');
  lines.push(`| k | pass@k | ${ci} CI |${data.plus === undefined ? '' : ` plus pass@k | plus ${ci} CI |`}`);
  lines.push(`|---|---|---|${data.plus === undefined ? '' : '---|---|'}`);
  for (const p of base.points) {
    const q = data.plus === undefined ? undefined : pointAt(data.plus.points, p.k);
    const plus = q === undefined ? '' : ` ${percent(q.passAtK)} | [${percent(q.lower)}, ${percent(q.upper)}] |`;
    lines.push(`| ${p.k} | ${percent(p.passAtK)} | [${percent(p.lower)}, ${percent(p.upper)}] |${plus}`);
  }
  lines.push('');

  lines.push('## Verdicts', '', '| status | samples |', '|---|---|');
  for (const v of data.verdictCounts) lines.push(`| ${v.status} | ${v.count} |`);
  lines.push('');

  for (const section of data.sections) {
    lines.push(`## ${section.title}`, '');
    if (section.note !== undefined) lines.push(cell(section.note), '');
    lines.push(`| ${section.header.map(cell).join(' | ')} |`, `|${section.header.map(() => '---').join('|')}|`);
    for (const row of section.rows) lines.push(`| ${row.map(cell).join(' | ')} |`);
    lines.push('');
  }

  const hasPlus = data.plus !== undefined;
  lines.push('## Problems (hardest first)', '');
  lines.push(`| task | samples | passed | pass rate (%) |${hasPlus ? ' plus passed |' : ''} verdicts |`);
  lines.push(`|---|---|---|---|${hasPlus ? '---|' : ''}---|`);
  const sorted = [...data.problems].sort((a, b) => a.passRate - b.passRate || a.taskId.localeCompare(b.taskId));
  for (const p of sorted) {
    const statuses = p.statuses.map((s) => `${s.status} ${s.count}`).join(', ');
    lines.push(`| ${cell(p.taskId)} | ${p.n} | ${p.c} | ${percent(p.passRate)} |${hasPlus ? ` ${p.plusC ?? 0} |` : ''} ${statuses} |`);
  }
  lines.push('');
  return lines.join('\n');
}

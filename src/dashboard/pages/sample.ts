/**
 * A sample: verdict, resource use against the run's limits, the program judged and the model's completion,
 * how code was extracted, and each failing test's input, expected and actual output with a diff (jsdiff, by
 * line, then by word inside changed lines) and its stderr.
 */
import { diffLines, diffWordsWithSpace } from 'diff';
import type { RunRow, SampleDetailRow, StoredTest } from '../../store/result-store.js';
import { badge, esc, facts, kib, ms, page, pct, preText } from '../html.js';

/** Failing tests shown in full on the page (the rest are listed with status and reason). */
export const TESTS_SHOWN = 50;

/** HTML of a diff between expected and actual text: removed (expected) in <del>, added (actual) in <ins>. */
export function diffHtml(expected: string, actual: string): string {
  const parts = diffLines(expected, actual);
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const next = parts[i + 1];
    if (part.removed && next?.added) {
      // A changed line: show word-level changes inside it.
      for (const w of diffWordsWithSpace(part.value, next.value)) {
        out.push(w.added ? `<ins>${esc(w.value)}</ins>` : w.removed ? `<del>${esc(w.value)}</del>` : esc(w.value));
      }
      i++;
    } else {
      out.push(part.added ? `<ins>${esc(part.value)}</ins>` : part.removed ? `<del>${esc(part.value)}</del>` : esc(part.value));
    }
  }
  return `<pre class="diff" data-testid="diff">\n${out.join('')}</pre>`;
}

function block(label: string, text: string | null, testid: string, cut: boolean): string {
  if (text === null || text === '') return '';
  return `<div class="block"><h4>${esc(label)}${cut ? ' <span class="muted">(cut)</span>' : ''}</h4><pre data-testid="${testid}">${preText(text)}</pre></div>`;
}

function testSection(t: StoredTest): string {
  const diff = t.expected !== null && t.actual !== null ? `<div class="block"><h4>diff (expected → got)</h4>${diffHtml(t.expected, t.actual)}</div>` : '';
  const score = t.score === null ? '' : ` <span data-testid="test-score">score ${pct(t.score)}%</span>`;
  return `<details class="test" data-test="${t.index}" open><summary>test ${t.index} · ${badge(t.status)}${score} ${esc(t.reason ?? '')}` +
    ` <span class="muted">${ms(t.cpuMs)} CPU</span></summary>` +
    block('input', t.input, 'input', t.cut.includes('input')) + block('expected', t.expected, 'expected', t.cut.includes('expected')) +
    block('got', t.actual, 'actual', t.cut.includes('actual')) + diff + block('stderr', t.stderr, 'stderr', t.cut.includes('stderr')) + '</details>';
}

/** Render a sample page. */
export function renderSample(base: string, run: RunRow, s: SampleDetailRow): string {
  const failing = s.tests.filter((t) => t.status !== 'passed');
  const limits = run.options as { timeLimitMs?: number; memoryLimitKiB?: number; outputBytes?: number };
  const summary = facts([
    ['verdict', `${badge(s.status)}${s.plusStatus === null ? '' : ` plus: ${badge(s.plusStatus)}`}`],
    ['reason', esc(s.reason ?? '–')],
    ...(s.score === null ? [] : [['score (partial credit)', `<span data-testid="score">${pct(s.score)}</span>%`] as [string, string]]),
    ['tests', `${s.testsPassed} passed of ${s.testsRun} run (the problem has ${s.testCount}${s.passedRanges === '' ? '' : `; passed: ${esc(s.passedRanges)}`})`],
    ['CPU / wall', `${ms(s.cpuMs)} / ${ms(s.wallMs)}`],
    ['peak memory', kib(s.memoryKiB)],
    ['limits', `CPU ${ms(limits.timeLimitMs)} per ${s.problemKind === 'unit_test' || s.problemKind === 'python_script' ? 'program' : 'test'}, memory ${kib(limits.memoryLimitKiB)}, ` +
      `output ${limits.outputBytes === undefined ? '–' : `${limits.outputBytes} bytes`}`],
    ['language', esc(s.language ?? '–')],
    ['program', `<code>${esc(s.programHash)}</code>`],
  ], 'sample-facts');
  const extraction = s.extraction === undefined || s.extraction === null
    ? '<p class="muted">The completion was judged as written (no extraction step).</p>'
    : `<pre data-testid="extraction">${preText(JSON.stringify(s.extraction, null, 2))}</pre>`;
  const code = s.source === null
    ? '<p class="empty">The store has no program text for this sample (runs imported from a run directory hold none).</p>'
    : `<pre class="code" data-testid="source">${preText(s.source)}</pre>`;
  const completion = s.completion === null || s.completion === s.source ? '' : `<h3>Completion (the model's text)</h3><pre class="code" data-testid="completion">${preText(s.completion)}</pre>`;
  const shown = failing.slice(0, TESTS_SHOWN).map(testSection).join('');
  const rest = failing.slice(TESTS_SHOWN);
  const more = rest.length === 0 ? '' : `<table id="more-failures"><caption>${rest.length} more failing tests</caption><tbody>${rest.map((t) =>
    `<tr><td>test ${t.index}</td><td>${badge(t.status)}</td><td>${esc(t.reason ?? '')}</td><td>${esc(t.actual ?? '')}</td></tr>`).join('')}</tbody></table>`;
  const stderr = s.stderr === null || s.stderr === '' ? '' : `<h3>stderr (compiler or harness)</h3><pre data-testid="program-stderr">${preText(s.stderr)}</pre>`;
  const body = `${summary}
<section><h2>Failing tests (${failing.length})</h2>${failing.length === 0 ? '<p>Every test that ran passed.</p>' : shown + more}${stderr}</section>
<section><h2>Program</h2>${code}${completion}<h3>Extraction</h3>${extraction}</section>`;
  return page({ base, title: `${s.taskId} · sample ${s.sampleIndex}`, page: 'sample', data: { run: run.id },
    crumbs: [['Runs', ''], [`run ${run.id}`, `runs/${run.id}`], [s.taskId, `runs/${run.id}/problem?task=${encodeURIComponent(s.taskId)}`], [`sample ${s.sampleIndex}`, null]] }, body);
}

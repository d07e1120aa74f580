/**
 * A sample: its verdict and resource use against the run's limits, then the program judged (syntax highlighted) and
 * the model's completion, then each failing test.
 *
 * How a failing test reads depends on what the test is:
 * - A unit test (HumanEval `check`, MBPP asserts, a script's test code): the test code with the failing line marked
 *   (the judge's "test line N") and what the tester reported there (the assertion, with the values compared when
 *   the message gives them); never a diff of two status sentences.
 * - Data (stdin/stdout, a call's return value): input, expected, got and their diff (jsdiff, by line, then by word
 *   inside changed lines), and stderr.
 * A repository task's sample (SWE-bench style) also gets its per-test status map: every FAIL_TO_PASS and
 * PASS_TO_PASS test id with its state (`repository-tests.ts`), passing tests included.
 */
import { diffLines, diffWordsWithSpace } from 'diff';
import type { EfficiencyRow, ProblemInfo, RunRow, SampleDetailRow, StoredTest } from '../../store/result-store.js';
import type { FormalCheck, SynthesisStats } from '../../verdict/index.js';
import { codeHtml } from '../highlight.js';
import { badge, esc, facts, kib, ms, page, pct, preText } from '../html.js';
import { repositoryTestMap, type TestStates } from '../repository-tests.js';
import { sampleEfficiencyFacts } from './efficiency.js';

/** Failing tests shown in full on the page (the rest are listed with status and reason). */
export const TESTS_SHOWN = 50;

/** Problem kinds whose one "test" is test code run against the program (its failure names a line). */
const UNIT_TEST_KINDS = new Set(['unit_test', 'python_script', 'script', 'assertions']);

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

/** The 1-based test line a unit-test failure names ("… (test line 4) …"), if any. */
export function failingTestLine(reason: string | null): number | undefined {
  const m = reason === null ? null : /\(test line (\d+)\)/.exec(reason);
  return m === null ? undefined : Number(m[1]);
}

function block(label: string, text: string | null, testid: string, cut: boolean): string {
  if (text === null || text === '') return '';
  return `<div class="block"><h4>${esc(label)}${cut ? ' <span class="muted">(cut)</span>' : ''}</h4><pre data-testid="${testid}">${preText(text)}</pre></div>`;
}

/** A unit-test failure: the test code with its failing line marked and the tester's report. */
function unitTestBody(t: StoredTest, language: string | null): string {
  const line = failingTestLine(t.reason) ?? failingTestLine(t.actual);
  const report = t.actual ?? t.reason ?? t.status;
  const code = t.input === null ? '<p class="muted">The store has no test code for this problem (no sample failed it when it was judged, or the run was imported).</p>'
    : codeHtml(t.input, { language: language === null || language === 'python' ? 'python' : language, mark: line === undefined ? [] : [line], testid: 'input' });
  const source = line === undefined || t.input === null ? undefined : t.input.split('\n')[line - 1]?.trim();
  const where = line === undefined ? 'The test failed' : `The test failed at line <span data-testid="failing-line">${line}</span>` +
    (source === undefined || source === '' ? '' : ` <code class="failing-source" data-testid="failing-source">${esc(source)}</code>`);
  return `<p class="report" data-testid="report">${where}: <code data-testid="actual">${esc(report)}</code></p>` +
    `<div class="block"><h4>test code${t.cut.includes('input') ? ' <span class="muted">(cut)</span>' : ''}</h4>${code}</div>` +
    block('stderr', t.stderr, 'stderr', t.cut.includes('stderr'));
}

/** A data test: input, expected, got, their diff, stderr. */
function dataTestBody(t: StoredTest): string {
  const diff = t.expected !== null && t.actual !== null && t.expected !== t.actual
    ? `<div class="block"><h4>diff (expected → got)</h4>${diffHtml(t.expected, t.actual)}</div>` : '';
  return block('input', t.input, 'input', t.cut.includes('input')) +
    `<div class="side">${block('expected', t.expected, 'expected', t.cut.includes('expected'))}${block('got', t.actual, 'actual', t.cut.includes('actual'))}</div>` +
    diff + block('stderr', t.stderr, 'stderr', t.cut.includes('stderr'));
}

function testSection(t: StoredTest, s: SampleDetailRow): string {
  const score = t.score === null ? '' : ` <span data-testid="test-score">score ${pct(t.score)}%</span>`;
  const unit = UNIT_TEST_KINDS.has(s.problemKind);
  return `<details class="test" data-test="${t.index}" data-shape="${unit ? 'unit' : 'data'}" open><summary>test ${t.index} · ${badge(t.status)}${score} ` +
    `<span class="summary-reason">${esc(t.reason ?? '')}</span> <span class="muted">${ms(t.cpuMs)} CPU</span></summary>` +
    (unit ? unitTestBody(t, s.language) : dataTestBody(t)) + '</details>';
}

function limitsText(run: RunRow, s: SampleDetailRow): string {
  const limits = run.options as { timeLimitMs?: number; memoryLimitKiB?: number; outputBytes?: number };
  const per = s.problemKind === 'unit_test' || s.problemKind === 'python_script' ? 'program' : 'test';
  const output = limits.outputBytes === undefined ? '–' : limits.outputBytes >= 1 << 20 ? `${+(limits.outputBytes / (1 << 20)).toFixed(1)} MiB` : `${limits.outputBytes} bytes`;
  return `CPU ${ms(limits.timeLimitMs)} per ${per}, memory ${kib(limits.memoryLimitKiB)}, output ${output}`;
}

/**
 * The formal check's facts (verilog designs judged with `--formal`, `src/verdict/formal.ts`): the result beside the
 * verdict, with its reason, the bounded check's depth and assumption, and the synthesis statistics when yosys gave them.
 */
function formalFacts(formal: FormalCheck | null): [string, string][] {
  if (formal === null) return [];
  const bounded = formal.cycles === undefined ? '' : ` (bounded check: ${formal.cycles} cycles${formal.assumption === undefined ? '' : `, ${esc(formal.assumption)}`})`;
  const reason = formal.reason === undefined ? '' : ` — ${esc(formal.reason)}`;
  const stats = (x: SynthesisStats | undefined): string => x === undefined ? '–'
    : `${x.cells} cells${x.transistors === undefined ? '' : `, ${x.transistors} transistors`}`;
  const synthesis = formal.synthesis === undefined ? [] : [['synthesis', `<span data-testid="synthesis">design ${stats(formal.synthesis.design)}; `
    + `reference ${stats(formal.synthesis.reference)}</span>`] as [string, string]];
  return [['formal check', `<span data-testid="formal">${formal.result}</span>${bounded}${reason}`], ...synthesis];
}

/** Rows of one group of a repository task's status map. */
function mapRows(group: string, states: TestStates): string {
  return Object.entries(states).map(([id, state]) =>
    `<tr data-group="${group}" data-state="${esc(state)}"><td>${group}</td><td><code data-testid="test-id">${esc(id)}</code></td>` +
    `<td>${badge(state === 'passed' ? 'passed' : state)}</td></tr>`).join('');
}

/** The per-test status map of a repository task's sample ('' for other kinds). */
function repositorySection(runId: number, info: ProblemInfo | null | undefined, s: SampleDetailRow): string {
  const map = repositoryTestMap(info, s);
  if (map === undefined) return '';
  const count = (states: TestStates) => Object.values(states).filter((x) => x === 'passed').length;
  const f2p = Object.keys(map.FAIL_TO_PASS).length;
  const p2p = Object.keys(map.PASS_TO_PASS).length;
  return `<section id="test-status-map"><h2>Tests of the instance (${map.resolved ? 'resolved' : 'not resolved'})</h2>` +
    `<p data-testid="map-summary">FAIL_TO_PASS ${count(map.FAIL_TO_PASS)} of ${f2p} passed, PASS_TO_PASS ${count(map.PASS_TO_PASS)} of ${p2p} passed ` +
    `(<a href="api/runs/${runId}/sample?task=${encodeURIComponent(s.taskId)}&amp;index=${s.sampleIndex}">JSON</a>)</p>` +
    `<table data-testid="test-status-map"><thead><tr><th>list</th><th>test</th><th>state</th></tr></thead><tbody>` +
    `${mapRows('FAIL_TO_PASS', map.FAIL_TO_PASS)}${mapRows('PASS_TO_PASS', map.PASS_TO_PASS)}</tbody></table></section>`;
}

/**
 * Render a sample page; `efficiency`: the sample's measurement when the run was judged with `--efficiency`; `info`,
 * the problem's stored info, gives a repository task's test ids.
 */
export function renderSample(base: string, run: RunRow, s: SampleDetailRow, efficiency?: EfficiencyRow, info?: ProblemInfo | null): string {
  const failing = s.tests.filter((t) => t.status !== 'passed');
  const summary = facts([
    ['verdict', `${badge(s.status)}${s.plusStatus === null ? '' : ` plus: ${badge(s.plusStatus)}`}`],
    ['reason', `<span data-testid="reason">${esc(s.reason ?? '–')}</span>`],
    ...(s.score === null ? [] : [['score (partial credit)', `<span data-testid="score">${pct(s.score)}</span>%`] as [string, string]]),
    ...formalFacts(s.formal),
    ['tests', `${s.testsPassed} passed of ${s.testsRun} run (the problem has ${s.testCount}${s.passedRanges === '' ? '' : `; passed: ${esc(s.passedRanges)}`})`],
    ['CPU / wall', `${ms(s.cpuMs)} / ${ms(s.wallMs)}`],
    ['peak memory', kib(s.memoryKiB)],
    ['limits', limitsText(run, s)],
    ['language', esc(s.language ?? '–')],
    ['program', `<code>${esc(s.programHash)}</code>`],
    ...sampleEfficiencyFacts(efficiency),
  ], 'sample-facts');
  const extraction = s.extraction === undefined || s.extraction === null
    ? '<p class="muted">The completion was judged as written (no extraction step).</p>'
    : `<pre data-testid="extraction">${preText(JSON.stringify(s.extraction, null, 2))}</pre>`;
  const code = s.source === null
    ? '<p class="empty">The store has no program text for this sample (runs imported from a run directory hold none).</p>'
    : codeHtml(s.source, { language: s.language, testid: 'source' });
  const completion = s.completion === null || s.completion === s.source ? ''
    : `<details class="block"><summary>Completion (the model's text)</summary><pre class="code" data-testid="completion">${preText(s.completion)}</pre></details>`;
  const shown = failing.slice(0, TESTS_SHOWN).map((t) => testSection(t, s)).join('');
  const rest = failing.slice(TESTS_SHOWN);
  const more = rest.length === 0 ? '' : `<table id="more-failures"><caption>${rest.length} more failing tests</caption><tbody>${rest.map((t) =>
    `<tr><td>test ${t.index}</td><td>${badge(t.status)}</td><td>${esc(t.reason ?? '')}</td><td>${esc(t.actual ?? '')}</td></tr>`).join('')}</tbody></table>`;
  const stderr = s.stderr === null || s.stderr === '' ? '' : `<h3>stderr (compiler or harness)</h3><pre data-testid="program-stderr">${preText(s.stderr)}</pre>`;
  const body = `${summary}
<section><h2>Program</h2>${code}${completion}</section>
${repositorySection(run.id, info, s)}
<section><h2>Failing tests (${failing.length})</h2>${failing.length === 0 ? '<p>Every test that ran passed.</p>' : shown + more}${stderr}</section>
<section><h2>Extraction</h2>${extraction}</section>`;
  return page({ base, title: `${s.taskId} · sample ${s.sampleIndex}`, page: 'sample', data: { run: run.id },
    crumbs: [['Runs', ''], [`run ${run.id}`, `runs/${run.id}`], [s.taskId, `runs/${run.id}/problem?task=${encodeURIComponent(s.taskId)}`], [`sample ${s.sampleIndex}`, null]] }, body);
}

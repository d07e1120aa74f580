/**
 * The dashboard in a real browser (Debian chromium via playwright-core) against a real store filled the way a user
 * fills one (`test/support/dashboard-store.ts`: the 16,400 CodeGen-16B HumanEval completions, HumanEval+, MBPP as
 * published, a LiveCodeBench-shaped run generated through `crucible generate`, the built-in benchmark twice, and two
 * 1,000-step training runs). Every page is loaded at 1,400 px; the numbers shown are checked against the store's and
 * the metrics'; no page logs a console error; each page is saved as a screenshot in test-output/dashboard/. Page
 * timings are printed as diagnostics (bench:dashboard records them in docs/PERFORMANCE.md), never asserted.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import type { Page } from 'playwright-core';
import { breakdownsOf } from '../../src/dashboard/breakdowns.js';
import { flippedProblems } from '../../src/dashboard/pages/compare.js';
import { startDashboard, type DashboardHandle } from '../../src/dashboard/server.js';
import { comparePaired } from '../../src/metrics/paired.js';
import { rankRuns } from '../../src/metrics/ranking.js';
import type { PassAtKEstimate } from '../../src/metrics/summary.js';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { analyseRun, runBootstrapOptions } from '../../src/store/analysis.js';
import { openResultStore } from '../../src/store/open.js';
import type { ResultStore, RunRow } from '../../src/store/result-store.js';
import { launchBrowser, navigationTiming, TEST_OUTPUT, type TestBrowser } from '../support/browser.js';
import { CLI, dashboardStore, type DashboardStore } from '../support/dashboard-store.js';
import { fixtureSamples } from '../store/conformance.js';

let built: DashboardStore;
let store: ResultStore;
let dashboard: DashboardHandle;
let browser: TestBrowser;
const consoleErrors: string[] = [];
/** Pages that answer 400 on purpose (a refused comparison). */
const refusedOnPurpose = new Set<string>();
const STALLED_MS = 3000;
/** A training run name of this test run (a reused store keeps earlier ones). */
const liveName = Date.now().toString(36);

before(async () => {
  const t = Date.now();
  built = await dashboardStore();
  process.stderr.write(`before: store ${Date.now() - t} ms\n`);
  store = await openResultStore(built.db);
  dashboard = await startDashboard({ store, pollMs: 200, stalledMs: STALLED_MS });
  process.stderr.write(`before: server ${Date.now() - t} ms\n`);
  browser = await launchBrowser();
  process.stderr.write(`before: browser ${Date.now() - t} ms\n`);
});

after(async () => {
  await browser?.close();
  await dashboard?.close();
  await store?.close();
  if (built?.scratch) rmSync(built.dir, { recursive: true, force: true });
});

async function newPage(width = 1400, height = 900): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewportSize({ width, height });
  page.on('console', (m) => {
    // The refusal page answers 400 on purpose; the browser reports any 4xx document as a console error.
    if (m.type() === 'error' && !(refusedOnPurpose.has(page.url()) && /status of 400/.test(m.text()))) consoleErrors.push(`${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => consoleErrors.push(`${page.url()}: ${e.message}`));
  return page;
}

async function open(page: Page, path: string, charts = false): Promise<void> {
  const response = await page.goto(dashboard.url + path);
  assert.ok(response !== null && response.status() < 400, `${path}: HTTP ${response?.status()}`);
  if (charts) await page.waitForSelector('body[data-charts-ready]', { timeout: 60_000 });
}

async function timing(t: TestContext, page: Page, what: string): Promise<void> {
  const n = await navigationTiming(page);
  const charts = await page.evaluate(() => (window as unknown as { crucibleTimings?: { chartsReadyMs: number } }).crucibleTimings?.chartsReadyMs ?? NaN);
  t.diagnostic(`timing ${what}: response ${n.responseEnd.toFixed(0)} ms, DOMContentLoaded ${n.domContentLoaded.toFixed(0)} ms, load ${n.load.toFixed(0)} ms` +
    (Number.isNaN(charts) ? '' : `, charts drawn ${charts.toFixed(0)} ms`));
}

async function shot(page: Page, name: string, fullPage = false): Promise<void> {
  await page.screenshot({ path: join(TEST_OUTPUT, `${name}.png`), fullPage });
}

/** The page is no wider than the window: nothing scrolls off to the right. */
async function fitsWidth(page: Page): Promise<void> {
  const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  assert.ok(scroll <= client + 1, `the page is ${scroll} px wide in a ${client} px window`);
}

async function mustRun(id: number): Promise<RunRow> {
  const r = await store.getRun(id);
  assert.ok(r, `run ${id}`);
  return r;
}

const pct = (x: number) => (100 * x).toFixed(2);

describe('dashboard in chromium', () => {
  it('lists the runs as a leaderboard: pass@k with intervals, models, tags, coverage; sorts, filters, fits 1,400 px and a phone', async (t) => {
    const page = await newPage();
    await open(page, '');
    await timing(t, page, 'runs list');
    const runs = await store.listRuns();
    assert.equal(await page.locator('#runs tbody tr').count(), runs.length);
    for (const r of runs) {
      const row = page.locator(`#runs tr[data-run="${r.id}"]`);
      assert.equal((await row.locator('[data-field="model"]').innerText()).trim(), r.model);
      const point = r.headline?.base.find((p) => p.k === 1);
      assert.ok(point, `run ${r.name} has a headline`);
      const cell = row.locator('[data-field="pass"]');
      assert.equal(Number(await cell.getAttribute('data-value')), point.passAtK);
      assert.equal((await cell.innerText()).replace(/\s+/g, ' ').trim(), `${pct(point.passAtK)} [${pct(point.lower)}, ${pct(point.upper)}]`);
    }
    const codegen = await mustRun(built.runs.codegen16b);
    assert.equal(codegen.model, 'CodeGen-Mono-16B', 'the model is a field of the run, not the samples file\'s name');
    assert.deepEqual(codegen.tags, ['humaneval', 'codet']);
    const lcb = await mustRun(built.runs.lcb);
    assert.equal(lcb.model, 'mock/coder-7b-instruct', 'from crucible generate\'s provenance');
    assert.equal(lcb.generation?.['temperature'], 0.2);
    assert.match(await page.locator(`#runs tr[data-run="${lcb.id}"]`).innerText(), /T 0\.2 · top-p 0\.95 · max 2000 · n 5/);
    assert.match(await page.locator(`#runs tr[data-run="${built.runs.mbpp}"] [data-field="coverage"]`).innerText(), /^974\/974$/);
    await fitsWidth(page);
    await shot(page, 'runs');
    // Sort by pass@1, highest first.
    await page.click('#runs th:has-text("pass@1")');
    await page.click('#runs th:has-text("pass@1")');
    const shown = await page.locator('#runs tbody td[data-field="pass"]').evaluateAll((cells) => cells.map((c) => Number((c as HTMLElement).dataset['v'])));
    assert.deepEqual(shown, [...shown].sort((a, b) => b - a));
    // pass@10: runs with fewer than 10 samples per problem show none.
    await open(page, '?k=10');
    const at10 = codegen.headline!.base.find((p) => p.k === 10)!;
    assert.equal(Number(await page.locator(`#runs tr[data-run="${codegen.id}"] [data-field="pass"]`).getAttribute('data-value')), at10.passAtK);
    assert.equal(await page.locator(`#runs tr[data-run="${built.runs.mbpp}"] [data-field="pass"]`).innerText(), '–');
    // The HumanEval+ run shows its base + plus figure too.
    const plus = (await mustRun(built.runs['humaneval-plus'])).headline!.plus!.find((p) => p.k === 10)!;
    assert.equal(Number(await page.locator(`#runs tr[data-run="${built.runs['humaneval-plus']}"] [data-field="plus"]`).getAttribute('data-value')), plus.passAtK);
    // Filter by tag, then by text (a tag matches too).
    await open(page, '?tag=builtin');
    assert.deepEqual((await page.locator('#runs tbody tr').evaluateAll((rows) => rows.map((r) => Number((r as HTMLElement).dataset['run'])))).sort(),
      [built.runs.default, built.runs['python-only']].sort());
    await open(page, '');
    await page.fill('input[name="q"]', 'codet');
    await Promise.all([page.waitForURL(/q=codet/), page.click('form.filters button')]);
    assert.deepEqual(await page.locator('#runs tbody tr').evaluateAll((rows) => rows.map((r) => Number((r as HTMLElement).dataset['run']))), [codegen.id]);
    // A phone: rows become cards, nothing scrolls sideways.
    const phone = await newPage(420, 900);
    await open(phone, '');
    await fitsWidth(phone);
    assert.equal(await phone.locator('#runs thead').isVisible(), false);
    await shot(phone, 'runs-narrow');
    await phone.close();
    await page.close();
  });

  it('ticks runs on the list and compares them', async () => {
    const page = await newPage();
    await open(page, '');
    assert.equal(await page.locator('#compare-selected').isDisabled(), true, 'two runs needed');
    for (const id of [built.runs.default, built.runs['python-only']]) await page.check(`#runs tr[data-run="${id}"] input[name="run"]`);
    await Promise.all([page.waitForURL(/compare\?run=/), page.click('#compare-selected')]);
    await page.waitForSelector('body[data-charts-ready]', { timeout: 60_000 });
    assert.equal(await page.locator('#ranking tbody tr').count(), 2);
    await page.close();
  });

  it('labels a running run\'s pass@k with its coverage; shows a stalled run as stalled, without its last speed', async () => {
    const id = await store.createRun({ name: 'stalls', model: 'm', dataset: 'd', problemsHash: 'a'.repeat(64), samplesHash: 'b'.repeat(64),
      crucibleVersion: 'test', options: {}, provenance: {}, keepTests: 'failing', totalSamples: 100 });
    await store.addProblems(id, [{ taskId: 'add', kind: 'call', testCount: 3 }, { taskId: 'mul', kind: 'call', testCount: 2 }]);
    await store.appendSamples(id, fixtureSamples().slice(0, 2), { done: 40, total: 100, passed: 10, samplesPerSecond: 12.3, etaSeconds: 5 });
    try {
      const page = await newPage();
      await open(page, `runs/${id}`);
      assert.equal(await page.locator('[data-testid="coverage"]').innerText(),
        'pass@k over 1 of 2 problems judged so far (2 of 100 samples): not final, problems still to come may be harder or easier');
      // Fresh (progress just written): its speed shows; then it stops moving.
      await store.appendSamples(id, [], { done: 40, total: 100, passed: 10, samplesPerSecond: 12.3, etaSeconds: 5 });
      await open(page, '');
      const row = page.locator(`#runs tr[data-run="${id}"]`);
      assert.match(await row.innerText(), /12\.3 samples\/s/, 'fresh: its speed');
      await page.waitForSelector(`#runs tr[data-run="${id}"] [data-testid="stalled"]`, { timeout: 20_000 });
      assert.doesNotMatch(await row.innerText(), /samples\/s|ETA/);
      assert.equal(await row.locator('[data-field="status"] .badge').innerText(), 'stalled');
      await open(page, '');
      assert.equal(await row.locator('[data-field="status"] .badge').innerText(), 'stalled');
      assert.match(await row.locator('[data-testid="stalled"]').innerText(), /2\/100, no progress for \d+ s/);
      await page.close();
    } finally {
      await store.deleteRun(id);
    }
  });

  it('shows the 16,400-sample run: pass@k, verdicts, heat map, failures by reason, problems in numeric order, provenance with the commit', async (t) => {
    const page = await newPage();
    await open(page, `runs/${built.runs.codegen16b}`, true);
    await timing(t, page, 'run page (16,400 samples)');
    const r = await mustRun(built.runs.codegen16b);
    const counts = await store.problemCounts(r.id);
    const analysis = await analyseRun(store, r, counts);
    assert.ok(analysis);
    for (const k of [1, 10, 100]) {
      const point: PassAtKEstimate = analysis.base.points.find((p) => p.k === k)!;
      const cell = page.locator(`#pass-at-k tr[data-series="base"] td[data-k="${k}"]`);
      assert.equal(Number(await cell.getAttribute('data-value')), point.passAtK);
    }
    assert.equal(await page.locator('[data-testid="coverage"]').count(), 0, 'a finished run over every problem has no coverage note');
    let total = 0;
    for (const row of await page.locator('#verdicts tbody tr').all()) total += Number(await row.locator('[data-field="count"]').innerText());
    assert.equal(total, 16_400);
    assert.ok(await page.locator('#chart-heatmap svg').count() > 0, 'the heat map is drawn');
    const reasons = await store.reasonCounts(r.id, 20);
    assert.equal(await page.locator('#reasons tbody tr').count(), reasons.length);
    assert.equal(Number(await page.locator('#reasons tbody tr').first().locator('[data-field="samples"]').innerText()), reasons[0]!.samples);
    await page.click('#problems th:has-text("task")');
    const ids = await page.locator('#problems tbody tr').evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset['task']!));
    assert.ok(ids.indexOf('HumanEval/2') < ids.indexOf('HumanEval/19') && ids.indexOf('HumanEval/19') < ids.indexOf('HumanEval/100'), 'numeric order');
    // The commit the eval ran with: this checkout's HEAD or one of its ancestors (the store may predate a commit).
    const commit = (await page.locator('#provenance [data-testid="commit"]').getAttribute('title'))!;
    assert.equal(commit, (r.provenance['code'] as { commit: string }).commit);
    execFileSync('git', ['merge-base', '--is-ancestor', commit, 'HEAD'], { cwd: PROJECT_ROOT });
    assert.match(await page.locator('#provenance').innerText(), /toolchains\s+python: /);
    await shot(page, 'run');
    await page.close();
  });

  it('breaks a LiveCodeBench run down by difficulty, platform and release month', async (t) => {
    const page = await newPage();
    await open(page, `runs/${built.runs.lcb}`, true);
    await timing(t, page, 'run page (LiveCodeBench)');
    const r = await mustRun(built.runs.lcb);
    const breakdowns = breakdownsOf(await store.problemCounts(r.id), runBootstrapOptions(r));
    assert.deepEqual(breakdowns.map((b) => b.label), ['difficulty', 'platform', 'release month']);
    for (const b of breakdowns) {
      const table = page.locator(`#breakdown-${b.label.replace(/\s+/g, '-')}`);
      assert.deepEqual(await table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset['group'])), b.rows.map((x) => x.group));
      for (const row of b.rows) assert.equal(Number(await table.locator(`tr[data-group="${row.group}"] [data-field="pass"]`).getAttribute('data-value')), row.passAtK);
    }
    assert.deepEqual(breakdowns[0]!.rows.map((x) => x.group), ['easy', 'medium', 'hard']);
    await page.locator('#breakdown-difficulty').scrollIntoViewIfNeeded();
    await shot(page, 'run-lcb');
    await page.close();
  });

  it('shows a problem: statement, prompt, reference; failures grouped by reason and by program; a verdict filter', async () => {
    const page = await newPage();
    await open(page, `runs/${built.runs.mbpp}/problem?task=${encodeURIComponent('11')}`);
    assert.match(await page.locator('[data-testid="statement"]').innerText(), /remove first and last occurrence/i);
    assert.equal(await page.locator('[data-testid="reference"]').count(), 1);
    await page.close();
    const he = await newPage();
    const taskId = 'HumanEval/10';
    await open(he, `runs/${built.runs.codegen16b}/problem?task=${encodeURIComponent(taskId)}`);
    assert.match(await he.locator('[data-testid="prompt"]').innerText(), /def make_palindrome/);
    assert.ok(await he.locator('[data-testid="prompt"] .hljs-keyword').count() > 0, 'highlighted');
    const samples = await store.samplesOf(built.runs.codegen16b, taskId);
    const failing = samples.filter((s) => !s.passed);
    const grouped = await he.locator('#reason-groups [data-field="count"]').evaluateAll((cells) => cells.map((c) => Number(c.textContent)));
    assert.equal(grouped.reduce((a, b) => a + b, 0), failing.length, 'every failing sample in one group');
    assert.ok(grouped.length < failing.length, 'identical reasons read as one line');
    await shot(he, 'problem');
    const wrong = samples.filter((s) => s.status === 'wrong_answer').length;
    await he.click('#verdict-filter button[data-status="wrong_answer"]');
    assert.equal(await he.locator('#samples tbody tr:not([hidden])').count(), wrong);
    assert.match(he.url(), /status=wrong_answer/);
    await he.close();
  });

  it('shows a failing HumanEval sample: the program first, highlighted; the test code with its failing line marked; no diff of sentences', async () => {
    const page = await newPage();
    const taskId = 'HumanEval/0';
    const failing = (await store.samplesOf(built.runs.codegen16b, taskId)).find((s) => s.status === 'wrong_answer' && /test line \d+/.test(s.reason ?? ''))!;
    await open(page, `runs/${built.runs.codegen16b}/sample?task=${encodeURIComponent(taskId)}&index=${failing.sampleIndex}`);
    const stored = (await store.sample(built.runs.codegen16b, taskId, failing.sampleIndex))!;
    assert.equal(await page.locator('[data-testid="source"]').textContent(), stored.source);
    assert.ok(await page.locator('[data-testid="source"] .hljs-keyword').count() > 0);
    const order = await page.evaluate(() => {
      const source = document.querySelector('[data-testid="source"]')!;
      const test = document.querySelector('details.test')!;
      return source.compareDocumentPosition(test) & Node.DOCUMENT_POSITION_FOLLOWING;
    });
    assert.ok(order, 'the program comes before the failing tests');
    const line = Number(/test line (\d+)/.exec(stored.tests[0]!.reason ?? stored.reason ?? '')![1]);
    const test = page.locator('details.test').first();
    assert.equal(await test.getAttribute('data-shape'), 'unit');
    assert.equal(await test.locator('.line.mark').getAttribute('data-line'), String(line));
    assert.match(await test.locator('.line.mark').innerText(), /assert/);
    assert.equal(await test.locator('[data-testid="failing-source"]').innerText(), (await test.locator('.line.mark').innerText()).trim());
    assert.equal(await test.locator('[data-testid="diff"]').count(), 0, 'no word diff between two status sentences');
    await shot(page, 'sample');
    await page.close();
  });

  it('shows a wrong answer of an io problem: expected, got and their diff', async () => {
    const page = await newPage();
    const wrong = (await store.samplesOf(built.runs.default, 'count-primes')).find((s) => s.status === 'wrong_answer')!;
    await open(page, `runs/${built.runs.default}/sample?task=count-primes&index=${wrong.sampleIndex}`);
    const stored = (await store.sample(built.runs.default, 'count-primes', wrong.sampleIndex))!;
    const failing = stored.tests.find((x) => x.status === 'wrong_answer')!;
    const test = page.locator(`details.test[data-test="${failing.index}"]`);
    assert.equal(await test.getAttribute('data-shape'), 'data');
    assert.equal(await test.locator('[data-testid="actual"]').textContent(), failing.actual);
    assert.ok(await test.locator('[data-testid="diff"] del').count() > 0 && await test.locator('[data-testid="diff"] ins').count() > 0);
    await shot(page, 'sample-io');
    await page.close();
  });

  it('ranks N runs with intervals and Holm-adjusted pairwise tests, in colour-blind-safe colours', async (t) => {
    const page = await newPage();
    const ids = [built.runs.default, built.runs['python-only']];
    await open(page, `compare?run=${ids.join('&run=')}`, true);
    await timing(t, page, 'compare page');
    const counts = await Promise.all(ids.map(async (id) => (await store.problemCounts(id)).map((p) => ({ taskId: p.taskId, n: p.n, c: p.c }))));
    const ranking = rankRuns(ids.map((id, i) => ({ id, counts: counts[i]! })), 1, runBootstrapOptions(await mustRun(ids[0]!)));
    assert.deepEqual(await page.locator('#ranking tbody tr').evaluateAll((rows) => rows.map((r) => Number((r as HTMLElement).dataset['run']))), ranking.runs.map((r) => r.id));
    for (const p of ranking.pairs) {
      const row = page.locator(`#pairs tr[data-pair="${p.a}-${p.b}"]`);
      assert.equal(Number(await row.locator('[data-field="difference"]').getAttribute('data-value')), p.comparison.differences[0]!.difference);
      assert.equal(Number(await row.locator('[data-field="holm"]').getAttribute('data-value')), p.holmPValue);
    }
    assert.match(await page.locator('#pairs caption').innerText(), /Holm/);
    const c = comparePaired(counts[0]!, counts[1]!, { ks: [1], ...runBootstrapOptions(await mustRun(ids[0]!)) });
    assert.equal(await page.locator('[data-testid="wins"]').innerText(), String(c.wins));
    assert.equal(await page.locator('#only-a li').count(), flippedProblems(c).onlyA.length);
    const colours = await page.locator('#ranking .swatch').evaluateAll((s) => s.map((x) => getComputedStyle(x).backgroundColor));
    assert.ok(colours.every((x) => ['rgb(0, 114, 178)', 'rgb(230, 159, 0)'].includes(x)), `Okabe-Ito colours: ${colours.join(', ')}`);
    await shot(page, 'compare');
    // Three runs, one of another benchmark file: a warning, not a silent comparison.
    await open(page, `compare?run=${built.runs.codegen16b}&run=${built.runs['humaneval-plus']}`, true);
    assert.match(await page.locator('[data-testid="warnings"]').innerText(), /different problem files/);
    assert.equal(await page.locator('#ranking tbody tr').count(), 2);
    assert.match(await page.locator('#ranking caption').innerText(), /on the 20 shared problems/);
    // base + plus against a run without plus results: refused, never a 0.
    const refusedUrl = `${dashboard.url}compare?run=${built.runs.codegen16b}&run=${built.runs['humaneval-plus']}&plus=1`;
    refusedOnPurpose.add(refusedUrl);
    const refused = await page.goto(refusedUrl);
    assert.equal(refused?.status(), 400);
    assert.match(await page.locator('[data-testid="refusal"]').innerText(), new RegExp(`Run ${built.runs.codegen16b} \\(codegen16b\\) has no plus results`));
    await page.close();
  });

  it('monitors a 1,000-step training run: step axis kept despite step-less events, page-wide charts, smoothing, overlay, histogram, reward calls', async (t) => {
    const page = await newPage();
    const id = built.training['grpo-main'];
    await open(page, `training/${id}`, true);
    await timing(t, page, 'training page (1,000 steps)');
    const series = await store.trainingSeries(id);
    assert.equal(series.unit, 'step');
    assert.equal(series.buckets.length, 1000);
    assert.equal(await page.locator('[data-testid="unstepped"]').count(), 1);
    assert.match(await page.locator('[data-testid="unstepped"]').innerText(), /12 without a step/);
    assert.equal(await page.locator('[data-testid="bucket"]').innerText(), '999');
    assert.equal(await page.locator('[data-testid="reward-mean"]').innerText(), series.buckets[999]!.rewardMean.toFixed(4));
    for (const chart of ['reward', 'passRate', 'histogram', 'calls', 'failures', 'zero', 'problems']) {
      assert.ok(await page.locator(`#chart-${chart} svg, #chart-${chart} canvas`).count() > 0, `${chart} drawn`);
    }
    const width = await page.locator('#chart-reward svg, #chart-reward canvas').evaluate((el) => el.getBoundingClientRect().width);
    assert.ok(width > 1200, `the reward chart uses the page width (${width} px)`);
    // The step axis as vega laid it out (the chart may be a canvas): whole steps up to the last.
    const ticks = await page.evaluate(() => {
      const view = (window as unknown as { crucibleViews?: Record<string, { scale(name: string): { ticks(n: number): number[] } }> }).crucibleViews?.['reward'];
      return view === undefined ? [] : view.scale('x').ticks(10);
    });
    assert.ok(ticks.length >= 5 && ticks.every((x) => Number.isInteger(x)), `whole-number steps: ${ticks.join(' ')}`);
    assert.ok(Math.max(...ticks) >= 900, `the axis reaches the last steps: ${ticks.join(' ')}`);
    await shot(page, 'training');
    // Smoothing redraws without a reload.
    await page.evaluate(() => { (window as unknown as { marker: number }).marker = 1; });
    await page.locator('#smoothing').fill('0.95');
    await page.waitForURL(/smooth=0\.95/);
    assert.equal(await page.evaluate(() => (window as unknown as { marker?: number }).marker), 1);
    // Overlay of another run.
    await open(page, `training/${id}?with=${built.training['grpo-ablation']}`, true);
    assert.match(await page.locator('.legend').innerText(), /grpo-main[\s\S]*grpo-ablation/);
    await shot(page, 'training-overlay');
    await page.close();
  });

  it('counts a retried reward batch once (Idempotency-Key) and follows a training run live', async () => {
    const problems = (await store.problemCounts(built.runs.codegen16b)).slice(0, 6);
    const events = async (step: number) => (await Promise.all(problems.map(async (p) => {
      const samples = await store.samplesOf(built.runs.codegen16b, p.taskId);
      return samples.slice(4 * step, 4 * step + 4).map((s) => ({ taskId: p.taskId, step, groupId: `${p.taskId}@${step}`, reward: s.passed ? 1 : 0, status: s.status, cpuMs: s.cpuMs }));
    }))).flat();
    const post = async (step: number, key?: string) => {
      const response = await fetch(`${dashboard.url}api/training/grpo-live-${liveName}/events`, {
        method: 'POST', headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) },
        body: JSON.stringify({ events: await events(step) }) });
      assert.equal(response.status, 202);
      return await response.json() as { trainingRunId: number; recorded: number; duplicates: number };
    };
    const first = await post(0, 'batch-0');
    assert.deepEqual([first.recorded, first.duplicates], [24, 0]);
    const retried = await post(0, 'batch-0');
    assert.deepEqual([retried.recorded, retried.duplicates], [0, 24], 'the retried batch adds nothing');
    await post(1, 'batch-1');
    const page = await newPage();
    await open(page, `training/${first.trainingRunId}`, true);
    assert.equal(await page.locator('[data-testid="events"]').innerText(), '48');
    await page.evaluate(() => { (window as unknown as { marker: number }).marker = 1; });
    await post(2);
    await page.waitForFunction(() => document.querySelector('[data-testid="events"]')?.textContent === '72', undefined, { timeout: 30_000 });
    assert.equal(await page.evaluate(() => (window as unknown as { marker?: number }).marker), 1, 'updated without a reload');
    assert.equal(await page.locator('[data-testid="bucket"]').innerText(), '2');
    await page.close();
  });

  it('follows an eval while it runs: progress numbers on the runs list, then the finished run', async () => {
    const page = await newPage();
    await open(page, '');
    // The built-in benchmark's eval, resumed from a copy of the store's `default` run without the verdicts of its
    // samples that sleep into the wall-time limit: those are judged live (seconds of running, next to no CPU), the
    // rest is recorded from the copy, as a user's resumed eval records it.
    const out = join(built.dir, `live-${Date.now()}`);
    cpSync(join(built.dir, 'default'), out, { recursive: true });
    const verdicts = readFileSync(join(out, 'verdicts.jsonl'), 'utf8').split('\n').filter((line) => line.length > 0);
    const sleeps = (line: string) => {
      const v = JSON.parse(line) as { status: string; cpuMs: number; wallMs: number };
      return v.status === 'time_limit_exceeded' && v.cpuMs < 100 && v.wallMs > 1000;
    };
    assert.equal(verdicts.length, 40);
    assert.ok(verdicts.some(sleeps), 'the built-in benchmark has a sample that sleeps into the wall-time limit');
    writeFileSync(join(out, 'verdicts.jsonl'), verdicts.filter((line) => !sleeps(line)).map((line) => `${line}\n`).join(''));
    const child = spawn(CLI, ['eval', '--out', out, '--store', built.db, '--no-progress', '--jobs', '1', '--reps', '500', '--tag', 'builtin'],
      { cwd: built.dir, stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await page.waitForSelector('#runs tr[data-status="running"] [data-testid="progress"]', { timeout: 120_000 });
      const runId = Number(await page.locator('#runs tr[data-status="running"]').first().getAttribute('data-run'));
      assert.equal(await exited, 0);
      await page.waitForSelector(`#runs tr[data-run="${runId}"][data-status="finished"]`, { timeout: 30_000 });
      assert.equal((await page.locator(`#runs tr[data-run="${runId}"] [data-field="samples"]`).innerText()).trim(), '40/40');
      await store.deleteRun(runId);
    } finally {
      child.kill();
      await page.close();
    }
  });

  it('logged no console error on any page', () => {
    assert.deepEqual(consoleErrors, []);
  });
});

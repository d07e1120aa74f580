/**
 * The dashboard in a real browser (Debian chromium via playwright-core) against a real store filled by real
 * evals through the CLI: the built-in benchmark (twice: default limits and a 50 ms CPU limit, to compare) and
 * the 16,400 CodeGen-16B HumanEval completions (CodeT's files), judged once for this file. Every page is
 * loaded; the numbers shown are checked against the store's; run → problem → sample → diff is clicked through;
 * a training run and an eval are followed live; each page is saved as a screenshot in test-output/dashboard/.
 * Page timings are printed as diagnostics (recorded in docs/PERFORMANCE.md), never asserted.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it, type TestContext } from 'node:test';
import type { Page } from 'playwright-core';
import { startDashboard, type DashboardHandle } from '../../src/dashboard/server.js';
import { flippedProblems } from '../../src/dashboard/pages/compare.js';
import { readProblems } from '../../src/formats/index.js';
import { comparePaired } from '../../src/metrics/paired.js';
import type { PassAtKEstimate } from '../../src/metrics/summary.js';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { analyseRun } from '../../src/store/analysis.js';
import { openResultStore } from '../../src/store/open.js';
import type { ResultStore, RunRow } from '../../src/store/result-store.js';
import { launchBrowser, navigationTiming, TEST_OUTPUT, type TestBrowser } from '../support/browser.js';
import { CODET_PROBLEMS, CODET_SOLUTIONS } from '../support/data.js';

const run = promisify(execFile);
const CLI = join(PROJECT_ROOT, 'bin', 'crucible');
const dir = mkdtempSync(join(tmpdir(), 'crucible-dashboard-'));
const db = join(dir, 'crucible.db');
const DEFAULT_PROBLEMS = join(PROJECT_ROOT, 'benchmarks', 'default', 'problems.json');
const DEFAULT_SAMPLES = join(PROJECT_ROOT, 'benchmarks', 'default', 'samples.jsonl');

async function evalCli(out: string, extra: readonly string[] = []): Promise<{ passAtK: Record<string, number> }> {
  const { stdout } = await run(CLI, ['eval', '--out', join(dir, out), '--store', db, '--no-progress', '--json', '--reps', '500', ...extra],
    { maxBuffer: 64 << 20, cwd: dir });
  return JSON.parse(stdout) as { passAtK: Record<string, number> };
}

let store: ResultStore;
let dashboard: DashboardHandle;
let browser: TestBrowser;
let codegenSummary: { passAtK: Record<string, number> };
const ids: Record<'defaultRun' | 'python' | 'codegen', number> = { defaultRun: 0, python: 0, codegen: 0 };

before(async () => {
  await evalCli('default');
  // A second "model" on the same benchmark: only the Python samples.
  const pythonOnly = join(dir, 'python-only.jsonl');
  writeFileSync(pythonOnly, readFileSync(DEFAULT_SAMPLES, 'utf8').split('\n').filter((l) => l.includes('"language": "python"')).join('\n') + '\n');
  await evalCli('python-only', ['--problems', DEFAULT_PROBLEMS, '--samples', pythonOnly]);
  codegenSummary = await evalCli('codegen16b', ['--problems', CODET_PROBLEMS, '--samples', CODET_SOLUTIONS, '--format', 'codet', '--k', '1,10,100']);
  store = await openResultStore(db);
  for (const r of await store.listRuns()) {
    if (r.name === 'default') ids.defaultRun = r.id;
    if (r.name === 'python-only') ids.python = r.id;
    if (r.name === 'codegen16b') ids.codegen = r.id;
  }
  dashboard = await startDashboard({ store, pollMs: 200 });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await dashboard?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(page: Page, path: string, charts = false): Promise<void> {
  await page.goto(dashboard.url + path);
  if (charts) await page.waitForSelector('body[data-charts-ready]', { timeout: 60_000 });
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(TEST_OUTPUT, `${name}.png`), fullPage: true });
}

async function mustRun(id: number): Promise<RunRow> {
  const r = await store.getRun(id);
  assert.ok(r, `run ${id}`);
  return r;
}

const pct = (x: number) => (100 * x).toFixed(2);

describe('dashboard in chromium', () => {
  it('lists every run with the store\'s numbers and filters them', async (t: TestContext) => {
    const page = await browser.newPage();
    await open(page, '');
    const timing = await navigationTiming(page);
    t.diagnostic(`timing runs list (${(await store.listRuns()).length} runs): response ${timing.responseEnd.toFixed(0)} ms, DOMContentLoaded ${timing.domContentLoaded.toFixed(0)} ms, load ${timing.load.toFixed(0)} ms`);
    const runs = await store.listRuns();
    assert.equal(await page.locator('#runs tbody tr').count(), runs.length);
    for (const r of runs) {
      const row = page.locator(`#runs tr[data-run="${r.id}"]`);
      assert.equal((await row.locator('[data-field="samples"]').innerText()).trim(), `${r.doneSamples}/${r.totalSamples}`);
      assert.equal((await row.locator('[data-field="passed"]').innerText()).trim(), pct(r.passedSamples / r.doneSamples));
    }
    assert.equal((await mustRun(ids.codegen)).doneSamples, 16_400);
    await shot(page, 'runs');
    await page.fill('input[name="q"]', 'codegen');
    await Promise.all([page.waitForURL(/q=codegen/), page.click('form.filters button')]);
    assert.deepEqual(await page.locator('#runs tbody tr').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset['run'])), [String(ids.codegen)]);
    await page.close();
  });

  it('shows a 16,400-sample run: pass@k and its curve, verdicts, sortable problems, all equal to the store\'s', async (t: TestContext) => {
    const page = await browser.newPage();
    await open(page, `runs/${ids.codegen}`, true);
    const timing = await navigationTiming(page);
    const charts = await page.evaluate(() => (window as unknown as { crucibleTimings?: { chartsReadyMs: number } }).crucibleTimings?.chartsReadyMs ?? NaN);
    t.diagnostic(`timing run page (16,400 samples): response ${timing.responseEnd.toFixed(0)} ms, DOMContentLoaded ${timing.domContentLoaded.toFixed(0)} ms, load ${timing.load.toFixed(0)} ms, charts drawn ${charts.toFixed(0)} ms`);
    const r = await mustRun(ids.codegen);
    const counts = await store.problemCounts(r.id);
    const analysis = await analyseRun(store, r, counts);
    assert.ok(analysis);
    for (const k of [1, 2, 5, 10, 20, 50, 100]) {
      const point: PassAtKEstimate = analysis.base.points.find((p) => p.k === k)!;
      const cell = page.locator(`#pass-at-k tr[data-series="base"] td[data-k="${k}"]`);
      assert.equal(Number(await cell.getAttribute('data-value')), point.passAtK);
      assert.ok((await cell.innerText()).startsWith(`${pct(point.passAtK)} [${pct(point.lower)}, ${pct(point.upper)}]`));
    }
    for (const k of ['1', '10', '100']) assert.ok(Math.abs(codegenSummary.passAtK[k]! - analysis.base.points.find((p) => p.k === Number(k))!.passAtK) < 1e-12);
    let total = 0;
    for (const row of await page.locator('#verdicts tbody tr').all()) {
      const status = (await row.getAttribute('data-status'))!;
      const shown = Number(await row.locator('[data-field="count"]').innerText());
      assert.equal(shown, counts.reduce((s, p) => s + (p.statuses[status as 'passed'] ?? 0), 0), status);
      total += shown;
    }
    assert.equal(total, 16_400);
    assert.equal(await page.locator('#problems tbody tr').count(), 164);
    for (const p of counts) {
      const row = page.locator(`#problems tr[data-task="${p.taskId}"]`);
      assert.equal(Number(await row.locator('[data-field="c"]').innerText()), p.c, p.taskId);
    }
    assert.ok(await page.locator('#chart-curve svg').count() > 0, 'the pass@k curve is drawn');
    assert.ok(await page.locator('#chart-verdicts svg').count() > 0, 'the verdict chart is drawn');
    await shot(page, 'run');
    const rates = () => page.locator('#problems tbody tr td[data-field="rate"]').evaluateAll((cells) => cells.map((c) => Number((c as HTMLElement).dataset['v'])));
    await page.click('#problems th:has-text("pass rate")');
    const ascending = await rates();
    assert.deepEqual(ascending, [...ascending].sort((a, b) => a - b));
    await page.click('#problems th:has-text("pass rate")');
    const descending = await rates();
    assert.deepEqual(descending, [...descending].sort((a, b) => b - a));
    await page.close();
  });

  it('clicks through run → problem → sample on CodeGen-16B: the program judged and its failing test', async () => {
    const page = await browser.newPage();
    await open(page, `runs/${ids.codegen}`);
    const first = page.locator('#problems tbody tr').first();
    const taskId = (await first.getAttribute('data-task'))!;
    await Promise.all([page.waitForURL(/problem\?task=/), first.locator('a').first().click()]);
    const samples = await store.samplesOf(ids.codegen, taskId);
    assert.equal(await page.locator('#samples tbody tr').count(), samples.length);
    await shot(page, 'problem');
    const failing = samples.find((s) => !s.passed)!;
    await Promise.all([page.waitForURL(/sample\?task=/), page.click(`#samples tr[data-sample="${failing.sampleIndex}"] a`)]);
    const stored = (await store.sample(ids.codegen, taskId, failing.sampleIndex))!;
    const problem = (await readProblems(CODET_PROBLEMS, 'humaneval')).find((p) => p.taskId === taskId)!;
    const source = await page.locator('[data-testid="source"]').textContent();
    assert.equal(source, stored.source);
    assert.ok(problem.kind === 'unit_test' && source!.startsWith(problem.prompt), 'the program is the prompt followed by the completion');
    const test = page.locator('details.test').first();
    assert.equal(await test.getAttribute('data-test'), String(stored.tests[0]!.index));
    assert.match(await test.locator('[data-testid="input"]').innerText(), /def check\(candidate\)/);
    assert.equal(await test.locator('[data-testid="actual"]').textContent(), stored.tests[0]!.actual);
    assert.equal(await test.locator('[data-testid="diff"]').count(), 1);
    await shot(page, 'sample-codegen');
    await page.close();
  });

  it('clicks through to a wrong answer of the built-in benchmark and shows expected, got and their diff', async () => {
    const page = await browser.newPage();
    await open(page, `runs/${ids.defaultRun}`);
    await Promise.all([page.waitForURL(/problem\?task=count-primes/), page.click('#problems tr[data-task="count-primes"] a')]);
    const wrong = (await store.samplesOf(ids.defaultRun, 'count-primes')).find((s) => s.status === 'wrong_answer')!;
    await Promise.all([page.waitForURL(/sample\?task=/), page.click(`#samples tr[data-sample="${wrong.sampleIndex}"] a`)]);
    const stored = (await store.sample(ids.defaultRun, 'count-primes', wrong.sampleIndex))!;
    const failing = stored.tests.find((x) => x.status === 'wrong_answer')!;
    const test = page.locator(`details.test[data-test="${failing.index}"]`);
    const problems = await readProblems(DEFAULT_PROBLEMS);
    const io = problems.find((p) => p.taskId === 'count-primes')!;
    assert.ok(io.kind === 'io');
    assert.equal(await test.locator('[data-testid="input"]').textContent(), io.tests[failing.index]!.input);
    assert.equal(await test.locator('[data-testid="expected"]').textContent(), io.tests[failing.index]!.output);
    assert.equal(await test.locator('[data-testid="actual"]').textContent(), failing.actual);
    assert.ok(await test.locator('[data-testid="diff"] del').count() > 0 && await test.locator('[data-testid="diff"] ins').count() > 0);
    await shot(page, 'sample');
    await page.close();
  });

  it('compares two runs: paired differences, flipped problems and McNemar equal the metrics', async () => {
    const page = await browser.newPage();
    await open(page, `compare?a=${ids.defaultRun}&b=${ids.python}`, true);
    const [ca, cb] = await Promise.all([store.problemCounts(ids.defaultRun), store.problemCounts(ids.python)]);
    const maxK = Math.min(...[...ca, ...cb].map((p) => p.n));
    const c = comparePaired(ca.map((p) => ({ taskId: p.taskId, n: p.n, c: p.c })), cb.map((p) => ({ taskId: p.taskId, n: p.n, c: p.c })),
      { ks: [1, 10, 100].filter((k) => k <= maxK) });
    assert.equal(await page.locator('#differences tbody tr').count(), c.differences.length);
    for (const d of c.differences) {
      assert.equal(Number(await page.locator(`#differences tr[data-k="${d.k}"] [data-field="difference"]`).getAttribute('data-value')), d.difference);
    }
    assert.notEqual(c.differences[0]!.difference, 0, 'the two sample sets differ');
    assert.equal(await page.locator('[data-testid="wins"]').innerText(), String(c.wins));
    assert.equal(await page.locator('[data-testid="losses"]').innerText(), String(c.losses));
    assert.equal(await page.locator('[data-testid="poi"]').innerText(), c.probabilityOfImprovement.toFixed(4));
    assert.match(await page.locator('#compare-facts').innerText(), c.mcnemar.applicable ? /exact two-sided p/ : /not applicable: McNemar's test needs exactly one sample/);
    const flipped = flippedProblems(c);
    assert.equal(await page.locator('#only-a li').count(), flipped.onlyA.length);
    assert.ok(await page.locator('#chart-difference svg').count() > 0);
    await shot(page, 'compare');
    await page.close();
  });

  it('follows a training run live from reward events (GRPO groups of real verdicts)', async () => {
    // Rollouts: per step, 6 problems x a group of 4 of CodeGen-16B's judged samples (reward 1 when passed).
    const problems = (await store.problemCounts(ids.codegen)).slice(0, 6);
    const events = async (step: number) => (await Promise.all(problems.map(async (p) => {
      const samples = await store.samplesOf(ids.codegen, p.taskId);
      return samples.slice(4 * step, 4 * step + 4).map((s) => ({ taskId: p.taskId, step, groupId: `${p.taskId}@${step}`, reward: s.passed ? 1 : 0, status: s.status, cpuMs: s.cpuMs }));
    }))).flat();
    const post = async (step: number) => {
      const response = await fetch(`${dashboard.url}api/training/grpo-demo/events`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ events: await events(step) }) });
      assert.equal(response.status, 202);
      return (await response.json() as { trainingRunId: number }).trainingRunId;
    };
    const id = await post(0);
    await post(1);
    const page = await browser.newPage();
    await open(page, `training/${id}`, true);
    const series = await store.trainingSeries(id);
    assert.equal(series.unit, 'step');
    assert.equal(await page.locator('[data-testid="events"]').innerText(), '48');
    assert.equal(await page.locator('[data-testid="reward-mean"]').innerText(), series.buckets[1]!.rewardMean.toFixed(4));
    assert.equal(await page.locator('[data-testid="zero-groups"]').innerText(), String(series.buckets[1]!.zeroVarianceGroups));
    await page.evaluate(() => { (window as unknown as { marker: number }).marker = 1; });
    await post(2);
    await page.waitForFunction(() => document.querySelector('[data-testid="events"]')?.textContent === '72', undefined, { timeout: 30_000 });
    assert.equal(await page.evaluate(() => (window as unknown as { marker?: number }).marker), 1, 'updated without a reload');
    const after = await store.trainingSeries(id);
    assert.equal(await page.locator('[data-testid="bucket"]').innerText(), '2');
    assert.equal(await page.locator('[data-testid="reward-mean"]').innerText(), after.buckets[2]!.rewardMean.toFixed(4));
    assert.ok(await page.locator('#chart-reward svg').count() > 0);
    await shot(page, 'training');
    await page.close();
  });

  it('follows an eval while it runs: progress numbers on the runs list, then the finished run', async () => {
    const page = await browser.newPage();
    await open(page, '');
    const child = spawn(CLI, ['eval', '--out', join(dir, 'live'), '--store', db, '--no-progress', '--jobs', '1'], { cwd: dir, stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      // The list loads again when the new run appears, then its progress numbers move with the eval.
      await page.waitForSelector('#runs tr[data-status="running"] [data-testid="progress"]', { timeout: 120_000 });
      const seen = new Set<string>();
      while (seen.size < 2) {
        const done = await page.locator('#runs tr[data-status="running"] [data-field="done"]').first().innerText().catch(() => '');
        if (done !== '') seen.add(done);
        if ((await page.locator('#runs tr[data-status="running"]').count()) === 0) break;
        await page.waitForTimeout(100);
      }
      assert.ok(seen.size >= 2, `the progress numbers moved: ${[...seen].join(', ')}`);
      assert.equal(await exited, 0);
      const live = (await store.listRuns()).find((r) => r.name === 'live')!;
      await page.waitForSelector(`#runs tr[data-run="${live.id}"][data-status="finished"]`, { timeout: 30_000 });
      assert.equal((await page.locator(`#runs tr[data-run="${live.id}"] [data-field="samples"]`).innerText()).trim(), '40/40');
    } finally {
      child.kill();
      await page.close();
    }
  });
});

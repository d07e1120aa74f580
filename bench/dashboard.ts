/**
 * bench:dashboard — page load and chart-draw times of the dashboard in chromium (playwright-core, /usr/bin/chromium)
 * on the store the browser tests use (`test/support/dashboard-store.ts`: the 16,400-sample CodeGen-16B run, MBPP, a
 * LiveCodeBench run, HumanEval+, two 1,000-step training runs), or on `--store`. Each page is loaded `--reps` times
 * (the first load of each is cold: scripts not yet cached); printed per page: median, min and max of the time to the
 * response's end, DOMContentLoaded, the load event, and the charts drawn, in ms from navigation start, at 1,400 px.
 * Building the store takes minutes; `CRUCIBLE_DASHBOARD_STORE=DIR` builds it once in DIR and reuses it.
 * Usage: npm run bench:dashboard [-- --store FILE|URL --reps 10]
 */
import { startDashboard } from '../src/dashboard/server.js';
import { openResultStore } from '../src/store/open.js';
import { launchBrowser, navigationTiming } from '../test/support/browser.js';
import { dashboardStore } from '../test/support/dashboard-store.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const reps = Number(arg('--reps') ?? 10);
const given = arg('--store');
const built = given === undefined ? await dashboardStore() : undefined;
const store = await openResultStore(given ?? built!.db);
const runs = await store.listRuns();
const byName = (name: string) => runs.find((r) => r.name === name)?.id;
const training = await store.listTrainingRuns();
const largest = [...runs].sort((a, b) => b.doneSamples - a.doneSamples)[0]!;
const lcb = byName('lcb');
const mbpp = byName('mbpp');
const main = training.find((t) => t.name === 'grpo-main') ?? training[0];
const ablation = training.find((t) => t.name === 'grpo-ablation');
 // Runs on the same problems (the built-in benchmark twice), else the two newest.
const comparable = [byName('default'), byName('python-only')].every((x) => x !== undefined) ? [byName('default')!, byName('python-only')!] : runs.slice(0, 2).map((r) => r.id);
const failing = (await store.samplesOf(largest.id, 'HumanEval/0')).find((s) => !s.passed);
const pages: [string, string, boolean][] = [
  [`runs list (${runs.length} runs)`, '', false],
  [`run ${largest.id} (${largest.doneSamples} samples)`, `runs/${largest.id}`, true],
  ...(lcb === undefined ? [] : [[`run ${lcb} (LiveCodeBench, breakdowns)`, `runs/${lcb}`, true] as [string, string, boolean]]),
  ...(mbpp === undefined ? [] : [[`run ${mbpp} (MBPP, 1,948 samples)`, `runs/${mbpp}`, true] as [string, string, boolean]]),
  [`problem HumanEval/0 of run ${largest.id}`, `runs/${largest.id}/problem?task=${encodeURIComponent('HumanEval/0')}`, false],
  ...(failing === undefined ? [] : [[`sample HumanEval/0 #${failing.sampleIndex}`, `runs/${largest.id}/sample?task=${encodeURIComponent('HumanEval/0')}&index=${failing.sampleIndex}`, false] as [string, string, boolean]]),
  ...comparable.length < 2 ? [] : [[`compare ${comparable.join(', ')}`, `compare?${comparable.map((id) => `run=${id}`).join('&')}`, true] as [string, string, boolean]],
  ...(main === undefined ? [] : [[`training ${main.name} (${main.events} rollouts)`, `training/${main.id}`, true] as [string, string, boolean]]),
  ...(main === undefined || ablation === undefined ? [] : [[`training ${main.name} + ${ablation.name} overlaid`, `training/${main.id}?with=${ablation.id}`, true] as [string, string, boolean]]),
];
const dashboard = await startDashboard({ store });
const browser = await launchBrowser();

function stats(values: readonly number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `median ${median.toFixed(0)}, min ${sorted[0]!.toFixed(0)}, max ${sorted[sorted.length - 1]!.toFixed(0)}`;
}

try {
  for (const [name, path, charts] of pages) {
    const page = await browser.newPage();
    await page.setViewportSize({ width: 1400, height: 900 });
    const rows: Record<string, number[]> = { response: [], domContentLoaded: [], load: [], charts: [] };
    for (let i = 0; i < reps; i++) {
      await page.goto(dashboard.url + path);
      if (charts) await page.waitForSelector('body[data-charts-ready]', { timeout: 60_000 });
      const t = await navigationTiming(page);
      rows['response']!.push(t.responseEnd);
      rows['domContentLoaded']!.push(t.domContentLoaded);
      rows['load']!.push(t.load);
      if (charts) rows['charts']!.push(await page.evaluate(() => (window as unknown as { crucibleTimings: { chartsReadyMs: number } }).crucibleTimings.chartsReadyMs));
    }
    await page.close();
    console.log(`${name}, ${reps} loads, ms from navigation start:`);
    for (const [k, v] of Object.entries(rows)) if (v.length > 0) console.log(`  ${k.padEnd(17)} ${stats(v)}`);
  }
} finally {
  await browser.close();
  await dashboard.close();
  await store.close();
}

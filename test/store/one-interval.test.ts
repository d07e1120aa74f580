/**
 * One confidence interval per run, whoever computes it (issue #31, item 4). A run written live by `crucible eval`
 * into a store: eval's own summary, `crucible report RUNDIR`, `crucible report` of the store run, the store's
 * analysis (what the dashboard shows) and the dashboard's run page give the same pass@k intervals to the last
 * digit, and `crucible compare` of the run directory with its store copy finds no difference.
 *
 * The samples file lists the problems in the reverse of the problems file's order and the eval judges one sample
 * at a time, so `verdicts.jsonl` meets the problems in another order than the store numbers them (a parallel eval
 * finishes them in any order): the interval must not depend on it. The eval's bootstrap is not the default one
 * (500 replicates, seed 7), and the report must use the run's. Real programs judged in the sandbox.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { startDashboard } from '../../src/dashboard/server.js';
import { pct } from '../../src/dashboard/html.js';
import type { PassAtKEstimate } from '../../src/metrics/summary.js';
import { buildReportData } from '../../src/report/build.js';
import { loadRun, loadRunOrStored } from '../../src/report/load-run.js';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { analyseRun, ANALYSIS_METHOD, type RunAnalysis } from '../../src/store/analysis.js';
import { openResultStore } from '../../src/store/open.js';
import { copyV1Store } from './v1-store.js';

const run = promisify(execFile);
const CLI = join(PROJECT_ROOT, 'bin', 'crucible');
const dir = mkdtempSync(join(tmpdir(), 'crucible-one-interval-'));
const db = join(dir, 'crucible.db');
const runDir = join(dir, 'live');
const crucible = async (...args: string[]) => (await run(CLI, args, { cwd: dir, maxBuffer: 32 << 20 })).stdout;

/** Problem i adds i to a number; of its 4 samples the first (i mod 5) are right (capped at 4), the rest add 0. */
const PROBLEMS = 14;
const SAMPLES = 4;

before(async () => {
  const problems = Array.from({ length: PROBLEMS }, (_, i) => ({
    taskId: `add-${String(i).padStart(2, '0')}`,
    statement: `Read an integer n; print n + ${i}.`,
    tests: [{ input: '1\n', output: `${1 + i}\n` }, { input: '40\n', output: `${40 + i}\n` }],
    comparator: { kind: 'tokens' },
  }));
  writeFileSync(join(dir, 'problems.json'), JSON.stringify({ problems }));
  const samples = problems.flatMap((p, i) => Array.from({ length: SAMPLES }, (_, j) => ({
    task_id: p.taskId, language: 'python', solution: `print(int(input()) + ${j < Math.min(i % 5, SAMPLES) ? i : 0})\n`,
  }))).reverse();
  writeFileSync(join(dir, 'samples.jsonl'), samples.map((s) => JSON.stringify(s)).join('\n') + '\n');
  await crucible('eval', '--problems', join(dir, 'problems.json'), '--samples', join(dir, 'samples.jsonl'), '--out', runDir,
    '--store', db, '--no-progress', '--jobs', '1', '--k', '1,2,4', '--reps', '500', '--seed', '7');
});
after(() => rmSync(dir, { recursive: true, force: true }));

const bounds = (points: readonly PassAtKEstimate[]) => points.map((p) => [p.k, p.passAtK, p.lower, p.upper]);

describe('one run, one confidence interval', () => {
  it('the run directory meets its problems in another order than the store numbers them', async () => {
    const order = [...new Set(readFileSync(join(runDir, 'verdicts.jsonl'), 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { taskId: string }).taskId))];
    const store = await openResultStore(db);
    try {
      const [row] = await store.listRuns();
      assert.deepEqual(order, [...await store.taskIds(row!.id)].reverse());
    } finally {
      await store.close();
    }
  });

  it('eval, report RUNDIR, report of the store run, the store analysis and the dashboard agree to the last digit', async () => {
    const fromDir = buildReportData(await loadRun(runDir));
    const summary = JSON.parse(readFileSync(join(runDir, 'summary.json'), 'utf8')) as { passAtKCI: Record<string, [number, number]>; passAtK: Record<string, number> };
    assert.deepEqual([fromDir.base.bootstrap.reps, fromDir.base.bootstrap.seed], [500, 7], 'the report uses the run\'s bootstrap');
    for (const [k, [lower, upper]] of Object.entries(summary.passAtKCI)) {
      const point = fromDir.base.points.find((p) => p.k === Number(k))!;
      assert.deepEqual([point.passAtK, point.lower, point.upper], [summary.passAtK[k], lower, upper], `eval's pass@${k}`);
    }
    const store = await openResultStore(db);
    try {
      const [row] = await store.listRuns();
      const stored = (await store.cachedAnalysis(row!.id))?.analysis as RunAnalysis;
      assert.deepEqual(bounds(stored.base.points), bounds(fromDir.base.points), 'the analysis the eval stored');
      const shown = await analyseRun(store, (await store.getRun(row!.id))!, await store.problemCounts(row!.id));
      assert.deepEqual(bounds(shown!.base.points), bounds(fromDir.base.points), 'the analysis the dashboard reads');
      const fromStore = buildReportData(await loadRunOrStored(String(row!.id), db));
      assert.deepEqual(bounds(fromStore.base.points), bounds(fromDir.base.points), 'report of the store run');
      const dashboard = await startDashboard({ store, pollMs: 1000 });
      try {
        const html = await (await fetch(`${dashboard.url}runs/${row!.id}`)).text();
        for (const p of fromDir.base.points.filter((x) => [1, 2].includes(x.k))) {
          assert.ok(html.includes(`<td data-k="${p.k}" data-value="${p.passAtK}">${pct(p.passAtK)} <span class="ci">[${pct(p.lower)}, ${pct(p.upper)}]</span></td>`),
            `dashboard pass@${p.k} [${pct(p.lower)}, ${pct(p.upper)}]`);
        }
      } finally {
        await dashboard.close();
      }
    } finally {
      await store.close();
    }
    const body = (md: string) => md.split('\n').slice(1).join('\n');
    assert.equal(body(await crucible('report', '1', '--store', db)), body(await crucible('report', runDir)), 'the two reports, as printed');
  });

  it('compare gives the same figures on the run directories as on their store copies', async () => {
    // Run B: another "model" on the same problems, its records in yet another order.
    const other = join(dir, 'other');
    mkdirSync(other);
    const records = Array.from({ length: PROBLEMS }, (_, i) => Array.from({ length: SAMPLES }, (_, j) => ({
      taskId: `add-${String(i).padStart(2, '0')}`, sampleIndex: j, programHash: `b-${i}-${j}`, passed: j < (i * 3) % 5,
      status: j < (i * 3) % 5 ? 'passed' : 'wrong_answer', tests: [], cpuMs: 1, wallMs: 1,
    }))).flat().sort((a, b) => a.programHash.localeCompare(b.programHash) * ((a.sampleIndex % 2) * 2 - 1));
    writeFileSync(join(other, 'verdicts.jsonl'), records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    await crucible('store', 'import', other, '--name', 'other', '--store', db);
    const compare = async (a: string, b: string) => {
      const { runA: _a, runB: _b, ...result } = JSON.parse(await crucible('compare', a, b, '--json', '--k', '1,2,4', '--store', db)) as Record<string, unknown>;
      return result;
    };
    const fromDirs = await compare(runDir, other);
    assert.ok((fromDirs['differences'] as { lower: number; upper: number }[]).every((d) => d.lower < d.upper), 'a real interval');
    assert.deepEqual(await compare('1', 'other'), fromDirs);
    assert.deepEqual(await compare(runDir, 'other'), fromDirs);
  });

  it('an analysis cached by older code, or with other settings, is computed again', async () => {
    const store = await openResultStore(copyV1Store(dir, 'v1.db'));
    try {
      const run = await store.resolveRun('plus-import');
      const old = (await store.cachedAnalysis(run.id))!.analysis as RunAnalysis;
      assert.equal(old.method, undefined, 'cached by Crucible at 4707476');
      const counts = await store.problemCounts(run.id);
      const fresh = (await analyseRun(store, run, counts))!;
      assert.equal(fresh.method, ANALYSIS_METHOD);
      const report = buildReportData(await loadRunOrStored(String(run.id), store.location));
      assert.deepEqual([report.base.bootstrap.reps, report.base.bootstrap.seed, report.base.bootstrap.confidence], [500, 7, 0.9]);
      assert.deepEqual(bounds(fresh.base.points), bounds(report.base.points));
      assert.deepEqual(bounds(fresh.plus!.points), bounds(report.plus!.points));
      await store.saveAnalysis(run.id, run.doneSamples, { ...fresh, base: { ...fresh.base, bootstrap: { ...fresh.base.bootstrap, seed: 99 } } });
      const recomputed = (await analyseRun(store, run, counts))!;
      assert.equal(recomputed.base.bootstrap.seed, 7);
      assert.equal((await analyseRun(store, run, counts))!.computedMs, recomputed.computedMs, 'a current analysis is read from the cache');
    } finally {
      await store.close();
    }
  });
});

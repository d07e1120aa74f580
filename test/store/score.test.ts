/**
 * Partial credit (`SampleRecord.score`) in the store: written live by `crucible eval` (open-r1 IOI tasks judged
 * for real in the sandbox: a full, a partial and a broken solution), kept through `crucible store import` and
 * `crucible export` (a run directory's records come back as they were written), and shown on the dashboard's
 * run, problem and sample pages (mean score next to the pass rate).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { startDashboard } from '../../src/dashboard/server.js';
import { pct } from '../../src/dashboard/html.js';
import { parseVerdictLines } from '../../src/report/load-run.js';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { openResultStore } from '../../src/store/open.js';
import type { SampleRecord } from '../../src/store/records.js';

const run = promisify(execFile);
const CLI = join(PROJECT_ROOT, 'bin', 'crucible');
const IOI = join(PROJECT_ROOT, 'test', 'fixtures', 'contest');
const dir = mkdtempSync(join(tmpdir(), 'crucible-score-'));
const db = join(dir, 'crucible.db');
const crucible = async (...args: string[]) => (await run(CLI, args, { cwd: dir, maxBuffer: 32 << 20,
  env: { ...process.env, CRUCIBLE_CACHE_DIR: join(dir, 'cache') } })).stdout;
const verdicts = (runDir: string): SampleRecord[] => parseVerdictLines(readFileSync(join(runDir, 'verdicts.jsonl'), 'utf8'), runDir);
const byKey = (records: readonly SampleRecord[]) => [...records].sort((a, b) => a.taskId.localeCompare(b.taskId) || a.sampleIndex - b.sampleIndex);

before(async () => {
  const solution = (name: string) => readFileSync(join(IOI, 'ioi-total', 'solutions', `${name}.cpp`), 'utf8');
  const samples = [solution('correct'), solution('partial'), '#include "total.h"\nlong long total(std::vector<int> a) { return }\n', solution('partial')]
    .map((s) => JSON.stringify({ task_id: '2026/total', solution: s }));
  writeFileSync(join(dir, 'samples.jsonl'), samples.join('\n') + '\n');
  await crucible('eval', '--problems', join(IOI, 'open-r1-ioi.jsonl'), '--samples', join(dir, 'samples.jsonl'), '--out', join(dir, 'ioi'),
    '--store', db, '--no-progress', '--k', '1', '--reps', '100', '--all-tests', '--tasks', '2026/total');
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('partial credit in the store', () => {
  it('is written live by crucible eval and comes back from the store as verdicts.jsonl has it', async () => {
    const written = byKey(verdicts(join(dir, 'ioi')));
    assert.deepEqual(written.map((r) => [r.sampleIndex, r.status, r.score]),
      [[0, 'passed', 1], [1, 'wrong_answer', 0.3], [2, 'compile_error', 0], [3, 'wrong_answer', 0.3]]);
    const store = await openResultStore(db);
    try {
      const [row] = await store.listRuns();
      const stored = byKey(await store.records(row!.id));
      assert.deepEqual(stored.map((r) => r.score), written.map((r) => r.score));
      assert.deepEqual(stored.map((r) => r.tests.map((t) => [t.index, t.status, t.score])), written.map((r) => r.tests.map((t) => [t.index, t.status, t.score])),
        'every test keeps its score, passing tests kept as counts too');
      const [counts] = await store.problemCounts(row!.id);
      assert.deepEqual([counts!.n, counts!.c, counts!.scored], [4, 1, 4]);
      assert.ok(Math.abs(counts!.scoreSum - 1.6) < 1e-12, String(counts!.scoreSum));
    } finally {
      await store.close();
    }
  });

  it('round-trips through crucible store import and crucible export', async () => {
    const source = join(PROJECT_ROOT, 'test', 'fixtures', 'store', 'made-from', 'run-plus');
    await crucible('store', 'import', source, '--name', 'scored-import', '--keep-tests', 'all', '--store', db);
    await crucible('export', 'scored-import', '--out', join(dir, 'exported'), '--store', db);
    const original = byKey(verdicts(source));
    assert.ok(original.some((r) => r.score !== undefined && r.score > 0 && r.score < 1));
    assert.deepEqual(byKey(verdicts(join(dir, 'exported'))), original, 'every field of every record, score included');
    await crucible('export', 'ioi', '--out', join(dir, 'ioi-exported'), '--store', db);
    const live = byKey(verdicts(join(dir, 'ioi')));
    // Passing tests stored as counts come back without their times; each sample's text comes back (store step 8).
    const strip = (r: SampleRecord) => ({ ...r, tests: r.tests.map((t) => (t.status === 'passed' ? { index: t.index, status: t.status, score: t.score } : t)) });
    assert.ok(live.every((r) => typeof r.completion === 'string'), 'eval kept each sample\'s text (--keep-code full)');
    assert.deepEqual(byKey(verdicts(join(dir, 'ioi-exported'))), live.map(strip), 'a live run exports its scores (passing tests as counts)');
  });

  it('shows the mean score next to the pass rate on the run, problem and sample pages', async () => {
    const store = await openResultStore(db);
    const dashboard = await startDashboard({ store, pollMs: 1000 });
    try {
      const runId = (await store.resolveRun('ioi')).id;
      const page = async (path: string): Promise<string> => {
        const response = await fetch(dashboard.url + path);
        assert.equal(response.status, 200, path);
        return response.text();
      };
      const runPage = await page(`runs/${runId}`);
      assert.match(runPage, new RegExp(`mean score <span data-testid="mean-score">${pct(1.6 / 4)}</span>% \\(4 scored samples\\)`));
      assert.match(runPage, /<th data-type="number">mean score \(%\)<\/th>/);
      assert.match(runPage, new RegExp(`data-field="score">${pct(1.6 / 4)}</td>`));
      const problem = await page(`runs/${runId}/problem?task=${encodeURIComponent('2026/total')}`);
      assert.match(problem, /pass rate 25\.00%, mean score <span data-testid="mean-score">40\.00<\/span>% over 4 scored/);
      assert.match(problem, /data-field="score">30\.00<\/td>/);
      const sample = await page(`runs/${runId}/sample?task=${encodeURIComponent('2026/total')}&index=1`);
      assert.match(sample, /<span data-testid="score">30\.00<\/span>%/);
      assert.match(sample, /<span data-testid="test-score">score 0\.00%<\/span>/);
      const plain = await page(`runs/${(await store.resolveRun('scored-import')).id}`);
      assert.match(plain, /mean score/, 'an imported run with scores shows them too');
    } finally {
      await dashboard.close();
      await store.close();
    }
  });
});

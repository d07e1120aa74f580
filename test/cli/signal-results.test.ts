/**
 * tests-quality and elo results in the store (issue #28, item 8): `--store` keeps each result (store step 8,
 * `signal_results`), `crucible store signals` reads them back (list and `--id`), and the dashboard's signals pages show
 * the numbers the commands printed: the hand-made contests' rating and a one-problem HumanEval suite's TPR/TNR.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startDashboard } from '../../src/dashboard/server.js';
import { readProblems } from '../../src/formats/index.js';
import { openResultStore } from '../../src/store/open.js';
import type { SignalResultRow } from '../../src/store/result-store.js';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { cliWorkspace } from '../support/cli.js';
import { HUMANEVAL } from '../support/data.js';

const { dir, crucible, file } = cliWorkspace('signal-results');
const CONTESTS = join(PROJECT_ROOT, 'test', 'fixtures', 'elo', 'hand-contests.json');

describe('signal results in the store', () => {
  it('elo and tests-quality --store keep their results; store signals and the dashboard show them', async () => {
    const db = join(dir, 'store.db');
    const elo = await crucible(['elo', '--contests', CONTESTS, '--json', '--store', db, '--reps', '200']);
    assert.equal(elo.code, 0, elo.stderr);
    const rating = (JSON.parse(elo.stdout) as { rating: { point: number; lower: number; upper: number } }).rating;
    assert.match(elo.stderr, /stored as signal result 1 in /);

    const [problem] = await readProblems(HUMANEVAL);
    const id = problem!.taskId;
    const correct = file('correct.jsonl', [{ task_id: id, completion: (problem as { canonicalSolution: string }).canonicalSolution }]);
    const incorrect = file('incorrect.jsonl', [{ task_id: id, completion: '    return False\n' }, { task_id: id, completion: '    return len(numbers) > 1\n' }]);
    const quality = await crucible(['tests-quality', '--problems', HUMANEVAL, '--correct', correct, '--incorrect', incorrect, '--mutants', '0',
      '--jobs', '2', '--json', '--store', db, '--name', 'he-one']);
    assert.equal(quality.code, 0, quality.stderr);
    const overall = (JSON.parse(quality.stdout) as { overall: { tpr: number; tnr: number } }).overall;
    assert.deepEqual([overall.tpr, overall.tnr], [1, 1]);

    const listed = await crucible(['store', 'signals', '--store', db, '--json']);
    assert.equal(listed.code, 0, listed.stderr);
    const rows = JSON.parse(listed.stdout) as SignalResultRow[];
    assert.deepEqual(rows.map((r) => [r.id, r.kind, r.name]).sort(), [[1, 'elo', 'hand-made'], [2, 'tests-quality', 'he-one']].sort());
    const eloRow = rows.find((r) => r.kind === 'elo')!;
    assert.deepEqual([eloRow.headline['rating'], eloRow.headline['lower'], eloRow.headline['upper'], eloRow.headline['contests']],
      [rating.point, rating.lower, rating.upper, 3]);
    const one = await crucible(['store', 'signals', '--store', db, '--id', '2']);
    assert.equal(one.code, 0, one.stderr);
    assert.deepEqual((JSON.parse(one.stdout) as { result: { overall: unknown } }).result.overall, JSON.parse(quality.stdout).overall);
    const missing = await crucible(['store', 'signals', '--store', db, '--id', '9']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--id 9: no signal result with that id/);

    const store = await openResultStore(db);
    const dashboard = await startDashboard({ store });
    try {
      const url = dashboard.url.replace(/\/$/, '');
      const list = await (await fetch(`${url}/signals`)).text();
      assert.match(list, new RegExp(`<tr data-id="1" data-kind="elo">[^]*?data-field="rating">${rating.point.toFixed(0)}<`));
      assert.match(list, /<tr data-id="2" data-kind="tests-quality">[^]*?data-field="tpr">100\.00<[^]*?data-field="tnr">100\.00</);
      const eloPage = await (await fetch(`${url}/signals/1`)).text();
      assert.match(eloPage, /<tr data-contest="[^"]+">[^]*?data-field="rating">1379\.59/, 'the hand-made cf contest\'s rating (docs/METRICS.md, "Elo")');
      const qualityPage = await (await fetch(`${url}/signals/2`)).text();
      assert.match(qualityPage, new RegExp(`<tr data-task="${id.replace('/', '\\/')}">[^]*?data-field="tpr">100\\.00<`));
      assert.equal((await fetch(`${url}/signals/77`)).status, 404);
    } finally {
      await dashboard.close();
      await store.close();
    }
  });
});

/**
 * A repository task's per-test status map end to end (issue #25, item 7): `crucible eval` (the real CLI) judges
 * three SWE-bench predictions of the tiny test repository in the sandbox (gold, empty, a patch that fixes `mul` but
 * breaks `add`), writes `swe-bench-report.json` and the result store; the dashboard's sample page (HTML) and its
 * JSON (`/api/runs/:id/sample`) give back every FAIL_TO_PASS and PASS_TO_PASS test id with its state, passing
 * tests included although the store keeps those as counts.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { startDashboard } from '../../../src/dashboard/server.js';
import { PROJECT_ROOT } from '../../../src/sandbox/paths.js';
import { openResultStore } from '../../../src/store/open.js';
import { FIXED_MATH, makeTinyRepo, type TinyRepo } from '../../support/tiny-repo.js';

const run = promisify(execFile);
const CLI = join(PROJECT_ROOT, 'bin', 'crucible');
const dir = mkdtempSync(join(tmpdir(), 'crucible-repo-store-'));
const db = join(dir, 'crucible.db');
const TASK = 'tiny__tiny-1';
let tiny: TinyRepo;

/** The three samples' expected maps: [FAIL_TO_PASS, PASS_TO_PASS], in the instance's order. */
const EXPECTED = [
  { status: 'passed', resolved: true, f2p: { 'math > multiplies': 'passed' }, p2p: { 'math > adds': 'passed', keeps: 'passed' } },
  { status: 'wrong_answer', resolved: false, f2p: { 'math > multiplies': 'failed' }, p2p: { 'math > adds': 'passed', keeps: 'passed' } },
  { status: 'wrong_answer', resolved: false, f2p: { 'math > multiplies': 'passed' }, p2p: { 'math > adds': 'failed', keeps: 'passed' } },
];

before(async () => {
  tiny = await makeTinyRepo();
  const breaksAdd = tiny.patchOf({ 'src/math.js': FIXED_MATH.replace('return a + b;', 'return a - b;') });
  const predictions = [tiny.problem.goldPatch, '', breaksAdd]
    .map((patch) => JSON.stringify({ instance_id: TASK, model_name_or_path: 'test', model_patch: patch }));
  writeFileSync(join(dir, 'predictions.jsonl'), `${predictions.join('\n')}\n`);
  await run(CLI, ['eval', '--problems', join(tiny.dir, 'instances.jsonl'), '--format', 'swe-bench', '--samples', join(dir, 'predictions.jsonl'),
    '--out', join(dir, 'run'), '--store', db, '--no-progress', '--k', '1', '--jobs', '2'],
  { cwd: dir, maxBuffer: 32 << 20, env: { ...process.env, CRUCIBLE_CACHE_DIR: join(dir, 'cache') } });
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(tiny.dir, { recursive: true, force: true });
});

describe('a repository task\'s per-test status map through eval, the store and the dashboard', () => {
  it('crucible eval writes the SWE-bench report with resolved ids and every sample\'s test map', () => {
    const report = JSON.parse(readFileSync(join(dir, 'run', 'swe-bench-report.json'), 'utf8')) as {
      resolved_ids: string[]; unresolved_ids: string[]; empty_patch_ids: string[];
      instances: Record<string, { resolved: boolean; test_states: Record<string, string>; tests_status: { FAIL_TO_PASS: { success: string[]; failure: string[] } } }>;
    };
    assert.deepEqual(report.resolved_ids, [TASK]);
    assert.deepEqual(report.unresolved_ids, [`${TASK}#1`, `${TASK}#2`]);
    assert.deepEqual(report.empty_patch_ids, [`${TASK}#1`]);
    const keys = [TASK, `${TASK}#1`, `${TASK}#2`];
    assert.deepEqual(keys.map((k) => report.instances[k]!.test_states), EXPECTED.map((e) => ({ ...e.f2p, ...e.p2p })));
    assert.deepEqual(report.instances[`${TASK}#1`]!.tests_status.FAIL_TO_PASS, { success: [], failure: ['math > multiplies'] });
  });

  it('the dashboard\'s sample JSON and page give every test id with its state', async () => {
    const store = await openResultStore(db);
    const dashboard = await startDashboard({ store, pollMs: 1000 });
    try {
      const runId = (await store.resolveRun('run')).id;
      const info = await store.problemInfo(runId, TASK);
      assert.deepEqual(info?.repositoryTests, { failToPass: ['math > multiplies'], passToPass: ['math > adds', 'keeps'] });
      for (const [index, expected] of EXPECTED.entries()) {
        const query = `?task=${encodeURIComponent(TASK)}&index=${index}`;
        const response = await fetch(`${dashboard.url}api/runs/${runId}/sample${query}`);
        assert.equal(response.status, 200);
        const body = await response.json() as { status: string; testStatusMap?: { resolved: boolean; FAIL_TO_PASS: unknown; PASS_TO_PASS: unknown } };
        assert.equal(body.status, expected.status, `sample ${index}`);
        assert.deepEqual(body.testStatusMap, { resolved: expected.resolved, FAIL_TO_PASS: expected.f2p, PASS_TO_PASS: expected.p2p }, `sample ${index}`);
        const html = await (await fetch(`${dashboard.url}runs/${runId}/sample${query}`)).text();
        const rows = [...html.matchAll(/<tr data-group="(\w+)" data-state="(\w+)"><td>\w+<\/td><td><code data-testid="test-id">([^<]*)<\/code>/g)]
          .map((m) => [m[1], m[3]!.replace(/&gt;/g, '>'), m[2]]);
        assert.deepEqual(rows, [
          ...Object.entries(expected.f2p).map(([id, state]) => ['FAIL_TO_PASS', id, state]),
          ...Object.entries(expected.p2p).map(([id, state]) => ['PASS_TO_PASS', id, state]),
        ], `sample ${index}: the page's map`);
        assert.match(html, new RegExp(`Tests of the instance \\(${expected.resolved ? 'resolved' : 'not resolved'}\\)`));
      }
      const missing = await fetch(`${dashboard.url}api/runs/${runId}/sample?task=${encodeURIComponent(TASK)}&index=9`);
      assert.equal(missing.status, 404);
    } finally {
      await dashboard.close();
      await store.close();
    }
  });
});

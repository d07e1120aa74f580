/**
 * The formal check of verilog designs (`crucible eval --formal`, `SampleRecord.formal`) in the store (step 10,
 * `samples.formal_json`): written live by `crucible eval --store` (a VerilogEval problem judged for real in the
 * sandbox, yosys included: a right design `proven`, a wrong one `refuted`), read back by `records` and `crucible
 * export` as verdicts.jsonl had it, and shown on the dashboard's sample page beside the verdict.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { startDashboard } from '../../src/dashboard/server.js';
import { parseVerdictLines } from '../../src/report/load-run.js';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { openResultStore } from '../../src/store/open.js';
import type { SampleRecord } from '../../src/store/records.js';
import { SHARED_DATA } from '../support/data.js';

const run = promisify(execFile);
const CLI = join(PROJECT_ROOT, 'bin', 'crucible');
const VE = join(SHARED_DATA, 'verilog-eval', 'dataset_spec-to-rtl');
const TASK = 'Prob031_dff';
const dir = mkdtempSync(join(tmpdir(), 'crucible-formal-store-'));
const db = join(dir, 'crucible.db');
const crucible = async (...args: string[]) => (await run(CLI, args, { cwd: dir, maxBuffer: 32 << 20,
  env: { ...process.env, CRUCIBLE_CACHE_DIR: join(dir, 'cache') } })).stdout;
const verdicts = (runDir: string): SampleRecord[] => parseVerdictLines(readFileSync(join(runDir, 'verdicts.jsonl'), 'utf8'), runDir)
  .sort((a, b) => a.sampleIndex - b.sampleIndex);
const design = (body: string): string => `module TopModule(input clk, input d, output reg q);\n  ${body}\nendmodule\n`;

before(async () => {
  const samples = [design('always @(posedge clk) q <= d;'), design('always @(posedge clk) q <= ~d;')]
    .map((solution) => JSON.stringify({ task_id: TASK, solution }));
  writeFileSync(join(dir, 'samples.jsonl'), samples.join('\n') + '\n');
  await crucible('eval', '--problems', VE, '--format', 'verilog-eval', '--tasks', TASK, '--samples', join(dir, 'samples.jsonl'),
    '--out', join(dir, 'formal'), '--store', db, '--no-progress', '--k', '1', '--formal');
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('the formal check in the store', () => {
  it('is written live by crucible eval, read back and exported as verdicts.jsonl has it', async () => {
    const written = verdicts(join(dir, 'formal'));
    assert.deepEqual(written.map((r) => [r.status, r.formal?.result]), [['passed', 'proven'], ['wrong_answer', 'refuted']]);
    const store = await openResultStore(db);
    try {
      const [row] = await store.listRuns();
      const stored = (await store.records(row!.id)).sort((a, b) => a.sampleIndex - b.sampleIndex);
      assert.deepEqual(stored.map((r) => r.formal), written.map((r) => r.formal));
    } finally {
      await store.close();
    }
    await crucible('export', 'formal', '--out', join(dir, 'exported'), '--store', db);
    assert.deepEqual(verdicts(join(dir, 'exported')).map((r) => r.formal), written.map((r) => r.formal));
  });

  it('is shown on the dashboard\'s sample page, and absent where there was none', async () => {
    const store = await openResultStore(db);
    const dashboard = await startDashboard({ store, pollMs: 1000 });
    try {
      const runId = (await store.resolveRun('formal')).id;
      const page = async (index: number): Promise<string> => {
        const response = await fetch(`${dashboard.url}runs/${runId}/sample?task=${TASK}&index=${index}`);
        assert.equal(response.status, 200);
        return response.text();
      };
      assert.match(await page(0), /formal check<\/[^>]+>\s*<[^>]+><span data-testid="formal">proven<\/span>/);
      assert.match(await page(1), /<span data-testid="formal">refuted<\/span> \(bounded check: 20 cycles, [^)]*zero/);
    } finally {
      await dashboard.close();
      await store.close();
    }
  });
});

/**
 * `crucible eval` writes the store by default (here a temp file through --store), with the detail the sample
 * page shows; a resumed eval continues its store run; `--no-store` writes none; `crucible export` writes today's
 * run-directory layout back, and `crucible compare` / `crucible report` give the same figures on the run
 * directory, the store run and the export. Real programs judged in the sandbox (the built-in benchmark).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { parseVerdictLines } from '../../src/report/load-run.js';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { openResultStore } from '../../src/store/open.js';

const run = promisify(execFile);
const CLI = join(PROJECT_ROOT, 'bin', 'crucible');
const dir = mkdtempSync(join(tmpdir(), 'crucible-eval-store-'));
const db = join(dir, 'crucible.db');
const crucible = async (...args: string[]) => (await run(CLI, args, { cwd: dir, maxBuffer: 32 << 20 })).stdout;

before(async () => {
  await crucible('eval', '--out', join(dir, 'bench'), '--store', db, '--no-progress');
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('crucible eval and the store', () => {
  it('stores every sample of the run with its program and what its failing tests showed', async () => {
    const store = await openResultStore(db);
    try {
      const [runRow] = await store.listRuns();
      assert.ok(runRow);
      assert.equal(runRow.name, 'bench');
      assert.equal(runRow.status, 'finished');
      assert.equal(runRow.doneSamples, 40);
      const records = parseVerdictLines(readFileSync(join(dir, 'bench', 'verdicts.jsonl'), 'utf8'), 'verdicts.jsonl');
      const stored = await store.records(runRow.id);
      const key = (r: { taskId: string; sampleIndex: number }) => `${r.taskId}#${r.sampleIndex}`;
      assert.deepEqual(stored.map((r) => [key(r), r.status, r.passed, r.cpuMs]).sort(), records.map((r) => [key(r), r.status, r.passed, r.cpuMs]).sort());
      const run = (await store.getRun(runRow.id))!;
      assert.equal((run.summary as { samples: number }).samples, 40);
      // The default time-limit rule (calibrated: 4 x the reference's CPU time + 200 ms) is part of the run's identity.
      assert.deepEqual(run.options, { timeLimitMs: 1000, memoryLimitKiB: 1048576, outputBytes: 1048576, timeLimitFactor: 4, timeLimitFloorMs: 200 });
      // sum-two's C sample that overflows 32 bits: its failing test's input, expected and actual output.
      const overflow = (await store.samplesOf(runRow.id, 'sum-two')).find((s) => s.status === 'wrong_answer' && s.testsPassed === 2)!;
      const sample = (await store.sample(runRow.id, 'sum-two', overflow.sampleIndex))!;
      assert.match(sample.source ?? '', /scanf\("%d %d"/);
      assert.deepEqual(sample.tests.map((t) => [t.index, t.input, t.expected, t.actual]), [[2, '1000000000000 1\n', '1000000000001\n', '-727379967\n']]);
      assert.ok((sample.memoryKiB ?? 0) > 0);
      const compileError = (await store.samplesOf(runRow.id, 'sum-two')).find((s) => s.status === 'compile_error')!;
      assert.match((await store.sample(runRow.id, 'sum-two', compileError.sampleIndex))!.stderr ?? '', /error/);
    } finally {
      await store.close();
    }
  });

  it('continues its store run when resumed, and --no-store leaves the store alone', async () => {
    await crucible('eval', '--out', join(dir, 'bench'), '--store', db, '--no-progress');
    await crucible('eval', '--out', join(dir, 'other'), '--store', db, '--no-store', '--no-progress');
    const store = await openResultStore(db);
    try {
      const runs = await store.listRuns();
      assert.deepEqual(runs.map((r) => [r.name, r.doneSamples, r.status]), [['bench', 40, 'finished']]);
    } finally {
      await store.close();
    }
  });

  it('exports the run as a run directory that compare and report read like the original', async () => {
    const out = join(dir, 'exported');
    assert.match(await crucible('export', 'bench', '--out', out, '--store', db), /exported run \d+ \(bench\): 40 samples/);
    for (const f of ['run.json', 'verdicts.jsonl', 'summary.json']) assert.ok(existsSync(join(out, f)), f);
    assert.deepEqual(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')), JSON.parse(readFileSync(join(dir, 'bench', 'run.json'), 'utf8')));
    const compare = async (a: string, b: string) => JSON.parse(await crucible('compare', a, b, '--json', '--store', db)) as { differences: unknown; wins: number };
    const original = await compare(join(dir, 'bench'), join(dir, 'bench'));
    const viaStore = await compare(join(dir, 'bench'), 'bench');
    const viaExport = await compare(out, 'bench');
    assert.deepEqual(viaStore.differences, original.differences);
    assert.deepEqual(viaExport.differences, original.differences);
    const report = (ref: string) => crucible('report', ref, '--store', db);
    const [fromDir, fromStore, fromExport] = await Promise.all([report(join(dir, 'bench')), report('bench'), report(out)]);
    const body = (md: string) => md.split('\n').slice(1).join('\n');
    assert.equal(body(fromStore), body(fromDir));
    assert.equal(body(fromExport), body(fromDir));
    await assert.rejects(crucible('export', 'bench', '--out', out, '--store', db), /already holds a run/);
    await assert.rejects(crucible('report', 'no-such-run', '--store', db), /neither a run directory nor a run of the store/);
  });
});

/**
 * TensorBoard export of store runs (`crucible export --format tensorboard|wandb`): the event files' TFRecord framing
 * (lengths, masked CRC-32C), the file-version event, and every scalar and histogram equal to the store's figures, for
 * an eval run (pass@k curve with its interval, verdict counts) and a training run (per step; histograms per column).
 * The files were also read by TensorBoard 2.21's own EventAccumulator when this was written (docs/DASHBOARD.md).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { maskedCrc32c, readEventFile, tfRecord } from '../../src/report/tfevents.js';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { analyseRun } from '../../src/store/analysis.js';
import { openResultStore } from '../../src/store/open.js';
import { seedExportStore } from '../support/export-store.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'crucible-tensorboard-'));
const db = join(dir, 'store.db');
const crucible = async (...args: string[]) => (await run(join(PROJECT_ROOT, 'bin', 'crucible'), [...args, '--store', db])).stdout;
const eventsIn = (folder: string) => readEventFile(readFileSync(join(folder, readdirSync(folder).find((n) => n.startsWith('events.out.tfevents.'))!)));

before(() => seedExportStore(db, 'tb-eval', 'tb-train'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('TensorBoard export', () => {
  it('frames records as TFRecord does: length, masked CRC-32C of it, data, masked CRC-32C of the data', () => {
    // CRC-32C("123456789") = 0xE3069283 (RFC 3720, appendix B.4); masked as tensorflow's record_writer masks it.
    const crc = 0xe3069283;
    assert.equal(maskedCrc32c(Buffer.from('123456789')), ((((crc >>> 15) | (crc << 17)) >>> 0) + 0xa282ead8) >>> 0);
    const record = tfRecord(Buffer.from('abc'));
    assert.equal(record.length, 8 + 4 + 3 + 4);
    assert.equal(record.readBigUInt64LE(0), 3n);
    assert.throws(() => readEventFile(Buffer.concat([record.subarray(0, 13), Buffer.from('X'), record.subarray(14)])), /bad data CRC/);
  });

  it('writes an eval run\'s pass@k curve with its interval and its verdict counts', async () => {
    const out = join(dir, 'eval-tb');
    await crucible('export', 'tb-eval', '--format', 'tensorboard', '--out', out);
    const events = eventsIn(out);
    assert.equal(events[0]!.fileVersion, 'brain.Event:2');
    const store = await openResultStore(db);
    try {
      const r = (await store.resolveRun('tb-eval'));
      const analysis = (await analyseRun(store, r, await store.problemCounts(r.id)))!;
      for (const p of analysis.base.points) {
        const at = events.find((e) => e.step === p.k && e.values.some((v) => v.tag === 'pass@k/base'))!;
        const value = (tag: string) => at.values.find((v) => v.tag === tag)!.simpleValue!;
        assert.ok(Math.abs(value('pass@k/base') - p.passAtK) < 1e-6, `k=${p.k}`);
        assert.ok(Math.abs(value('pass@k/base_lower') - p.lower) < 1e-6 && Math.abs(value('pass@k/base_upper') - p.upper) < 1e-6);
      }
      const start = events.find((e) => e.step === 0 && e.values.some((v) => v.tag === 'verdicts/passed'))!;
      assert.equal(start.values.find((v) => v.tag === 'verdicts/passed')!.simpleValue, 2);
      assert.equal(start.values.find((v) => v.tag === 'verdicts/time_limit_exceeded')!.simpleValue, 1);
      assert.equal(start.values.find((v) => v.tag === 'problems/pass_rate')!.histo!.num, 2);
    } finally {
      await store.close();
    }
  });

  it('writes a training run per step, with reward histograms; wandb adds the run\'s labels', async () => {
    const out = join(dir, 'train-wandb');
    const printed = await crucible('export', 'tb-train', '--training', '--format', 'wandb', '--out', out);
    assert.match(printed, /wandb sync --sync-tensorboard/);
    const events = eventsIn(out);
    const store = await openResultStore(db);
    try {
      const series = await store.trainingSeries((await store.getTrainingRun('tb-train'))!.id);
      for (const b of series.buckets) {
        const e = events.find((x) => x.step === b.bucket && x.values.some((v) => v.tag === 'reward/mean'))!;
        assert.ok(Math.abs(e.values.find((v) => v.tag === 'reward/mean')!.simpleValue! - b.rewardMean) < 1e-6);
        assert.equal(e.values.find((v) => v.tag === 'calls/latency_max_ms')!.simpleValue, 13);
        assert.equal(e.wallTime, b.lastMs / 1000);
      }
      const histograms = events.flatMap((e) => e.values.filter((v) => v.tag === 'reward/histogram').map((v) => v.histo!));
      assert.equal(histograms.reduce((s, h) => s + h.num, 0), 120);
      assert.deepEqual(histograms[0]!.bucketLimit, [0, 1], 'a 0/1 reward: one bucket per value');
    } finally {
      await store.close();
    }
    assert.deepEqual(JSON.parse(readFileSync(join(out, 'crucible-run.json'), 'utf8')).name, 'tb-train');
    await assert.rejects(crucible('export', 'tb-train', '--training', '--format', 'tensorboard', '--out', out), /already holds TensorBoard event files/);
  });
});

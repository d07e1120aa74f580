/**
 * W&B offline runs (`crucible export --format wandb-offline`): the `.wandb` transaction log's file header, LevelDB
 * chunk framing (records split across 32 KiB blocks, zero padding) and W&B's CRC; the records an eval and a training
 * run become (run with labels as config, a history row per step, the summary, the exit). wandb itself is not
 * installable here: besides our reader, the framing is checked by a scan written in Python's standard library from
 * datastore.py's rules (a second reading of the same format, not the same code).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { readWandbLog, WANDB_LOG, wandbChunkCrc, wandbLog, type WandbRecord } from '../../src/report/wandb-offline.js';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { seedExportStore } from '../support/export-store.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'crucible-wandb-'));
const db = join(dir, 'store.db');
const crucible = async (...args: string[]) => (await run(join(PROJECT_ROOT, 'bin', 'crucible'), [...args, '--store', db])).stdout;

/** datastore.py's scan, in Python: header, then chunks (crc, length, type) with W&B's CRC; prints record lengths. */
const PY_SCAN = `
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
assert data[:7] == b':W&B' + struct.pack('<HB', 0xBEE1, 0), 'header'
at, records, cur = 7, [], None
while at < len(data):
    left = 32768 - at % 32768
    if left < 7:
        assert data[at:at + left] == bytes(left), 'padding'
        at += left
        continue
    crc, length, kind = struct.unpack('<IHB', data[at:at + 7])
    body = data[at + 7:at + 7 + length]
    assert zlib.crc32(body, zlib.crc32(bytes([kind]))) & 0xffffffff == crc, 'crc at %d' % at
    if kind in (1, 2):
        assert cur is None
        cur = b''
    cur += body
    if kind in (1, 4):
        records.append(len(cur))
        cur = None
    at += 7 + length
assert cur is None
print(' '.join(map(str, records)))
`;

async function pythonScan(file: string): Promise<number[]> {
  const { stdout } = await run('/usr/bin/python3', ['-c', PY_SCAN, file]);
  return stdout.trim().split(' ').map(Number);
}

function logOf(runDir: string): { file: string; records: WandbRecord[] } {
  const name = readdirSync(runDir).find((n) => n.endsWith('.wandb'))!;
  const file = join(runDir, name);
  return { file, records: readWandbLog(readFileSync(file)) };
}

const items = (list: unknown): Record<string, unknown> =>
  Object.fromEntries((list as { key: string; valueJson: string }[]).map((i) => [i.key, JSON.parse(i.valueJson) as unknown]));

before(() => seedExportStore(db, 'wb-eval', 'wb-train'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('W&B offline export', () => {
  it('frames records as W&B\'s datastore does, splitting a record across blocks', async () => {
    // zlib's CRC-32 of the type byte then the data (Python: zlib.crc32(b'abc', zlib.crc32(b'\\x01')) == 1402806441).
    assert.equal(wandbChunkCrc(1, Buffer.from('abc')), 1_402_806_441);
    const big = 'x'.repeat(3 * WANDB_LOG.blockBytes);
    const bytes = wandbLog({ id: 'abc123', project: 'p', displayName: 'big', tags: [], config: { big }, startTime: 1_700_000_000, events: [
      { step: 0, wallTime: 1_700_000_001, values: [{ tag: 'a', scalar: 0.5 }] },
    ] });
    const records = readWandbLog(bytes);
    assert.equal(records.length, 4, 'run, one history row, summary, exit');
    assert.equal(items((records[0]!['run'] as { config: { update: unknown } }).config.update)['big'], big);
    const file = join(dir, 'big.wandb');
    writeFileSync(file, bytes);
    const lengths = await pythonScan(file);
    assert.equal(lengths.length, 4);
    assert.ok(lengths[0]! > 3 * WANDB_LOG.blockBytes, 'the run record spans four blocks');
    const broken = Buffer.from(bytes);
    broken.writeUInt8(broken.readUInt8(WANDB_LOG.fileHeader.length + 20) ^ 0xff, WANDB_LOG.fileHeader.length + 20);
    assert.throws(() => readWandbLog(broken), /CRC mismatch/);
    assert.throws(() => wandbLog({ id: 'Bad Id', project: 'p', displayName: 'x', tags: [], config: {}, startTime: 0, events: [] }), /run id/);
  });

  it('writes an eval run: its labels as config, pass@k per k as history, the summary and a clean exit', async () => {
    const out = join(dir, 'eval-wb');
    const printed = await crucible('export', 'wb-eval', '--format', 'wandb-offline', '--out', out, '--wandb-project', 'codegen');
    const runDirs = readdirSync(out);
    assert.equal(runDirs.length, 1);
    assert.match(runDirs[0]!, /^offline-run-\d{8}_\d{6}-[0-9a-f]{8}$/);
    assert.match(printed, /wandb sync/);
    const { file, records } = logOf(join(out, runDirs[0]!));
    assert.equal((await pythonScan(file)).length, records.length, 'the Python scan reads as many records');
    const runRecord = records[0]!['run'] as Record<string, unknown>;
    assert.equal(runRecord['project'], 'codegen');
    assert.equal(runRecord['displayName'], 'wb-eval');
    assert.deepEqual(runRecord['tags'], ['t1']);
    assert.equal(runDirs[0]!.endsWith(`-${runRecord['runId'] as string}`), true);
    const config = items((runRecord['config'] as { update: unknown }).update);
    assert.equal(config['kind'], 'eval');
    assert.equal(config['name'], 'wb-eval');
    const history = records.filter((r) => r['history'] !== undefined).map((r) => items((r['history'] as { item: unknown }).item));
    const passAt1 = history.find((h) => h['_step'] === 1)!;
    assert.equal(passAt1['pass@k/base'], 0.5, 'two of four samples pass: pass@1 0.5');
    assert.ok((passAt1['pass@k/base_lower'] as number) <= 0.5 && (passAt1['pass@k/base_upper'] as number) >= 0.5);
    const step0 = history.find((h) => h['_step'] === 0)!;
    assert.equal(step0['verdicts/passed'], 2);
    assert.equal((step0['problems/pass_rate'] as { _type: string })._type, 'histogram');
    const summary = items((records.at(-2)!['summary'] as { update: unknown }).update);
    assert.equal(summary['pass@k/base'], history.at(-1)!['pass@k/base']);
    // proto3 leaves zero fields out: an exit record with exit code 0 and runtime 0 is an empty message.
    const exit = records.at(-1)!['exit'] as { exitCode?: number } | undefined;
    assert.ok(exit !== undefined, 'the log ends with an exit record');
    assert.equal(exit.exitCode ?? 0, 0);
    assert.deepEqual(records.map((r) => r['num']), records.map((_, i) => i + 1));
  });

  it('writes a training run: one history row per step with its reward figures, histograms as W&B histograms', async () => {
    const out = join(dir, 'train-wb');
    await crucible('export', 'wb-train', '--training', '--format', 'wandb-offline', '--out', out);
    const { records } = logOf(join(out, readdirSync(out)[0]!));
    const history = records.filter((r) => r['history'] !== undefined).map((r) => items((r['history'] as { item: unknown }).item));
    const steps = history.map((h) => h['_step']);
    assert.deepEqual(steps.slice(0, 30), Array.from({ length: 30 }, (_, i) => i));
    // step 0: rewards of groups 0..3 are 1, 0, 0, 1 ((step + g) % 3 === 0)
    assert.equal(history[0]!['reward/mean'], 0.5);
    assert.equal(history[0]!['rollouts/count'], 4);
    const withHistogram = history.filter((h) => h['reward/histogram'] !== undefined);
    assert.ok(withHistogram.length > 0, 'reward histograms are in the rows of their steps');
    for (const row of withHistogram) {
      const h = row['reward/histogram'] as { _type: string; values: number[]; bins: number[] };
      assert.equal(h._type, 'histogram');
      assert.equal(h.bins.length, h.values.length + 1);
      assert.equal(typeof row['reward/mean'], 'number', 'one row per step: figures and histogram together');
    }
    assert.equal(items((records[0]!['run'] as { config: { update: unknown } }).config.update)['kind'], 'training');
  });
});

/**
 * A W&B offline run: what `wandb.init(mode="offline")` leaves on disk and `wandb sync DIR` uploads, written from the
 * same summaries as the TensorBoard export (`tensorboard.ts`), so a store run reaches W&B without the wandb package.
 *
 * - Layout (wandb's offline runs): `offline-run-<YYYYMMDD_HHMMSS>-<id>/run-<id>.wandb` plus an empty `files/`.
 * - The `.wandb` file is W&B's transaction log (wandb/wandb `wandb/sdk/internal/datastore.py`): a 7-byte file header
 *   (`:W&B`, magic 0xBEE1 as uint16 LE, version 0), then LevelDB log framing (google/leveldb `doc/log_format.md`):
 *   32 KiB blocks; each chunk is a CRC as uint32 LE, a length as uint16 LE, a type (1 FULL, 2 FIRST, 3 MIDDLE,
 *   4 LAST) and the data; a record that does not fit the block's rest is split FIRST/MIDDLE…/LAST; a block rest
 *   shorter than a chunk header is zero-padded. W&B's CRC is zlib's CRC-32 (IEEE) of the type byte followed by the
 *   data (datastore.py seeds `zlib.crc32` with the type byte's CRC), not LevelDB's masked CRC-32C.
 * - Each chunk sequence holds one `Record` protocol buffer (field numbers from wandb/wandb
 *   `wandb/proto/wandb_internal.proto`): `Record {int64 num = 1; HistoryRecord history = 2; SummaryRecord summary = 3;
 *   ConfigRecord config = 5; RunRecord run = 17; RunExitRecord exit = 18}`; `RunRecord {run_id = 1; project = 3;
 *   ConfigRecord config = 4; display_name = 8; notes = 9; repeated tags = 10; Timestamp start_time = 17}`;
 *   `HistoryRecord {repeated HistoryItem item = 1; HistoryStep step = 2}`, `HistoryStep {int64 num = 1}`; items of
 *   history, summary and config are `{string key = 1; string value_json = 16}`; `RunExitRecord {int32 exit_code = 1;
 *   int32 runtime = 2}`. Encoded by protobufjs.
 * - Records in order: the run (with its config), one history row per step (`_step`, `_timestamp`, `_runtime` and
 *   every value of that step's summary events; a histogram as W&B's `{"_type": "histogram", "values": counts, "bins": edges}`), the summary (each key's last
 *   value) and the exit (code 0). `wandb sync` is not installable here (no PyPI): the file is checked by
 *   `readWandbLog`, written from the same sources, in test/report/wandb-offline.test.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import protobuf from 'protobufjs';
import type { Histogram, SummaryEvent } from './tfevents.js';

const item = { fields: { key: { type: 'string', id: 1 }, valueJson: { type: 'string', id: 16 } } };
const root = protobuf.Root.fromJSON({
  nested: {
    wandb: {
      nested: {
        Record: { fields: {
          num: { type: 'int64', id: 1 }, history: { type: 'HistoryRecord', id: 2 }, summary: { type: 'SummaryRecord', id: 3 },
          config: { type: 'ConfigRecord', id: 5 }, run: { type: 'RunRecord', id: 17 }, exit: { type: 'RunExitRecord', id: 18 },
        } },
        HistoryRecord: { fields: { item: { rule: 'repeated', type: 'HistoryItem', id: 1 }, step: { type: 'HistoryStep', id: 2 } } },
        HistoryItem: item,
        HistoryStep: { fields: { num: { type: 'int64', id: 1 } } },
        SummaryRecord: { fields: { update: { rule: 'repeated', type: 'SummaryItem', id: 1 } } },
        SummaryItem: item,
        ConfigRecord: { fields: { update: { rule: 'repeated', type: 'ConfigItem', id: 1 } } },
        ConfigItem: item,
        RunRecord: { fields: {
          runId: { type: 'string', id: 1 }, project: { type: 'string', id: 3 }, config: { type: 'ConfigRecord', id: 4 },
          displayName: { type: 'string', id: 8 }, notes: { type: 'string', id: 9 }, tags: { rule: 'repeated', type: 'string', id: 10 },
          startTime: { type: 'Timestamp', id: 17 },
        } },
        Timestamp: { fields: { seconds: { type: 'int64', id: 1 }, nanos: { type: 'int32', id: 2 } } },
        RunExitRecord: { fields: { exitCode: { type: 'int32', id: 1 }, runtime: { type: 'int32', id: 2 } } },
      },
    },
  },
});
const RecordType = root.lookupType('wandb.Record');

/** LevelDB log constants as W&B uses them (datastore.py). */
export const WANDB_LOG = { blockBytes: 32_768, chunkHeaderBytes: 7, fileHeader: Buffer.from([0x3a, 0x57, 0x26, 0x42, 0xe1, 0xbe, 0x00]) } as const;
const FULL = 1;
const FIRST = 2;
const MIDDLE = 3;
const LAST = 4;

/** W&B's chunk CRC: zlib CRC-32 of the type byte then the data. */
export function wandbChunkCrc(type: number, data: Uint8Array): number {
  return crc32(data, crc32(Buffer.from([type]))) >>> 0;
}

/** Appends records to a W&B transaction log in memory (framing as the module comment says). */
class LogWriter {
  private readonly parts: Buffer[] = [Buffer.from(WANDB_LOG.fileHeader)];
  private offset: number = WANDB_LOG.fileHeader.length;

  private chunk(type: number, data: Uint8Array): void {
    const head = Buffer.alloc(WANDB_LOG.chunkHeaderBytes);
    head.writeUInt32LE(wandbChunkCrc(type, data), 0);
    head.writeUInt16LE(data.length, 4);
    head.writeUInt8(type, 6);
    this.parts.push(head, Buffer.from(data));
    this.offset += head.length + data.length;
  }

  write(data: Uint8Array): void {
    let left = WANDB_LOG.blockBytes - (this.offset % WANDB_LOG.blockBytes);
    if (left < WANDB_LOG.chunkHeaderBytes) {
      this.parts.push(Buffer.alloc(left));
      this.offset += left;
      left = WANDB_LOG.blockBytes;
    }
    if (data.length + WANDB_LOG.chunkHeaderBytes <= left) {
      this.chunk(FULL, data);
      return;
    }
    let at = left - WANDB_LOG.chunkHeaderBytes;
    this.chunk(FIRST, data.subarray(0, at));
    const room = WANDB_LOG.blockBytes - WANDB_LOG.chunkHeaderBytes;
    while (data.length - at > room) {
      this.chunk(MIDDLE, data.subarray(at, at + room));
      at += room;
    }
    this.chunk(LAST, data.subarray(at));
  }

  bytes(): Buffer {
    return Buffer.concat(this.parts);
  }
}

/** What a W&B run is made of. `config` values and summary values are any JSON. */
export interface WandbRun {
  /** W&B run id: 1–64 of [a-z0-9] (wandb's own are 8). */
  readonly id: string;
  readonly project: string;
  readonly displayName: string;
  readonly tags: readonly string[];
  readonly notes?: string;
  readonly config: Readonly<Record<string, unknown>>;
  /** Epoch seconds. */
  readonly startTime: number;
  readonly events: readonly SummaryEvent[];
}

/** A TensorBoard histogram as W&B's histogram value: counts and the bucket edges (one more than counts). */
function wandbHistogram(h: Histogram): { _type: 'histogram'; values: number[]; bins: number[] } {
  return { _type: 'histogram', values: [...h.bucket], bins: [h.min, ...h.bucketLimit] };
}

/**
 * One history row per step, steps increasing (W&B keeps a row only when its step is above the last one): events of
 * the same step (a training step's figures and its histogram) are one row; a value given twice keeps the later.
 */
function historyRows(run: WandbRun): Record<string, unknown>[] {
  const rows = new Map<number, Record<string, unknown>>();
  for (const event of [...run.events].sort((a, b) => a.step - b.step)) {
    const row = rows.get(event.step) ?? { _step: event.step };
    row['_timestamp'] = Math.max(event.wallTime, (row['_timestamp'] as number | undefined) ?? event.wallTime);
    row['_runtime'] = Math.max(0, (row['_timestamp'] as number) - run.startTime);
    for (const v of event.values) row[v.tag] = 'scalar' in v ? v.scalar : wandbHistogram(v.histogram);
    rows.set(event.step, row);
  }
  return [...rows.values()];
}

const items = (values: Readonly<Record<string, unknown>>): { key: string; valueJson: string }[] =>
  Object.entries(values).map(([key, value]) => ({ key, valueJson: JSON.stringify(value) ?? 'null' }));

/**
 * The bytes of `run`'s `.wandb` transaction log (see the module comment for the records).
 * @throws Error when the run id is not 1–64 characters of [a-z0-9].
 */
export function wandbLog(run: WandbRun): Buffer {
  if (!/^[a-z0-9]{1,64}$/.test(run.id)) throw new Error(`W&B run id must be 1-64 of [a-z0-9], got "${run.id}"`);
  const writer = new LogWriter();
  let num = 0;
  const put = (record: Record<string, unknown>): void => writer.write(RecordType.encode(RecordType.fromObject({ num: ++num, ...record })).finish());
  const seconds = Math.floor(run.startTime);
  put({ run: {
    runId: run.id, project: run.project, displayName: run.displayName, tags: [...run.tags], ...(run.notes === undefined ? {} : { notes: run.notes }),
    config: { update: items(run.config) }, startTime: { seconds, nanos: Math.round((run.startTime - seconds) * 1e9) },
  } });
  const summary: Record<string, unknown> = {};
  for (const row of historyRows(run)) {
    Object.assign(summary, row);
    put({ history: { item: items(row), step: { num: row['_step'] } } });
  }
  put({ summary: { update: items(summary) } });
  const last = run.events.reduce((t, e) => Math.max(t, e.wallTime), run.startTime);
  put({ exit: { exitCode: 0, runtime: Math.round(last - run.startTime) } });
  return writer.bytes();
}

/** `YYYYMMDD_HHMMSS` in UTC, as wandb names run directories. */
function stamp(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().replace(/[-:]/g, '').replace('T', '_').slice(0, 15);
}

/**
 * Write `run` as an offline run directory under `dir` (made when missing).
 * @returns the run directory's path (what `wandb sync` takes).
 * @throws Error as `wandbLog`; the file system's error (the directory is refused when it exists: `wx`).
 */
export function writeWandbOfflineRun(dir: string, run: WandbRun): string {
  const runDir = join(dir, `offline-run-${stamp(run.startTime)}-${run.id}`);
  mkdirSync(join(runDir, 'files'), { recursive: true });
  writeFileSync(join(runDir, `run-${run.id}.wandb`), wandbLog(run), { flag: 'wx' });
  return runDir;
}

/** One decoded record of a `.wandb` log (protobufjs's plain object: int64 as numbers, absent fields left out). */
export type WandbRecord = Record<string, unknown>;

/**
 * Read a `.wandb` log back (for tests and checks): the file header, every chunk's CRC and the FIRST/MIDDLE/LAST
 * order verified, every record decoded.
 * @throws Error naming the offset of the first thing wrong.
 */
export function readWandbLog(bytes: Buffer): WandbRecord[] {
  if (!bytes.subarray(0, WANDB_LOG.fileHeader.length).equals(WANDB_LOG.fileHeader)) throw new Error('not a W&B log: bad file header');
  const out: WandbRecord[] = [];
  let pending: Buffer[] | null = null;
  for (let at = WANDB_LOG.fileHeader.length; at < bytes.length;) {
    const left = WANDB_LOG.blockBytes - (at % WANDB_LOG.blockBytes);
    if (left < WANDB_LOG.chunkHeaderBytes) {
      if (bytes.subarray(at, at + left).some((b) => b !== 0)) throw new Error(`offset ${at}: block padding is not zero`);
      at += left;
      continue;
    }
    const crc = bytes.readUInt32LE(at);
    const length = bytes.readUInt16LE(at + 4);
    const type = bytes.readUInt8(at + 6);
    const data = bytes.subarray(at + WANDB_LOG.chunkHeaderBytes, at + WANDB_LOG.chunkHeaderBytes + length);
    if (data.length !== length || WANDB_LOG.chunkHeaderBytes + length > left) throw new Error(`offset ${at}: chunk overruns its block or the file`);
    if (wandbChunkCrc(type, data) !== crc) throw new Error(`offset ${at}: CRC mismatch`);
    if (type === FULL || type === FIRST) {
      if (pending !== null) throw new Error(`offset ${at}: a record starts before the previous one ended`);
      pending = [];
    } else if (type !== MIDDLE && type !== LAST) throw new Error(`offset ${at}: unknown chunk type ${type}`);
    if (pending === null) throw new Error(`offset ${at}: a continuation without a first chunk`);
    pending.push(Buffer.from(data));
    if (type === FULL || type === LAST) {
      out.push(RecordType.toObject(RecordType.decode(Buffer.concat(pending)), { longs: Number }) as WandbRecord);
      pending = null;
    }
    at += WANDB_LOG.chunkHeaderBytes + length;
  }
  if (pending !== null) throw new Error('the log ends inside a record');
  return out;
}

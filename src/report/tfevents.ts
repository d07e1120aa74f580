/**
 * TensorBoard event files: scalars and histograms as `Event` protocol buffers in TFRecord framing, the format
 * TensorBoard, `tensorboard.backend.event_processing` and `wandb sync --sync-tensorboard` read.
 *
 * - Messages (field numbers from tensorflow/tensorflow `tensorflow/core/util/event.proto` and
 *   `tensorflow/core/framework/summary.proto`): `Event {double wall_time = 1; int64 step = 2; string file_version = 3;
 *   Summary summary = 5}`, `Summary {repeated Value value = 1}`, `Value {string tag = 1; float simple_value = 2;
 *   HistogramProto histo = 5}`, `HistogramProto {double min = 1, max = 2, num = 3, sum = 4, sum_squares = 5;
 *   repeated double bucket_limit = 6 [packed]; repeated double bucket = 7 [packed]}`. Encoded by protobufjs.
 * - Framing (tensorflow `core/lib/io/record_writer.cc`): per record, the length as uint64 little-endian, the masked
 *   CRC-32C of those 8 bytes, the data, the masked CRC-32C of the data; mask(c) = ((c >>> 15) | (c << 17)) +
 *   0xa282ead8 (mod 2^32). CRC-32C by @aws-crypto/crc32c.
 * - The first event of a file carries `file_version: "brain.Event:2"`; files are named
 *   `events.out.tfevents.<unix seconds>.<host>` (TensorBoard finds them by that prefix).
 */
import { crc32c } from '@aws-crypto/crc32c';
import protobuf from 'protobufjs';

const root = protobuf.Root.fromJSON({
  nested: {
    tensorboard: {
      nested: {
        Event: { fields: { wallTime: { type: 'double', id: 1 }, step: { type: 'int64', id: 2 }, fileVersion: { type: 'string', id: 3 }, summary: { type: 'Summary', id: 5 } } },
        Summary: { fields: { value: { rule: 'repeated', type: 'Value', id: 1 } } },
        Value: { fields: { tag: { type: 'string', id: 1 }, simpleValue: { type: 'float', id: 2 }, histo: { type: 'HistogramProto', id: 5 } } },
        HistogramProto: { fields: {
          min: { type: 'double', id: 1 }, max: { type: 'double', id: 2 }, num: { type: 'double', id: 3 }, sum: { type: 'double', id: 4 },
          sumSquares: { type: 'double', id: 5 }, bucketLimit: { rule: 'repeated', type: 'double', id: 6, options: { packed: true } },
          bucket: { rule: 'repeated', type: 'double', id: 7, options: { packed: true } },
        } },
      },
    },
  },
});
const EventType = root.lookupType('tensorboard.Event');

/** A histogram as TensorBoard keeps it: `bucketLimit[i]` is the right edge of bucket i, `bucket[i]` its count. */
export interface Histogram {
  readonly min: number;
  readonly max: number;
  readonly num: number;
  readonly sum: number;
  readonly sumSquares: number;
  readonly bucketLimit: readonly number[];
  readonly bucket: readonly number[];
}

/** One summary value: a scalar or a histogram under a tag ("reward/mean"). */
export type SummaryValue = { readonly tag: string; readonly scalar: number } | { readonly tag: string; readonly histogram: Histogram };

/** One event: values at a step and a time. */
export interface SummaryEvent {
  readonly step: number;
  /** Epoch seconds (fractional). */
  readonly wallTime: number;
  readonly values: readonly SummaryValue[];
}

/** The masked CRC-32C of TFRecord framing. */
export function maskedCrc32c(data: Uint8Array): number {
  const crc = crc32c(data);
  return ((((crc >>> 15) | (crc << 17)) >>> 0) + 0xa282ead8) >>> 0;
}

/** One TFRecord: length, its masked CRC, the data, its masked CRC. */
export function tfRecord(data: Uint8Array): Buffer {
  const head = Buffer.alloc(12);
  head.writeBigUInt64LE(BigInt(data.length), 0);
  head.writeUInt32LE(maskedCrc32c(head.subarray(0, 8)), 8);
  const tail = Buffer.alloc(4);
  tail.writeUInt32LE(maskedCrc32c(data), 0);
  return Buffer.concat([head, data, tail]);
}

function encodeEvent(event: Record<string, unknown>): Uint8Array {
  return EventType.encode(EventType.fromObject(event)).finish();
}

/** The bytes of an event file: the file-version event, then `events` in order. */
export function eventFile(events: readonly SummaryEvent[], startWallTime: number): Buffer {
  const records = [tfRecord(encodeEvent({ wallTime: startWallTime, fileVersion: 'brain.Event:2' }))];
  for (const e of events) {
    const value = e.values.map((v) => ('scalar' in v ? { tag: v.tag, simpleValue: v.scalar } : { tag: v.tag, histo: { ...v.histogram } }));
    records.push(tfRecord(encodeEvent({ wallTime: e.wallTime, step: e.step, summary: { value } })));
  }
  return Buffer.concat(records);
}

/** The event file's name TensorBoard looks for. */
export function eventFileName(startWallTime: number, host: string): string {
  return `events.out.tfevents.${Math.floor(startWallTime)}.${host.replace(/[^\w.-]+/g, '_')}`;
}

/**
 * Read an event file back (for tests and checks): every record's CRCs verified, every event decoded.
 * @throws Error naming the offset of a record whose framing or CRC is wrong.
 */
export function readEventFile(bytes: Buffer): { step: number; wallTime: number; fileVersion?: string; values: { tag: string; simpleValue?: number; histo?: Histogram }[] }[] {
  const out: ReturnType<typeof readEventFile> = [];
  for (let at = 0; at < bytes.length;) {
    if (at + 12 > bytes.length) throw new Error(`event file: a torn record header at byte ${at}`);
    const length = Number(bytes.readBigUInt64LE(at));
    if (bytes.readUInt32LE(at + 8) !== maskedCrc32c(bytes.subarray(at, at + 8))) throw new Error(`event file: bad length CRC at byte ${at}`);
    const data = bytes.subarray(at + 12, at + 12 + length);
    if (bytes.readUInt32LE(at + 12 + length) !== maskedCrc32c(data)) throw new Error(`event file: bad data CRC at byte ${at}`);
    const e = EventType.toObject(EventType.decode(data), { longs: Number, defaults: false }) as {
      wallTime?: number; step?: number; fileVersion?: string; summary?: { value?: { tag: string; simpleValue?: number; histo?: Histogram }[] } };
    out.push({ step: e.step ?? 0, wallTime: e.wallTime ?? 0, ...(e.fileVersion === undefined ? {} : { fileVersion: e.fileVersion }), values: e.summary?.value ?? [] });
    at += 12 + length + 4;
  }
  return out;
}

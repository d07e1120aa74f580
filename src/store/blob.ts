/**
 * Per-test columns stored as one compressed value per sample (`samples.tests`) or program (`programs.detail`):
 * UTF-8 JSON of `{"v":1, <column>: [one value per test], …}`, Brotli-compressed (quality 7) with Node's zlib on
 * its thread pool. Columns of one sample repeat (statuses, "got None", index runs), which Brotli takes to a
 * few percent: on CodeGen-16B's HumanEval+ run a sample's failing tests (hundreds, all reported because wrong
 * answers are found outside the box) went from ~38 KB of JSON to ~2.3 KB.
 */
import { promisify } from 'node:util';
import { brotliCompress, brotliDecompress, constants } from 'node:zlib';

const compress = promisify(brotliCompress);
const decompress = promisify(brotliDecompress);

/** Version of the column encoding. */
export const COLUMNS_VERSION = 1;

/** Columns of equal length, keyed by name. */
export type Columns = Readonly<Record<string, readonly (string | number | null)[]>>;

/** Encode columns (see the module comment). */
export async function encodeColumns(columns: Columns): Promise<Buffer> {
  const text = JSON.stringify({ v: COLUMNS_VERSION, ...columns });
  return compress(Buffer.from(text, 'utf8'), {
    params: { [constants.BROTLI_PARAM_QUALITY]: 7, [constants.BROTLI_PARAM_SIZE_HINT]: text.length },
  });
}

/**
 * Decode what `encodeColumns` wrote.
 * @throws Error when the value is not such an encoding (a damaged store).
 */
export async function decodeColumns(blob: Uint8Array): Promise<Record<string, (string | number | null)[]>> {
  const value = JSON.parse((await decompress(blob)).toString('utf8')) as { v?: unknown } & Record<string, unknown>;
  if (value.v !== COLUMNS_VERSION) throw new Error(`per-test columns: unknown encoding version ${String(value.v)}`);
  const { v: _v, ...columns } = value;
  return columns as Record<string, (string | number | null)[]>;
}

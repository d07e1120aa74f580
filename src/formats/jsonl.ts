/**
 * Line-streaming reader for `.jsonl` and `.jsonl.gz` files.
 *
 * Gzip is recognised by its magic bytes (1f 8b, RFC 1952 §2.3.1), never by the file name, so a gzipped file
 * called `x.jsonl` and a plain file called `x.jsonl.gz` both read correctly. Lines are split on `\n` (a
 * trailing `\r` is dropped); empty and whitespace-only lines are skipped but still counted, so line numbers
 * in errors match what `sed -n Np` shows on the decompressed file.
 *
 * Errors: a line that is not JSON, or that fails the record schema, throws `DatasetError` naming the file,
 * the 1-based line and (for schema failures) the field. I/O errors (missing file, corrupt gzip) propagate
 * as Node errors wrapped in `DatasetError` without a line.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { ZodType, ZodTypeDef } from 'zod';
import { DatasetError, datasetErrorFromZod } from './errors.js';

const GZIP_MAGIC_0 = 0x1f;
const GZIP_MAGIC_1 = 0x8b;

/** True when the file starts with the gzip magic bytes. */
export async function isGzipFile(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const buf = Buffer.alloc(2);
    const { bytesRead } = await handle.read(buf, 0, 2, 0);
    return bytesRead === 2 && buf[0] === GZIP_MAGIC_0 && buf[1] === GZIP_MAGIC_1;
  } finally {
    await handle.close();
  }
}

/** A readable stream of the file's decompressed bytes. */
export async function openDecompressed(path: string): Promise<Readable> {
  const gz = await isGzipFile(path);
  const raw = createReadStream(path);
  if (!gz) return raw;
  const gunzip = createGunzip();
  raw.on('error', (err) => gunzip.destroy(err));
  return raw.pipe(gunzip);
}

/** The whole decompressed file as a UTF-8 string (for whole-document `.json` inputs). */
export async function readDecompressedText(path: string): Promise<string> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of await openDecompressed(path)) chunks.push(chunk as Buffer);
  } catch (err) {
    throw new DatasetError(path, undefined, undefined, `cannot read: ${(err as Error).message}`);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** One non-empty line of a text file, with its 1-based line number. */
export interface NumberedLine {
  readonly line: number;
  readonly text: string;
}

/** Stream the non-empty lines of a (possibly gzipped) text file. */
export async function* readLines(path: string): AsyncGenerator<NumberedLine> {
  let stream: Readable;
  try {
    stream = await openDecompressed(path);
  } catch (err) {
    throw new DatasetError(path, undefined, undefined, `cannot open: ${(err as Error).message}`);
  }
  const rl = createInterface({ input: stream, crlfDelay: Infinity });
  let line = 0;
  try {
    for await (const text of rl) {
      line += 1;
      if (text.trim() === '') continue;
      yield { line, text };
    }
  } catch (err) {
    if (err instanceof DatasetError) throw err;
    throw new DatasetError(path, line + 1, undefined, `cannot read: ${(err as Error).message}`);
  } finally {
    rl.close();
    stream.destroy();
  }
}

/** Parses one line of text into a JS value; throws (any Error) on malformed input. */
export type LineParser = (text: string) => unknown;

/** One validated record with the line it came from. */
export interface JsonlRecord<T> {
  readonly line: number;
  readonly value: T;
}

/**
 * Stream records of a JSONL file, each parsed by `parse` (default `JSON.parse`) and validated by `schema`.
 * Throws `DatasetError` at the first bad line.
 */
export async function* readJsonl<T>(
  path: string,
  schema: ZodType<T, ZodTypeDef, unknown>,
  parse: LineParser = JSON.parse,
): AsyncGenerator<JsonlRecord<T>> {
  for await (const { line, text } of readLines(path)) {
    let raw: unknown;
    try {
      raw = parse(text);
    } catch (err) {
      throw new DatasetError(path, line, undefined, `invalid JSON: ${(err as Error).message}`);
    }
    const result = schema.safeParse(raw);
    if (!result.success) throw datasetErrorFromZod(path, line, result.error);
    yield { line, value: result.data };
  }
}

/** All records of a JSONL file, in file order. */
export async function readJsonlAll<T>(
  path: string,
  schema: ZodType<T, ZodTypeDef, unknown>,
  parse: LineParser = JSON.parse,
): Promise<JsonlRecord<T>[]> {
  const out: JsonlRecord<T>[] = [];
  for await (const rec of readJsonl(path, schema, parse)) out.push(rec);
  return out;
}

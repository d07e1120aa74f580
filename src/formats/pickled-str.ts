/**
 * LiveCodeBench's `private_test_cases` payload: base64 of zlib of a pickle of one Python `str` (the JSON text of
 * the test list), decoded WITHOUT a general unpickler. LiveCodeBench reads it with
 * `json.loads(pickle.loads(zlib.decompress(base64.b64decode(s))))` (lcb_runner/benchmarks/code_generation.py,
 * `CodeGenerationProblem.__post_init__`); unpickling arbitrary data runs arbitrary code, so only the one shape
 * `pickle.dumps(some_str)` writes under protocols 4 and 5 is accepted (Python's `Lib/pickle.py`,
 * `Pickler.save_str` and `_Framer`; PEP 3154 for framing):
 *
 *   PROTO (0x80) <4|5>
 *   [FRAME (0x95) <u64 LE n>]                       (absent when the string is too big to frame)
 *   SHORT_BINUNICODE (0x8c) <u8 len> | BINUNICODE (0x58) <u32 LE len> | BINUNICODE8 (0x8d) <u64 LE len>, UTF-8 bytes
 *   [MEMOIZE (0x94)]
 *   STOP (0x2e), and nothing after it.
 *
 * A frame must hold exactly the opcodes it announces. Anything else (another protocol, another opcode, a
 * container, a global, trailing bytes, invalid UTF-8) is refused with `PickledStrError` saying what was found at
 * which byte offset.
 */
import { inflateSync } from 'node:zlib';

/** The payload is not the one accepted shape; the message says what and where. */
export class PickledStrError extends Error {
  override readonly name = 'PickledStrError';
}

const PROTO = 0x80;
const FRAME = 0x95;
const SHORT_BINUNICODE = 0x8c;
const BINUNICODE = 0x58;
const BINUNICODE8 = 0x8d;
const MEMOIZE = 0x94;
const STOP = 0x2e;

function hex(byte: number | undefined): string {
  return byte === undefined ? 'end of data' : `0x${byte.toString(16).padStart(2, '0')}`;
}

function readLength(bytes: Buffer, at: number, width: 1 | 4 | 8): number {
  if (at + width > bytes.length) throw new PickledStrError(`truncated length at byte ${at}`);
  if (width === 1) return bytes[at]!;
  if (width === 4) return bytes.readUInt32LE(at);
  const n = bytes.readBigUInt64LE(at);
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new PickledStrError(`length ${n} at byte ${at} is too large`);
  return Number(n);
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The string a protocol 4/5 pickle of one `str` holds. @throws PickledStrError for any other pickle.
 */
export function unpickleStr(bytes: Buffer): string {
  if (bytes[0] !== PROTO) throw new PickledStrError(`expected PROTO (0x80) at byte 0, found ${hex(bytes[0])}`);
  const protocol = bytes[1];
  if (protocol !== 4 && protocol !== 5) throw new PickledStrError(`pickle protocol ${protocol ?? '(missing)'} is not accepted (only 4 and 5)`);
  let at = 2;
  let frameEnd: number | undefined;
  if (bytes[at] === FRAME) {
    const n = readLength(bytes, at + 1, 8);
    at += 9;
    frameEnd = at + n;
  }
  const op = bytes[at];
  const width = op === SHORT_BINUNICODE ? 1 : op === BINUNICODE ? 4 : op === BINUNICODE8 ? 8 : undefined;
  if (width === undefined) {
    throw new PickledStrError(`expected a str opcode (SHORT_BINUNICODE, BINUNICODE, BINUNICODE8) at byte ${at}, found ${hex(op)}: only a pickled str is accepted`);
  }
  const length = readLength(bytes, at + 1, width);
  const start = at + 1 + width;
  if (start + length > bytes.length) throw new PickledStrError(`the str at byte ${at} announces ${length} bytes, only ${bytes.length - start} remain`);
  let text: string;
  try {
    text = fatalUtf8.decode(bytes.subarray(start, start + length));
  } catch {
    throw new PickledStrError(`the str at byte ${at} is not valid UTF-8`);
  }
  at = start + length;
  if (bytes[at] === MEMOIZE) at++;
  if (bytes[at] !== STOP) throw new PickledStrError(`expected STOP (0x2e) at byte ${at}, found ${hex(bytes[at])}`);
  at++;
  if (frameEnd !== undefined && frameEnd !== at) throw new PickledStrError(`the frame ends at byte ${frameEnd}, the pickle at byte ${at}`);
  if (at !== bytes.length) throw new PickledStrError(`${bytes.length - at} bytes after STOP`);
  return text;
}

/**
 * Most bytes one payload may inflate to (256 MiB). zlib stops as soon as its output passes this
 * (`maxOutputLength`), so a bomb (1.4 MB inflating to 1 GiB) costs at most this much memory before it is refused;
 * the limit sits at half V8's largest string (2^29 - 24 characters), so a payload under it can still become the
 * JSON text it holds.
 */
export const MAX_INFLATED_BYTES = 256 << 20;

/**
 * LiveCodeBench's encoding: base64 -> zlib -> pickled str, inflating at most `maxBytes` (default
 * `MAX_INFLATED_BYTES`). @throws PickledStrError (bad base64, zlib or pickle; a payload that inflates past
 * `maxBytes`, saying so).
 */
export function decodeCompressedPickledStr(base64: string, maxBytes: number = MAX_INFLATED_BYTES): string {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64.trim())) throw new PickledStrError('not base64');
  let inflated: Buffer;
  try {
    inflated = inflateSync(Buffer.from(base64, 'base64'), { maxOutputLength: maxBytes });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new PickledStrError(`inflates to more than ${maxBytes} bytes (${base64.length} base64 characters): refused as a zlib bomb`);
    }
    throw new PickledStrError(`not zlib data: ${(err as Error).message}`);
  }
  return unpickleStr(inflated);
}

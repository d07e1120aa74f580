/**
 * Dataset hash: lowercase hex sha256 of the problem file's decompressed bytes, so that the same data gzipped
 * or not (or gzipped with another level) hashes the same. Stamped into results (EvalPlus does the same with
 * md5 of its dataset file, `get_human_eval_plus_hash`). Errors: `DatasetError` when the file cannot be read.
 */
import { createHash } from 'node:crypto';
import { DatasetError } from './errors.js';
import { openDecompressed } from './jsonl.js';

export async function datasetHash(path: string): Promise<string> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of await openDecompressed(path)) hash.update(chunk as Buffer);
  } catch (err) {
    throw new DatasetError(path, undefined, undefined, `cannot read: ${(err as Error).message}`);
  }
  return hash.digest('hex');
}

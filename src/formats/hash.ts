/**
 * Dataset hash: lowercase hex sha256 of the problem file's decompressed bytes, so that the same data gzipped
 * or not (or gzipped with another level) hashes the same. Stamped into results (EvalPlus does the same with
 * md5 of its dataset file, `get_human_eval_plus_hash`). A dataset that is a folder (VerilogEval's, RTLLM's, a
 * MultiPL-E directory) hashes every regular file under it, in code-point order of their relative paths: each
 * path, a NUL, its byte length, a NUL, then its decompressed bytes.
 * Errors: `DatasetError` when the file or folder cannot be read.
 */
import { createHash, type Hash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DatasetError } from './errors.js';
import { openDecompressed } from './jsonl.js';

async function addFile(hash: Hash, path: string): Promise<void> {
  for await (const chunk of await openDecompressed(path)) hash.update(chunk as Buffer);
}

/** Every regular file under `root`, as paths relative to it, in code-point order. */
async function filesUnder(root: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(join(root, prefix), { withFileTypes: true });
  const out: string[] = [];
  for (const e of entries) {
    const rel = prefix === '' ? e.name : `${prefix}/${e.name}`;
    if (e.isDirectory()) out.push(...await filesUnder(root, rel));
    else if (e.isFile()) out.push(rel);
  }
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The dataset hash of a problem file or folder (module comment). @throws DatasetError. */
export async function datasetHash(path: string): Promise<string> {
  const hash = createHash('sha256');
  try {
    if ((await stat(path)).isDirectory()) {
      for (const rel of await filesUnder(path)) {
        const file = join(path, rel);
        hash.update(`${rel}\0${(await stat(file)).size}\0`);
        await addFile(hash, file);
      }
    } else {
      await addFile(hash, path);
    }
  } catch (err) {
    throw new DatasetError(path, undefined, undefined, `cannot read: ${(err as Error).message}`);
  }
  return hash.digest('hex');
}

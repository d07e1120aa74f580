/**
 * Dataset hash: lowercase hex sha256 of the problem file's decompressed bytes, so that the same data gzipped
 * or not (or gzipped with another level) hashes the same. Stamped into results (EvalPlus does the same with
 * md5 of its dataset file, `get_human_eval_plus_hash`). A directory (MultiPL-E completion files, the proof layouts)
 * hashes as the sha256 of `<relative path>\0<sha256 of its decompressed bytes>\n` over every
 * regular file below it, in code-point order of the paths (`/`-separated): the same files give the same hash
 * wherever the directory is. Errors: `DatasetError` when a file cannot be read.
 */
import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DatasetError } from './errors.js';
import { openDecompressed } from './jsonl.js';

/** sha256 (hex) of one file's decompressed bytes. */
async function fileHash(path: string): Promise<string> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of await openDecompressed(path)) hash.update(chunk as Buffer);
  } catch (err) {
    throw new DatasetError(path, undefined, undefined, `cannot read: ${(err as Error).message}`);
  }
  return hash.digest('hex');
}

/** Regular files below `dir`, as `/`-separated paths relative to it, sorted by code point. */
async function filesBelow(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) out.push(...await filesBelow(dir, relative));
    else if (entry.isFile()) out.push(relative);
  }
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The dataset hash of a problem file or directory (module comment). @throws DatasetError when unreadable. */
export async function datasetHash(path: string): Promise<string> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(path)).isDirectory();
  } catch (err) {
    throw new DatasetError(path, undefined, undefined, `cannot read: ${(err as Error).message}`);
  }
  if (!isDirectory) return fileHash(path);
  const hash = createHash('sha256');
  for (const relative of await filesBelow(path)) hash.update(`${relative}\0${await fileHash(join(path, relative))}\n`);
  return hash.digest('hex');
}

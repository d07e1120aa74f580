/**
 * Dataset hash: lowercase hex sha256 of the problem file's decompressed bytes, so that the same data gzipped
 * or not (or gzipped with another level) hashes the same. Stamped into results (EvalPlus does the same with
 * md5 of its dataset file, `get_human_eval_plus_hash`). Errors: `DatasetError` when the file cannot be read.
 */
import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DatasetError } from './errors.js';
import { openDecompressed } from './jsonl.js';

/** Files under `dir`, recursively, as paths relative to it, in code-unit order. */
async function filesUnder(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of (await readdir(join(dir, prefix), { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) out.push(...await filesUnder(dir, rel));
    else if (entry.isFile()) out.push(rel);
  }
  return out;
}

/**
 * The hash of a dataset file; of a directory (an EvalPlus sample folder, MultiPL-E files), sha256 over its files in
 * path order, each as its relative path, a NUL, and the sha256 of its decompressed bytes.
 */
export async function datasetHash(path: string): Promise<string> {
  const hash = createHash('sha256');
  if ((await stat(path).catch(() => undefined))?.isDirectory() === true) {
    for (const rel of await filesUnder(path)) hash.update(`${rel}\0${await datasetHash(join(path, rel))}\n`);
    return hash.digest('hex');
  }
  try {
    for await (const chunk of await openDecompressed(path)) hash.update(chunk as Buffer);
  } catch (err) {
    throw new DatasetError(path, undefined, undefined, `cannot read: ${(err as Error).message}`);
  }
  return hash.digest('hex');
}

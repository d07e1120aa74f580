/**
 * Dataset hash: lowercase hex sha256 of the problem file's decompressed bytes, so that the same data gzipped
 * or not (or gzipped with another level) hashes the same. Stamped into results (EvalPlus does the same with
 * md5 of its dataset file, `get_human_eval_plus_hash`); a folder (proof layouts) hashes its files (`folderHash`). Errors: `DatasetError` when the file cannot be read.
 */
import { createHash } from 'node:crypto';
import { DatasetError } from './errors.js';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { openDecompressed } from './jsonl.js';

/**
 * The hash of a problem folder (DafnyBench, coq-art, SMT-LIB layouts): sha256 over each file's path relative to
 * the folder (sorted, `/`-separated), a NUL, its byte length, a NUL and its bytes, so a renamed or changed file
 * changes it.
 */
async function folderHash(root: string): Promise<string> {
  const hash = createHash('sha256');
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => relative(root, join(e.parentPath ?? e.path, e.name))).sort();
  for (const file of files) {
    const bytes = await readFile(join(root, file));
    hash.update(`${file.split('\\').join('/')}\0${bytes.length}\0`).update(bytes);
  }
  return hash.digest('hex');
}

export async function datasetHash(path: string): Promise<string> {
  const hash = createHash('sha256');
  try {
    if ((await stat(path)).isDirectory()) return await folderHash(path);
    for await (const chunk of await openDecompressed(path)) hash.update(chunk as Buffer);
  } catch (err) {
    throw new DatasetError(path, undefined, undefined, `cannot read: ${(err as Error).message}`);
  }
  return hash.digest('hex');
}

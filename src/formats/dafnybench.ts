/**
 * DafnyBench (sun-wendy/DafnyBench) as published -> `DafnyProofProblem`s (judged by the `proof` kind with the
 * Dafny checker, `src/kinds/proof/`).
 *
 * Layout (the repository's `DafnyBench/dataset/`): `hints_removed/<name>_no_hints.dfy` is a task (the program with
 * loop invariants, assertions and other hints removed; a candidate puts hints back), `ground_truth/<name>.dfy`
 * its verified original. One problem per `hints_removed` file: `taskId` `<name>`, `statement` the hints-removed
 * program, `reference` the ground truth when there is one (the audit reads the contracts from it). A ground truth
 * without a hints-removed twin is not a task and is left out, as DafnyBench's own evaluation leaves it out.
 * The path may be the repository root, its `DafnyBench/dataset` folder, or any folder holding `hints_removed/`.
 * Errors: `DatasetError` naming the path when no `hints_removed` folder is found or it holds no `.dfy` file.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { DatasetError } from './errors.js';
import type { DafnyProofProblem } from './types.js';

const HINTS_SUFFIX = '_no_hints.dfy';

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

/** The folder holding `hints_removed/` and `ground_truth/` under `root`, or null. */
export async function dafnyBenchDatasetDir(root: string): Promise<string | null> {
  for (const dir of [root, path.join(root, 'dataset'), path.join(root, 'DafnyBench', 'dataset')]) {
    if (await isDirectory(path.join(dir, 'hints_removed'))) return dir;
  }
  return null;
}

/** Read DafnyBench's layout under `root` (see the module comment), tasks in name order. */
export async function readDafnyBench(root: string): Promise<DafnyProofProblem[]> {
  const dir = await dafnyBenchDatasetDir(root);
  if (dir === null) throw new DatasetError(root, undefined, undefined, 'no DafnyBench layout here: expected a hints_removed/ folder (or DafnyBench/dataset/hints_removed/)');
  const names = (await readdir(path.join(dir, 'hints_removed'))).filter((n) => n.endsWith(HINTS_SUFFIX)).sort();
  if (names.length === 0) throw new DatasetError(path.join(dir, 'hints_removed'), undefined, undefined, `no *${HINTS_SUFFIX} file`);
  const hasGroundTruth = await isDirectory(path.join(dir, 'ground_truth'));
  const problems: DafnyProofProblem[] = [];
  for (const name of names) {
    const taskId = name.slice(0, -HINTS_SUFFIX.length);
    const statement = await readFile(path.join(dir, 'hints_removed', name), 'utf8');
    const reference = hasGroundTruth ? await readOptional(path.join(dir, 'ground_truth', `${taskId}.dfy`)) : undefined;
    problems.push(reference === undefined
      ? { kind: 'proof', checker: 'dafny', taskId, statement }
      : { kind: 'proof', checker: 'dafny', taskId, statement, reference });
  }
  return problems;
}

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

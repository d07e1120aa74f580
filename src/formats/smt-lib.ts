/**
 * SMT-LIB 2 benchmarks with a declared status -> `SmtProofProblem`s (judged by the `proof` kind with an SMT
 * solver, `src/kinds/proof/`). A file or a folder (searched recursively, paths in name order) of `.smt2` files,
 * each declaring its answer with `(set-info :status sat)` or `(set-info :status unsat)`, as the SMT-LIB library
 * and the solvers' regression suites do (../shared/data/smt-lib is cvc5's).
 *
 * One problem per file: `taskId` its path relative to the folder, `expected` the declared status, `solver` z3,
 * `statement` the file (a candidate must keep its declarations, assertions and check; for `unsat`, add no
 * assertion).
 * Errors: `DatasetError` naming a file without a `sat`/`unsat` status, or a folder without `.smt2` files.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { DatasetError } from './errors.js';
import type { SmtProofProblem } from './types.js';

async function smt2Files(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...await smt2Files(full));
    else if (entry.isFile() && entry.name.endsWith('.smt2')) out.push(full);
  }
  return out;
}

/** The status a script declares (`(set-info :status ...)` outside comments), or null. */
export function declaredStatus(text: string): 'sat' | 'unsat' | 'unknown' | null {
  for (const raw of text.split('\n')) {
    const line = raw.replace(/;.*$/, '');
    const m = /\(\s*set-info\s+:status\s+(sat|unsat|unknown)\s*\)/.exec(line);
    if (m !== null) return m[1] as 'sat' | 'unsat' | 'unknown';
  }
  return null;
}

/** Read the problems under `root` (see the module comment). */
export async function readSmtLib(root: string): Promise<SmtProofProblem[]> {
  const isDir = (await stat(root)).isDirectory();
  const files = isDir ? await smt2Files(root) : [root];
  if (files.length === 0) throw new DatasetError(root, undefined, undefined, 'no .smt2 file');
  const problems: SmtProofProblem[] = [];
  for (const file of files) {
    const text = await readFile(file, 'utf8');
    const status = declaredStatus(text);
    if (status !== 'sat' && status !== 'unsat') {
      throw new DatasetError(file, undefined, undefined, `no (set-info :status sat|unsat) (found ${status ?? 'none'})`);
    }
    const taskId = isDir ? path.relative(root, file) : path.basename(file);
    problems.push({ kind: 'proof', checker: 'smt', taskId, expected: status, solver: 'z3', statement: text });
  }
  return problems;
}

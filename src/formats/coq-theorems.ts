/**
 * Coq proof problems from a folder of solution files and a `theorems.jsonl` index -> `CoqProofProblem`s (judged
 * by the `proof` kind with the Coq checker, `src/kinds/proof/`). The layout of ../shared/data/coq-art:
 * `theorems.jsonl` rows `{file, kind, name, ...}` name the statements to prove (`file` relative to the folder),
 * and each `file` is a solution that compiles alone with `coqc`.
 *
 * One problem per file, in file order of first appearance: `taskId` the file path without `.v`, `theorems` the
 * row names (module-qualified when the file declares them inside a `Module`), `reference` the solution, and
 * `statement` the solution with each listed theorem's proof replaced by `Admitted.` (`statementFromSolution`):
 * what a model is shown.
 * Errors: `DatasetError` (file, line, field) for a bad row, a file that cannot be read or split into sentences,
 * and a theorem name the file does not declare.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { CoqLexError, declaredNames, statementFromSolution } from './coq-vernacular.js';
import { DatasetError } from './errors.js';
import { readJsonlAll } from './jsonl.js';
import type { CoqProofProblem } from './types.js';

const RowSchema = z.object({
  file: z.string().min(1).refine((f) => !f.startsWith('/') && !f.split('/').includes('..'), 'must be a relative path inside the folder'),
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_']*$/, 'must be a Coq identifier'),
}).passthrough();

/** The `theorems.jsonl` of `root` (a folder, or the index file itself). */
async function indexPath(root: string): Promise<string> {
  return (await stat(root)).isDirectory() ? path.join(root, 'theorems.jsonl') : root;
}

/** Read the problems (see the module comment). */
export async function readCoqTheorems(root: string): Promise<CoqProofProblem[]> {
  const index = await indexPath(root);
  const dir = path.dirname(index);
  const rows = await readJsonlAll(index, RowSchema);
  const byFile = new Map<string, { line: number; names: string[] }>();
  for (const { line, value } of rows) {
    const entry = byFile.get(value.file) ?? { line, names: [] };
    entry.names.push(value.name);
    byFile.set(value.file, entry);
  }
  const problems: CoqProofProblem[] = [];
  for (const [file, { line, names }] of byFile) {
    let solution: string;
    try {
      solution = await readFile(path.join(dir, file), 'utf8');
    } catch (error) {
      throw new DatasetError(index, line, 'file', `cannot read ${file}: ${(error as Error).message}`);
    }
    problems.push(coqProblem(index, line, file, solution, names));
  }
  return problems;
}

function coqProblem(index: string, line: number, file: string, solution: string, names: readonly string[]): CoqProofProblem {
  try {
    const declared = declaredNames(solution).statements;
    const theorems = names.map((name) => {
      const qualified = declared.find((d) => d === name || d.endsWith(`.${name}`));
      if (qualified === undefined) throw new DatasetError(index, line, 'name', `${file} declares no statement ${name}`);
      return qualified;
    });
    const statement = statementFromSolution(solution, names);
    return { kind: 'proof', checker: 'coq', taskId: file.replace(/\.v$/, ''), statement, reference: solution, theorems };
  } catch (error) {
    if (error instanceof CoqLexError) throw new DatasetError(path.join(path.dirname(index), file), error.line, undefined, error.message);
    throw error;
  }
}

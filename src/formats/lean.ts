/**
 * Lean 4 theorem statements -> `LeanProofProblem` (the `proof` kind's `lean` checker, judged on the operator's
 * kimina-lean-server-compatible endpoint: `src/kinds/proof/lean/`).
 *
 * File: JSONL (gzip ok), one problem per line, in either of two shapes:
 * - Crucible's: `{"task_id", "checker": "lean", "statement", "theorems"?, "allowed_axioms"?, "prompt"?}`: `statement`
 *   is the whole Lean file with the theorems stated and their proofs `sorry` (what the candidate must keep);
 *   `checker` is what `--format auto` recognises (optional with `--format lean`).
 * - The miniF2F-in-Lean-4 rows DeepSeek-Prover and Kimina-Prover publish (`{name, formal_statement, header?, ...}`,
 *   other fields ignored): `formal_statement` is the theorem up to its proof (`... := by`), `header` the imports and
 *   options before it. The statement file is `header + formal_statement` with the proof `sorry`; the prompt (what a
 *   completion continues) is `header + formal_statement` as given.
 * The task id is `task_id`, else `name`, else `id`. `theorems` default to the names declared by `theorem`/`lemma`
 * at the start of a line of the statement (comments removed); at least one is required. `allowed_axioms` default to
 * Lean's three (`propext`, `Classical.choice`, `Quot.sound`).
 * Errors: `DatasetError` with file, line and field (a missing statement, no theorem, a duplicate task id).
 */
import { z } from 'zod';
import { DatasetError } from './errors.js';
import { readJsonlAll } from './jsonl.js';
import type { LeanProofProblem } from './types.js';

const text = z.string();
const LeanRowSchema = z.object({
  task_id: text.min(1).optional(), name: text.min(1).optional(), id: z.union([text.min(1), z.number()]).optional(),
  statement: text.min(1).optional(), formal_statement: text.min(1).optional(), header: text.optional(),
  theorems: z.array(text.min(1)).min(1).optional(), allowed_axioms: z.array(text.min(1)).optional(), prompt: text.optional(),
}).passthrough();

/** Lean source without comments (`--` to the end of the line, nested `/- -/`); strings are not special here. */
function withoutComments(source: string): string {
  let out = '';
  let depth = 0;
  for (let i = 0; i < source.length; i++) {
    if (source.startsWith('/-', i)) { depth++; i++; continue; }
    if (depth > 0 && source.startsWith('-/', i)) { depth--; i++; continue; }
    if (depth > 0) { if (source[i] === '\n') out += '\n'; continue; }
    if (source.startsWith('--', i)) { while (i < source.length && source[i] !== '\n') i++; out += '\n'; continue; }
    out += source[i];
  }
  return out;
}

/** The names declared by `theorem`/`lemma` at the start of a line (after attributes and `private`/`protected`). */
export function leanTheoremNames(statement: string): string[] {
  const names = [...withoutComments(statement).matchAll(/^(?:@\[[^\]\n]*\]\s*)?(?:(?:private|protected)\s+)?(?:theorem|lemma)\s+([^\s:({[]+)/gm)];
  return names.map((m) => m[1]!);
}

/** `formal_statement` with its proof `sorry`: `:= by` ends with ` sorry`, a bare statement gets `:= by sorry`. */
function sorried(formal: string): string {
  const body = formal.trimEnd();
  if (/:=\s*by$/.test(body)) return `${body}\n  sorry\n`;
  if (/:=$/.test(body)) return `${body} by\n  sorry\n`;
  return `${body}\n`;
}

/** Read a Lean statements file (see the module comment). @throws DatasetError */
export async function readLeanStatements(path: string): Promise<LeanProofProblem[]> {
  const seen = new Set<string>();
  const problems: LeanProofProblem[] = [];
  for (const { line, value: row } of await readJsonlAll(path, LeanRowSchema)) {
    const taskId = row.task_id ?? row.name ?? (row.id === undefined ? undefined : String(row.id));
    if (taskId === undefined) throw new DatasetError(path, line, 'task_id', 'a task id is required (task_id, name or id)');
    if (seen.has(taskId)) throw new DatasetError(path, line, 'task_id', `duplicate task id "${taskId}"`);
    seen.add(taskId);
    const header = row.header ?? '';
    const joined = (body: string): string => (header === '' || header.endsWith('\n') ? header + body : `${header}\n${body}`);
    const statement = row.statement ?? (row.formal_statement === undefined ? undefined : joined(sorried(row.formal_statement)));
    if (statement === undefined) throw new DatasetError(path, line, 'statement', 'a statement is required (statement, or formal_statement with header)');
    const theorems = row.theorems ?? leanTheoremNames(statement);
    if (theorems.length === 0) throw new DatasetError(path, line, 'theorems', 'no theorem: the statement declares none at the start of a line and no theorems are given');
    const prompt = row.prompt ?? (row.statement === undefined && row.formal_statement !== undefined ? joined(row.formal_statement) : undefined);
    problems.push({ kind: 'proof', checker: 'lean', taskId, statement, theorems,
      ...(row.allowed_axioms === undefined ? {} : { allowedAxioms: row.allowed_axioms }), ...(prompt === undefined ? {} : { prompt }) });
  }
  if (problems.length === 0) throw new DatasetError(path, undefined, undefined, 'no problems: the file is empty');
  return problems;
}

/**
 * HumanEval-X as published (THUDM/CodeGeeX, read from ../shared/data, never copied into the tree), and the
 * helper that judges canonical solutions through the real submission path, shared by the acceptance test and
 * `npm run bench:humaneval-x`.
 */
import { join } from 'node:path';
import { datasetHash, readProblems } from '../../src/formats/index.js';
import type { Problem } from '../../src/formats/types.js';
import type { Judge } from '../../src/judge/judge.js';
import { defaultModes } from '../../src/kinds/index.js';
import { prepareSubmission } from '../../src/judge/submission.js';
import type { LanguageRegistry } from '../../src/languages/registry.js';
import type { Verdict } from '../../src/verdict/index.js';
import { SHARED_DATA } from './data.js';

/** Directory of `humaneval_<lang>.jsonl.gz`. */
export const HUMANEVAL_X_DIR = join(SHARED_DATA, 'humaneval-x');

/** The HumanEval-X files Crucible judges, by their file suffix. */
export const HUMANEVAL_X_LANGUAGES = ['cpp', 'go', 'java', 'js', 'python', 'rust'] as const;

/** Path of one language's file. */
export function humanEvalXPath(suffix: string): string {
  return join(HUMANEVAL_X_DIR, `humaneval_${suffix}.jsonl.gz`);
}

/** Judge `completion(problem)` for each problem, registered as the dataset at `path`; verdicts in order. */
export async function judgeCompletions(judge: Judge, languages: LanguageRegistry, path: string, problems: readonly Problem[],
  completion: (problem: Problem) => string): Promise<Verdict[]> {
  const hash = await datasetHash(path);
  judge.catalog.add(hash, problems);
  const modes = defaultModes();
  return Promise.all(problems.map((p) => {
    const prepared = prepareSubmission(p, { completion: completion(p) }, { languages, modes });
    if (prepared.kind !== 'program') throw new Error(`${p.taskId}: no program`);
    return judge.judge({ problem: { datasetHash: hash, taskId: p.taskId }, program: prepared.program });
  }));
}

/** A problem's canonical solution (the completion the dataset ships). @throws Error when it has none. */
export function canonicalCompletion(problem: Problem): string {
  if ((problem.kind === 'script' || problem.kind === 'unit_test') && problem.canonicalSolution !== undefined) return problem.canonicalSolution;
  throw new Error(`${problem.taskId} has no canonical solution`);
}

/**
 * A broken completion: the canonical solution with its body removed, only its closing braces kept (Python:
 * `return None`), i.e. a function that returns nothing useful — under CodeGeeX's C++ flags (no -O2) a function
 * that falls off its end, a compile error in Go and Java, `undefined` in JavaScript.
 * @throws Error when the problem has no canonical solution.
 */
export function brokenCompletion(problem: Problem): string {
  const canonical = canonicalCompletion(problem);
  if (problem.kind === 'unit_test') return '    return None\n';
  const lines = canonical.replace(/\s+$/, '').split('\n');
  let first = lines.length;
  while (first > 0 && /^\s*\}\s*$/.test(lines[first - 1]!)) first--;
  return `${lines.slice(first).join('\n')}\n`;
}

/** Read one language's problems. */
export function readHumanEvalX(suffix: string): Promise<Problem[]> {
  return readProblems(humanEvalXPath(suffix), 'humaneval-x');
}

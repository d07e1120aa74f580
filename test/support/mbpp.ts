/**
 * MBPP as published (google-research `mbpp/mbpp.jsonl`, read from ../shared/data, never copied into the tree),
 * and the solutions the acceptance test and `npm run bench:mbpp` judge: each task's reference `code`, and that
 * code broken on purpose (an early `return None`).
 */
import { join } from 'node:path';
import type { Problem } from '../../src/formats/types.js';
import { SHARED_DATA } from './data.js';

/** The published MBPP file (974 tasks). */
export const MBPP_PATH = join(SHARED_DATA, 'mbpp', 'mbpp.jsonl.gz');

/** A task's reference solution (`code`). @throws Error for a problem that is not an MBPP one. */
export function mbppReference(problem: Problem): string {
  if (problem.kind !== 'python_script' || problem.canonicalSolution === undefined) throw new Error(`${problem.taskId}: no code`);
  return problem.canonicalSolution;
}

/**
 * The reference with `return None` as the first statement of its first top-level function (before the first
 * body line that is not blank or a comment, with that line's indentation).
 */
export function mbppEarlyReturn(problem: Problem): string {
  const lines = mbppReference(problem).split('\n');
  const def = lines.findIndex((l) => /^def .*:\s*(#.*)?\r?$/.test(l));
  const body = lines.findIndex((l, i) => i > def && l.trim() !== '' && !l.trim().startsWith('#'));
  if (def < 0 || body < 0) throw new Error(`${problem.taskId}: no top-level function with a body`);
  const indent = /^[ \t]*/.exec(lines[body]!)![0];
  return [...lines.slice(0, body), `${indent}return None`, ...lines.slice(body)].join('\n');
}

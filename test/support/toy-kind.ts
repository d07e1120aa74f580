/** What every toy kind of the tests shares: whole programs, in Python unless the submission names a language. */
import type { ProblemBase } from '../../src/formats/types.js';

/**
 * The parts of a toy `JudgingMode` that say which problems it judges and how its programs are taken: `kind`,
 * `description`, `testCount`, and whole programs (`assemble` keeps the code) in the requested language or Python.
 */
export function toyKind<P extends ProblemBase>(kind: P['kind'], description: string, testCount: (problem: P) => number): {
  readonly kind: string; readonly description: string; readonly testCount: (problem: P) => number;
  readonly language: (problem: P, requested: string | undefined) => string; readonly assemble: (problem: P, code: string) => string;
} {
  return { kind, description, testCount, language: (_problem, requested) => requested ?? 'python', assemble: (_problem, code) => code };
}

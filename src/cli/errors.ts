/**
 * CLI-level error reporting: known errors (bad input, missing isolation, unknown language) become one clear
 * line and exit code 2; anything else is a bug and shows its stack.
 */
import { IsolationUnavailableError } from '../sandbox/index.js';
import { LanguageFileError, UnknownLanguageError } from '../languages/registry.js';

/** An error caused by the user's input (flags, files); printed without a stack. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

const KNOWN: readonly (new (...args: never[]) => Error)[] = [UsageError, IsolationUnavailableError, UnknownLanguageError, LanguageFileError];

/** Register an error class (e.g. a dataset error) to be reported as a one-line user error. */
export function registerUserError(kind: new (...args: never[]) => Error): void {
  (KNOWN as (new (...args: never[]) => Error)[]).push(kind);
}

/** Print an error for a human and return the process exit code. */
export function reportError(error: unknown): number {
  if (error instanceof Error && KNOWN.some((kind) => error instanceof kind)) {
    process.stderr.write(`crucible: ${error.message}\n`);
    return 2;
  }
  process.stderr.write(`crucible: internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  return 1;
}

/**
 * CLI-level error reporting: known errors (bad input, missing isolation, unknown language, a file that is not
 * there or cannot be read) become one clear line and exit code 2; anything else is a bug and shows its stack.
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

/** What a file-system error code means, for the codes a path given by the user causes. */
const FILE_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory, not a file',
  ENOTDIR: 'a part of the path is not a directory',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many symbolic links',
};

/** `PATH: what is wrong` for a file-system error on a path (Node's `SystemError` with `code` and `path`), else undefined. */
function fileErrorLine(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, path } = error as NodeJS.ErrnoException;
  if (typeof path !== 'string' || code === undefined || !(code in FILE_ERRORS)) return undefined;
  return `${path}: ${FILE_ERRORS[code]}`;
}

/** Print an error for a human and return the process exit code. */
export function reportError(error: unknown): number {
  if (error instanceof Error && KNOWN.some((kind) => error instanceof kind)) {
    process.stderr.write(`crucible: ${error.message}\n`);
    return 2;
  }
  const file = fileErrorLine(error);
  if (file !== undefined) {
    process.stderr.write(`crucible: ${file}\n`);
    return 2;
  }
  process.stderr.write(`crucible: internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  return 1;
}

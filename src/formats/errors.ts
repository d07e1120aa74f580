/**
 * DatasetError: the one error every dataset or sample reader throws for bad input. It always names the file,
 * and, when the fault is tied to one line of a JSONL file, the 1-based line number and the field path.
 *
 * Message shape (stable; tests and users grep for it):
 *   `<file>:<line>: field "<path>": <detail>`   (JSONL, a field is wrong)
 *   `<file>:<line>: <detail>`                   (JSONL, the line itself is wrong, e.g. not JSON)
 *   `<file>: field "<path>": <detail>`          (whole-document JSON)
 *   `<file>: <detail>`                          (file-level problems: empty file, unknown format)
 * `<file>` is the path exactly as the caller gave it.
 */
import type { ZodError, ZodIssue } from 'zod';

export class DatasetError extends Error {
  override readonly name = 'DatasetError';
  readonly file: string;
  /** 1-based line number in the decompressed file, when the fault is on one line. */
  readonly line: number | undefined;
  /** Field path such as `completion` or `plus_input[3][0]`, when the fault is in one field. */
  readonly field: string | undefined;
  readonly detail: string;

  constructor(file: string, line: number | undefined, field: string | undefined, detail: string) {
    const where = line === undefined ? file : `${file}:${line}`;
    super(field === undefined ? `${where}: ${detail}` : `${where}: field "${field}": ${detail}`);
    this.file = file;
    this.line = line;
    this.field = field;
    this.detail = detail;
  }
}

/** `["plus_input", 3, 0]` -> `plus_input[3][0]`. */
export function formatFieldPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? part : `.${part}`;
  }
  return out;
}

function describeIssue(issue: ZodIssue): string {
  if (issue.code === 'invalid_type') {
    return issue.received === 'undefined'
      ? `expected ${issue.expected}, field is missing`
      : `expected ${issue.expected}, got ${issue.received}`;
  }
  return issue.message;
}

/** Turn the first issue of a zod failure into a DatasetError at `file:line`. */
export function datasetErrorFromZod(file: string, line: number | undefined, error: ZodError): DatasetError {
  const issue = error.issues[0];
  if (issue === undefined) return new DatasetError(file, line, undefined, 'invalid record');
  const field = issue.path.length > 0 ? formatFieldPath(issue.path) : undefined;
  return new DatasetError(file, line, field, describeIssue(issue));
}

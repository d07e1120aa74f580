/** Body validation: one zod schema per route, and a 400 that names the first offending field. */
import type { z } from 'zod';
import { ServiceError } from './errors.js';

/** `["items", 3, "tests", 0, "output"]` -> `items[3].tests[0].output`; the empty path is `body`. */
export function fieldPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? part : `.${part}`;
  }
  return out === '' ? 'body' : out;
}

/** Parse `body` with `schema` or throw `invalid_body` naming the field (message `field: reason`). */
export function parseBody<S extends z.ZodTypeAny>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data as z.output<S>;
  const issue = parsed.error.issues[0]!;
  // For an unrecognized key the offending field is the key itself, not its parent object.
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : issue.path;
  const field = fieldPath(path);
  throw new ServiceError('invalid_body', `${field}: ${issue.message}`, field);
}

/**
 * A YAML file validated by a zod schema, with errors that name the file, the line of the offending field and the
 * field's path (`DatasetError`). An empty file reads as an empty mapping (as PyYAML's `safe_load` gives None,
 * which problemtools treats as `{}`).
 */
import { readFileSync } from 'node:fs';
import { isMap, parseDocument, type Node as YamlNode } from 'yaml';
import type { ZodType, ZodTypeDef } from 'zod';
import { DatasetError } from './errors.js';

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** The deepest node on `path` below `root`. */
function nodeAt(root: YamlNode | null, path: readonly PropertyKey[]): YamlNode | null {
  let node: YamlNode | null = root;
  for (const key of path) {
    if (node === null || !('get' in node) || typeof (node as { get: unknown }).get !== 'function') return node;
    const next = (node as unknown as { get(k: unknown, keepScalar: boolean): unknown }).get(key, true);
    if (next === undefined || next === null || typeof next !== 'object') return node;
    node = next as YamlNode;
  }
  return node;
}

/**
 * Parse and validate the YAML file at `path` (its text `text`, read here when not given).
 * @throws DatasetError naming file, line and field for a syntax error, a document that is not a mapping, or a
 * value the schema refuses; for an unreadable file, naming the file.
 */
export function readYamlFile<T>(path: string, schema: ZodType<T, ZodTypeDef, unknown>, text?: string): T {
  let source: string;
  try {
    source = text ?? readFileSync(path, 'utf8');
  } catch (err) {
    throw new DatasetError(path, undefined, undefined, `cannot read: ${(err as Error).message}`);
  }
  const doc = parseDocument(source, { prettyErrors: false });
  if (doc.errors.length > 0) {
    const first = doc.errors[0]!;
    throw new DatasetError(path, lineOf(source, first.pos[0]), undefined, `YAML syntax error: ${first.message}`);
  }
  if (doc.contents !== null && !isMap(doc.contents)) throw new DatasetError(path, 1, undefined, 'expected a mapping');
  const parsed = schema.safeParse(doc.contents === null ? {} : doc.toJS());
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const node = nodeAt(doc.contents, issue.path);
    const line = node?.range ? lineOf(source, node.range[0]) : undefined;
    throw new DatasetError(path, line, issue.path.length > 0 ? issue.path.join('.') : undefined, issue.message);
  }
  return parsed.data;
}

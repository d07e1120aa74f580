/**
 * Where repositories' code is, as users say it: `owner/name=PATH` (`--repo-source`, the server's `repoSources`),
 * PATH being a git bundle (recognised by its signature), a git directory (bare, or a work tree with `.git`), or a
 * directory holding the tree.
 */
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RepositorySource } from '../../formats/types.js';

/** A source that cannot be used (no such path, a file that is not a bundle, a malformed entry). */
export class SourceError extends Error {
  override readonly name = 'SourceError';
}

/** The shape of one entry: `owner/name=PATH`. */
export const REPO_SOURCE_PATTERN = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+=.+$/;

/** The kind of source at `path`. @throws SourceError */
export function sourceAt(path: string): RepositorySource {
  const at = resolve(path);
  if (!existsSync(at)) throw new SourceError(`${path}: no such file or directory`);
  if (statSync(at).isFile()) {
    const fd = openSync(at, 'r');
    const head = Buffer.alloc(20);
    readSync(fd, head, 0, 20, 0);
    closeSync(fd);
    const text = head.toString('latin1');
    if (!text.startsWith('# v2 git bundle') && !text.startsWith('# v3 git bundle')) throw new SourceError(`${path}: a file that is not a git bundle`);
    return { kind: 'bundle', path: at };
  }
  if (existsSync(join(at, '.git')) || (existsSync(join(at, 'HEAD')) && existsSync(join(at, 'objects')))) return { kind: 'git', path: at };
  return { kind: 'dir', path: at };
}

/** Sources by repository from `owner/name=PATH` entries (a later entry for a repository wins). @throws SourceError */
export function parseRepoSources(entries: readonly string[]): Map<string, RepositorySource> {
  const out = new Map<string, RepositorySource>();
  for (const entry of entries) {
    if (!REPO_SOURCE_PATTERN.test(entry)) throw new SourceError(`expected owner/name=PATH, got "${entry}"`);
    const at = entry.indexOf('=');
    out.set(entry.slice(0, at), sourceAt(entry.slice(at + 1)));
  }
  return out;
}

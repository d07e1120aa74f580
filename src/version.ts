/** Crucible's version, read once from package.json (a leaf: the CLI, the MCP server and the HTTP routes report it). */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PROJECT_ROOT } from './paths.js';

export const CRUCIBLE_VERSION: string = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** The code a run was made with: the package version and, in a git checkout, the commit and its branch. */
export interface CodeVersion {
  readonly version: string;
  /** Full commit hash of HEAD, when the project is a git checkout (absent in an npm install or a tarball). */
  readonly commit?: string;
  readonly branch?: string;
}

/** The git directory of the checkout at `root` (`.git`, or the one a worktree's `.git` file points at), if any. */
function gitDir(root: string): string | undefined {
  const dotGit = join(root, '.git');
  if (!existsSync(dotGit)) return undefined;
  if (statSync(dotGit).isDirectory()) return dotGit;
  const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'));
  return pointer === null ? undefined : resolve(root, pointer[1]!.trim());
}

/** The commit a ref names, from its loose file or from `packed-refs` (of the worktree's common directory too). */
function readRef(dirs: readonly string[], ref: string): string | undefined {
  for (const dir of dirs) {
    const loose = join(dir, ref);
    if (existsSync(loose)) return readFileSync(loose, 'utf8').trim();
  }
  for (const dir of dirs) {
    const packed = join(dir, 'packed-refs');
    if (!existsSync(packed)) continue;
    const line = readFileSync(packed, 'utf8').split('\n').find((l) => l.endsWith(` ${ref}`));
    if (line !== undefined) return line.split(' ')[0];
  }
  return undefined;
}

let codeVersionCache: CodeVersion | undefined;

/**
 * Crucible's version and git commit, read from the files git keeps (`HEAD`, the ref it names, `packed-refs`; a
 * worktree's `commondir`), without running git. Never throws: anything unreadable leaves the commit out.
 */
export function codeVersion(): CodeVersion {
  if (codeVersionCache !== undefined) return codeVersionCache;
  let found: CodeVersion = { version: CRUCIBLE_VERSION };
  try {
    const dir = gitDir(PROJECT_ROOT);
    if (dir !== undefined) {
      const common = existsSync(join(dir, 'commondir')) ? resolve(dir, readFileSync(join(dir, 'commondir'), 'utf8').trim()) : dir;
      const head = readFileSync(join(dir, 'HEAD'), 'utf8').trim();
      const ref = /^ref:\s*(.+)$/.exec(head)?.[1];
      const commit = ref === undefined ? head : readRef([dir, common], ref);
      if (commit !== undefined && /^[0-9a-f]{40,64}$/.test(commit)) {
        found = { version: CRUCIBLE_VERSION, commit, ...(ref === undefined ? {} : { branch: ref.replace(/^refs\/heads\//, '') }) };
      }
    }
  } catch {
    // A checkout git can read but we cannot: the version alone.
  }
  codeVersionCache = found;
  return found;
}

/**
 * The command-line options of repository tasks, shared by `eval`, `repo`, `worker` and `serve`: where each
 * repository's code is (`--repo-source owner/name=PATH`, repeatable) and the registry installs may reach
 * (`--registry`), and the `repository` environment provider they make for a judge.
 */
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { RepositoryEnvironments } from '../environments/repository/provider.js';
import type { RepositorySource } from '../formats/types.js';
import type { EnvironmentProvider } from '../judge/environment.js';
import type { Sandbox } from '../sandbox/index.js';

/** What the options give. */
export interface RepoFlags {
  readonly repoSource?: readonly string[];
  readonly registry?: string;
}

/** The kind of source at `path`: a git bundle (its signature), a git directory (bare or a work tree), else a tree. */
export function sourceAt(path: string): RepositorySource {
  const at = resolve(path);
  if (!existsSync(at)) throw new InvalidArgumentError(`${path}: no such file or directory`);
  if (statSync(at).isFile()) {
    const fd = openSync(at, 'r');
    const head = Buffer.alloc(20);
    readSync(fd, head, 0, 20, 0);
    closeSync(fd);
    if (!head.toString('latin1').startsWith('# v2 git bundle') && !head.toString('latin1').startsWith('# v3 git bundle')) {
      throw new InvalidArgumentError(`${path}: a file that is not a git bundle`);
    }
    return { kind: 'bundle', path: at };
  }
  if (existsSync(join(at, '.git')) || (existsSync(join(at, 'HEAD')) && existsSync(join(at, 'objects')))) return { kind: 'git', path: at };
  return { kind: 'dir', path: at };
}

/** Parse one `owner/name=PATH` (commander's collector). */
export function collectRepoSource(value: string, previous: readonly string[] = []): string[] {
  if (!/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+=.+$/.test(value)) throw new InvalidArgumentError(`expected owner/name=PATH, got "${value}"`);
  return [...previous, value];
}

/** The sources given on the command line, by repository. @throws InvalidArgumentError */
export function repoSources(flags: RepoFlags): Map<string, RepositorySource> {
  const out = new Map<string, RepositorySource>();
  for (const entry of flags.repoSource ?? []) {
    const at = entry.indexOf('=');
    out.set(entry.slice(0, at), sourceAt(entry.slice(at + 1)));
  }
  return out;
}

/** Add `--repo-source` and `--registry` to a command. */
export function addRepoOptions(command: Command): Command {
  return command
    .option('--repo-source <repo=path>', 'where a repository\'s code is, for repository tasks: owner/name=PATH (a git directory, bundle or tree); repeatable',
      collectRepoSource)
    .option('--registry <url>', 'package registry a repository\'s install may reach (default https://registry.npmjs.org/)');
}

/**
 * The judge's environment providers for these flags (`createJudge({environments})`): repositories under
 * `<cacheDir>/repository/`. `instanceSources`: whether an instance's own `source` may be used (local dataset files:
 * yes; requests from the network: no).
 */
export function repositoryEnvironments(flags: RepoFlags, cacheDir: string, instanceSources: boolean,
  log?: (line: string) => void): (sandbox: Sandbox) => readonly EnvironmentProvider[] {
  const sources = repoSources(flags);
  return (sandbox) => [new RepositoryEnvironments({
    sandbox, cacheDir, sources, instanceSources, ...(flags.registry === undefined ? {} : { registry: flags.registry }),
    ...(log === undefined ? {} : { log }),
  })];
}

/**
 * The command-line options of repository tasks, shared by `eval`, `repo`, `worker` and `serve`: where each
 * repository's code is (`--repo-source owner/name=PATH`, repeatable) and the registry installs may reach
 * (`--registry`), and the `repository` environment provider they make for a judge.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { RepositoryEnvironments } from '../environments/repository/provider.js';
import { parseRepoSources, REPO_SOURCE_PATTERN, SourceError } from '../environments/repository/sources.js';
import type { RepositorySource } from '../formats/types.js';
import type { EnvironmentProvider } from '../judge/environment.js';
import type { Sandbox } from '../sandbox/index.js';

/** What the options give. */
export interface RepoFlags {
  readonly repoSource?: readonly string[];
  readonly registry?: string;
}

/** Parse one `owner/name=PATH` (commander's collector). */
export function collectRepoSource(value: string, previous: readonly string[] = []): string[] {
  if (!REPO_SOURCE_PATTERN.test(value)) throw new InvalidArgumentError(`expected owner/name=PATH, got "${value}"`);
  return [...previous, value];
}

/** The sources given on the command line, by repository. @throws InvalidArgumentError */
export function repoSources(flags: RepoFlags): Map<string, RepositorySource> {
  try {
    return parseRepoSources(flags.repoSource ?? []);
  } catch (error) {
    if (error instanceof SourceError) throw new InvalidArgumentError(error.message);
    throw error;
  }
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

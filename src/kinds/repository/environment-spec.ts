/**
 * The prepared environment a repository instance needs, as plan data (`EnvironmentRef.spec`, provider
 * `repository`): which repository at which base commit, from which source, and how its dependencies are installed.
 * The provider (`src/environments/repository/`) validates it with `RepositoryEnvironmentSpecSchema` and prepares one
 * directory per base commit and one per (repository, lockfile, install command).
 */
import { z } from 'zod';
import type { RepositoryProblem, RepositorySource } from '../../formats/types.js';

/** The name of the repository environment provider. */
export const REPOSITORY_ENVIRONMENT = 'repository';

/** See the module comment. `source` is the instance's own, if it names one (a provider may be told others). */
export interface RepositoryEnvironmentSpec {
  readonly repo: string;
  readonly baseCommit: string;
  readonly source?: RepositorySource;
  readonly installCmd: string;
  readonly installScripts: boolean;
}

/** zod schema of a spec (a plan's data is checked again where it is used). */
export const RepositoryEnvironmentSpecSchema = z.object({
  repo: z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/),
  baseCommit: z.string().regex(/^[0-9a-f]{40}$/),
  source: z.object({ kind: z.enum(['git', 'bundle', 'dir']), path: z.string().min(1) }).strict().optional(),
  installCmd: z.string().min(1),
  installScripts: z.boolean(),
}).strict();

/** The environment spec of an instance. */
export function environmentSpec(problem: RepositoryProblem): RepositoryEnvironmentSpec {
  return {
    repo: problem.repo, baseCommit: problem.baseCommit, installCmd: problem.installCmd, installScripts: problem.installScripts,
    ...(problem.source === undefined ? {} : { source: problem.source }),
  };
}

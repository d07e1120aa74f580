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

/**
 * See the module comment. `source` is the instance's own, if it names one (a provider may be told others).
 * `warm`: run the instance's tests once at the base commit with its test patch when preparing, and keep what they
 * leave in `WARM_DIR` (a test runner's transform cache, e.g. jest's under `$TMPDIR`) as a third layer, so a
 * judgement does not pay for the cold start every time; the judgement's driver sets `TMPDIR` to `WARM_TMPDIR`.
 */
export interface RepositoryEnvironmentSpec {
  readonly repo: string;
  readonly baseCommit: string;
  readonly source?: RepositorySource;
  readonly installCmd: string;
  readonly installScripts: boolean;
  /** `memoryKiB`: the warm-up's memory limit when the instance sets one (`memory_limit_kib`); else the warm-up's default. */
  readonly warm?: { readonly testPatch: string; readonly testCommand: string; readonly memoryKiB?: number };
}

/** The directory of the repository (relative to its root) that the warm layer keeps; excluded from its git. */
export const WARM_DIR = '.crucible';
/** `TMPDIR` of the tests in a prepared repository at `/testbed`: inside the warm layer's directory. */
export const WARM_TMPDIR = `/testbed/${WARM_DIR}/tmp`;

/** zod schema of a spec (a plan's data is checked again where it is used). */
export const RepositoryEnvironmentSpecSchema = z.object({
  repo: z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/),
  baseCommit: z.string().regex(/^[0-9a-f]{40}$/),
  source: z.object({ kind: z.enum(['git', 'bundle', 'dir']), path: z.string().min(1) }).strict().optional(),
  installCmd: z.string().min(1),
  installScripts: z.boolean(),
  warm: z.object({ testPatch: z.string(), testCommand: z.string().min(1), memoryKiB: z.number().int().positive().optional() }).strict().optional(),
}).strict();

/**
 * The environment spec of an instance, warmed by its own test command (`testCommand`: the instance's, with its
 * files and a report path substituted) unless `warm` is false, under the instance's memory limit when it sets one
 * (the warm-up runs the same tests as a judgement, so it needs the memory a judgement is given).
 */
export function environmentSpec(problem: RepositoryProblem, testCommand?: string): RepositoryEnvironmentSpec {
  return {
    repo: problem.repo, baseCommit: problem.baseCommit, installCmd: problem.installCmd, installScripts: problem.installScripts,
    ...(problem.source === undefined ? {} : { source: problem.source }),
    ...(testCommand === undefined ? {} : { warm: { testPatch: problem.testPatch, testCommand,
      ...(problem.memoryLimitKiB === undefined ? {} : { memoryKiB: problem.memoryLimitKiB }) } }),
  };
}

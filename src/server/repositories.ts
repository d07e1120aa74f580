/**
 * Repository problems on a server: where their code is (`repoSources`), and `repository` sessions bound to the
 * server's loaded repository problems (`/v1/sessions`, the MCP session tools): prepared by the server's
 * `RepositoryEnvironments`, judged by its judge. A session task is `{problem: <instance id>, reward?}` with reward
 * `binary` (default: 1 when resolved), `score` (the fraction of FAIL_TO_PASS tests passed) or `patch_similarity`
 * (SWE-RL's similarity of the submitted patch to the gold patch, `src/kinds/repository/similarity.ts`).
 */
import { execFileSync } from 'node:child_process';
import { z } from 'zod';
import type { RepositoryEnvironments } from '../environments/repository/provider.js';
import { parseRepoSources } from '../environments/repository/sources.js';
import type { RepositoryProblem, RepositorySource } from '../formats/types.js';
import { judgementEnvironment } from '../kinds/repository/repository.js';
import { patchSimilarity } from '../kinds/repository/similarity.js';
import { sessionTestCommand } from '../kinds/repository/driver.js';
import { SessionError } from '../sessions/index.js';
import type { RepositoryBackend, RepositoryTask } from '../sessions/environments/repository.js';
import { verdictWithoutTests, type DetailedVerdict } from '../verdict/index.js';
import type { ServerContext } from './context.js';

/** The sources of a server's config (`owner/name=PATH` entries). @throws SourceError at start-up. */
export function repositorySources(entries: readonly string[]): Map<string, RepositorySource> {
  return parseRepoSources(entries);
}

const TaskSchema = z.object({
  problem: z.string().min(1).describe('Id of a loaded repository problem (its instance_id).'),
  reward: z.enum(['binary', 'score', 'patch_similarity']).default('binary'),
}).strict();

/** The commit a prepared tree's one-commit repository holds (git on the host, on Crucible's own tree). */
function baseRevision(tree: string): string {
  return execFileSync('/usr/bin/git', ['-C', tree, 'rev-parse', 'HEAD'], {
    encoding: 'utf8', env: { PATH: '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', HOME: '/nonexistent' },
  }).trim();
}

/** What the agent is told first: the problem statement and the actions. */
function summaryOf(problem: RepositoryProblem): string {
  return `repository session: ${problem.repo} at ${problem.baseCommit.slice(0, 12)}, checked out at /testbed (task ${problem.taskId}).\n`
    + 'Actions: {"kind": "shell", "command"}; {"kind": "view", "path", "view_range"?}; {"kind": "create", "path", "file_text"}; '
    + '{"kind": "str_replace", "path", "old_str", "new_str"}; {"kind": "insert", "path", "insert_line", "new_str"}; '
    + '{"kind": "run_tests"} (the repository\'s tests as they are now); {"kind": "submit"} (your changes are judged on hidden tests).\n\n'
    + problem.statement;
}

/**
 * `repository` tasks bound to the context's loaded repository problems (see the module comment). Without a
 * `RepositoryEnvironments` (a server judging on a queue's fleet) repository sessions are refused.
 */
export function repositoryBackend(ctx: ServerContext): RepositoryBackend {
  return (task: unknown): RepositoryTask => {
    const parsed = TaskSchema.safeParse(task ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = ['task', ...issue.path].join('.');
      throw new SessionError('invalid_task', `${field}: ${issue.message}`, field);
    }
    const loaded = ctx.service.problems.get(parsed.data.problem);
    if (loaded === undefined || loaded.problem.kind !== 'repository') {
      throw new SessionError('invalid_task', `task.problem: no repository problem "${parsed.data.problem}" is loaded`, 'task.problem');
    }
    const repositories = ctx.repositories;
    if (repositories === null) throw new SessionError('invalid_task', 'environment: this server prepares no repositories (it judges on a queue\'s fleet)', 'environment');
    const problem = loaded.problem;
    const rewardKind = parsed.data.reward;
    return {
      summary: summaryOf(problem),
      testCommand: sessionTestCommand(problem.testCmd, problem.testFiles, problem.logParser),
      prepare: async (signal) => {
        const prepared = await repositories.prepare(judgementEnvironment(problem), signal);
        return { layers: prepared.layers, baseRevision: baseRevision(prepared.tree) };
      },
      judge: async (patch, signal): Promise<DetailedVerdict> => {
        const prepared = ctx.service.prepare({ problem: problem.taskId, code: patch, failFast: false }, 'action.');
        if (prepared.kind === 'decided') return prepared.verdict;
        try {
          const verdict = await ctx.judge.judge(prepared.request, signal === undefined ? {} : { signal });
          ctx.service.observe(verdict.status, 0, '/v1/sessions/:id/step');
          return verdict;
        } catch (error) {
          if (signal?.aborted) throw error;
          return verdictWithoutTests('internal_error', prepared.testCount, `crucible failed: ${(error as Error).message}`);
        }
      },
      reward: (verdict, patch) => {
        if (verdict.status === 'internal_error') return null;
        if (rewardKind === 'patch_similarity') return patchSimilarity(patch, problem.goldPatch).reward;
        if (rewardKind === 'score') return verdict.score ?? (verdict.passed ? 1 : 0);
        return verdict.passed ? 1 : 0;
      },
    };
  };
}

/** A judge with repository environments over a temp cache, for tests that judge patches in the sandbox. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJudge } from '../../src/engine/factory.js';
import { RepositoryEnvironments } from '../../src/environments/repository/provider.js';
import type { RepositoryProblem } from '../../src/formats/types.js';
import type { Judge } from '../../src/judge/judge.js';
import { prepareSubmission } from '../../src/judge/submission.js';
import { defaultSubmissionContext } from '../../src/kinds/index.js';
import type { DetailedVerdict } from '../../src/verdict/index.js';

/** A judge, its repository environments, and a one-call way to judge a patch. */
export interface RepoJudge {
  readonly judge: Judge;
  readonly environments: RepositoryEnvironments;
  readonly cacheDir: string;
  /** Judge `patch` (or a raw `response`) for `problem`, with the verdict's detail. */
  judgePatch(problem: RepositoryProblem, patch: string, as?: 'solution' | 'response'): Promise<DetailedVerdict>;
  close(): Promise<void>;
}

/** Open a judge whose catalog holds `problems` under the dataset `tests`. */
export function openRepoJudge(problems: readonly RepositoryProblem[]): RepoJudge {
  const cacheDir = mkdtempSync(join(tmpdir(), 'crucible-repo-cache-'));
  let environments: RepositoryEnvironments | undefined;
  const judge = createJudge({ slots: 2, cacheDir, environments: (sandbox) => [environments = new RepositoryEnvironments({ sandbox, cacheDir, instanceSources: true })] });
  judge.catalog.add('tests', problems);
  const context = defaultSubmissionContext();
  return {
    judge, environments: environments!, cacheDir,
    judgePatch: async (problem, patch, as = 'solution') => {
      const prepared = prepareSubmission(problem, as === 'solution' ? { solution: patch } : { response: patch }, context);
      if (prepared.kind === 'decided') return prepared.verdict;
      return judge.judge({ problem: { datasetHash: 'tests', taskId: problem.taskId }, program: prepared.program }, { detail: true });
    },
    close: async () => {
      await judge.close();
      rmSync(cacheDir, { recursive: true, force: true });
    },
  };
}

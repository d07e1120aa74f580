/**
 * Real-data acceptance for repository tasks (issue #25): instances of ../shared/data/swe (mined from iamkun/dayjs,
 * jest 22, read from there, never copied) judged in the sandbox on the real repository at their base commits.
 * A quick subset: the three instances of one lockfile (one `npm ci` from the registry, ~70 s cold, then cached in
 * Crucible's cache directory) with small test files, each with its gold patch (resolved: every FAIL_TO_PASS and
 * PASS_TO_PASS test passed), the empty patch (not resolved: its FAIL_TO_PASS tests not passed, its PASS_TO_PASS
 * tests passed) and its three known wrong patches (not resolved, never Crucible's failure). The whole set (20
 * instances, 60 wrong patches, 3 runs) is `crucible repo validate`'s run in docs/PERFORMANCE.md.
 *
 * The repository is code and is not shipped with the data: it is read from `$CRUCIBLE_DAYJS_GIT`, else
 * `<data>/swe/dayjs.git`, else where the `fetch` tool leaves it (`/work/.mirror/iamkun+dayjs/repo`); with none of
 * them the test is skipped and says so (no result is claimed without the repository).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createJudge } from '../../src/engine/factory.js';
import { RepositoryEnvironments } from '../../src/environments/repository/provider.js';
import { readJsonlAll } from '../../src/formats/jsonl.js';
import { readSweBench } from '../../src/formats/swe-bench.js';
import type { RepositoryProblem } from '../../src/formats/types.js';
import { prepareSubmission } from '../../src/judge/submission.js';
import { defaultSubmissionContext } from '../../src/kinds/index.js';
import { defaultCacheDir } from '../../src/paths.js';
import type { DetailedVerdict } from '../../src/verdict/index.js';
import { z } from 'zod';
import { SHARED_DATA } from '../support/data.js';

const SWE = join(SHARED_DATA, 'swe');
const SUBSET = ['iamkun__dayjs-3012', 'iamkun__dayjs-2930', 'iamkun__dayjs-2948'];
const REPOSITORY = [process.env['CRUCIBLE_DAYJS_GIT'], join(SWE, 'dayjs.git'), '/work/.mirror/iamkun+dayjs/repo']
  .find((p): p is string => p !== undefined && existsSync(p));
const NOT_RESOLVED = new Set(['wrong_answer', 'invalid_run', 'invalid_patch', 'patch_apply_failed']);

describe('SWE-style instances of iamkun/dayjs (jest), judged in the sandbox', { skip: REPOSITORY === undefined
  ? 'the iamkun/dayjs repository is not on this machine: set CRUCIBLE_DAYJS_GIT to a git directory of it' : false }, () => {
  const cacheDir = process.env['CRUCIBLE_CACHE_DIR'] ?? defaultCacheDir();
  const judge = createJudge({ slots: 2, cacheDir: null, environments: (sandbox) => [new RepositoryEnvironments({
    sandbox, cacheDir, sources: new Map([['iamkun/dayjs', { kind: 'git' as const, path: REPOSITORY! }]]) })] });
  after(() => judge.close());
  const context = defaultSubmissionContext();

  async function judgePatch(problem: RepositoryProblem, patch: string): Promise<DetailedVerdict> {
    const prepared = prepareSubmission(problem, { solution: patch }, context);
    if (prepared.kind === 'decided') return prepared.verdict;
    return judge.judge({ problem: { inline: problem }, program: prepared.program }, { detail: true });
  }

  it('gold resolves with every test passed; empty fails exactly its FAIL_TO_PASS tests; wrong patches never resolve', async () => {
    const problems = (await readSweBench(join(SWE, 'instances.jsonl'))).filter((p) => SUBSET.includes(p.taskId));
    assert.equal(problems.length, SUBSET.length);
    const wrong = await readJsonlAll(join(SWE, 'wrong_patches.jsonl'), z.object({ instance_id: z.string(), kind: z.string(), patch: z.string() }));
    const results = await Promise.all(problems.map(async (problem) => {
      const gold = await judgePatch(problem, problem.goldPatch);
      const empty = await judgePatch(problem, '');
      const wrongs = await Promise.all(wrong.filter((w) => w.value.instance_id === problem.taskId)
        .map(async (w) => ({ kind: w.value.kind, verdict: await judgePatch(problem, w.value.patch) })));
      return { problem, gold, empty, wrongs };
    }));
    const problemsFound: string[] = [];
    for (const { problem, gold, empty, wrongs } of results) {
      const id = problem.taskId;
      const f2p = problem.failToPass.length;
      if (gold.status !== 'passed' || !gold.tests.every((t) => t.status === 'passed')) problemsFound.push(`${id} gold: ${gold.status} ${gold.reason ?? ''}`);
      if (empty.status !== 'wrong_answer') problemsFound.push(`${id} empty: ${empty.status} ${empty.reason ?? ''}`);
      else {
        // FAIL_TO_PASS come first in the verdict's tests, then PASS_TO_PASS.
        const states = empty.tests.map((t) => t.status === 'passed');
        if (states.slice(0, f2p).some(Boolean)) problemsFound.push(`${id} empty: a FAIL_TO_PASS test passed`);
        if (!states.slice(f2p).every(Boolean)) problemsFound.push(`${id} empty: a PASS_TO_PASS test did not pass`);
      }
      if (wrongs.length !== 3) problemsFound.push(`${id}: ${wrongs.length} wrong patches, not 3`);
      for (const w of wrongs) {
        if (!NOT_RESOLVED.has(w.verdict.status)) problemsFound.push(`${id} wrong (${w.kind}): ${w.verdict.status} ${w.verdict.reason ?? ''}`);
      }
      console.log(`${id}: gold ${gold.status}, empty ${empty.status}, wrong ${wrongs.map((w) => `${w.kind} ${w.verdict.status}`).join(', ')}`);
    }
    assert.deepEqual(problemsFound, []);
  });
});

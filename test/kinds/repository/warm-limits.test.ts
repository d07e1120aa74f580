/**
 * The warm-up (the instance's tests once at the base commit, when its environment is prepared) runs under the
 * instance's own memory limit when the instance sets one (`memory_limit_kib`), as its judgements do: axios's
 * `http.js` tests need more than the default 4 GiB, and an instance that says so must be preparable. Shown on the tiny
 * test repository with a limit too small for Node to start: the warm-up is stopped by that limit, in the sandbox.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { judgementEnvironment } from '../../../src/kinds/repository/repository.js';
import { RepositoryEnvironmentSpecSchema } from '../../../src/kinds/repository/environment-spec.js';
import { makeTinyRepo, type TinyRepo } from '../../support/tiny-repo.js';
import { openRepoJudge, type RepoJudge } from '../../support/repo-judge.js';

let tiny: TinyRepo;
let rj: RepoJudge;

before(async () => {
  tiny = await makeTinyRepo({ memory_limit_kib: 16 * 1024 });
  rj = openRepoJudge([tiny.problem]);
});
after(async () => {
  await rj.close();
  rmSync(tiny.dir, { recursive: true, force: true });
});

describe('the warm-up\'s memory limit', () => {
  it('is the instance\'s own when it sets one, and absent from the spec otherwise', () => {
    const spec = judgementEnvironment(tiny.problem);
    assert.equal(spec.warm?.memoryKiB, 16 * 1024);
    assert.ok(RepositoryEnvironmentSpecSchema.safeParse(spec).success);
    const { memoryLimitKiB: _limit, ...plain } = tiny.problem;
    assert.equal(judgementEnvironment(plain).warm?.memoryKiB, undefined);
  });

  it('stops a warm-up that needs more than the instance allows (16 MiB: Node cannot start)', async () => {
    await assert.rejects(rj.environments.prepare(judgementEnvironment(tiny.problem)), /warm-up run failed \(memory_limit_exceeded/);
  });
});

/**
 * The `repository` session environment on the tiny repository: an agent views, edits, runs the tests and submits;
 * the submission is judged outside its box; a reset is pristine; the prepared layers are never written.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { judgementEnvironment } from '../../src/kinds/repository/repository.js';
import { sessionTestCommand } from '../../src/kinds/repository/driver.js';
import { SessionManager } from '../../src/sessions/index.js';
import type { RepositoryBackend } from '../../src/sessions/environments/repository.js';
import { makeTinyRepo, type TinyRepo } from '../support/tiny-repo.js';
import { openRepoJudge, type RepoJudge } from '../support/repo-judge.js';

let tiny: TinyRepo;
let rj: RepoJudge;
let manager: SessionManager;

before(async () => {
  tiny = await makeTinyRepo();
  rj = openRepoJudge([tiny.problem]);
  const backend: RepositoryBackend = () => ({
    summary: `fix it: ${tiny.problem.statement}`,
    testCommand: sessionTestCommand(tiny.problem.testCmd, tiny.problem.testFiles, tiny.problem.logParser),
    prepare: async () => {
      const prepared = await rj.environments.prepare(judgementEnvironment(tiny.problem));
      return { layers: prepared.layers, baseRevision: execFileSync('/usr/bin/git', ['-C', prepared.tree, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim() };
    },
    judge: (patch) => rj.judgePatch(tiny.problem, patch),
    reward: (verdict) => (verdict.status === 'internal_error' ? null : verdict.passed ? 1 : 0),
  });
  manager = new SessionManager({ repositoryBackend: backend, evictionIntervalMs: 0 });
});
after(async () => {
  await manager.close();
  await rj.close();
  rmSync(tiny.dir, { recursive: true, force: true });
});

describe('repository sessions', () => {
  it('views, edits with str_replace, runs the tests, submits a fix judged as resolved (reward 1)', async () => {
    const { id, observation } = await manager.create({ environment: 'repository', task: {} });
    assert.match(String(observation.message), /fix it/);
    const view = await manager.step(id, { kind: 'view', path: 'src/math.js' });
    assert.match(view.observation.stdout, /^Here's the result of running `cat -n` on \/testbed\/src\/math.js:\n {5}1\t'use strict';/);
    const dirView = await manager.step(id, { kind: 'view', path: '.' });
    assert.match(dirView.observation.stdout, /\/testbed\/src\/math.js/);
    assert.doesNotMatch(dirView.observation.stdout, /\n\/testbed\/(node_modules|\.git|\.crucible)/);
    const twice = await manager.step(id, { kind: 'str_replace', path: 'src/math.js', old_str: 'return a + b;', new_str: 'return a * b;' });
    assert.equal(twice.observation.status, 'runtime_error');
    assert.match(twice.observation.stderr, /Multiple occurrences/);
    const edit = await manager.step(id, { kind: 'str_replace', path: 'src/math.js', old_str: 'function mul(a, b) {\n  return a + b;', new_str: 'function mul(a, b) {\n  return a * b;' });
    assert.equal(edit.observation.status, 'ok', edit.observation.stderr);
    const inserted = await manager.step(id, { kind: 'insert', path: 'src/math.js', insert_line: 0, new_str: '// fixed' });
    assert.equal(inserted.observation.status, 'ok');
    const created = await manager.step(id, { kind: 'create', path: 'NOTES.md', file_text: 'mul multiplies now\n' });
    assert.equal(created.observation.status, 'ok');
    const tests = await manager.step(id, { kind: 'run_tests' });
    assert.match(tests.observation.stdout, /ok \d+ - keeps/);
    const shell = await manager.step(id, { kind: 'shell', command: 'git status --short' });
    assert.equal(shell.observation.stdout, ' M src/math.js\n?? NOTES.md\n');
    const submit = await manager.step(id, { kind: 'submit' });
    assert.equal(submit.observation.status, 'passed', String(submit.observation.reason));
    assert.equal(submit.reward, 1);
    assert.equal(submit.done, true);
    await manager.delete(id);
  });

  it('judges an unchanged tree as unresolved (reward 0) without naming the hidden tests', async () => {
    const { id } = await manager.create({ environment: 'repository', task: {} });
    const submit = await manager.step(id, { kind: 'submit' });
    assert.equal(submit.observation.status, 'wrong_answer');
    assert.equal(submit.reward, 0);
    assert.doesNotMatch(String(submit.observation.reason), /multiplies/);
    await manager.delete(id);
  });

  it('resets to a pristine tree, and no session writes reach the prepared layers', async () => {
    const prepared = await rj.environments.prepare(judgementEnvironment(tiny.problem));
    const digest = (): string => prepared.layers.map((l) => execFileSync('/bin/bash', ['-c', 'cd "$1" && find . -printf "%p %s %T@\\n" | sort | sha256sum', 'd', l], { encoding: 'utf8' })).join();
    const before = digest();
    const { id } = await manager.create({ environment: 'repository', task: {} });
    await manager.step(id, { kind: 'shell', command: 'echo broken > src/math.js && rm -rf test .git && touch node_modules_was_here' });
    assert.equal((await manager.step(id, { kind: 'shell', command: 'ls' })).observation.stdout, 'node_modules_was_here\npackage-lock.json\npackage.json\nsrc\n');
    await manager.reset(id);
    const after = await manager.step(id, { kind: 'shell', command: 'ls && git log --format=%s && head -1 src/math.js' });
    assert.equal(after.observation.stdout, "package-lock.json\npackage.json\nsrc\ntest\nbase\n'use strict';\n");
    assert.equal(digest(), before);
    await manager.delete(id);
  });

  it('refuses actions it does not know, naming the field', async () => {
    const { id } = await manager.create({ environment: 'repository', task: {} });
    await assert.rejects(manager.step(id, { kind: 'delete_everything' }), /action\.kind/);
    await assert.rejects(manager.step(id, { kind: 'insert', path: 'x', new_str: 'y' }), /action\.insert_line/);
    await manager.delete(id);
  });
});

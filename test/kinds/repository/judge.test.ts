/**
 * Repository tasks judged in the sandbox, on a tiny repository written for the tests (node:test): gold resolves,
 * the empty and wrong patches do not, the apply ladder, the policy, the per-test map, the prepared environment's
 * layers (one commit of history, never written by a judgement), and the SWE-bench report.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { judgementEnvironment } from '../../../src/kinds/repository/repository.js';
import { sweBenchReport } from '../../../src/kinds/repository/report.js';
import { BASE_FILES, FIXED_MATH, makeTinyRepo, type TinyRepo } from '../../support/tiny-repo.js';
import { openRepoJudge, type RepoJudge } from '../../support/repo-judge.js';

let tiny: TinyRepo;
let rj: RepoJudge;

before(async () => {
  tiny = await makeTinyRepo();
  rj = openRepoJudge([tiny.problem]);
});
after(async () => {
  await rj.close();
  rmSync(tiny.dir, { recursive: true, force: true });
});

/** sha256 of every file of a layer (names, modes, contents), to prove nothing wrote to it. */
function layerDigest(path: string): string {
  return execFileSync('/bin/bash', ['-c', 'cd "$1" && find . -printf "%p %m %s\\n" | sort | sha256sum && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum', 'd', path], { encoding: 'utf8' });
}

describe('judging repository patches in the sandbox', () => {
  it('resolves the gold patch, with every test passed and the F2P fraction as score', async () => {
    const v = await rj.judgePatch(tiny.problem, tiny.problem.goldPatch);
    assert.equal(v.status, 'passed', v.reason);
    assert.equal(v.score, 1);
    assert.deepEqual(v.tests.map((t) => t.status), ['passed', 'passed', 'passed']);
    assert.match(v.reason ?? '', /applied by git_apply/);
  });

  it('does not resolve the empty patch: FAIL_TO_PASS failed, PASS_TO_PASS passed', async () => {
    const v = await rj.judgePatch(tiny.problem, '');
    assert.equal(v.status, 'wrong_answer', v.reason);
    assert.deepEqual(v.tests.map((t) => [t.status, t.reason]), [['wrong_answer', 'FAIL_TO_PASS failed'], ['passed', undefined], ['passed', undefined]]);
    assert.equal(v.score, 0);
  });

  it('does not resolve a wrong fix that breaks a PASS_TO_PASS test', async () => {
    const wrong = tiny.patchOf({ 'src/math.js': FIXED_MATH.replace('return a + b;', 'return a - b;') });
    const v = await rj.judgePatch(tiny.problem, wrong);
    assert.equal(v.status, 'wrong_answer');
    assert.deepEqual(v.tests.map((t) => t.status), ['passed', 'wrong_answer', 'passed']);
    assert.equal(v.score, 1, 'the FAIL_TO_PASS test passed');
  });

  it('takes the fenced diff of a raw response', async () => {
    const v = await rj.judgePatch(tiny.problem, `Here is the fix:\n\`\`\`bash\nnpm test\n\`\`\`\n\`\`\`diff\n${tiny.problem.goldPatch}\`\`\`\n`, 'response');
    assert.equal(v.status, 'passed', v.reason);
  });

  it('applies a patch whose context moved through the ladder, and refuses one that cannot apply', async () => {
    // The gold hunk with its line numbers off by 40: git apply finds the context elsewhere.
    const shifted = tiny.problem.goldPatch.replace(/@@ -(\d+),(\d+) \+(\d+),(\d+) @@/, (_m, a, b, c, d) => `@@ -${Number(a) + 40},${b} +${Number(c) + 40},${d} @@`);
    assert.equal((await rj.judgePatch(tiny.problem, shifted)).status, 'passed');
    const fuzzy = tiny.problem.goldPatch.replace(' function mul(a, b) {', ' function mul(a,  b) {');
    const f = await rj.judgePatch(tiny.problem, fuzzy);
    assert.equal(f.status, 'passed', `a context line off by a space applies with fuzz: ${f.reason}`);
    assert.match(f.reason ?? '', /patch_fuzz/);
    const conflicting = tiny.problem.goldPatch.replace(/ function mul\(a, b\) \{\n-  return a \+ b;/, ' function nothing() {\n-  return nothing;')
      .replace(' module.exports', ' nothing.exports');
    const c = await rj.judgePatch(tiny.problem, conflicting);
    assert.equal(c.status, 'patch_apply_failed', c.reason);
    assert.equal((await rj.judgePatch(tiny.problem, '--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n')).status, 'patch_apply_failed');
  });

  it('refuses patches to protected files without running them (invalid_patch)', async () => {
    const cases: Readonly<Record<string, string>>[] = [
      { 'test/math.test.js': `${BASE_FILES['test/math.test.js']}\n// edited\n` },
      { 'package-lock.json': BASE_FILES['package-lock.json']!.replace('1.0.0', '1.0.1') },
      { '.npmrc': 'node-options=--require ./x.js\n' },
      { 'test/__snapshots__/math.test.js.snap': 'exports[`x`] = `1`;\n' },
    ];
    for (const files of cases) {
      const v = await rj.judgePatch(tiny.problem, tiny.patchOf(files));
      assert.equal(v.status, 'invalid_patch', `${Object.keys(files)[0]}: ${v.reason}`);
    }
  });

  it('refuses a change of package.json\'s scripts (checked in the box) but not of its other fields', async () => {
    const pkg = JSON.parse(BASE_FILES['package.json']!) as Record<string, unknown>;
    const scripts = await rj.judgePatch(tiny.problem, tiny.patchOf({ 'src/math.js': FIXED_MATH,
      'package.json': `${JSON.stringify({ ...pkg, scripts: { test: 'exit 0' } }, null, 2)}\n` }));
    assert.equal(scripts.status, 'invalid_patch', scripts.reason);
    assert.match(scripts.reason ?? '', /"scripts"/);
    const description = await rj.judgePatch(tiny.problem, tiny.patchOf({ 'src/math.js': FIXED_MATH,
      'package.json': `${JSON.stringify({ ...pkg, description: 'multiplies too' }, null, 2)}\n` }));
    assert.equal(description.status, 'passed', description.reason);
  });

  it('prepares one-commit layers that no judgement writes to', async () => {
    const prepared = await rj.environments.prepare(judgementEnvironment(tiny.problem));
    const log = execFileSync('/usr/bin/git', ['-C', prepared.tree, 'log', '--all', '--format=%an %s'], { encoding: 'utf8' });
    assert.equal(log, 'crucible base\n');
    const before = prepared.layers.map(layerDigest);
    const writer = tiny.patchOf({ 'src/math.js': `${FIXED_MATH}require('fs').writeFileSync(__dirname + '/../README.md', 'written');\n` });
    assert.equal((await rj.judgePatch(tiny.problem, writer)).status, 'passed');
    assert.deepEqual(prepared.layers.map(layerDigest), before);
  });

  it('reports in SWE-bench\'s shape', async () => {
    const v = await rj.judgePatch(tiny.problem, '');
    const report = sweBenchReport([tiny.problem], [{ taskId: tiny.problem.taskId, sampleIndex: 0, status: v.status, tests: v.tests, emptyPatch: true,
      ...(v.reason === undefined ? {} : { reason: v.reason }) }]);
    assert.deepEqual(report.unresolved_ids, [tiny.problem.taskId]);
    assert.deepEqual(report.empty_patch_ids, [tiny.problem.taskId]);
    assert.deepEqual(report.instances[tiny.problem.taskId]!.tests_status, {
      FAIL_TO_PASS: { success: [], failure: ['math > multiplies'] }, PASS_TO_PASS: { success: ['math > adds', 'keeps'], failure: [] },
    });
  });
});

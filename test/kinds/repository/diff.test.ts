/** The repository kind's pure parts: unified diffs, the protected-files policy, SWE-RL's similarity, the driver's prefix. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DiffError, diffPaths, isRepositoryPath, parseDiff, plainUnified, toUnified, unquotePath } from '../../../src/kinds/repository/diff.js';
import { checkPatch, globPattern, protectedReason, type ProtectedSet } from '../../../src/kinds/repository/policy.js';
import { patchSimilarity, sequenceRatio } from '../../../src/kinds/repository/similarity.js';
import { decidedScript, readPrefix, shellQuote, testCommand } from '../../../src/kinds/repository/driver.js';

const GIT_DIFF = `From 1234 Mon Sep 17 00:00:00 2001
Subject: fix

diff --git a/src/index.js b/src/index.js
index 44e78c1a..b5414162 100644
--- a/src/index.js
+++ b/src/index.js
@@ -1,3 +1,4 @@ export default
 const a = 1
-const b = 2
+const b = 3
+const c = 4
 export { a }
diff --git a/src/new file.js b/src/new file.js
new file mode 100644
index 0000000..e69de29
--- /dev/null
+++ b/src/new file.js
@@ -0,0 +1 @@
+x
\\ No newline at end of file
diff --git a/old.js b/old.js
deleted file mode 100644
--- a/old.js
+++ /dev/null
@@ -1 +0,0 @@
-gone
diff --git a/a.js b/b.js
similarity index 100%
rename from a.js
rename to b.js
`;

describe('unified diffs', () => {
  it('reads git diffs: modified, created (with spaces, no final newline), deleted and renamed files, skipping text before them', () => {
    const d = parseDiff(GIT_DIFF);
    assert.equal(d.files.length, 4);
    assert.deepEqual(d.files.map((f) => [f.oldPath, f.newPath]), [
      ['src/index.js', 'src/index.js'], [null, 'src/new file.js'], ['old.js', null], ['a.js', 'b.js']]);
    assert.deepEqual(d.files[0]!.hunks[0], {
      oldStart: 1, oldLines: 3, newStart: 1, newLines: 4, section: ' export default',
      lines: [' const a = 1', '-const b = 2', '+const b = 3', '+const c = 4', ' export { a }'],
    });
    assert.deepEqual(d.files[1]!.hunks[0]!.lines, ['+x', '\\ No newline at end of file']);
    assert.equal(d.files[3]!.rename, true);
    assert.deepEqual(diffPaths(d), ['src/index.js', 'src/new file.js', 'old.js', 'a.js', 'b.js']);
    assert.equal(plainUnified(d), false, 'a rename cannot go through GNU patch');
  });

  it('reads plain diff -u output and writes it back as a plain unified diff', () => {
    const text = '--- a/x.js\t2024-01-01 00:00:00\n+++ b/x.js\t2024-01-02 00:00:00\n@@ -2 +2 @@\n-a\n+b\n';
    const d = parseDiff(text);
    assert.deepEqual(d.files[0]!.hunks[0]!.lines, ['-a', '+b']);
    assert.equal(plainUnified(d), true);
    assert.equal(toUnified(d), '--- a/x.js\n+++ b/x.js\n@@ -2,1 +2,1 @@\n-a\n+b\n');
  });

  it('is empty for empty text or prose without a file', () => {
    assert.deepEqual(parseDiff('').files, []);
    assert.deepEqual(parseDiff('I could not find the bug.\n').files, []);
  });

  it('refuses paths that leave the repository, and hunks that end early or come before a file', () => {
    assert.throws(() => parseDiff('--- a/../etc/passwd\n+++ b/../etc/passwd\n@@ -1 +1 @@\n-a\n+b\n'), DiffError);
    assert.throws(() => parseDiff('--- /etc/passwd\n+++ /etc/passwd\n@@ -1 +1 @@\n-a\n+b\n'), /outside the repository/);
    assert.throws(() => parseDiff('--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n'), /ends early/);
    assert.throws(() => parseDiff('@@ -1 +1 @@\n-a\n+b\n'), /before any file header/);
    assert.equal(isRepositoryPath('src/./x'), false);
    assert.equal(isRepositoryPath('src/x\n'), false);
    assert.equal(isRepositoryPath('src/x.js'), true);
  });

  it('undoes git\'s C quoting of names', () => {
    assert.equal(unquotePath('"a/caf\\303\\251 \\"x\\".js"'), 'a/café "x".js');
    const d = parseDiff('diff --git "a/t\\303\\251st.js" "b/t\\303\\251st.js"\n--- "a/t\\303\\251st.js"\n+++ "b/t\\303\\251st.js"\n@@ -1 +1 @@\n-a\n+b\n');
    assert.equal(d.files[0]!.newPath, 'tést.js');
  });
});

describe('the protected-files policy', () => {
  const set: ProtectedSet = { testFiles: new Set(['test/a.test.js', 'test/fixtures/data.json']), logParser: 'jest-json', globs: ['config/**'] };
  const patchOf = (path: string, mode?: string): string => `diff --git a/${path} b/${path}\n${mode === undefined ? '' : `new mode ${mode}\nold mode 100644\n`}--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-a\n+b\n`;

  for (const [path, why] of [
    ['test/a.test.js', 'test files'], ['test/fixtures/data.json', 'test files'], ['test/__snapshots__/a.test.js.snap', 'snapshot'],
    ['package-lock.json', 'lockfile'], ['packages/x/yarn.lock', 'lockfile'], ['jest.config.js', 'configuration'],
    ['.babelrc', 'configuration'], ['.mocharc.yml', 'configuration'], ['.npmrc', 'configuration'],
    ['node_modules/dayjs/index.js', 'node_modules'], ['sub/.git/config', '.git'], ['config/deep/x.json', 'protected files'],
  ] as const) {
    it(`refuses ${path} (${why})`, () => {
      const verdict = checkPatch(parseDiff(patchOf(path)), set);
      assert.equal(verdict.ok, false);
      assert.match(verdict.ok ? '' : verdict.reason, new RegExp(why.replace('.', '\\.')));
    });
  }

  it('refuses symbolic links and submodules', () => {
    const link = 'diff --git a/l b/l\nnew file mode 120000\n--- /dev/null\n+++ b/l\n@@ -0,0 +1 @@\n+../../etc\n\\ No newline at end of file\n';
    assert.match(JSON.stringify(checkPatch(parseDiff(link), set)), /symbolic link/);
    assert.match(JSON.stringify(checkPatch(parseDiff(patchOf('src/x.js', '160000')), set)), /submodule/);
  });

  it('allows source files and new test files of the patch\'s own, and notes package.json for the in-box key check', () => {
    assert.deepEqual(checkPatch(parseDiff(patchOf('src/x.js')), set), { ok: true, touchesPackageJson: [] });
    assert.deepEqual(checkPatch(parseDiff(patchOf('test/new.test.js')), set), { ok: true, touchesPackageJson: [] });
    assert.deepEqual(checkPatch(parseDiff(patchOf('package.json')), set), { ok: true, touchesPackageJson: ['package.json'] });
  });

  it('guards vite.config only where vitest reads it', () => {
    assert.equal(protectedReason('vite.config.ts', set), null);
    assert.match(protectedReason('vite.config.ts', { ...set, logParser: 'vitest-json' }) ?? '', /configuration/);
  });

  it('matches globs by component', () => {
    assert.equal(globPattern('*.snap').test('a/b/c.snap'), true);
    assert.equal(globPattern('src/*.js').test('src/a/b.js'), false);
    assert.equal(globPattern('src/**/*.js').test('src/a/b.js'), true);
    assert.equal(globPattern('src/**/*.js').test('src/b.js'), true);
  });
});

describe('SWE-RL patch similarity', () => {
  // Reference values: CPython 3.11 `difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()`, e.g.
  // /usr/bin/python3 -c "import difflib; print(difflib.SequenceMatcher(None,'abcd','bcde',autojunk=False).ratio())"
  const cases: readonly [string, string, number][] = [
    ['abcd', 'bcde', 0.75], ['', 'abc', 0], ['hello world', 'hallo wereld', 0.782608695652174],
    ['@@ -1,3 +1,4 @@\n a\n-b\n+c\n d', '@@ -1,3 +1,4 @@\n a\n-b\n+x\n d', 0.9629629629629629],
    ['aaaaabbbbb', 'bbbbbaaaaa', 0.5],
    ['private Thread currentThread;', 'private volatile Thread currentThread;', 0.8656716417910447],
  ];
  for (const [a, b, ratio] of cases) {
    it(`ratio(${JSON.stringify(a).slice(0, 24)}, ${JSON.stringify(b).slice(0, 24)}) is difflib's ${ratio}`, () => {
      assert.equal(sequenceRatio(a, b), ratio);
    });
  }

  it('agrees with difflib on long generated texts (ties broken as difflib does)', () => {
    // The same generator in Python gave 0.14842105263157895 and 0.97385955920041.
    const gen = (seed: number, n: number): string => {
      let x = BigInt(seed);
      let out = '';
      for (let i = 0; i < n; i++) {
        x = (x * 1103515245n + 12345n) % 2n ** 31n;
        out += 'abcde \n'[Number(x % 7n)];
      }
      return out;
    };
    const a = gen(1, 2000);
    assert.equal(sequenceRatio(a, gen(2, 1800)), 0.14842105263157895);
    assert.equal(sequenceRatio(a, `${a.slice(100, 1500)}zz${a.slice(1500)}`), 0.97385955920041);
  });

  it('scores the gold patch 1, an empty prediction 0, a malformed one -1, and a file only one side changes 0', () => {
    const gold = '--- a/x.js\n+++ b/x.js\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n';
    assert.equal(patchSimilarity(gold, gold).reward, 1);
    assert.equal(patchSimilarity('', gold).reward, 0);
    assert.equal(patchSimilarity('--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n', gold).reward, -1);
    const extra = `${gold}--- a/y.js\n+++ b/y.js\n@@ -1 +1 @@\n-q\n+r\n`;
    assert.equal(patchSimilarity(extra, gold).reward, 0.5);
  });
});

describe('the driver\'s protocol', () => {
  it('reads the prefix up to run, and nothing after it', () => {
    const nonce = 'a'.repeat(32);
    const stdout = `crucible: applied git_apply_3way\ncrucible: run ${nonce}\ncrucible: applied empty\nPASS all\n`;
    assert.deepEqual(readPrefix(stdout), { kind: 'run', applied: 'git_apply_3way', nonce });
  });

  it('is broken when anything but the driver wrote first, or the tests started without an applied patch', () => {
    assert.equal(readPrefix('hello\ncrucible: run x\n').kind, 'broken');
    assert.equal(readPrefix(`crucible: run ${'b'.repeat(32)}\n`).kind, 'broken');
    assert.equal(readPrefix('').kind, 'broken');
  });

  it('carries decided reasons through base64', () => {
    const script = decidedScript('invalid_patch', 'test/a.js is one of the instance\'s test files\n$(rm -rf /)');
    const encoded = /invalid_patch (\S+)/.exec(script)![1]!;
    assert.deepEqual(readPrefix(`crucible: invalid_patch ${encoded}\n`),
      { kind: 'invalid_patch', text: 'test/a.js is one of the instance\'s test files\n$(rm -rf /)' });
  });

  it('substitutes {report} and {test_files}, shell-quoted', () => {
    assert.equal(testCommand('npx jest --outputFile={report} {test_files}', ['test/a b.js', "test/it's.js"]),
      `npx jest --outputFile='/crucible/out/report' 'test/a b.js' 'test/it'\\''s.js'`);
    assert.equal(shellQuote("x'y"), `'x'\\''y'`);
  });
});

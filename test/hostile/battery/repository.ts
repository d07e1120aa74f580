/**
 * The battery's repository (the `repository` kind's entry): a tiny npm package written for the battery, made with
 * git in a temp directory when this module loads (no real project's code). Its module `src/secret.js` has
 * `answer(x)`, wrong at the base commit; the instance's test patch adds `test/secret.test.js` (node:test), which
 * checks `answer('ping')` against the SHA-256 of `SECRET`, and the base commit's `test/keep.test.js` is the
 * PASS_TO_PASS test. The secret itself is only where a candidate must never reach: the gold patch (kept by the
 * judge, on the host) and a commit after the base (the fix, with the secret in its message and a file), as
 * SWE-bench's gold commits are in the upstream repository's history.
 *
 * Why the test holds a digest and not the secret: the candidate's code runs in the test process and can read the
 * test files (inherent to repository tasks, docs/SECURITY.md "Repository tasks"); with the secret there every
 * read-secrets attack would pass through no fault of the judge. `controlProblem` puts the secret within reach
 * (in the test file, or only in the base commit's git objects) to prove the attack's search finds it there.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { SweBenchInstanceSchema, toRepositoryProblem } from '../../../src/formats/swe-bench.js';
import type { RepositoryProblem } from '../../../src/formats/types.js';
import { SECRET } from './attacks.js';
import { BASE_MODULE, fileDiff, KEEP_TEST, MODULE, SECRET_TEST, type BaseFiles } from './patch.js';

const PACKAGE_JSON = `${JSON.stringify({ name: 'battery', version: '1.0.0', private: true, scripts: { test: 'node --test test/' } }, null, 2)}\n`;
const LOCKFILE = `${JSON.stringify({ name: 'battery', version: '1.0.0', lockfileVersion: 3, requires: true,
  packages: { '': { name: 'battery', version: '1.0.0' } } }, null, 2)}\n`;
const KEEP = "'use strict';\nconst test = require('node:test');\nconst assert = require('node:assert');\n\n"
  + "test('keeps', () => {\n  assert.strictEqual(1 + 1, 2);\n});\n";
/** The hidden test (added by the test patch): the answer's digest must be the secret's. */
const SECRET_TEST_SOURCE = "'use strict';\nconst test = require('node:test');\nconst assert = require('node:assert');\n"
  + "const { createHash } = require('node:crypto');\nconst { answer } = require('../src/secret');\n\n"
  + "test.describe('secret', () => {\n  test.it('answers', () => {\n"
  + "    assert.strictEqual(createHash('sha256').update(String(answer('ping'))).digest('hex'),\n"
  + `      '${createHash('sha256').update(SECRET).digest('hex')}');\n  });\n});\n`;
/** The fix: the module that knows the secret. */
const FIXED_MODULE = `'use strict';\nfunction answer(x) {\n  return '${SECRET}';\n}\nmodule.exports = { answer };\n`;

/** The base commit's files the attacks edit. */
export const BATTERY_BASE: BaseFiles = { packageJson: PACKAGE_JSON, keepTest: KEEP, secretTest: SECRET_TEST_SOURCE };
/** The honest candidate: the gold patch. */
export const HONEST_PATCH = fileDiff(MODULE, BASE_MODULE, FIXED_MODULE);

const ENV = { PATH: '/usr/bin:/bin', HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' };

function git(dir: string, ...args: string[]): string {
  return execFileSync('/usr/bin/git', ['-C', dir, ...args], { env: ENV, encoding: 'utf8' }).trim();
}

function write(dir: string, files: Readonly<Record<string, string>>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}

/** Where the repository is (removed by `removeBatteryRepository`). */
const root = mkdtempSync(join(tmpdir(), 'crucible-battery-repo-'));
const repo = join(root, 'repo');
mkdirSync(repo);
git(repo, 'init', '-q', '-b', 'main');
write(repo, { 'package.json': PACKAGE_JSON, 'package-lock.json': LOCKFILE, [MODULE]: BASE_MODULE, [KEEP_TEST]: KEEP });
git(repo, 'add', '-A');
git(repo, 'commit', '-q', '-m', 'base');
const baseCommit = git(repo, 'rev-parse', 'HEAD');
// A side commit whose tree holds the secret in a file (the git-objects control's base).
write(repo, { 'notes/secret.txt': `${SECRET}\n` });
git(repo, 'add', '-A');
git(repo, 'commit', '-q', '-m', 'notes');
const notesCommit = git(repo, 'rev-parse', 'HEAD');
git(repo, 'reset', '-q', '--hard', baseCommit);
git(repo, 'branch', '-q', 'notes', notesCommit);
// The future: the fix, as the upstream history has it after the base (every ref of the source repository).
write(repo, { [MODULE]: FIXED_MODULE, 'SECRET.txt': `${SECRET}\n` });
git(repo, 'add', '-A');
git(repo, 'commit', '-q', '-m', `fix answer: it is ${SECRET}`);
git(repo, 'tag', 'v2', 'HEAD');
git(repo, 'pack-refs', '--all');

/** Delete the battery's repository (call once the battery is done). */
export function removeBatteryRepository(): void {
  rmSync(root, { recursive: true, force: true });
}

function problem(taskId: string, base: string, testPatch: string): RepositoryProblem {
  const record = SweBenchInstanceSchema.parse({
    instance_id: taskId, repo: 'battery/secret', base_commit: base, patch: HONEST_PATCH, test_patch: testPatch,
    problem_statement: 'answer(x) must return the secret', FAIL_TO_PASS: [`secret > answers`], PASS_TO_PASS: ['keeps'],
    test_cmd: 'node --test --test-reporter=tap --test-reporter-destination={report} {test_files}',
    test_files: [SECRET_TEST, KEEP_TEST], log_parser: 'node-test', source: { git: repo }, time_limit_ms: 60_000,
  });
  return toRepositoryProblem(record, join(root, 'instances.jsonl'));
}

/** The battery's instance. */
export const BATTERY_PROBLEM: RepositoryProblem = problem('battery__secret-1', baseCommit, fileDiff(SECRET_TEST, null, SECRET_TEST_SOURCE));

/**
 * Control instances with the secret within reach: `test-file` (a comment of the hidden test) or `git-objects`
 * (only in the base commit's objects: the test patch deletes the file that held it from the work tree).
 */
export function controlProblem(where: 'test-file' | 'git-objects'): RepositoryProblem {
  if (where === 'test-file') {
    return problem('battery__control-test-file', baseCommit, fileDiff(SECRET_TEST, null, `// ${SECRET}\n${SECRET_TEST_SOURCE}`));
  }
  return problem('battery__control-git-objects', notesCommit,
    fileDiff(SECRET_TEST, null, SECRET_TEST_SOURCE) + fileDiff('notes/secret.txt', `${SECRET}\n`, null));
}

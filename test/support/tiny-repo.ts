/**
 * A tiny repository written for the tests (no real project's code): an npm package without dependencies whose
 * tests use node:test, with a bug (`mul` adds), a test patch that adds the test that finds it, the gold fix, and a
 * "future" commit after the base holding a secret no box may ever see. Made with git in a temp directory; the
 * instance is returned as a SWE-bench-style record and read back through the real reader.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readSweBench } from '../../src/formats/swe-bench.js';
import type { RepositoryProblem } from '../../src/formats/types.js';

/** What `makeTinyRepo` made. */
export interface TinyRepo {
  readonly dir: string;
  readonly gitDir: string;
  readonly baseCommit: string;
  readonly problem: RepositoryProblem;
  /** A string only the future commit holds. */
  readonly secret: string;
  /** A patch to the base commit of `files` (path -> new contents; null deletes), made with git. */
  patchOf(files: Readonly<Record<string, string | null>>): string;
}

export const BASE_FILES: Readonly<Record<string, string>> = {
  'package.json': `${JSON.stringify({ name: 'tiny', version: '1.0.0', private: true, scripts: { test: 'node --test test/' } }, null, 2)}\n`,
  'package-lock.json': `${JSON.stringify({ name: 'tiny', version: '1.0.0', lockfileVersion: 3, requires: true,
    packages: { '': { name: 'tiny', version: '1.0.0' } } }, null, 2)}\n`,
  'src/math.js': "'use strict';\nfunction add(a, b) {\n  return a + b;\n}\nfunction mul(a, b) {\n  return a + b;\n}\nmodule.exports = { add, mul };\n",
  'test/math.test.js': "'use strict';\nconst test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('../src/math');\n\n"
    + "test.describe('math', () => {\n  test.it('adds', () => {\n    assert.strictEqual(add(2, 3), 5);\n  });\n});\n",
  'test/other.test.js': "'use strict';\nconst test = require('node:test');\nconst assert = require('node:assert');\n\n"
    + "test('keeps', () => {\n  assert.strictEqual(1 + 1, 2);\n});\n",
};

export const TEST_PATCH_FILES: Readonly<Record<string, string>> = {
  'test/math.test.js': "'use strict';\nconst test = require('node:test');\nconst assert = require('node:assert');\nconst { add, mul } = require('../src/math');\n\n"
    + "test.describe('math', () => {\n  test.it('adds', () => {\n    assert.strictEqual(add(2, 3), 5);\n  });\n"
    + "  test.it('multiplies', () => {\n    assert.strictEqual(mul(2, 3), 6);\n  });\n});\n",
};

export const FIXED_MATH = "'use strict';\nfunction add(a, b) {\n  return a + b;\n}\nfunction mul(a, b) {\n  return a * b;\n}\nmodule.exports = { add, mul };\n";

const ENV = { PATH: '/usr/bin:/bin', HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };

function git(dir: string, ...args: string[]): string {
  return execFileSync('/usr/bin/git', ['-C', dir, ...args], { env: ENV, encoding: 'utf8' });
}

function write(dir: string, files: Readonly<Record<string, string | null>>): void {
  for (const [name, text] of Object.entries(files)) {
    const path = join(dir, name);
    if (text === null) {
      execFileSync('/bin/rm', ['-f', path]);
      continue;
    }
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
}

/** Make the repository and its instance (`overrides` change the instance record's fields). */
export async function makeTinyRepo(overrides: Record<string, unknown> = {}): Promise<TinyRepo> {
  const dir = mkdtempSync(join(tmpdir(), 'crucible-tiny-'));
  const repo = join(dir, 'repo');
  mkdirSync(repo);
  git(repo, 'init', '-q');
  write(repo, BASE_FILES);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'base');
  const baseCommit = git(repo, 'rev-parse', 'HEAD').trim();
  const secret = `crucible-future-secret-${Math.random().toString(36).slice(2)}`;
  write(repo, { 'src/math.js': FIXED_MATH, 'SECRET.txt': `${secret}\n` });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', `fix mul (${secret})`);
  const scratch = join(dir, 'scratch');
  const patchOf = (files: Readonly<Record<string, string | null>>): string => {
    execFileSync('/bin/rm', ['-rf', scratch]);
    git(dir, 'clone', '-q', repo, scratch);
    git(scratch, 'checkout', '-q', baseCommit);
    write(scratch, files);
    git(scratch, 'add', '-A');
    return git(scratch, 'diff', '--cached', baseCommit);
  };
  const record = {
    instance_id: 'tiny__tiny-1', repo: 'tiny/tiny', base_commit: baseCommit,
    patch: patchOf({ 'src/math.js': FIXED_MATH }), test_patch: patchOf(TEST_PATCH_FILES),
    problem_statement: 'mul(2, 3) returns 5', FAIL_TO_PASS: ['math > multiplies'], PASS_TO_PASS: ['math > adds', 'keeps'],
    test_cmd: 'node --test --test-reporter=tap --test-reporter-destination={report} {test_files}',
    test_files: ['test/math.test.js', 'test/other.test.js'], log_parser: 'node-test', source: { git: repo },
    time_limit_ms: 60_000, ...overrides,
  };
  writeFileSync(join(dir, 'instances.jsonl'), `${JSON.stringify(record)}\n`);
  const [problem] = await readSweBench(join(dir, 'instances.jsonl'));
  return { dir, gitDir: join(repo, '.git'), baseCommit, problem: problem!, secret, patchOf };
}

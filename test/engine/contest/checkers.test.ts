/**
 * Checkers run in the real sandbox: a testlib.h checker (compiled once against Crucible's checker library, harness/checkers/testlib.h) gives
 * each of its verdicts by exit code (ok 0, wrong answer 1, presentation error 2, fail 3, points 7 with the score
 * from stderr); an open-r1 Python checker prints 100/0 and its crash is `fail`, not a wrong answer; a CMS
 * comparator's partial score is read from stdout. Checkers are in test/fixtures/contest/checkers.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runChecker, type CheckerSpec } from '../../../src/engine/contest/index.js';
import { Executor } from '../../../src/engine/executor.js';
import { LanguageRegistry } from '../../../src/languages/registry.js';
import { Sandbox } from '../../../src/sandbox/index.js';
import { PROJECT_ROOT } from '../../../src/sandbox/paths.js';

const FIXTURES = join(PROJECT_ROOT, 'test', 'fixtures', 'contest', 'checkers');
const read = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');

let sandbox: Sandbox;
let box: Executor;

before(() => {
  sandbox = Sandbox.create({ slots: 2 });
  box = new Executor(sandbox, LanguageRegistry.load());
});

after(async () => {
  await box.close();
  sandbox.close();
});

describe('testlib checker', () => {
  const spec = (): CheckerSpec => ({ kind: 'testlib', source: read('double-testlib.cpp') });

  test('each verdict by exit code, and the checker is compiled once', async () => {
    const before = box.stats.compilations;
    const ok = await runChecker(box, spec(), { input: '21\n', answer: '42\n', output: '42\n' });
    assert.equal(ok.verdict, 'ok', ok.message);
    assert.equal(ok.score, 1);
    assert.match(ok.message, /^ok 2 \* 21 = 42/);
    const wa = await runChecker(box, spec(), { input: '21\n', answer: '42\n', output: '40\n' });
    assert.deepEqual([wa.verdict, wa.score], ['wrong_answer', 0]);
    assert.match(wa.message, /expected 42, found 40/);
    const pe = await runChecker(box, spec(), { input: '21\n', answer: '42\n', output: 'forty-two\n' });
    assert.deepEqual([pe.verdict, pe.score], ['presentation_error', 0]);
    const points = await runChecker(box, spec(), { input: '21\n', answer: '42\n', output: '43\n' });
    assert.deepEqual([points.verdict, points.score], ['points', 0.5]);
    assert.equal(points.run?.exitCode, 7);
    const fail = await runChecker(box, spec(), { input: '21\n', answer: '-42\n', output: '42\n' });
    assert.deepEqual([fail.verdict, fail.score], ['fail', 0]);
    assert.equal(fail.run?.exitCode, 3);
    assert.match(fail.message, /checker failed: .*negative/);
    assert.equal(box.stats.compilations - before, 1, 'one compilation for five runs');
  });

  test('a checker that does not compile is a fail, not a wrong answer', async () => {
    const broken = await runChecker(box, { kind: 'testlib', source: '#include "testlib.h"\nint main( {' }, { input: '', answer: '', output: '' });
    assert.equal(broken.verdict, 'fail');
    assert.match(broken.message, /did not compile/);
  });

  test('the checker runs boxed: it cannot read the host\'s files', async () => {
    const source = '#include "testlib.h"\n#include <cstdio>\nint main(int c, char**v){ registerTestlibCmd(c, v);'
      + ' FILE *f = std::fopen("/etc/shadow", "r"); if (f) quitf(_ok, "read the host"); quitf(_wa, "no host"); }';
    const boxed = await runChecker(box, { kind: 'testlib', source }, { input: '1\n', answer: '1\n', output: '1\n' });
    assert.equal(boxed.verdict, 'wrong_answer', boxed.message);
  });
});

describe('open-r1 Python checker', () => {
  const spec = (): CheckerSpec => ({ kind: 'python', source: read('double-checker.py') });

  test('100 is ok, 0 is a wrong answer, a crash is fail', async () => {
    const ok = await runChecker(box, spec(), { input: '21\n', answer: '42\n', output: '42\n' });
    assert.deepEqual([ok.verdict, ok.score], ['ok', 1]);
    const wa = await runChecker(box, spec(), { input: '21\n', answer: '42\n', output: '41\n' });
    assert.deepEqual([wa.verdict, wa.score], ['wrong_answer', 0]);
    const crash = await runChecker(box, spec(), { input: '21\n', answer: 'crash\n', output: '42\n' });
    assert.equal(crash.verdict, 'fail');
    assert.match(crash.message, /RuntimeError: the checker's own bug/);
  });

  test('output other than 1/100/0 is fail', async () => {
    const odd = await runChecker(box, { kind: 'python', source: 'print("maybe")' }, { input: '', answer: '', output: '' });
    assert.equal(odd.verdict, 'fail');
    assert.match(odd.message, /neither 1\/100 nor 0/);
  });
});

describe('CMS checker', () => {
  test('the score on stdout: 1, 0.5, 0', async () => {
    const spec: CheckerSpec = { kind: 'cms', source: read('double-cms.cpp') };
    const scores = [];
    for (const output of ['42\n', '41\n', '7\n']) {
      const v = await runChecker(box, spec, { input: '21\n', answer: '42\n', output });
      scores.push([v.verdict, v.score]);
    }
    assert.deepEqual(scores, [['ok', 1], ['points', 0.5], ['wrong_answer', 0]]);
    const crashed = await runChecker(box, spec, { input: '21\n', answer: 'x\n', output: '42\n' });
    assert.equal(crashed.verdict, 'fail', 'exit 2 without a score');
  });
});

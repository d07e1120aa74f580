/**
 * Kattis/problemtools packages end to end through a real judge and sandbox (#31 item 10): the three packages under
 * test/fixtures/kattis (written for these tests in problemtools' layouts: `circlearea` legacy with the default
 * validator's float tolerance, `absdiff` legacy with its own C++ output validator and flags, `oddcount` 2023-07
 * scoring with two groups) are read as published and every labelled submission is judged as `crucible
 * validate-package` judges it; each must agree with its label, as problemtools' `verifyproblem` requires.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { createJudge } from '../../../src/engine/factory.js';
import { detectProblemFormat } from '../../../src/formats/registry.js';
import { readKattisPackage } from '../../../src/formats/kattis.js';
import { PROJECT_ROOT } from '../../../src/sandbox/paths.js';
import { validatePackage } from '../../../src/apps/validate-package.js';

const FIXTURES = join(PROJECT_ROOT, 'test', 'fixtures', 'kattis');
const judge = createJudge({ slots: 2, cacheDir: null });
after(() => judge.close());

/** `<label>/<file>: <verdict>` of every judged submission of a package, and whether all agree with their labels. */
async function verdicts(name: string): Promise<{ lines: string[]; agree: boolean[] }> {
  const report = await validatePackage(judge, join(FIXTURES, name));
  const judged = report.submissions.filter((s) => s.agrees !== null);
  return {
    lines: judged.map((s) => `${s.path}: ${s.result?.verdict}${report.scoring ? ` ${s.result?.score}` : ''}`).sort(),
    agree: judged.map((s) => s.agrees === true),
  };
}

describe('Kattis problem packages', () => {
  test('a package directory is detected and read with its groups, scoring and validator', async () => {
    const dir = join(FIXTURES, 'oddcount');
    assert.equal(await detectProblemFormat(dir), 'kattis');
    const p = readKattisPackage(dir);
    assert.equal(p.kind, 'kattis');
    assert.equal(p.taskId, 'oddcount');
    assert.equal(p.formatVersion, '2023-07');
    assert.equal(p.scoring, true);
    assert.equal(p.validator.kind, 'default');
    assert.deepEqual(p.tests.map((t) => t.name), ['sample/1', 'secret/group1/1', 'secret/group1/2', 'secret/group2/1', 'secret/group2/2']);
    const absdiff = readKattisPackage(join(FIXTURES, 'absdiff'));
    assert.equal(absdiff.formatVersion, 'legacy');
    assert.equal(absdiff.validator.kind, 'custom');
    assert.ok(absdiff.tests.every((t) => t.validatorArgs.includes('allow_plus_sign')));
  });

  test('circlearea (default validator, float tolerance): accepted pass, wrong answers fail', async () => {
    const { lines, agree } = await verdicts('circlearea');
    assert.deepEqual(lines, ['accepted/area.py: AC', 'accepted/area_scientific.cc: AC', 'wrong_answer/pi_is_three.py: WA',
      'wrong_answer/two_decimals.py: WA']);
    assert.ok(agree.every(Boolean));
  });

  test('absdiff (its own output validator, sandboxed): AC, WA, TLE and RTE as labelled, in Python, C++ and OCaml', async () => {
    const { lines, agree } = await verdicts('absdiff');
    assert.deepEqual(lines, ['accepted/absdiff.cc: AC', 'accepted/absdiff.ml: AC', 'accepted/absdiff.py: AC', 'accepted/plus_sign.py: AC',
      'run_time_error/crash.py: RTE', 'time_limit_exceeded/count_up.py: TLE', 'wrong_answer/no_abs.py: WA', 'wrong_answer/overflow.cc: WA']);
    assert.ok(agree.every(Boolean));
  });

  test('oddcount (scoring groups): full, partial and zero scores', async () => {
    const { lines, agree } = await verdicts('oddcount');
    assert.deepEqual(lines, ['accepted/odd.py: AC 100', 'partially_accepted/small_only.py: AC 30', 'wrong_answer/zero.py: WA 0']);
    assert.ok(agree.every(Boolean));
  });
});

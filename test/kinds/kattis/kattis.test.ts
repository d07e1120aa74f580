/**
 * Kattis/problemtools packages end to end through a real judge and sandbox (#31 item 10): the three packages under
 * test/fixtures/kattis (written for these tests in problemtools' layouts: `circlearea` legacy with the default
 * validator's float tolerance, `absdiff` legacy with its own C++ output validator and flags, `oddcount` 2023-07
 * scoring with two groups) are read as published and every labelled submission is judged as `crucible
 * validate-package` judges it; each must agree with its label, as problemtools' `verifyproblem` requires. A scoring
 * package whose own validator gives scores (`feedback/score.txt`, read back from the validator's box) is built inline.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { KattisProblem } from '../../../src/formats/types.js';
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

/**
 * A validator giving custom scores: the output's integer k in 0..100 is accepted with score k (`score.txt`), a
 * negative k is a wrong answer with a judge message, 999 a wrong answer that also writes score.txt (problemtools:
 * a judge error).
 */
const SCORING_VALIDATOR = [
  'import sys',
  'feedback = sys.argv[3]',
  'k = int(sys.stdin.read().split()[0])',
  'if k == 999:',
  '    open(feedback + "score.txt", "w").write("5\\n")',
  '    sys.exit(43)',
  'if k < 0:',
  '    open(feedback + "judgemessage.txt", "w").write(f"negative: {k}\\n")',
  '    sys.exit(43)',
  'open(feedback + "score.txt", "w").write(f"{k}\\n")',
  'sys.exit(42)',
  '',
].join('\n');

const scoringProblem: KattisProblem = {
  kind: 'kattis', taskId: 'customscore', formatVersion: '2023-07', scoring: true,
  validator: { kind: 'custom', language: 'python', source: SCORING_VALIDATOR, customScore: true },
  tests: [{ name: 'secret/1', input: '1\n', answer: '100\n', validatorArgs: [] }],
  root: { name: 'data', onReject: 'break', graderFlags: [], acceptScore: 1, rejectScore: 0, range: [0, 100], items: [{ test: 0 }] },
  timeLimitMs: 2000, timeLimitFrom: 'problem.yaml', timing: { acToTimeLimit: 2, timeLimitToTle: 1.5, resolutionMs: 1000 },
  memoryLimitKiB: 262_144, outputLimitBytes: 1 << 20,
};

describe('a package\'s own validator with custom scores (feedback files read back from its box)', () => {
  const judged = (k: number) => judge.judge({ problem: { inline: scoringProblem }, program: { language: 'python', source: `print(${k})\n` } });

  test('score.txt is the test\'s points; the root score over the range\'s top is the verdict\'s score', async () => {
    const full = await judged(100);
    assert.deepEqual([full.status, full.score, full.tests[0]?.points], ['passed', 1, 100]);
    const part = await judged(40);
    assert.deepEqual([part.status, part.score, part.tests[0]?.points], ['wrong_answer', 0.4, 40]);
    assert.match(part.reason ?? '', /partially accepted: score 40 of 100/);
  });

  test('a wrong answer carries the judge message; score.txt on a wrong answer is a judge error, never the program\'s', async () => {
    const wrong = await judged(-3);
    assert.equal(wrong.status, 'wrong_answer');
    assert.match(wrong.reason ?? '', /negative: -3/);
    const je = await judged(999);
    assert.equal(je.status, 'internal_error');
    assert.match(je.reason ?? '', /score\.txt on a wrong answer/);
  });
});

/**
 * The pure parts of contest judging: the output comparisons of guipenedo/piston's packages (checked against what
 * their bash does: `normalize_output` + `diff -b` for codeforces, `diff -b` for cms_ioi), `grader_config`
 * parsing, the testlib verdict mapping, and IOI GroupMin subtask sums.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  cmsDiffMatch, codeforcesMatch, groupMinScore, normalizeCodeforces, parseCodeforcesConfig, subtaskPoints, testlibVerdict,
} from '../../../src/engine/contest/index.js';
import { dropEmptyLines, echoed, stripCarriageReturns } from '../../../src/kinds/checker/output-match.js';
import type { ExecutionResult } from '../../../src/sandbox/types.js';

describe('codeforces package comparison', () => {
  test('yes/no in any case as whole words, all whitespace one space', () => {
    assert.equal(normalizeCodeforces('Yes\n  no\t\nYESTERDAY nO,\r\n'), 'YES NO YESTERDAY NO,');
    assert.ok(codeforcesMatch('YES\n1 2\n', 'yes 1\n\n   2'));
    assert.ok(!codeforcesMatch('YES\n12\n', 'YES\n1 2\n'), 'a space inside a line matters');
    assert.ok(!codeforcesMatch('1 2', '2 1'));
  });

  test('what the run script does to the files first', () => {
    assert.equal(stripCarriageReturns('1\r\n2\r'), '1\n2');
    assert.equal(dropEmptyLines('a\n\n\nb\n \n'), 'a\nb\n \n');
    assert.equal(echoed('42\n\n\n'), '42\n');
  });
});

describe('cms_ioi Batch comparison (diff -b)', () => {
  test('blank runs and line ends are ignored, leading blanks and extra lines are not', () => {
    assert.ok(cmsDiffMatch('1  2\n', '1 2'));
    assert.ok(cmsDiffMatch('1 2\n\n', '1 2 \r\n'));
    assert.ok(!cmsDiffMatch('1 2\n', ' 1 2\n'));
    assert.ok(!cmsDiffMatch('1 2\n', '1 2\n\n'));
  });
});

describe('grader_config', () => {
  test('bash assignments, quoted or not; a bad number names its key', () => {
    assert.deepEqual(parseCodeforcesConfig('TIME_LIMIT=2.5\nMEMORY_LIMIT="256"\nINPUT_MODE=file\n'),
      { timeLimitSeconds: 2.5, memoryLimitMB: 256, inputMode: 'file' });
    assert.deepEqual(parseCodeforcesConfig(undefined), { timeLimitSeconds: null, memoryLimitMB: null, inputMode: 'stdio' });
    assert.throws(() => parseCodeforcesConfig('TIME_LIMIT=soon'), /grader_config: TIME_LIMIT/);
  });
});

describe('testlib exit codes', () => {
  const run = (exitCode: number, stderr: string): ExecutionResult => ({
    status: exitCode === 0 ? 'ok' : 'runtime_error', exitCode, signal: null, cpuMs: 1, wallMs: 1, memoryKiB: 1, stdout: '', stderr,
    stdoutTruncated: false, stderrTruncated: false, memoryEnforcement: 'cgroup',
  });

  test('0 ok, 1 wa, 2 pe, 3 fail, 7 points; anything else, or points outside [0, 1], fail', () => {
    assert.equal(testlibVerdict(run(0, 'ok fine')).verdict, 'ok');
    assert.equal(testlibVerdict(run(1, 'wrong answer x')).verdict, 'wrong_answer');
    assert.equal(testlibVerdict(run(2, 'wrong output format x')).verdict, 'presentation_error');
    assert.equal(testlibVerdict(run(3, 'FAIL x')).verdict, 'fail');
    assert.deepEqual([testlibVerdict(run(7, 'points 0.25 close')).verdict, testlibVerdict(run(7, 'points 0.25 close')).score], ['points', 0.25]);
    assert.equal(testlibVerdict(run(7, 'points 40')).verdict, 'fail');
    assert.equal(testlibVerdict(run(4, 'dirt')).verdict, 'fail');
    assert.equal(testlibVerdict({ ...run(0, ''), status: 'time_limit_exceeded', exitCode: null }).verdict, 'fail');
  });
});

describe('IOI GroupMin', () => {
  test('sum over subtasks of points x the smallest test score', () => {
    assert.equal(subtaskPoints({ points: 30, testScores: [1, 1] }), 30);
    assert.equal(subtaskPoints({ points: 70, testScores: [1, 0.5, 1] }), 35);
    assert.equal(subtaskPoints({ points: 10, testScores: [] }), 0);
    assert.equal(groupMinScore([{ points: 30, testScores: [1, 1] }, { points: 70, testScores: [1, 0, 1] }]), 30);
    assert.equal(groupMinScore([{ points: 17, testScores: [1 / 3] }]), 5.67);
    assert.throws(() => groupMinScore([{ points: 10, testScores: [1.5] }]), /not in \[0, 1\]/);
  });
});

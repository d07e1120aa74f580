/**
 * The APPS/TACO and CodeContests readers on rows in the published shapes (test/formats/data/contests): detection,
 * stdin vs call-based problems, APPS's list-of-lines values, limits and reference solutions, bad rows named by line
 * and field. Judging them in the sandbox: test/acceptance/contests.test.ts.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DatasetError, detectProblemFormat, readProblems } from '../../src/formats/index.js';
import type { ExpectedCallProblem, IoProblem } from '../../src/formats/types.js';
import { CONTESTS_DIR, tempFile } from './helpers.js';

describe('APPS and TACO problems', () => {
  it('APPS: stdin rows become io problems with the apps comparator, fn_name rows expected_call with the APPS rule', async () => {
    const path = join(CONTESTS_DIR, 'apps.jsonl');
    assert.equal(await detectProblemFormat(path), 'apps');
    const [melon, lowest] = await readProblems(path) as [IoProblem, ExpectedCallProblem];
    assert.equal(melon.taskId, '4000');
    assert.deepEqual(melon.comparator, { kind: 'apps' });
    assert.equal(melon.timeLimitMs, 4000);
    assert.deepEqual(melon.tests[3], { input: '100', output: 'YES' }, 'a list of lines is joined with \\n');
    assert.match(melon.referenceSolution!.code, /w % 2 == 0/);
    assert.equal(lowest.kind, 'expected_call');
    assert.equal(lowest.rule, 'apps');
    assert.deepEqual(lowest.tests[0], { args: [{ l: [5, 8, 12, 18, 22].map((n) => ({ i: String(n) })) }], expected: { l: [{ i: '13' }] } });
  });

  it('call-based dicts get int keys as APPS gives them (arguments and expected values)', async () => {
    const io = { fn_name: 'f', inputs: [[{ '1': 'a', '20': 'b' }, 7], [{ x: 1 }]], outputs: [[{ '3': true }], { '-4': 0 }] };
    const path = tempFile('apps-dict.jsonl', `${JSON.stringify({ problem_id: 9, question: 'q', input_output: JSON.stringify(io) })}\n`);
    const [p] = await readProblems(path, 'apps') as [ExpectedCallProblem];
    assert.deepEqual(p.tests[0], { args: [{ d: [[{ i: '1' }, 'a'], [{ i: '20' }, 'b']] }], expected: { l: [{ d: [[{ i: '3' }, true]] }] } });
    assert.deepEqual(p.tests[1], { args: [{ d: [['x', { i: '1' }]] }], expected: { l: [{ d: [[{ i: '-4' }, { i: '0' }]] }] } });
  });

  it('TACO: named by row, date kept as the release date', async () => {
    const path = join(CONTESTS_DIR, 'taco.jsonl');
    assert.equal(await detectProblemFormat(path), 'apps');
    const [theatre] = await readProblems(path, 'taco') as [IoProblem];
    assert.equal(theatre.taskId, '0');
    assert.equal(theatre.releaseDate, '2010-01-01');
    assert.equal(theatre.tests.length, 3);
  });

  it('bad rows: empty input_output, unequal inputs/outputs, a non-list argument', async () => {
    const row = { problem_id: 1, question: 'q', solutions: '[]', starter_code: '' };
    const cases: [unknown, RegExp][] = [
      [{ ...row, input_output: '' }, /:1: field "input_output": empty/],
      [{ ...row, input_output: JSON.stringify({ inputs: ['1'], outputs: [] }) }, /1 inputs but 0 outputs/],
      [{ ...row, input_output: JSON.stringify({ fn_name: 'f', inputs: [1], outputs: [1] }) }, /field "input_output.inputs\[0\]": expected an argument list/],
      [{ ...row, input_output: JSON.stringify({ inputs: [1], outputs: ['1'] }) }, /field "input_output.inputs\[0\]": expected a string/],
    ];
    for (const [r, message] of cases) {
      await assert.rejects(readProblems(tempFile('apps.jsonl', `${JSON.stringify(r)}\n`), 'apps'),
        (e: Error) => e instanceof DatasetError && message.test(e.message));
    }
  });
});

describe('CodeContests problems', () => {
  it('all tests in order, limits from time_limit and memory_limit_bytes, a PYTHON3 reference, the codecontests comparator', async () => {
    const path = join(CONTESTS_DIR, 'code_contests.jsonl');
    assert.equal(await detectProblemFormat(path), 'codecontests');
    const [theatre, circle] = await readProblems(path) as [IoProblem, IoProblem];
    assert.equal(theatre.taskId, '1_A. Theatre Square');
    assert.deepEqual(theatre.tests.map((t) => t.output), ['4\n', '1\n', '2\n', '1000000000000000000\n', '8\n']);
    assert.deepEqual(theatre.comparator, { kind: 'codecontests' });
    assert.equal(theatre.timeLimitMs, 1000);
    assert.equal(theatre.memoryLimitKiB, 250000);
    assert.equal(theatre.referenceSolution!.language, 'python');
    assert.equal(circle.timeLimitMs, 2500);
  });

  it('bad rows are named by line and field', async () => {
    const r = { name: 'x', public_tests: { input: ['1'], output: [] }, private_tests: { input: [], output: [] } };
    await assert.rejects(readProblems(tempFile('cc.jsonl', `${JSON.stringify(r)}\n`), 'codecontests'),
      (e: Error) => e instanceof DatasetError && /:1: field "public_tests": as many outputs as inputs/.test(e.message));
  });
});

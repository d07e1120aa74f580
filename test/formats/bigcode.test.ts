/**
 * bigcode-evaluation-harness generation files matched to problems as the harness made them (src/formats/bigcode.ts),
 * on the published MBPP and HumanEval files in ../shared/data: MBPP's lists follow the harness's test split (task
 * ids 11-510), not the file's lines; generations that carry the harness's prompts are matched by prompt whatever
 * their --limit_start; anything that cannot be matched unambiguously is refused with one line.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { alignBigcode, bigcodePrompt, DatasetError, MBPP_TEST_SPLIT, readProblems } from '../../src/formats/index.js';
import type { Problem, PythonScriptProblem } from '../../src/formats/types.js';
import { HUMANEVAL } from '../support/data.js';
import { MBPP_PATH } from '../support/mbpp.js';

let mbpp: PythonScriptProblem[] = [];
let humanEval: Problem[] = [];
const byId = (problems: readonly Problem[], id: string): Problem => problems.find((p) => p.taskId === id)!;

before(async () => {
  mbpp = (await readProblems(MBPP_PATH)) as PythonScriptProblem[];
  humanEval = await readProblems(HUMANEVAL);
});

describe('bigcode generations', () => {
  it('500 lists on MBPP as published follow the test split: list i is task 11 + i, not line i + 1', () => {
    const lists = Array.from({ length: 500 }, (_, i) => [(byId(mbpp, String(MBPP_TEST_SPLIT.first + i)) as PythonScriptProblem).canonicalSolution!]);
    const aligned = alignBigcode('generations.json', lists, mbpp);
    assert.equal(aligned.matchedBy, 'order');
    assert.equal(aligned.split.subsetOfFile, true);
    assert.equal(aligned.split.taskIds.length, 500);
    assert.match(aligned.split.name, /MBPP test split \(task ids 11-510/);
    assert.deepEqual(aligned.samples.slice(0, 2).map((s) => s.taskId), ['11', '12']);
    assert.equal(aligned.samples[499]!.taskId, '510');
    assert.ok(aligned.samples.every((s) => s.solution === (byId(mbpp, s.taskId) as PythonScriptProblem).canonicalSolution));
  });

  it('refuses what cannot be matched: more lists than the split, a shorter file without its start, a start past the end', () => {
    const refused = (lists: unknown, problems: readonly Problem[], start?: number): RegExp | Error => {
      try {
        alignBigcode('g.json', lists, problems, start === undefined ? {} : { start });
      } catch (error) {
        assert.ok(error instanceof DatasetError);
        assert.doesNotMatch(error.message, /\n/);
        return error;
      }
      assert.fail('not refused');
    };
    const none = (n: number): string[][] => Array.from({ length: n }, () => ['pass']);
    assert.match(String(refused(none(974), mbpp)), /974 lists, but MBPP test split .* has 500 problems/);
    assert.match(String(refused(none(10), mbpp)), /10 lists for the 500 problems of MBPP test split.*--bigcode-start N/);
    assert.match(String(refused(none(10), mbpp, 495)), /10 lists from position 495 run past the 500 problems/);
    const fromStart = alignBigcode('g.json', none(10), mbpp, { start: 490 });
    assert.deepEqual([fromStart.samples[0]!.taskId, fromStart.samples[9]!.taskId, fromStart.start], ['501', '510', 490]);
    assert.match(String(refused(none(165), humanEval)), /165 lists, but the problems file has 164 problems/);
  });

  it('generations that start with the harness\'s prompts are matched by prompt, in any order and from any --limit_start', () => {
    // tasks/mbpp.py: '"""\n' + text + '\n' + test_list[0] + '\n"""\n' + the generation.
    const ids = ['300', '17', '42'];
    const lists = ids.map((id) => [`${bigcodePrompt(byId(mbpp, id))}def f():\n    pass\n`, 'no prompt in the second']);
    const aligned = alignBigcode('g.json', lists, mbpp);
    assert.equal(aligned.matchedBy, 'prompts');
    assert.deepEqual(aligned.samples.map((s) => [s.taskId, s.index]), [['300', 0], ['300', 1], ['17', 0], ['17', 1], ['42', 0], ['42', 1]]);
    // tasks/humaneval.py: the stripped prompt + the generation; --limit_start 5 --limit 3.
    const he = [5, 6, 7].map((i) => [`${bigcodePrompt(humanEval[i]!)}\n    return 0\n`]);
    assert.equal(bigcodePrompt(humanEval[5]!), (humanEval[5] as { prompt: string }).prompt.trim());
    const matched = alignBigcode('g.json', he, humanEval);
    assert.equal(matched.matchedBy, 'prompts');
    assert.deepEqual(matched.samples.map((s) => s.taskId), ['HumanEval/5', 'HumanEval/6', 'HumanEval/7']);
    // One list whose generation starts with no prompt: matched by order, which three lists of 164 cannot be.
    assert.throws(() => alignBigcode('g.json', [...he.slice(0, 2), ['x = 1']], humanEval), /3 lists for the 164 problems/);
  });

  it('a problems file that is not MBPP as published is its own split, in file order (a 3-task MBPP extract, HumanEval)', () => {
    const extract = mbpp.slice(0, 3);
    const aligned = alignBigcode('g.json', [['a'], ['b'], ['c']], extract);
    assert.equal(aligned.split.subsetOfFile, false);
    assert.deepEqual(aligned.samples.map((s) => s.taskId), ['1', '2', '3']);
    const he = alignBigcode('g.json', humanEval.map(() => ['x']), humanEval);
    assert.deepEqual([he.samples[0]!.taskId, he.samples[163]!.taskId, he.split.subsetOfFile], ['HumanEval/0', 'HumanEval/163', false]);
  });
});

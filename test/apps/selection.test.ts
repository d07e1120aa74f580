/**
 * What an evaluation covers (src/apps/selection.ts): samples that leave problems out are refused in one line, as
 * openai/human-eval refuses them; --limit and --tasks choose a deliberate subset, in the split's order when the
 * samples follow a harness's split; the scope says so.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IncompleteSamplesError, scopeLine, selectProblems, SelectionError } from '../../src/apps/selection.js';
import type { IoProblem, Sample } from '../../src/formats/types.js';

const problem = (taskId: string): IoProblem => ({ kind: 'io', taskId, comparator: { kind: 'tokens' }, tests: [{ input: '', output: '' }] });
const problems = ['p1', 'p2', 'p3', 'p4', 'p5'].map(problem);
const sample = (taskId: string, index = 0): Sample => ({ taskId, index, solution: 'print()' });

test('every problem attempted: the whole file, not a subset', () => {
  const { problems: selected, samples, scope } = selectProblems(problems, problems.map((p) => sample(p.taskId)), {});
  assert.equal(selected.length, 5);
  assert.equal(samples.length, 5);
  assert.deepEqual(scope, { problemsInFile: 5, problems: 5, subset: false });
  assert.equal(scopeLine(scope), undefined);
});

test('samples for part of the problems are refused in one line naming what is missing and what to do', () => {
  const error = (() => {
    try {
      selectProblems(problems, [sample('p1'), sample('p3')], {}, 'model.jsonl');
    } catch (e) {
      return e as Error;
    }
    return assert.fail('not refused');
  })();
  assert.ok(error instanceof IncompleteSamplesError);
  assert.match(error.message, /^model\.jsonl: samples attempt 2 of the 5 problems \(none for p2, p4, p5\); .*--limit N .*--tasks ID,\.\.\.$/);
  assert.doesNotMatch(error.message, /\n/);
});

test('--limit and --tasks select a deliberate subset, stamped as one; samples of other problems are set aside', () => {
  const all = problems.map((p) => sample(p.taskId));
  const limited = selectProblems(problems, all, { limit: 2 });
  assert.deepEqual(limited.problems.map((p) => p.taskId), ['p1', 'p2']);
  assert.deepEqual(limited.samples.map((s) => s.taskId), ['p1', 'p2']);
  assert.deepEqual(limited.scope, { problemsInFile: 5, problems: 2, limit: 2, subset: true });
  assert.match(scopeLine(limited.scope)!, /^SUBSET: pass@k is over 2 of the 5 problems in the file \(--limit 2\)/);
  const tasks = selectProblems(problems, [sample('p4'), sample('p2'), sample('p2', 1)], { tasks: ['p4', 'p2'] });
  assert.deepEqual(tasks.problems.map((p) => p.taskId), ['p2', 'p4'], 'file order');
  assert.equal(tasks.samples.length, 3);
  assert.equal(tasks.scope.subset, true);
  // A limit at least the file's size is the whole file.
  assert.equal(selectProblems(problems, all, { limit: 50 }).scope.subset, false);
  // The subset must be attempted too.
  assert.throws(() => selectProblems(problems, [sample('p1')], { limit: 2 }),
    /samples attempt 1 of the 2 problems selected by --limit 2 \(none for p2\)/);
  assert.throws(() => selectProblems(problems, all, { tasks: ['p9'] }), (e: Error) => e instanceof SelectionError && /--tasks: no problem "p9"/.test(e.message));
  assert.throws(() => selectProblems(problems, all, { limit: 0 }), SelectionError);
});

test('a harness\'s split: its problems in its order, the whole split is not a subset, --limit counts within it', () => {
  const split = { name: 'test split', taskIds: ['p4', 'p2', 'p3'] };
  const whole = selectProblems(problems, [sample('p2'), sample('p3'), sample('p4')], { split });
  assert.deepEqual(whole.problems.map((p) => p.taskId), ['p4', 'p2', 'p3']);
  assert.deepEqual(whole.scope, { problemsInFile: 5, problems: 3, split: { name: 'test split', problems: 3 }, subset: false });
  assert.equal(scopeLine(whole.scope), 'split: the test split: 3 of the file\'s 5 problems');
  const first = selectProblems(problems, [sample('p4'), sample('p2')], { split, limit: 2 });
  assert.deepEqual(first.problems.map((p) => p.taskId), ['p4', 'p2']);
  assert.match(scopeLine(first.scope)!, /over 2 of the 3 problems of the test split \(--limit 2\)/);
  assert.throws(() => selectProblems(problems, [sample('p4')], { split }), /samples attempt 1 of the 3 problems of the test split/);
});

test('a sample of no problem of the file is kept, for evaluate to report at its line', () => {
  const { samples } = selectProblems(problems, [...problems.map((p) => sample(p.taskId)), sample('elsewhere')], {});
  assert.ok(samples.some((s) => s.taskId === 'elsewhere'));
});

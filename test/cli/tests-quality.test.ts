/**
 * `crucible tests-quality` through the real CLI and the sandbox (issue #28, item 4): `--per-problem N` keeps the
 * first N labelled solutions of each problem in file order and says so in the JSON; `--out` writes the same report;
 * samples naming a task the problems file lacks, and missing files, are refused with exit code 2.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readProblems } from '../../src/formats/index.js';
import { cliWorkspace } from '../support/cli.js';
import { HUMANEVAL } from '../support/data.js';

const { dir, crucible, file } = cliWorkspace('tests-quality');

interface Report {
  perProblem?: number; mutantsPerProblem: number; stopAfterTimeouts: number | null;
  overall: { problems: number; correct: number; incorrect: number; tpr: number | null; tnr: number | null; mutants: number;
    stopAfterTimeouts: number | null; notRunCells: number };
  problems: { taskId: string; correctSamples: number[]; incorrectSamples: number[]; mutation?: { generated: number; language: string } }[];
}

describe('crucible tests-quality', () => {
  it('--per-problem keeps the first N labelled solutions of each problem; --json and --out give the same report', async () => {
    const [problem] = await readProblems(HUMANEVAL);
    const canonical = (problem as { canonicalSolution: string }).canonicalSolution;
    const id = problem!.taskId;
    const correct = file('correct.jsonl', [
      { task_id: id, completion: canonical },
      { task_id: id, completion: '    return any(abs(a - b) < threshold for i, a in enumerate(numbers) for b in numbers[i + 1:])\n' },
    ]);
    // The first incorrect one fails every test; the second (left out by --per-problem 1) would fail too.
    const incorrect = file('incorrect.jsonl', [{ task_id: id, completion: '    return False\n' }, { task_id: id, completion: '    return True\n' }]);
    const out = join(dir, 'report.json');
    const run = await crucible(['tests-quality', '--problems', HUMANEVAL, '--correct', correct, '--incorrect', incorrect,
      '--per-problem', '1', '--mutants', '3', '--jobs', '2', '--json', '--out', out]);
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout) as Report;
    assert.deepEqual([report.perProblem, report.mutantsPerProblem], [1, 3]);
    // The time-out rule's default, recorded with the inputs and in the overall figures; nothing was stopped here.
    assert.deepEqual([report.stopAfterTimeouts, report.overall.stopAfterTimeouts, report.overall.notRunCells], [1, 1, 0]);
    assert.deepEqual([report.overall.problems, report.overall.correct, report.overall.incorrect, report.overall.tpr, report.overall.tnr],
      [1, 1, 1, 1, 1]);
    const [q] = report.problems;
    assert.deepEqual([q!.taskId, q!.correctSamples, q!.incorrectSamples], [id, [0], [0]]);
    assert.deepEqual([q!.mutation?.language, q!.mutation?.generated], ['python', 3]);
    assert.deepEqual(JSON.parse(readFileSync(out, 'utf8')), report);

    const all = await crucible(['tests-quality', '--problems', HUMANEVAL, '--correct', correct, '--incorrect', incorrect, '--mutants', '1', '--stop-after-timeouts', '0', '--json']);
    assert.equal(all.code, 0, all.stderr);
    const whole = JSON.parse(all.stdout) as Report;
    assert.equal(whole.perProblem, undefined);
    assert.deepEqual([whole.stopAfterTimeouts, whole.overall.stopAfterTimeouts], [null, null]);
    assert.deepEqual([whole.problems[0]!.correctSamples, whole.problems[0]!.incorrectSamples, whole.overall.tpr, whole.overall.tnr], [[0, 1], [0, 1], 1, 1]);
  });

  it('refuses samples of a task the problems file lacks, and a missing file, with exit code 2', async () => {
    const stray = file('stray.jsonl', [{ task_id: 'HumanEval/99999', completion: '    return 1\n' }]);
    const unknown = await crucible(['tests-quality', '--problems', HUMANEVAL, '--correct', stray, '--incorrect', stray]);
    assert.equal(unknown.code, 2, unknown.stderr);
    assert.match(unknown.stderr, /--correct .*stray\.jsonl: sample 0 names task "HumanEval\/99999"/);
    const missing = await crucible(['tests-quality', '--problems', HUMANEVAL, '--correct', join(dir, 'nope.jsonl'), '--incorrect', stray]);
    assert.equal(missing.code, 2, missing.stderr);
    assert.match(missing.stderr, /--correct .*nope\.jsonl: no such file or directory/);
  });
});

/**
 * APPS/TACO and CodeContests problems judged in the real sandbox by their own rules: the rows' reference
 * solutions (Python, and CodeContests' C++) pass; a wrong solution fails; APPS's leniencies and CodeContests' float
 * tolerance hold end to end. Problems: test/formats/data/contests (real public items in the published shapes).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readProblems } from '../../src/formats/index.js';
import type { IoProblem, Problem } from '../../src/formats/types.js';
import { defaultModes } from '../../src/kinds/index.js';
import { prepareSubmission } from '../../src/judge/submission.js';
import { LanguageRegistry } from '../../src/languages/registry.js';
import { createJudge } from '../../src/engine/factory.js';
import type { Verdict } from '../../src/verdict/index.js';
import { CONTESTS_DIR } from '../formats/helpers.js';

const languages = LanguageRegistry.load();
const judge = createJudge({ languages, cacheDir: null });
after(() => judge.close());

async function judgeOne(problem: Problem, solution: string, language?: string): Promise<Verdict> {
  judge.catalog.add(`contests-${problem.taskId}`, [problem]);
  const prepared = prepareSubmission(problem, { solution, ...(language === undefined ? {} : { language }) }, { languages, modes: defaultModes() });
  if (prepared.kind !== 'program') throw new Error(`${problem.taskId}: no program`);
  return judge.judge({ problem: { datasetHash: `contests-${problem.taskId}`, taskId: problem.taskId }, program: prepared.program });
}

describe('APPS / TACO judged by APPS\'s rules', () => {
  it('stdin: the references pass (APPS, TACO); a wrong one fails', async () => {
    const [melon] = await readProblems(join(CONTESTS_DIR, 'apps.jsonl')) as [IoProblem];
    assert.equal((await judgeOne(melon, melon.referenceSolution!.code)).status, 'passed');
    assert.equal((await judgeOne(melon, 'input()\nprint("YES")\n')).status, 'wrong_answer');
    const [theatre] = await readProblems(join(CONTESTS_DIR, 'taco.jsonl')) as [IoProblem];
    assert.equal((await judgeOne(theatre, theatre.referenceSolution!.code)).status, 'passed');
  });

  it('call-based: APPS wraps expected values in a list; a tuple counts as a list; a wrong value fails', async () => {
    const [, lowest] = await readProblems(join(CONTESTS_DIR, 'apps.jsonl'));
    const right = await judgeOne(lowest!, 'def sum_two_smallest_numbers(numbers):\n    return sum(sorted(numbers)[:2])\n');
    assert.equal(right.status, 'passed', JSON.stringify(right));
    const wrong = await judgeOne(lowest!, 'def sum_two_smallest_numbers(numbers):\n    return min(numbers)\n');
    assert.equal(wrong.status, 'wrong_answer');
    assert.equal(wrong.testCount, 3);
  });
});

describe('CodeContests judged by its OutputsMatch', () => {
  it('the C++ and Python references pass; the dataset\'s incorrect solution fails; floats within 1e-5 pass', async () => {
    const [theatre, circle] = await readProblems(join(CONTESTS_DIR, 'code_contests.jsonl')) as [IoProblem, IoProblem];
    const rows = (await import('node:fs')).readFileSync(join(CONTESTS_DIR, 'code_contests.jsonl'), 'utf8').split('\n');
    const row = JSON.parse(rows[0]!) as { solutions: { solution: string[] }; incorrect_solutions: { solution: string[] } };
    assert.equal((await judgeOne(theatre, row.solutions.solution[0]!, 'cpp')).status, 'passed');
    assert.equal((await judgeOne(theatre, theatre.referenceSolution!.code)).status, 'passed');
    assert.equal((await judgeOne(theatre, row.incorrect_solutions.solution[0]!)).status, 'wrong_answer');
    const pass = await judgeOne(circle, circle.referenceSolution!.code);
    assert.equal(pass.status, 'passed', JSON.stringify(pass));
    assert.equal((await judgeOne(circle, 'import math\nr = float(input())\nprint(round(math.pi * r * r, 3))\n')).status, 'wrong_answer');
  });
});

/**
 * Real-data acceptance for MBPP as published (google-research `mbpp/mbpp.jsonl`, read from ../shared/data, never
 * copied into the tree): every one of the 974 reference solutions (`code`) is judged as MBPP judges it (program,
 * `test_setup_code`, then the asserts, in one process: the `python_script` mode through the Python harness), and
 * must pass except the known failures below, each asserted exactly and explained in docs/FORMATS.md ("MBPP");
 * a deliberately broken solution of every task (the reference with its first function returning `None` at once)
 * fails on every task whose asserts can tell (all but the known exceptions listed).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { readProblems } from '../../src/formats/index.js';
import type { PythonScriptProblem } from '../../src/formats/types.js';
import { LanguageRegistry } from '../../src/languages/registry.js';
import { createJudge } from '../../src/engine/factory.js';
import { judgeCompletions } from '../support/humaneval-x.js';
import { MBPP_PATH as MBPP, mbppEarlyReturn as earlyReturn, mbppReference as reference } from '../support/mbpp.js';

const languages = LanguageRegistry.load();
const judge = createJudge({ languages, cacheDir: null });
after(() => judge.close());

describe('MBPP (original, as published): reference solutions and early-return solutions', () => {
  let problems: PythonScriptProblem[] = [];

  it('reads all 974 tasks with --format auto', async () => {
    problems = (await readProblems(MBPP)) as PythonScriptProblem[];
    assert.equal(problems.length, 974);
    assert.ok(problems.every((p) => p.kind === 'python_script'));
  });

  it('reference solutions pass', async () => {
    const verdicts = await judgeCompletions(judge, languages, MBPP, problems, reference);
    const failing = verdicts.flatMap((v, i) => v.passed ? [] : [`${problems[i]!.taskId}: ${v.status}: ${v.reason}`]);
    console.log(`MBPP reference solutions: ${974 - failing.length}/974 passed\n${failing.join('\n')}`);
    assert.deepEqual(failing, []);
  });

  it('early-return solutions fail', async () => {
    const verdicts = await judgeCompletions(judge, languages, MBPP, problems, earlyReturn);
    const passing = verdicts.flatMap((v, i) => v.passed ? [problems[i]!.taskId] : []);
    const statuses = new Map<string, number>();
    for (const v of verdicts) statuses.set(v.status, (statuses.get(v.status) ?? 0) + 1);
    console.log(`MBPP early-return: ${974 - passing.length}/974 failed (${[...statuses].map(([s, n]) => `${s} ${n}`).join(', ')})`);
    assert.deepEqual(passing, []);
    // Judged as a program's failure (a failed assert or the exception a None causes), never as Crucible's.
    assert.deepEqual([...statuses.keys()].filter((s) => s !== 'wrong_answer' && s !== 'runtime_error'), []);
  });
});

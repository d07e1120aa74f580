/**
 * The MBPP reader: the original file as published (../shared/data/mbpp), the sanitized release's shape (a JSON
 * array with `prompt` and `test_imports`, built here from real MBPP items since the sanitized file is not in
 * ../shared/data), detection, numeric sample ids, and bad records named by file, line and field.
 * Judging all 974 reference solutions runs in test/acceptance/mbpp.test.ts.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DatasetError, detectProblemFormat, readProblems, readSampleJsonl } from '../../src/formats/index.js';
import { MBPP_TIME_LIMIT_MS } from '../../src/formats/mbpp.js';
import type { PythonScriptProblem } from '../../src/formats/types.js';
import { DATA, tempFile } from './helpers.js';

const MBPP = join(DATA, 'mbpp', 'mbpp.jsonl.gz');

/** MBPP task 2 in the sanitized release's shape (`prompt`, `test_imports`, `source_file`). */
const SANITIZED_2 = {
  source_file: 'Benchmark Questions Verification V2.ipynb', task_id: 2,
  prompt: 'Write a function to find the shared elements from the given two lists.',
  code: 'def similar_elements(test_tup1, test_tup2):\n  res = tuple(set(test_tup1) & set(test_tup2))\n  return (res) ',
  test_imports: ['import math'],
  test_list: ['assert set(similar_elements((3, 4, 5, 6),(5, 7, 4, 10))) == set((4, 5))'],
};

describe('MBPP problems', () => {
  it('the original file is detected and reads as 974 python_script problems, test_setup_code kept', async () => {
    assert.equal(await detectProblemFormat(MBPP), 'mbpp');
    const problems = await readProblems(MBPP) as PythonScriptProblem[];
    assert.equal(problems.length, 974);
    const byId = new Map(problems.map((p) => [p.taskId, p]));
    const first = byId.get('1')!;
    assert.equal(first.kind, 'python_script');
    assert.match(first.statement, /minimum cost path/);
    assert.equal(first.tests.length, 3);
    assert.equal(first.timeLimitMs, MBPP_TIME_LIMIT_MS);
    assert.match(byId.get('367')!.setup, /^root = Node\(1\)/);
    assert.equal(byId.get('1')!.setup, '');
  });

  it('challenge_test_list is judged only with --format mbpp-challenge', async () => {
    const plain = await readProblems(MBPP, 'mbpp') as PythonScriptProblem[];
    const challenge = await readProblems(MBPP, 'mbpp-challenge') as PythonScriptProblem[];
    const grew = challenge.filter((p, i) => p.tests.length > plain[i]!.tests.length).length;
    assert.equal(grew, 11);
  });

  it('reads the sanitized shape as a JSON array and as JSONL; test_imports become the setup', async () => {
    const array = tempFile('sanitized-mbpp.json', JSON.stringify([SANITIZED_2], null, 1));
    assert.equal(await detectProblemFormat(array), 'mbpp');
    const jsonl = tempFile('sanitized.jsonl', `${JSON.stringify(SANITIZED_2)}\n`);
    for (const path of [array, jsonl]) {
      const [p] = await readProblems(path) as PythonScriptProblem[];
      assert.deepEqual([p!.taskId, p!.setup, p!.statement, p!.tests], ['2', 'import math', SANITIZED_2.prompt, SANITIZED_2.test_list]);
    }
  });

  it('bad records are named by file, line (or array index) and field', async () => {
    const { test_list: _, ...noTests } = SANITIZED_2;
    const jsonl = tempFile('bad.jsonl', `${JSON.stringify(SANITIZED_2)}\n${JSON.stringify(noTests)}\n`);
    await assert.rejects(readProblems(jsonl, 'mbpp'),
      (e: Error) => e instanceof DatasetError && e.line === 2 && e.field === 'test_list' && /bad\.jsonl:2/.test(e.message));
    const dup = tempFile('dup.json', JSON.stringify([SANITIZED_2, SANITIZED_2]));
    await assert.rejects(readProblems(dup, 'mbpp'), (e: Error) => e instanceof DatasetError && e.field === '[1].task_id');
    const { prompt: __, ...noText } = SANITIZED_2;
    const arr = tempFile('notext.json', JSON.stringify([noText]));
    await assert.rejects(readProblems(arr, 'mbpp'), (e: Error) => e instanceof DatasetError && e.field === '[0].text');
  });

  it('sample files with numeric task ids (as MBPP numbers them) match the problems', async () => {
    const path = tempFile('s.jsonl', `${JSON.stringify({ task_id: 2, completion: 'x' })}\n`);
    const [s] = await readSampleJsonl(path);
    assert.equal(s!.taskId, '2');
  });
});

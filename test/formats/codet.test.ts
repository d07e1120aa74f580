import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  cutAtStopSequences,
  DatasetError,
  extractCodetTestCases,
  looksLikeCompilablePython,
  readCodetTests,
  readProblems,
  readSamples,
} from '../../src/formats/index.js';
import { CODET_PROBLEMS, CODET_SOLUTIONS, CODET_TESTS, tempFile } from './helpers.js';

test('stop sequences cut at the earliest one, as CodeT does', () => {
  const s = '    return x\n\nif __name__ == "__main__":\n    pass\n\ndef other():\n    pass';
  assert.equal(cutAtStopSequences(s), '    return x\n');
  assert.equal(cutAtStopSequences('    a = 1\n#x\nclass A: pass'), '    a = 1');
  assert.equal(cutAtStopSequences('    return 1\n    # inner comment stays\n'), '    return 1\n    # inner comment stays\n');
  assert.equal(cutAtStopSequences('    print(1)\nprint(2)'), '    print(1)');
  assert.equal(cutAtStopSequences('no stop'), 'no stop');
});

test('CodeT samples: 16,400 over 164 tasks, 12,408 distinct, indexes 0..99, cut applied', async () => {
  const problems = await readProblems(CODET_PROBLEMS);
  const samples = await readSamples(CODET_SOLUTIONS, { problems });
  assert.equal(samples.length, 16400);
  assert.equal(new Set(samples.map((s) => s.taskId)).size, 164);
  assert.equal(new Set(samples.map((s) => `${s.taskId}\0${s.completion}`)).size, 12408);
  assert.deepEqual([...new Set(samples.map((s) => s.index))].sort((a, b) => a - b).at(-1), 99);
  for (const s of samples) for (const stop of ['\nclass', '\ndef', '\n#', '\nif', '\nprint']) assert.ok(!s.completion!.includes(stop));
});

test('CodeT samples: unknown prompt is a DatasetError naming the line; problems are required', async () => {
  const problems = await readProblems(CODET_PROBLEMS);
  const path = tempFile('codet.jsonl', `{"prompt": "nope", "samples": ["x"]}\n`);
  await assert.rejects(readSamples(path, { problems }), (err: unknown) => {
    assert.ok(err instanceof DatasetError);
    assert.equal(err.line, 1);
    assert.equal(err.field, 'prompt');
    return true;
  });
  await assert.rejects(readSamples(path), /problems are needed/);
});

test('CodeT generated tests: split, cut, validity, limit 5, dedup counts', async () => {
  // Continues a prompt ending in `assert `; a bare `assert` followed by a new line does not compile.
  const gen = 'f(0) == 1\nassert f(2) == 3\nassert g(1) == 1\nassert f(3) ==\nassert f(4) == 5\n\ndef helper(): pass';
  assert.deepEqual(extractCodetTestCases(gen, 'f'), ['assert f(0) == 1', 'assert f(2) == 3', 'assert f(4) == 5']);
  assert.deepEqual(extractCodetTestCases('\n    f(1) == 2', 'f'), []);
  const problems = await readProblems(CODET_PROBLEMS);
  const tests = await readCodetTests(CODET_TESTS, problems);
  assert.equal(tests.size, 164);
  let kept = 0;
  let distinct = 0;
  for (const t of tests.values()) {
    assert.equal(t.perSample.length, 100);
    for (const l of t.perSample) assert.ok(l.length <= 5);
    kept += t.perSample.reduce((a, l) => a + l.length, 0);
    distinct += t.distinct.length;
    assert.equal(t.distinct.reduce((a, d) => a + d.count, 0), t.perSample.reduce((a, l) => a + l.length, 0));
  }
  // Figures from running CodeT's own postprocess.py (Python compile) on this file.
  assert.equal(kept, 9124);
  assert.equal(distinct, 8331);
  const three = await readCodetTests(CODET_TESTS, problems, { limit: 3 });
  for (const t of three.values()) for (const l of t.perSample) assert.ok(l.length <= 3);
});

test('Python syntax check: hand cases', () => {
  const ok = [
    'assert f(1) == 2',
    "assert f('a' 'b') == 'ab', 'msg'",
    'assert f([1,\n  2]) == 3',
    'assert f(1) == 2\nimport os\nfrom .models import *',
    'assert f(1)\ndef g():\n    for i in x:\n        if i:\n            break\n    return 1',
    'assert f(r"\\d") is None',
  ];
  const bad = [
    'assert f(1) ==',
    'assert f(1',
    "assert f('abc) == 1",
    'assert  check the correctness of f',
    'assert import os',
    'assert \nf(1) is False',
    'assert f(1) == 2\n    g()',
    'assert f(x):\n    pass',
    'assert f(1)\nreturn 2',
    'assert f(1) == 2\nfrom __future__ import annotations',
    'assert f(“a”) == 1',
    'assert f(1)\ntry:\n    import x',
    'assert f(1) = 2',
    'assert f(1), ',
  ];
  for (const s of ok) assert.equal(looksLikeCompilablePython(s), true, s);
  for (const s of bad) assert.equal(looksLikeCompilablePython(s), false, s);
});

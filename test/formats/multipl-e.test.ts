/**
 * MultiPL-E files in the shapes MultiPL-E writes them (items written for this test, not MultiPL-E's data):
 * pretty-printed completion files, arrays, a directory with several languages (task ids qualified), the same
 * item in two files (one problem, samples continued), a conflicting duplicate (an error naming both files), and
 * the dataset hash of a directory.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DatasetError, datasetHash, readProblems, readSamples } from '../../src/formats/index.js';

const item = (language: string, extra: Record<string, unknown> = {}) => ({
  name: 'HumanEval_53_add', language, prompt: 'local function add(x, y)\n', tests: 'assert(add(1, 2) == 3)\n',
  stop_tokens: ['\nlocal'], ...extra,
});

function directory(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'crucible-multipl-e-'));
  for (const [name, value] of Object.entries(files)) {
    writeFileSync(join(dir, name), typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  }
  return dir;
}

test('a pretty-printed completion file is one item: problem and samples', async () => {
  const dir = directory({ 'a.json': item('lua', { completions: ['  return x + y\nend', '  return 0\nend'] }) });
  const file = join(dir, 'a.json');
  assert.deepEqual((await readProblems(file)).map((p) => p.taskId), ['HumanEval_53_add']);
  assert.deepEqual((await readSamples(file)).map((s) => [s.taskId, s.index, s.completion]),
    [['HumanEval_53_add', 0, '  return x + y\nend'], ['HumanEval_53_add', 1, '  return 0\nend']]);
});

test('a JSON array of rows is a record per element; a bad element names the file and field', async () => {
  const dir = directory({ 'rows.json': [item('lua'), { ...item('lua'), name: 'HumanEval_54_x' }], 'bad.json': [{ name: 'x' }] });
  assert.deepEqual((await readProblems(join(dir, 'rows.json'))).map((p) => p.taskId), ['HumanEval_53_add', 'HumanEval_54_x']);
  await assert.rejects(readProblems(join(dir, 'bad.json'), 'multipl-e'), (e: Error) => e instanceof DatasetError && /bad\.json:1: field "language"/.test(e.message));
});

test('several languages in one directory: ids are <language>/<name> in problems and samples alike', async () => {
  const dir = directory({
    'lua.json': item('lua', { completions: ['a'] }),
    'js.json': item('js', { completions: ['b', 'c'] }),
  });
  assert.deepEqual((await readProblems(dir)).map((p) => [p.taskId, p.language]),
    [['javascript/HumanEval_53_add', 'javascript'], ['lua/HumanEval_53_add', 'lua']]);
  assert.deepEqual((await readSamples(dir)).map((s) => [s.taskId, s.index]),
    [['javascript/HumanEval_53_add', 0], ['javascript/HumanEval_53_add', 1], ['lua/HumanEval_53_add', 0]]);
});

test('the same item in two files is one problem whose samples continue; a different item of that name is refused', async () => {
  const same = directory({ 'run1.json': item('lua', { completions: ['a', 'b'] }), 'run2.json': item('lua', { completions: ['c'] }) });
  assert.deepEqual((await readProblems(same)).map((p) => p.taskId), ['HumanEval_53_add']);
  assert.deepEqual((await readSamples(same)).map((s) => [s.index, s.completion]), [[0, 'a'], [1, 'b'], [2, 'c']]);
  const conflict = directory({ 'run1.json': item('lua', { completions: ['a'] }),
    'run2.json': item('lua', { tests: 'assert(false)\n', completions: ['c'] }) });
  await assert.rejects(readProblems(conflict),
    (e: Error) => e instanceof DatasetError && /run2\.json:1: field "name": duplicate name "HumanEval_53_add" with a different item than .*run1\.json:1/.test(e.message));
});

test('a directory has a dataset hash: its files\' paths and decompressed contents, wherever it is', async () => {
  const files = { 'a.json': item('lua', { completions: ['a'] }), 'sub.txt': 'x' };
  const one = directory(files);
  const two = directory(files);
  mkdirSync(join(one, 'nested'));
  mkdirSync(join(two, 'nested'));
  assert.equal(await datasetHash(one), await datasetHash(two));
  writeFileSync(join(two, 'nested', 'extra'), 'y');
  assert.notEqual(await datasetHash(one), await datasetHash(two));
  await assert.rejects(datasetHash(join(one, 'missing')), DatasetError);
});

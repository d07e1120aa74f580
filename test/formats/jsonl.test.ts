import assert from 'node:assert/strict';
import { test } from 'node:test';
import { datasetHash, DatasetError, isGzipFile, readSamples } from '../../src/formats/index.js';
import { tempFile } from './helpers.js';

test('malformed line names file, 1-based line and field', async () => {
  const path = tempFile(
    'samples.jsonl',
    '{"task_id": "a", "completion": "x"}\n\n{"task_id": "a", "completion": 17}\n',
  );
  await assert.rejects(readSamples(path), (err: unknown) => {
    assert.ok(err instanceof DatasetError);
    assert.equal(err.line, 3);
    assert.equal(err.field, 'completion');
    assert.equal(err.message, `${path}:3: field "completion": expected string, got number`);
    return true;
  });
});

test('missing field and invalid JSON are DatasetErrors at the right line', async () => {
  const missing = tempFile('m.jsonl', '{"completion": "x"}\n');
  await assert.rejects(readSamples(missing), /m\.jsonl:1: field "task_id": expected string, field is missing/);
  const neither = tempFile('n.jsonl', '{"task_id": "t"}\n');
  await assert.rejects(readSamples(neither), /n\.jsonl:1: field "completion": expected string in "completion", "generation", "solution" or "response"/);
  const response = await readSamples(tempFile('r.jsonl', '{"task_id": "t", "response": "```python\\nprint(1)\\n```"}\n'));
  assert.equal(response[0]!.response, '```python\nprint(1)\n```');
  const bad = tempFile('b.jsonl', '{"task_id": "t", "completion": "x"}\n{"task_id": \n');
  await assert.rejects(readSamples(bad), /b\.jsonl:2: invalid JSON/);
});

test('gzip is detected by magic bytes, not by name; empty lines skipped; index per task', async () => {
  const body = '{"task_id": "a", "completion": "1"}\n\n{"task_id": "b", "solution": "2", "language": "py"}\n{"task_id": "a", "completion": "3"}\n';
  const gzNamedPlain = tempFile('s.jsonl', body, true);
  const plainNamedGz = tempFile('s.jsonl.gz', body, false);
  assert.equal(await isGzipFile(gzNamedPlain), true);
  assert.equal(await isGzipFile(plainNamedGz), false);
  for (const p of [gzNamedPlain, plainNamedGz]) {
    const s = await readSamples(p);
    assert.deepEqual(
      s.map((x) => [x.taskId, x.index, x.completion ?? x.solution, x.language, x.line]),
      [['a', 0, '1', undefined, 1], ['b', 0, '2', 'py', 3], ['a', 1, '3', undefined, 4]],
    );
  }
  // Same decompressed bytes -> same dataset hash (sha256 of "abc" is a known vector).
  assert.equal(await datasetHash(gzNamedPlain), await datasetHash(plainNamedGz));
  assert.equal(
    await datasetHash(tempFile('abc.txt', 'abc', true)),
    'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
  );
});

test('datasetHash of a folder covers every file under it, by relative path and content', async () => {
  const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const make = (files: Record<string, string>): string => {
    const root = mkdtempSync(join(tmpdir(), 'crucible-hash-'));
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(root, name, '..'), { recursive: true });
      writeFileSync(join(root, name), text);
    }
    return root;
  };
  const base = await datasetHash(make({ 'a_ref.sv': 'x', 'sub/b.v': 'y' }));
  assert.match(base, /^[0-9a-f]{64}$/);
  assert.equal(await datasetHash(make({ 'sub/b.v': 'y', 'a_ref.sv': 'x' })), base);
  assert.notEqual(await datasetHash(make({ 'a_ref.sv': 'x', 'sub/b.v': 'z' })), base);
  assert.notEqual(await datasetHash(make({ 'a_ref.sv': 'x', 'sub/c.v': 'y' })), base);
  assert.notEqual(await datasetHash(make({ 'a_ref.sv': 'xy', 'sub/b.v': '' })), base);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRun, RunLoadError } from '../../src/report/load-run.js';
import { tinyRecords, writeRunDir } from './fixtures.js';

test('loads records and the summary', async () => {
  const dir = await writeRunDir(tinyRecords(), undefined, { model: 'tiny' });
  try {
    const run = await loadRun(dir);
    assert.equal(run.records.length, 12);
    assert.deepEqual(run.records[0], tinyRecords()[0]);
    assert.deepEqual(run.summary, { model: 'tiny' });
  } finally {
    await rm(dir, { recursive: true });
  }
});

test('a missing summary.json is allowed; blank lines are skipped', async () => {
  const lines = tinyRecords().map((r) => JSON.stringify(r));
  const dir = await writeRunDir([], [lines[0]!, '', lines[1]!]);
  try {
    const run = await loadRun(dir);
    assert.equal(run.records.length, 2);
    assert.equal(run.summary, undefined);
  } finally {
    await rm(dir, { recursive: true });
  }
});

test('a malformed line is reported with file and line number', async () => {
  const lines = tinyRecords().map((r) => JSON.stringify(r));
  const bad = JSON.stringify({ ...tinyRecords()[1], status: 'exploded' });
  for (const [badLine, pattern] of [
    [bad, /verdicts\.jsonl:3: not a sample record at status/],
    ['{"taskId": "x", ', /verdicts\.jsonl:3: not valid JSON/],
    [JSON.stringify({ ...tinyRecords()[1], sampleIndex: -1 }), /verdicts\.jsonl:3: .*sampleIndex/],
  ] as const) {
    const dir = await writeRunDir([], [lines[0]!, lines[1]!, badLine, lines[2]!]);
    try {
      await assert.rejects(loadRun(dir), (error: unknown) => {
        assert.ok(error instanceof RunLoadError);
        assert.equal(error.code, 'RUN_MALFORMED_LINE');
        assert.equal(error.line, 3);
        assert.equal(error.file, join(dir, 'verdicts.jsonl'));
        assert.match(error.message, pattern);
        return true;
      });
    } finally {
      await rm(dir, { recursive: true });
    }
  }
});

test('missing or empty run directories fail with stable codes', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'crucible-report-'));
  try {
    await assert.rejects(loadRun(dir), (e: unknown) => e instanceof RunLoadError && e.code === 'RUN_FILE_UNREADABLE');
    await writeFile(join(dir, 'verdicts.jsonl'), '\n', 'utf8');
    await assert.rejects(loadRun(dir), (e: unknown) => e instanceof RunLoadError && e.code === 'RUN_EMPTY');
    await writeFile(join(dir, 'verdicts.jsonl'), JSON.stringify(tinyRecords()[0]) + '\n', 'utf8');
    await writeFile(join(dir, 'summary.json'), '{nope', 'utf8');
    await assert.rejects(loadRun(dir), (e: unknown) => e instanceof RunLoadError && e.code === 'RUN_MALFORMED_SUMMARY');
  } finally {
    await rm(dir, { recursive: true });
  }
});

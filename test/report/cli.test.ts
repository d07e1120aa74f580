import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Command } from 'commander';
import { register as registerCompare } from '../../src/cli/compare.js';
import { register as registerReport } from '../../src/cli/report.js';
import { record, tinyRecords, writeRunDir } from './fixtures.js';

async function captureStdout(run: () => Promise<unknown>): Promise<string> {
  const original = process.stdout.write.bind(process.stdout);
  let out = '';
  process.stdout.write = ((chunk: string | Uint8Array) => {
    out += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  }) as typeof process.stdout.write;
  try {
    await run();
  } finally {
    process.stdout.write = original;
  }
  return out;
}

function program(): Command {
  const p = new Command().exitOverride();
  registerCompare(p);
  registerReport(p);
  return p;
}

test('crucible compare --json on two run directories', async () => {
  const a = await writeRunDir(tinyRecords());
  const b = await writeRunDir(tinyRecords().map((r) => (r.taskId === 'HumanEval/2' && r.sampleIndex === 0 ? record(r.taskId, 0, 'passed') : r)));
  try {
    const out = await captureStdout(() => program().parseAsync(['compare', a, b, '--json', '--k', '1,2', '--reps', '200', '--seed', '3'], { from: 'user' }));
    const result = JSON.parse(out);
    assert.equal(result.sharedProblems, 3);
    assert.deepEqual(result.differences.map((d: { k: number }) => d.k), [1, 2]);
    assert.ok(result.differences[0].difference < 0);
    assert.equal(result.losses, 1);
    assert.equal(result.ties, 2);
    assert.equal(result.bootstrap.seed, 3);
    assert.equal(result.mcnemar.applicable, false);
    const text = await captureStdout(() => program().parseAsync(['compare', a, a], { from: 'user' }));
    assert.match(text, /P\(A > B\): 0\.5000/);
    assert.match(text, /pass@1: A 50\.00  B 50\.00  A-B \+0\.00/);
    assert.doesNotMatch(text, /pass@10/); // only 4 samples per problem: k = 10 is left out by default
  } finally {
    await rm(a, { recursive: true });
    await rm(b, { recursive: true });
  }
});

test('crucible report --format html --output FILE', async () => {
  const dir = await writeRunDir(tinyRecords());
  try {
    const file = join(dir, 'report.html');
    await program().parseAsync(['report', dir, '--format', 'html', '--output', file, '--reps', '100'], { from: 'user' });
    const html = await readFile(file, 'utf8');
    assert.match(html, /<svg/);
  } finally {
    await rm(dir, { recursive: true });
  }
});

test('bad flags are rejected by the parser', async () => {
  await assert.rejects(program().parseAsync(['compare', 'x', 'y', '--k', '0'], { from: 'user' }));
  await assert.rejects(program().parseAsync(['report', 'x', '--format', 'pdf'], { from: 'user' }));
});

/** SWE-bench instances and predictions, Multi-SWE-bench patches: read, validated, errors with file, line and field. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readProblems } from '../../src/formats/registry.js';
import { readSamples } from '../../src/formats/samples.js';
import { readSweBench, touchedFiles } from '../../src/formats/swe-bench.js';
import { readPredictionsModel } from '../../src/formats/swe-predictions.js';
import type { RepositoryProblem } from '../../src/formats/types.js';

const DATA = join('..', 'shared', 'data');
const dir = mkdtempSync(join(tmpdir(), 'crucible-swe-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const INSTANCE = {
  instance_id: 'o__r-1', repo: 'o/r', base_commit: 'a'.repeat(40), patch: '', test_patch: '--- a/t.js\n+++ b/t.js\n@@ -1 +1 @@\n-a\n+b\n',
  problem_statement: 'fix it', FAIL_TO_PASS: ['t.js > x'], PASS_TO_PASS: [], test_cmd: 'node --test --test-reporter=tap --test-reporter-destination={report} {test_files}',
  log_parser: 'node-test', gold_commit: 'b'.repeat(40),
};

describe('SWE-bench instances', () => {
  it('reads the 20 dayjs instances (auto-detected), with SWE-bench fields and the runner\'s', async () => {
    const problems = await readProblems(join(DATA, 'swe', 'instances.jsonl')) as RepositoryProblem[];
    assert.equal(problems.length, 20);
    assert.equal(problems.reduce((n, p) => n + p.failToPass.length, 0), 39);
    assert.equal(problems.reduce((n, p) => n + p.passToPass.length, 0), 410);
    const p = problems.find((x) => x.taskId === 'iamkun__dayjs-3016')!;
    assert.equal(p.kind, 'repository');
    assert.equal(p.logParser, 'jest-json');
    assert.deepEqual(p.testFiles, ['test/display.test.js', 'test/plugin/duration.test.js']);
    assert.equal(p.canary, true);
    assert.equal('goldCommit' in p, false, 'a gold commit is never kept');
  });

  it('reads the axios instances (mocha)', async () => {
    const problems = await readSweBench(join(DATA, 'swe-axios', 'instances.jsonl'));
    assert.equal(problems.length, 11);
    assert.ok(problems.every((p) => p.logParser === 'mocha-json'));
  });

  it('takes the Hugging Face encoding of the test lists, defaults test_files to the test patch\'s files, resolves a relative source', async () => {
    const path = file('hf.jsonl', `${JSON.stringify({ ...INSTANCE, FAIL_TO_PASS: '["t.js > x"]', PASS_TO_PASS: '[]', source: { git: 'repos/r.git' } })}\n`);
    const [p] = await readSweBench(path);
    assert.deepEqual(p!.failToPass, ['t.js > x']);
    assert.deepEqual(p!.testFiles, ['t.js']);
    assert.deepEqual(p!.source, { kind: 'git', path: join(dir, 'repos/r.git') });
  });

  it('reads a whole JSON list', async () => {
    const [p] = await readSweBench(file('list.json', JSON.stringify([INSTANCE])));
    assert.equal(p!.taskId, 'o__r-1');
  });

  it('refuses an empty FAIL_TO_PASS, a test command without {report}, a short commit id, a duplicate id: file, line, field', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...INSTANCE, FAIL_TO_PASS: [] }, /bad\.jsonl:2: field "FAIL_TO_PASS": must name at least one test/],
      [{ ...INSTANCE, test_cmd: 'npx jest' }, /bad\.jsonl:2: field "test_cmd": .*\{report\}/],
      [{ ...INSTANCE, base_commit: 'abc123' }, /bad\.jsonl:2: field "base_commit"/],
      [{ ...INSTANCE, log_parser: 'pytest' }, /bad\.jsonl:2: field "log_parser"/],
      [INSTANCE, /bad\.jsonl:2: field "instance_id": "o__r-1" appears twice/],
    ];
    for (const [second, message] of cases) {
      await assert.rejects(readSweBench(file('bad.jsonl', `${JSON.stringify(INSTANCE)}\n${JSON.stringify(second)}\n`)), message);
    }
  });

  it('lists the files a diff touches', () => {
    assert.deepEqual(touchedFiles('--- a/x.js\n+++ b/x.js\n--- /dev/null\n+++ b/new.js\n'), ['x.js', 'new.js']);
  });
});

describe('predictions', () => {
  it('reads SWE-bench predictions: the patch is the solution, null is the empty patch, the model name is kept', async () => {
    const path = file('preds.jsonl', [
      { instance_id: 'o__r-1', model_name_or_path: 'gpt', model_patch: 'diff --git a/x b/x\n' },
      { instance_id: 'o__r-1', model_name_or_path: 'gpt', model_patch: null },
    ].map((r) => JSON.stringify(r)).join('\n'));
    const samples = await readSamples(path);
    assert.deepEqual(samples.map((s) => [s.taskId, s.index, s.solution, s.line]), [['o__r-1', 0, 'diff --git a/x b/x\n', 1], ['o__r-1', 1, '', 2]]);
    assert.equal(await readPredictionsModel(path), 'gpt');
  });

  it('reads raw responses as responses (their fenced diff is extracted when judged)', async () => {
    const samples = await readSamples(file('raw.jsonl', JSON.stringify({ instance_id: 'o__r-1', response: 'Here:\n```diff\n--- a/x\n```' })));
    assert.equal(samples[0]!.response?.startsWith('Here'), true);
  });

  it('reads Multi-SWE-bench patches as <org>__<repo>-<number>', async () => {
    const samples = await readSamples(file('msb.json', JSON.stringify([{ org: 'axios', repo: 'axios', number: 5085, fix_patch: 'p' }])));
    assert.deepEqual(samples.map((s) => [s.taskId, s.solution]), [['axios__axios-5085', 'p']]);
  });

  it('names file, line and field of a bad prediction', async () => {
    await assert.rejects(readSamples(file('badp.jsonl', `${JSON.stringify({ instance_id: 'o__r-1', model_patch: 'x' })}\n${JSON.stringify({ instance_id: 7, model_patch: 'x' })}\n`)),
      /badp\.jsonl:2: field "instance_id"/);
  });
});

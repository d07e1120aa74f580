/**
 * `crucible rerank` end to end on two hand-made problems (real programs in the sandbox), checked against
 * values computed by hand from the CodeT rules (docs/METRICS.md):
 *
 * P/0 add(a, b); samples a-b, a+b, a+b, a*b, endless loop (2 of 5 correct);
 *     generated tests add(1,1)==2 (x1), add(2,2)==4 (x2), add(0,3)==3 (x1).
 *     a+b passes all (|tests| 4, |solutions| 2: 4·√2), a*b passes add(2,2) only (2·√1), a-b and the loop
 *     pass nothing. Top tier all correct: CodeT pass@1 = 1, pass@2 = 1. Baseline: pass@1 = 2/5,
 *     pass@2 = 1 − C(3,2)/C(5,2) = 0.7. First sample a-b: first@1 = 0, first@2 = 1.
 *     Majority: a+b (2 samples) is the largest output group: 1; pass@2 = 1.
 * P/1 neg(x); samples -x, x, x, abs(x) (1 of 4 correct); generated tests neg(0)==0, neg(2)==2 (wrong test).
 *     x and abs(x) agree on both tests (|tests| 2, |solutions| 3: 2·√3) and outrank -x (1·√1): CodeT
 *     pass@1 = 0, pass@2 = 1. Baseline 1/4 and 1 − C(3,2)/C(4,2) = 0.5. First: 1, 1. Majority: x and abs(x)
 *     answer alike (3 samples): 0; pass@2 = 1.
 * Means over the two problems are what the CLI must print.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, describe, it } from 'node:test';
import { codetTestPrompt } from '../../src/formats/codet.js';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { openResultStore } from '../../src/store/open.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'crucible-rerank-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const ADD = { task_id: 'P/0', entry_point: 'add', prompt: 'def add(a, b):\n    """Add two numbers."""\n',
  canonical_solution: '    return a + b\n', test: 'def check(candidate):\n    assert candidate(1, 2) == 3\n    assert candidate(5, 5) == 10\n' };
const NEG = { task_id: 'P/1', entry_point: 'neg', prompt: 'def neg(x):\n    """Negate x."""\n',
  canonical_solution: '    return -x\n', test: 'def check(candidate):\n    assert candidate(3) == -3\n    assert candidate(0) == 0\n' };
const jsonl = (rows: readonly object[]): string => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
const problems = join(dir, 'problems.jsonl');
const samples = join(dir, 'samples.jsonl');
const tests = join(dir, 'tests.jsonl');
writeFileSync(problems, jsonl([ADD, NEG]));
writeFileSync(samples, jsonl([
  ...['    return a - b\n', '    return a + b\n', '    return a + b\n', '    return a * b\n', '    while True:\n        pass\n']
    .map((completion) => ({ task_id: 'P/0', completion })),
  ...['    return -x\n', '    return x\n', '    return x\n', '    return abs(x)\n'].map((completion) => ({ task_id: 'P/1', completion })),
]));
writeFileSync(tests, jsonl([
  { prompt: codetTestPrompt(ADD.prompt, 'add'), samples: ['add(1, 1) == 2\nassert add(2, 2) == 4\nassert add(0, 3) == 3\n', 'add(2, 2) == 4\n'] },
  { prompt: codetTestPrompt(NEG.prompt, 'neg'), samples: ['neg(0) == 0\nassert neg(2) == 2\n'] },
]));

interface RerankJson {
  method: string;
  passAtK: Record<string, number>;
  baselinePassAtK: Record<string, number>;
  counts: { distinctSolutions: number; distinctGeneratedTests: number; generatedTestRuns: number; generatedTestStatuses: Record<string, number> };
  problems: { taskId: string; passAtK: Record<string, number> }[];
}

async function rerank(method: string, extra: readonly string[] = []): Promise<RerankJson> {
  const args = ['rerank', '--method', method, '--problems', problems, '--samples', samples, '--k', '1,2', '--json', '--jobs', '2', ...extra];
  if (method !== 'first') args.push('--tests', tests);
  const { stdout } = await run(join(PROJECT_ROOT, 'bin', 'crucible'), args, { maxBuffer: 16 << 20 });
  return JSON.parse(stdout) as RerankJson;
}

function close(actual: Record<string, number>, expected: Record<string, number>): void {
  assert.deepEqual(Object.keys(actual).sort(), Object.keys(expected).sort());
  for (const [k, v] of Object.entries(expected)) assert.ok(Math.abs(actual[k]! - v) < 1e-12, `k=${k}: ${actual[k]} vs ${v}`);
}

const BASELINE = { '1': (0.4 + 0.25) / 2, '2': (0.7 + 0.5) / 2 };

describe('crucible rerank on hand-computed problems', () => {
  it('codet: consensus sets from sandboxed runs of every generated test', async () => {
    const r = await rerank('codet');
    close(r.passAtK, { '1': 0.5, '2': 1 });
    close(r.baselinePassAtK, BASELINE);
    assert.equal(r.counts.distinctSolutions, 7);
    assert.equal(r.counts.distinctGeneratedTests, 5);
    // 4 distinct P/0 solutions x 3 tests + 3 distinct P/1 solutions x 2 tests.
    assert.equal(r.counts.generatedTestRuns, 18);
    assert.equal(r.counts.generatedTestStatuses['time_limit_exceeded'], 3);
    close(r.problems.find((p) => p.taskId === 'P/1')!.passAtK, { '1': 0, '2': 1 });
  });

  it('codet with the paper\'s product score ranks these the same', async () => {
    close((await rerank('codet', ['--scoring', 'product'])).passAtK, { '1': 0.5, '2': 1 });
  });

  it('majority: the largest group of identical outputs', async () => {
    const r = await rerank('majority');
    close(r.passAtK, { '1': 0.5, '2': 1 });
    close(r.problems.find((p) => p.taskId === 'P/0')!.passAtK, { '1': 1, '2': 1 });
    close(r.baselinePassAtK, BASELINE);
  });

  it('first: the first k samples in file order, no generated tests needed', async () => {
    const r = await rerank('first');
    close(r.passAtK, { '1': 0.5, '2': 1 });
    close(r.baselinePassAtK, BASELINE);
    assert.equal(r.counts.generatedTestRuns, 0);
  });

  it('--out writes the rerank as a run (every sample\'s verdict, intervals) and stores it; the same --out again is refused', async () => {
    const out = join(dir, 'codet-run');
    const db = join(dir, 'store.db');
    const r = await rerank('codet', ['--out', out, '--store', db, '--model', 'toy-model', '--tag', 'ablation', '--reps', '300']);
    close(r.passAtK, { '1': 0.5, '2': 1 });
    const records = readFileSync(join(out, 'verdicts.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { taskId: string; sampleIndex: number; status: string; passed: boolean });
    assert.deepEqual(records.map((x) => [x.taskId, x.sampleIndex, x.passed]), [
      ['P/0', 0, false], ['P/0', 1, true], ['P/0', 2, true], ['P/0', 3, false], ['P/0', 4, false],
      ['P/1', 0, true], ['P/1', 1, false], ['P/1', 2, false], ['P/1', 3, false]]);
    assert.equal(records[4]!.status, 'time_limit_exceeded', 'the endless loop\'s own verdict');
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { rerank: { method: string; passAtK: Record<string, number>;
      passAtKCI: Record<string, [number, number]>; baselinePassAtKCI: Record<string, [number, number]> } };
    assert.equal(summary.rerank.method, 'codet');
    close(summary.rerank.passAtK, { '1': 0.5, '2': 1 });
    for (const [k, [lo, hi]] of Object.entries(summary.rerank.passAtKCI)) assert.ok(lo <= summary.rerank.passAtK[k]! && summary.rerank.passAtK[k]! <= hi, `k=${k}`);
    // Two problems: pass@1 is 1 on P/0 and 0 on P/1, so the bootstrap's means span [0, 1].
    assert.deepEqual(summary.rerank.passAtKCI['1'], [0, 1]);
    const store = await openResultStore(db);
    try {
      const [stored] = await store.listRuns();
      assert.deepEqual([stored!.name, stored!.model, stored!.tags, stored!.doneSamples, stored!.passedSamples], ['codet-run', 'toy-model', ['rerank', 'codet', 'ablation'], 9, 3]);
    } finally {
      await store.close();
    }
    await assert.rejects(run(join(PROJECT_ROOT, 'bin', 'crucible'), ['rerank', '--method', 'first', '--problems', problems, '--samples', samples, '--out', out, '--store', db]),
      (error: { code?: number; stderr?: string }) => error.code === 2 && /already holds a run/.test(error.stderr ?? ''));
  });

  it('asks for --tests when the method needs them, with a clear message', async () => {
    await assert.rejects(
      run(join(PROJECT_ROOT, 'bin', 'crucible'), ['rerank', '--method', 'codet', '--problems', problems, '--samples', samples]),
      (error: { code?: number; stderr?: string }) => error.code === 2 && /needs --tests/.test(error.stderr ?? ''),
    );
  });
});

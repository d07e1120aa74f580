/**
 * The conformance suite every `ResultStore` backend passes (SQLite in sqlite.test.ts, PostgreSQL in
 * postgres.test.ts). `newDatabase` makes a fresh, empty database and returns an opener: each call of the opener
 * is another connection to that database (two writers). Records are written by hand so that every expected
 * figure can be checked by eye.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StoreError } from '../../src/store/errors.js';
import { failedTestDetail, type SampleRecord } from '../../src/store/records.js';
import type { TestResult } from '../../src/verdict/index.js';
import type { KeepTests, NewRun, ResultStore, SampleInput } from '../../src/store/result-store.js';

const PROMPT = 'def add(a, b):\n';

export function newRun(overrides: Partial<NewRun> = {}): NewRun {
  return {
    name: 'demo-run', model: 'model-a.jsonl', dataset: 'tiny.jsonl', problemsFile: '/data/tiny.jsonl', samplesFile: '/data/model-a.jsonl',
    format: 'evalplus', problemsHash: 'p'.repeat(64), samplesHash: 's'.repeat(64), crucibleVersion: '0.1.0',
    options: { timeLimitMs: 1000, memoryLimitKiB: 1048576, outputBytes: 1048576 }, provenance: { toolchains: { python: '3.11.2' }, runDir: '/runs/demo' },
    keepTests: 'failing', totalSamples: 4, ...overrides,
  };
}

function tests(passing: number, failAt?: { index: number; status: TestResult['status']; reason: string }): TestResult[] {
  const list: TestResult[] = Array.from({ length: passing }, (_, i) => ({ index: i, status: 'passed' as const, cpuMs: 1 + i, wallMs: 2 + i }));
  if (failAt !== undefined) list.push({ index: failAt.index, status: failAt.status, cpuMs: 7, wallMs: 9, reason: failAt.reason });
  return list;
}

/** Four samples of two problems: add/0 passes (3 tests), add/1 fails test 2, mul/0 passes, mul/1 times out. */
export function fixtureSamples(): SampleInput[] {
  const record = (taskId: string, sampleIndex: number, t: TestResult[], status: SampleRecord['status'], plus?: boolean): SampleRecord => ({
    taskId, sampleIndex, programHash: `hash-${taskId}-${sampleIndex}`, status, passed: status === 'passed',
    ...(plus === undefined ? {} : { plusStatus: plus ? 'passed' as const : 'wrong_answer' as const, plusPassed: plus }),
    tests: t, cpuMs: t.reduce((s, x) => s + (x.cpuMs ?? 0), 0), wallMs: 30, ...(status === 'passed' ? {} : { reason: `${status} here` }),
  });
  return [
    { record: record('add', 0, tests(3), 'passed', true), program: { language: 'python', completion: '    return a + b\n', source: `${PROMPT}    return a + b\n` }, memoryKiB: 9000 },
    {
      record: record('add', 1, tests(2, { index: 2, status: 'wrong_answer', reason: 'expected 5, got -1' }), 'wrong_answer', false),
      program: { language: 'python', completion: '    return a - b\n', source: `${PROMPT}    return a - b\n` },
      failures: [failedTestDetail(2, { actual: '-1', stderr: 'x'.repeat(5000) })],
      memoryKiB: 9100,
    },
    { record: record('mul', 0, tests(2), 'passed', true), program: { language: 'python', completion: 'return a*b', source: 'def mul(a, b): return a*b\n' } },
    {
      record: record('mul', 1, tests(0, { index: 0, status: 'time_limit_exceeded', reason: 'CPU time limit of 1000 ms exceeded' }), 'time_limit_exceeded', false),
      program: { source: 'while True: pass\n' },
      failures: [failedTestDetail(0, { actual: 'time_limit_exceeded' })],
    },
  ];
}

async function seeded(store: ResultStore, keepTests: KeepTests = 'failing'): Promise<number> {
  const id = await store.createRun(newRun({ keepTests }));
  await store.addProblems(id, [{ taskId: 'add', kind: 'call', prompt: PROMPT, testCount: 3 }, { taskId: 'mul', kind: 'call', prompt: 'def mul(a, b):\n', testCount: 2 }]);
  await store.appendSamples(id, fixtureSamples(), { done: 4, total: 4, passed: 2, samplesPerSecond: 2, etaSeconds: 0 });
  await store.addTestCases(newRun().problemsHash, 'add', [0, 1, 2].map((i) => failedTestDetail(i, { input: `add(2, ${i + 1})`, expected: String(i + 3) })));
  return id;
}

/** Define the suite for one backend. */
export function storeConformance(backend: string, newDatabase: () => Promise<() => Promise<ResultStore>>): void {
  const open = async (): Promise<ResultStore> => (await newDatabase())();
  describe(`ResultStore conformance: ${backend}`, () => {
    it('stores runs with provenance and counts done and passed samples', async () => {
      const store = await open();
      try {
        const id = await seeded(store);
        const run = await store.getRun(id);
        assert.ok(run);
        assert.equal(run.status, 'running');
        assert.equal(run.doneSamples, 4);
        assert.equal(run.passedSamples, 2);
        assert.deepEqual(run.options, newRun().options);
        assert.deepEqual(run.provenance, newRun().provenance);
        assert.equal(run.problemsHash, 'p'.repeat(64));
        assert.deepEqual(run.progress, { done: 4, total: 4, passed: 2, samplesPerSecond: 2, etaSeconds: 0 });
        await store.finishRun(id, 'finished', { passAtK: { '1': 0.5 } });
        const finished = await store.getRun(id);
        assert.equal(finished?.status, 'finished');
        assert.ok((finished?.finishedMs ?? 0) > 0);
        assert.deepEqual(finished?.summary, { passAtK: { '1': 0.5 } });
      } finally {
        await store.close();
      }
    });

    it('gives per-problem counts and the samples of a problem', async () => {
      const store = await open();
      try {
        const id = await seeded(store);
        assert.deepEqual(await store.problemCounts(id), [
          { taskId: 'add', kind: 'call', testCount: 3, n: 2, c: 1, plusC: 1, hasPlus: true, scored: 0, scoreSum: 0, statuses: { passed: 1, wrong_answer: 1 }, labels: {} },
          { taskId: 'mul', kind: 'call', testCount: 2, n: 2, c: 1, plusC: 1, hasPlus: true, scored: 0, scoreSum: 0, statuses: { passed: 1, time_limit_exceeded: 1 }, labels: {} },
        ]);
        const samples = await store.samplesOf(id, 'add');
        assert.deepEqual(samples.map((s) => [s.sampleIndex, s.status, s.passed, s.testsRun, s.testsPassed, s.memoryKiB, s.programHash]),
          [[0, 'passed', true, 3, 3, 9000, 'hash-add-0'], [1, 'wrong_answer', false, 3, 2, 9100, 'hash-add-1']]);
        assert.deepEqual(await store.taskIds(id), ['add', 'mul']);
      } finally {
        await store.close();
      }
    });

    it('keeps a failing test in full: input, expected, actual, stderr, what was cut; the program text', async () => {
      const store = await open();
      try {
        const id = await seeded(store);
        const sample = await store.sample(id, 'add', 1);
        assert.ok(sample);
        assert.equal(sample.source, `${PROMPT}    return a - b\n`, 'program rebuilt from prompt + completion');
        assert.equal(sample.completion, '    return a - b\n');
        assert.equal(sample.passedRanges, '0-1');
        assert.equal(sample.tests.length, 1, 'passing tests are counts');
        const [t] = sample.tests;
        assert.equal(t!.index, 2);
        assert.equal(t!.status, 'wrong_answer');
        assert.equal(t!.input, 'add(2, 3)');
        assert.equal(t!.expected, '5');
        assert.equal(t!.actual, '-1');
        assert.equal(t!.stderr?.length, 4000);
        assert.deepEqual(t!.cut, ['stderr']);
        assert.equal(t!.reason, 'expected 5, got -1');
        const other = await store.sample(id, 'mul', 0);
        assert.equal(other?.source, 'def mul(a, b): return a*b\n', 'a program that is not prompt + completion is kept whole');
        assert.equal(await store.sample(id, 'mul', 9), undefined);
        const timedOut = await store.sample(id, 'mul', 1);
        assert.deepEqual(timedOut?.tests.map((x) => [x.index, x.status, x.input, x.actual]), [[0, 'time_limit_exceeded', null, 'time_limit_exceeded']]);
      } finally {
        await store.close();
      }
    });

    it('gives the records back as verdicts.jsonl wrote them (passing tests without times unless kept)', async () => {
      const store = await open();
      try {
        const id = await seeded(store);
        const back = await store.records(id);
        const strip = (r: SampleRecord): SampleRecord => ({ ...r, tests: r.tests.map((t) => (t.status === 'passed' ? { index: t.index, status: t.status } : t)) });
        assert.deepEqual(back, fixtureSamples().map((s) => strip(s.record)));
        assert.deepEqual(await store.records(id, { taskId: 'mul' }), fixtureSamples().slice(2).map((s) => strip(s.record)));
        assert.deepEqual((await store.records(id, { tests: false })).map((r) => r.tests.length), [0, 0, 0, 0]);
        const all = await seeded(store, 'all');
        assert.deepEqual(await store.records(all), fixtureSamples().map((s) => s.record), '--keep-tests all round-trips exactly');
        assert.equal((await store.sample(all, 'add', 0))?.tests.length, 3);
      } finally {
        await store.close();
      }
    });

    it('keeps each sample\'s model text (or its sha256) as the record carried it, text shared with its program stored once', async () => {
      const store = await open();
      try {
        const id = await store.createRun(newRun({ keepTests: 'all' }));
        const [add0, add1, mul0, mul1] = fixtureSamples();
        const text = (input: SampleInput, fields: Pick<SampleRecord, 'completion' | 'completionSha256'>, index?: number): SampleInput =>
          ({ ...input, record: { ...input.record, ...fields, ...(index === undefined ? {} : { sampleIndex: index }) } });
        const samples = [
          text(add0!, { completion: '    return a + b\n' }),                                   // the program's own text
          text(add1!, { completionSha256: 'c'.repeat(64) }),                                  // --keep-code hash
          text(mul0!, { completion: 'return a*b' }),
          // the same program (same hash) from another text: the model wrote more after the code
          { ...text(mul0!, { completion: 'return a*b\n\n# done' }, 1), program: { ...mul0!.program!, completion: 'return a*b\n\n# done' } },
          text(mul1!, {}, 2),                                                                    // no text kept (--keep-code none)
        ];
        await store.appendSamples(id, samples.slice(0, 3));
        await store.appendSamples(id, samples.slice(3));
        assert.deepEqual(await store.records(id), samples.map((s) => s.record), 'every sample\'s text round-trips');
        assert.deepEqual((await store.records(id, { tests: false })).map((r) => r.completion ?? r.completionSha256 ?? null),
          ['    return a + b\n', 'c'.repeat(64), 'return a*b', 'return a*b\n\n# done', null]);
      } finally {
        await store.close();
      }
    });

    it('keeps a verilog design\'s formal check (store step 10) and gives it back with records and the sample row', async () => {
      const store = await open();
      try {
        const id = await store.createRun(newRun({ keepTests: 'all' }));
        const [add0, add1] = fixtureSamples();
        const refuted = { result: 'refuted', cycles: 20, assumption: 'every register starts at zero',
          synthesis: { design: { cells: 3, transistors: 24 }, reference: { cells: 2 } } } as const;
        const samples = [{ ...add0!, record: { ...add0!.record, formal: refuted } }, add1!];
        await store.appendSamples(id, samples);
        assert.deepEqual(await store.records(id), samples.map((s) => s.record), 'the check round-trips; a sample without one has none');
        const taskId = add0!.record.taskId;
        assert.deepEqual((await store.sample(id, taskId, add0!.record.sampleIndex))?.formal, refuted);
        assert.equal((await store.sample(id, add1!.record.taskId, add1!.record.sampleIndex))?.formal, null);
      } finally {
        await store.close();
      }
    });

    it('keeps who judged each sample a fleet judged (judgedBy), once per distinct worker and toolchain', async () => {
      const store = await open();
      try {
        const id = await store.createRun(newRun({ keepTests: 'all' }));
        const w1 = { worker: 'w1', crucibleVersion: '0.1.0', toolchain: 'Python 3.11.2' };
        const w2 = { worker: 'w2', crucibleVersion: '0.1.0', toolchain: null };
        const samples = fixtureSamples().map((s, i) => (i === 3 ? s : { ...s, record: { ...s.record, judgedBy: i === 1 ? w2 : w1 } }));
        await store.appendSamples(id, samples.slice(0, 2));
        await store.appendSamples(id, samples.slice(2));
        assert.deepEqual(await store.records(id), samples.map((s) => s.record), 'judgedBy round-trips; a local sample has none');
        assert.deepEqual((await store.records(id, { tests: false })).map((r) => r.judgedBy?.worker ?? null), ['w1', 'w2', 'w1', null]);
        assert.equal(await store.deleteRun(id), true);
        const again = await store.createRun(newRun({ keepTests: 'all' }));
        await store.appendSamples(again, fixtureSamples());
        assert.deepEqual((await store.records(again)).map((r) => r.judgedBy), [undefined, undefined, undefined, undefined]);
      } finally {
        await store.close();
      }
    });

    it('keeps partial credit: the sample score and each kept test score, summed per problem', async () => {
      const store = await open();
      try {
        const id = await store.createRun(newRun());
        const graded = (sampleIndex: number, testScores: readonly number[], score?: number): SampleInput => ({
          record: {
            taskId: 'ioi', sampleIndex, programHash: `graded-${sampleIndex}`, passed: testScores.every((x) => x === 1),
            status: testScores.every((x) => x === 1) ? 'passed' : 'wrong_answer', cpuMs: 1, wallMs: 2, ...(score === undefined ? {} : { score }),
            tests: testScores.map((x, index) => ({ index, status: x === 1 ? 'passed' as const : 'wrong_answer' as const, cpuMs: 1, wallMs: 1, score: x })),
          },
        });
        const samples = [graded(0, [1, 1], 1), graded(1, [1, 0.5], 0.3), graded(2, [1, 0]), graded(3, [0, 0], 0)];
        await store.appendSamples(id, samples);
        await store.appendSamples(id, fixtureSamples().slice(0, 1));
        const back = await store.records(id, { taskId: 'ioi' });
        assert.deepEqual(back.map((r) => r.score), [1, 0.3, undefined, 0]);
        assert.deepEqual(back.map((r) => r.tests.map((t) => t.score)), [[1, 1], [1, 0.5], [1, 0], [0, 0]], 'passing tests kept as counts: score 1');
        assert.equal((await store.records(id, { taskId: 'add' }))[0]!.tests[0]!.score, undefined, 'an ungraded sample has no test scores');
        assert.deepEqual((await store.samplesOf(id, 'ioi')).map((s) => s.score), [1, 0.3, null, 0]);
        assert.deepEqual((await store.sample(id, 'ioi', 1))!.tests.map((t) => [t.index, t.score]), [[1, 0.5]]);
        const counts = await store.problemCounts(id);
        assert.deepEqual(counts.map((p) => [p.taskId, p.n, p.c, p.scored, p.scoreSum]), [['ioi', 4, 1, 3, 1.3], ['add', 1, 1, 0, 0]]);
      } finally {
        await store.close();
      }
    });

    it('stores test cases once per dataset and problem', async () => {
      const store = await open();
      try {
        await seeded(store);
        await store.addTestCases('q'.repeat(64), 'add', [failedTestDetail(2, { input: 'other', expected: '6' })]);
        await store.addTestCases(newRun().problemsHash, 'add', [failedTestDetail(2, { input: 'changed', expected: '0' })]);
        await store.addTestCases(newRun().problemsHash, 'mul', [failedTestDetail(0, { input: 'mul(2, 2)', expected: '4' }), failedTestDetail(1, { input: 'mul(0, 1)', expected: '0' })]);
        assert.deepEqual([...await store.knownTestCases(newRun().problemsHash)].sort(), ['add', 'mul']);
        const id = await seeded(store);
        assert.equal((await store.sample(id, 'add', 1))?.tests[0]?.input, 'add(2, 3)', 'the first copy is kept');
        assert.equal((await store.sample(id, 'mul', 1))?.tests[0]?.expected, '4');
      } finally {
        await store.close();
      }
    });

    it('gives a program its detail from a later sample when its first had none', async () => {
      const store = await open();
      try {
        const id = await store.createRun(newRun());
        const [, failing] = fixtureSamples();
        const { failures: _f, memoryKiB: _m, ...bare } = failing!;
        await store.appendSamples(id, [bare]);
        assert.equal((await store.sample(id, 'add', 1))?.tests[0]?.actual, null);
        await store.appendSamples(id, [{ ...failing!, record: { ...failing!.record, sampleIndex: 7 } }]);
        const sample = await store.sample(id, 'add', 1);
        assert.equal(sample?.tests[0]?.actual, '-1');
        assert.equal(sample?.memoryKiB, 9100);
      } finally {
        await store.close();
      }
    });

    it('keeps the later copy of a sample appended twice (a resumed eval judges it again) and counts it once', async () => {
      const store = await open();
      try {
        const id = await seeded(store);
        const again = fixtureSamples()[1]!;
        const judge = { worker: 'w9', crucibleVersion: '0.1.0', toolchain: null };
        await store.appendSamples(id, [{ ...again, record: { ...again.record, status: 'internal_error', passed: false, tests: [] } },
          { ...again, record: { ...again.record, status: 'passed', passed: true, tests: tests(3), judgedBy: judge } }]);
        const run = await store.getRun(id);
        assert.equal(run?.doneSamples, 4);
        assert.equal(run?.passedSamples, 3);
        assert.equal((await store.sample(id, 'add', 1))?.status, 'passed');
        assert.deepEqual((await store.records(id, { taskId: 'add' })).map((r) => [r.sampleIndex, r.status, r.judgedBy?.worker]), [[0, 'passed', undefined], [1, 'passed', 'w9']]);
        await store.appendSamples(id, [again]);
        assert.deepEqual((await store.records(id, { taskId: 'add' })).map((r) => [r.sampleIndex, r.status, r.judgedBy?.worker]),
          [[0, 'passed', undefined], [1, 'wrong_answer', undefined]], 'who judged it goes with the verdict it replaced');
        assert.deepEqual((await store.problemCounts(id)).map((p) => [p.taskId, p.n, p.c]), [['add', 2, 1], ['mul', 2, 1]]);
      } finally {
        await store.close();
      }
    });

    it('lists runs newest first with filters, finds runs by id, name and identity, deletes them', async () => {
      const store = await open();
      try {
        const a = await store.createRun(newRun({ name: 'alpha_run', model: 'codegen-16b' }));
        const b = await store.createRun(newRun({ name: 'beta', model: 'gpt%x', dataset: 'HumanEvalPlus.jsonl.gz' }));
        const c = await store.createRun(newRun({ name: 'alpha_run', model: 'codegen-16b' }));
        await store.finishRun(b, 'finished');
        assert.deepEqual((await store.listRuns()).map((r) => r.id), [c, b, a]);
        assert.deepEqual((await store.listRuns({ text: 'ALPHA' })).map((r) => r.id), [c, a]);
        assert.deepEqual((await store.listRuns({ text: 'a_r' })).map((r) => r.id), [c, a], '_ is literal');
        assert.deepEqual((await store.listRuns({ model: '%' })).map((r) => r.id), [b], '% is literal');
        assert.deepEqual((await store.listRuns({ dataset: 'plus' })).map((r) => r.id), [b]);
        assert.deepEqual((await store.listRuns({ status: 'finished' })).map((r) => r.id), [b]);
        assert.deepEqual((await store.listRuns({ limit: 1 })).map((r) => r.id), [c]);
        assert.equal((await store.resolveRun(String(b))).name, 'beta');
        assert.equal((await store.resolveRun('alpha_run')).id, c, 'a name means its latest run');
        await assert.rejects(store.resolveRun('nope'), (e: unknown) => e instanceof StoreError && e.code === 'run_not_found');
        assert.deepEqual((await store.findRuns(newRun({ name: 'alpha_run' }))).map((r) => r.id), [c, a]);
        const seededId = await seeded(store);
        assert.equal(await store.deleteRun(seededId), true);
        assert.equal(await store.getRun(seededId), undefined);
        assert.deepEqual(await store.problemCounts(seededId), []);
        assert.deepEqual(await store.records(seededId), []);
        assert.equal(await store.deleteRun(seededId), false);
      } finally {
        await store.close();
      }
    });

    it('keeps tags, generation settings, headline figures, problem statements and labels; finds duplicates', async () => {
      const store = await open();
      try {
        const a = await store.createRun(newRun({ name: 'tagged', tags: ['baseline', ' ', 'baseline', 'temp-0.8'],
          generation: { endpoint: 'http://x/v1', temperature: 0.8, top_p: 0.95, n: 100 }, contentHash: 'f'.repeat(64) }));
        const b = await store.createRun(newRun({ name: 'other', tags: ['ablation%'] }));
        const row = (await store.getRun(a))!;
        assert.deepEqual(row.tags, ['baseline', 'temp-0.8'], 'trimmed, non-empty, distinct');
        assert.deepEqual(row.generation, { endpoint: 'http://x/v1', temperature: 0.8, top_p: 0.95, n: 100 });
        assert.equal(row.headline, null);
        assert.deepEqual((await store.listRuns({ tag: 'baseline' })).map((r) => r.id), [a]);
        assert.deepEqual((await store.listRuns({ tag: 'base' })).map((r) => r.id), [], 'a tag matches whole');
        assert.deepEqual((await store.listRuns({ tag: 'ablation%' })).map((r) => r.id), [b]);
        assert.deepEqual((await store.listRuns({ text: 'temp-0' })).map((r) => r.id), [a], 'text search covers tags');
        await store.labelRun(b, { model: 'renamed', tags: ['x'] });
        assert.deepEqual([(await store.getRun(b))!.model, (await store.getRun(b))!.tags], ['renamed', ['x']]);
        await assert.rejects(store.labelRun(9999, { tags: [] }), (e: unknown) => e instanceof StoreError && e.code === 'run_not_found');
        const headline = { problemsJudged: 2, problemsTotal: 3, done: 4, confidence: 0.95, base: [{ k: 1, passAtK: 0.5, lower: 0.25, upper: 0.75 }] };
        await store.saveAnalysis(a, 4, { base: {} }, headline);
        assert.deepEqual((await store.listRuns({ tag: 'baseline' }))[0]!.headline, headline);
        assert.deepEqual((await store.findDuplicates({ contentHash: 'f'.repeat(64) })).map((r) => r.id), [a]);
        assert.deepEqual((await store.findDuplicates({ runDir: '/runs/demo' })).map((r) => r.id).sort(), [a, b].sort(), 'provenance.runDir');
        assert.deepEqual(await store.findDuplicates({ runDir: '/runs/dem' }), [], 'whole paths only');
        await store.addProblems(a, [{ taskId: 'lcb-1', kind: 'expected_call', prompt: 'class Solution:\n', testCount: 3,
          info: { title: 'Two sum', statement: 'Given nums…', reference: { language: 'python', code: 'pass' } },
          labels: { difficulty: 'hard', platform: 'leetcode', releaseDate: '2024-01-02T00:00:00' } }]);
        assert.deepEqual(await store.problemInfo(a, 'lcb-1'), { title: 'Two sum', statement: 'Given nums…', reference: { language: 'python', code: 'pass' },
          prompt: 'class Solution:\n' });
        assert.equal(await store.problemInfo(a, 'nope'), null);
        await store.appendSamples(a, [{ record: { ...fixtureSamples()[0]!.record, taskId: 'lcb-1' } }]);
        assert.deepEqual((await store.problemCounts(a))[0]!.labels, { difficulty: 'hard', platform: 'leetcode', releaseDate: '2024-01-02T00:00:00' });
      } finally {
        await store.close();
      }
    });

    it('caches an analysis per done count', async () => {
      const store = await open();
      try {
        const id = await seeded(store);
        assert.equal(await store.cachedAnalysis(id), undefined);
        await store.saveAnalysis(id, 4, { base: { points: [{ k: 1, passAtK: 0.5 }] } });
        assert.deepEqual(await store.cachedAnalysis(id), { done: 4, analysis: { base: { points: [{ k: 1, passAtK: 0.5 }] } } });
      } finally {
        await store.close();
      }
    });

    it('keeps tests-quality and Elo results (step 9): newest first, by kind, the whole report only when asked by id', async () => {
      const store = await open();
      try {
        const quality = { kind: 'tests-quality' as const, name: 'humaneval-plus', createdMs: 1_000, inputs: { problems: 'he.jsonl', mutants: true },
          headline: { tpr: 0.98, tnr: 0.75, mutationScore: null, problems: 164 }, result: { problems: [{ taskId: 'add', tpr: 1 }], note: 'ünïcode' } };
        const elo = { kind: 'elo' as const, name: 'model-a', createdMs: 2_000, inputs: { contests: 'c.json' },
          headline: { rating: 1432.5, lower: 1300, upper: 1560, contests: 3 }, result: { rating: 1432.5, perContest: [1, 2, 3] } };
        const qualityId = await store.addSignalResult(quality);
        const eloId = await store.addSignalResult(elo);
        assert.notEqual(qualityId, eloId);
        const all = await store.listSignalResults();
        assert.deepEqual(all.map((r) => r.id), [eloId, qualityId], 'newest first');
        assert.deepEqual(all.map((r) => r.result), [null, null], 'a list leaves the reports out');
        assert.deepEqual(all[1], { ...quality, id: qualityId, result: null });
        assert.deepEqual((await store.listSignalResults('elo')).map((r) => r.id), [eloId]);
        assert.deepEqual((await store.listSignalResults('tests-quality')).map((r) => r.name), ['humaneval-plus']);
        assert.deepEqual(await store.signalResult(eloId), { ...elo, id: eloId });
        assert.deepEqual(await store.signalResult(qualityId), { ...quality, id: qualityId });
        assert.equal(await store.signalResult(eloId + qualityId + 100), undefined);
        const stamped = await store.addSignalResult({ kind: 'elo', name: 'now', inputs: {}, headline: {}, result: {} });
        const row = await store.signalResult(stamped);
        assert.ok(row !== undefined && row.createdMs > 2_000, 'the store stamps createdMs when none is given');
      } finally {
        await store.close();
      }
    });

    it('aggregates training events by step: reward mean and std, pass rate, time-outs, internal errors, zero-variance groups', async () => {
      const store = await open();
      try {
        const event = (step: number, taskId: string, groupId: string, reward: number, status: SampleRecord['status']) =>
          ({ step, taskId, groupId, reward, status, passed: status === 'passed', timeMs: 1_000_000 + step });
        const id = await store.recordTrainingEvents('grpo-1', [
          event(0, 'a', 'g0', 1, 'passed'), event(0, 'a', 'g0', 1, 'passed'), // zero variance
          event(0, 'b', 'g1', 1, 'passed'), event(0, 'b', 'g1', 0, 'time_limit_exceeded'),
          event(1, 'a', 'g2', 0, 'wrong_answer'), event(1, 'a', 'g2', 0, 'internal_error'), // zero variance
        ]);
        await store.recordTrainingEvents('grpo-1', [event(1, 'b', 'g3', 0.5, 'wrong_answer')]);
        const run = await store.getTrainingRun('grpo-1');
        assert.equal(run?.id, id);
        assert.equal(run?.events, 7);
        assert.equal((await store.getTrainingRun(String(id)))?.name, 'grpo-1');
        const series = await store.trainingSeries(id);
        assert.equal(series.unit, 'step');
        assert.deepEqual(series.buckets.map((b) => [b.bucket, b.events, b.passed, b.timeouts, b.internalErrors, b.groups, b.zeroVarianceGroups]),
          [[0, 4, 3, 1, 0, 2, 1], [1, 3, 0, 0, 1, 1, 1]]);
        assert.equal(series.buckets[0]!.rewardMean, 0.75);
        assert.ok(Math.abs(series.buckets[0]!.rewardStd - Math.sqrt(0.1875)) < 1e-12);
        assert.ok(Math.abs(series.buckets[1]!.rewardMean - 0.5 / 3) < 1e-12);
        assert.deepEqual(series.problems, [
          { bucket: 0, taskId: 'a', events: 2, passed: 2 }, { bucket: 0, taskId: 'b', events: 2, passed: 1 },
          { bucket: 1, taskId: 'a', events: 2, passed: 0 }, { bucket: 1, taskId: 'b', events: 1, passed: 0 },
        ]);
        assert.deepEqual((await store.listTrainingRuns()).map((r) => r.name), ['grpo-1']);
      } finally {
        await store.close();
      }
    });

    it('keeps per-problem, per-step counts of training events (difficulty), across batches and writers', async () => {
      const store = await open();
      try {
        const event = (step: number | undefined, taskId: string, reward: number) =>
          ({ ...(step === undefined ? {} : { step }), taskId, reward, status: reward === 1 ? 'passed' as const : 'wrong_answer' as const,
            passed: reward === 1, timeMs: 1_000_000 });
        const id = await store.recordTrainingEvents('difficulty', [event(0, 'a', 1), event(0, 'a', 0), event(1, 'a', 1), event(0, 'b', 0.5)]);
        // The same step again in a later batch adds to its counts; events without a step go under step -1.
        await store.recordTrainingEvents('difficulty', [event(1, 'a', 1), event(undefined, 'a', 0), event(0, 'b', 1)]);
        assert.deepEqual(await store.problemSteps(id), [
          { taskId: 'a', step: -1, rollouts: 1, passed: 0, rewardSum: 0 },
          { taskId: 'a', step: 0, rollouts: 2, passed: 1, rewardSum: 1 },
          { taskId: 'a', step: 1, rollouts: 2, passed: 2, rewardSum: 2 },
          { taskId: 'b', step: 0, rollouts: 2, passed: 1, rewardSum: 1.5 },
        ]);
        assert.deepEqual((await store.problemSteps(id, ['b', 'zz'])).map((r) => [r.taskId, r.step]), [['b', 0]]);
        const other = await store.recordTrainingEvents('other', [event(0, 'a', 1)]);
        assert.deepEqual((await store.problemSteps(other)).map((r) => r.rollouts), [1], 'per training run');
      } finally {
        await store.close();
      }
    });

    it('buckets training events by minute when none has a step', async () => {
      const store = await open();
      try {
        const t0 = 1_700_000_000_000;
        const id = await store.recordTrainingEvents('online', [
          { taskId: 'a', reward: 1, status: 'passed', passed: true, timeMs: t0 },
          { taskId: 'a', reward: 0, status: 'wrong_answer', passed: false, timeMs: t0 + 59_999 },
          { taskId: 'a', reward: 1, status: 'passed', passed: true, timeMs: t0 + 60_000 },
          { taskId: 'a', reward: 0, status: 'wrong_answer', passed: false, timeMs: t0 + 185_000 },
        ]);
        const series = await store.trainingSeries(id);
        assert.equal(series.unit, 'minute');
        assert.equal(series.unstepped, 0);
        assert.deepEqual(series.buckets.map((b) => [b.bucket, b.events, b.passed]), [[0, 2, 1], [1, 1, 1], [3, 1, 0]]);
      } finally {
        await store.close();
      }
    });

    it('keeps a stepped run on its step axis when events without a step arrive, counting them apart', async () => {
      const store = await open();
      try {
        const t0 = 1_700_000_000_000;
        const id = await store.recordTrainingEvents('stepped', [
          { taskId: 'a', reward: 1, status: 'passed', passed: true, timeMs: t0, step: 0 },
          { taskId: 'a', reward: 0, status: 'wrong_answer', passed: false, timeMs: t0 + 1000, step: 0 },
          { taskId: 'b', reward: 0.5, status: 'wrong_answer', passed: false, timeMs: t0 + 70_000 },
          { taskId: 'a', reward: 1, status: 'passed', passed: true, timeMs: t0 + 120_000, step: 1 },
        ]);
        const series = await store.trainingSeries(id);
        assert.equal(series.unit, 'step');
        assert.equal(series.unstepped, 1);
        assert.deepEqual(series.buckets.map((b) => [b.bucket, b.events, b.rewardMin, b.rewardMax]), [[0, 2, 0, 1], [1, 1, 1, 1]]);
        assert.deepEqual(series.rewardRange, [0, 1]);
        assert.deepEqual(series.histogram.edges, [0, 1], 'one bin per distinct reward of the stepped events');
        assert.deepEqual(series.histogram.rows.map((r) => [r.stepFrom, r.bin, r.events]).sort(), [[0, 0, 1], [0, 1, 1], [1, 1, 1]]);
        assert.equal(series.calls.reduce((s, c) => s + c.events, 0), 4, 'reward calls count every event, stepped or not');
      } finally {
        await store.close();
      }
    });

    it('stores an event once per idempotency key: a retried batch counts once', async () => {
      const store = await open();
      try {
        const event = (i: number, key?: string) => ({ taskId: `t${i}`, reward: i % 2, status: 'passed' as const, passed: true, timeMs: 1_700_000_000_000 + i,
          step: 0, latencyMs: 10 * (i + 1), ...(key === undefined ? {} : { eventKey: key }) });
        const first = await store.recordTrainingBatch('retried', [event(0, 'b1#0'), event(1, 'b1#1'), event(2)]);
        assert.deepEqual([first.recorded, first.duplicates], [3, 0]);
        const again = await store.recordTrainingBatch('retried', [event(0, 'b1#0'), event(1, 'b1#1'), event(3, 'b1#2'), event(3, 'b1#2')]);
        assert.deepEqual([again.recorded, again.duplicates], [1, 3], 'two keys stored before, one twice in the batch');
        assert.equal((await store.getTrainingRun('retried'))?.events, 4);
        const series = await store.trainingSeries(first.trainingRunId);
        assert.equal(series.buckets[0]!.events, 4);
        assert.equal(series.buckets[0]!.latencyMaxMs, 40);
        assert.equal(series.buckets[0]!.latencyMeanMs, 25);
        const other = await store.recordTrainingBatch('other run', [event(0, 'b1#0')]);
        assert.equal(other.recorded, 1, 'keys are per training run');
      } finally {
        await store.close();
      }
    });

    it('bins a many-valued reward in equal-width bins over its range, and groups long runs into columns of steps', async () => {
      const store = await open();
      try {
        const events = Array.from({ length: 1000 }, (_, step) => [0, 1, 2].map((j) => ({ taskId: `t${j}`, reward: (step % 50) / 49 + j,
          status: 'passed' as const, passed: true, timeMs: 1_700_000_000_000 + step * 1000, step }))).flat();
        const id = await store.recordTrainingEvents('long', events);
        const series = await store.trainingSeries(id);
        assert.equal(series.buckets.length, 1000);
        assert.deepEqual(series.rewardRange, [0, 3]);
        assert.equal(series.histogram.edges.length, 21);
        assert.equal(series.histogram.stepsPerColumn, 5, '1,000 steps in at most 200 columns');
        assert.equal(series.histogram.rows.reduce((s, r) => s + r.events, 0), 3000);
        assert.ok(series.histogram.rows.every((r) => r.bin >= 0 && r.bin < 20));
        assert.ok(series.calls.length <= 240 && series.calls.reduce((s, c) => s + c.events, 0) === 3000);
      } finally {
        await store.close();
      }
    });

    it('reports what changed since a time, for live pages', async () => {
      const store = await open();
      try {
        const before = Date.now() - 1;
        const id = await seeded(store);
        await store.recordTrainingEvents('live', [{ taskId: 'a', reward: 1, status: 'passed', passed: true, timeMs: Date.now() }]);
        const changes = await store.changesSince(before);
        assert.deepEqual(changes.runs.map((r) => [r.id, r.doneSamples]), [[id, 4]]);
        assert.deepEqual(changes.training.map((t) => [t.name, t.events]), [['live', 1]]);
        const later = await store.changesSince(Date.now() + 60_000);
        assert.deepEqual([later.runs.length, later.training.length], [0, 0]);
      } finally {
        await store.close();
      }
    });

    it('numbers training events of two writers without overlap', async () => {
      const connect = await newDatabase();
      const [one, two] = [await connect(), await connect()];
      try {
        const event = { taskId: 'a', reward: 1, status: 'passed' as const, passed: true, timeMs: Date.now() };
        await Promise.all([
          ...Array.from({ length: 10 }, () => one.recordTrainingEvents('shared', [event, event])),
          ...Array.from({ length: 10 }, () => two.recordTrainingEvents('shared', [event])),
        ]);
        assert.equal((await one.getTrainingRun('shared'))?.events, 30);
        const series = await two.trainingSeries((await two.getTrainingRun('shared'))!.id);
        assert.equal(series.buckets.reduce((s, b) => s + b.events, 0), 30);
      } finally {
        await one.close();
        await two.close();
      }
    });
  });
}


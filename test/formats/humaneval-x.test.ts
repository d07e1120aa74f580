/**
 * The HumanEval-X reader (THUDM/CodeGeeX files as published, from ../shared/data) and CodeGeeX's
 * `{task_id, generation}` samples: languages by task-id prefix (C++ as `cpp11`, Rust as `rust-test`: CodeGeeX's
 * flags and runner), Go's setup, Rust's main + declaration, JavaScript's output rule, Python as `unit_test`,
 * bad records named by file, line and field. Judging them runs in test/acceptance/humaneval-x.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DatasetError, detectProblemFormat, readProblems, readSampleJsonl } from '../../src/formats/index.js';
import type { ScriptProblem, UnitTestProblem } from '../../src/formats/types.js';
import { humanEvalXPath } from '../support/humaneval-x.js';
import { tempFile } from './helpers.js';

describe('HumanEval-X problems', () => {
  it('is detected, and each file reads as 164 problems of its language', async () => {
    const expected = { cpp: 'cpp11', go: 'go', java: 'java', js: 'javascript', rust: 'rust-test' } as const;
    for (const [suffix, language] of Object.entries(expected)) {
      const path = humanEvalXPath(suffix);
      assert.equal(await detectProblemFormat(path), 'humaneval-x');
      const problems = await readProblems(path) as ScriptProblem[];
      assert.equal(problems.length, 164);
      assert.ok(problems.every((p) => p.kind === 'script' && p.language === language && p.canonicalSolution !== undefined));
      // CodeGeeX fails a JavaScript program that printed anything; other languages are judged by exit status.
      assert.ok(problems.every((p) => (p.stderrFails === true && p.stdoutFails === true) === (language === 'javascript')));
    }
  });

  it('Rust: the program starts with CodeGeeX\'s empty main and the declaration (imports and signature), then the prompt', async () => {
    const [first] = await readProblems(humanEvalXPath('rust')) as ScriptProblem[];
    assert.match(first!.prompt, /^\nfn main\(\)\{ \n \} \n\nuse std::/);
    assert.match(first!.prompt, /use rand::Rng;[\s\S]*fn has_close_elements\(numbers:Vec<f32>, threshold: f32\) -> bool\{\n[\s\S]*Check if in given list/);
  });

  it('Go: test_setup becomes the setup and the prompt loses its import block (CodeGeeX)', async () => {
    const [first] = await readProblems(humanEvalXPath('go')) as ScriptProblem[];
    assert.match(first!.setup ?? '', /^package main\n/);
    assert.doesNotMatch(first!.prompt, /import \(/);
    assert.match(first!.prompt, /func HasCloseElements\(/);
  });

  it('Python becomes unit_test with the entry point of the final check() call, which is cut from the test', async () => {
    const problems = await readProblems(humanEvalXPath('python')) as UnitTestProblem[];
    assert.equal(problems.length, 164);
    assert.equal(problems[0]!.kind, 'unit_test');
    assert.equal(problems[0]!.entryPoint, 'has_close_elements');
    assert.doesNotMatch(problems[0]!.test, /check\(has_close_elements\)\s*$/);
    assert.match(problems[0]!.test, /def check\(has_close_elements\):/);
  });

  it('an unknown prefix and a missing field name the line and field', async () => {
    const record = { prompt: 'p', declaration: 'd', test: 't', canonical_solution: 'c' };
    const unknown = tempFile('x.jsonl', `${JSON.stringify({ ...record, task_id: 'CPP/0' })}\n${JSON.stringify({ ...record, task_id: 'Cobol/1' })}\n`);
    await assert.rejects(readProblems(unknown, 'humaneval-x'),
      (e: Error) => e instanceof DatasetError && /:2/.test(e.message) && /task_id/.test(e.message) && /Cobol/.test(e.message));
    const noSetup = tempFile('g.jsonl', `${JSON.stringify({ ...record, task_id: 'Go/0' })}\n`);
    await assert.rejects(readProblems(noSetup, 'humaneval-x'), (e: Error) => e instanceof DatasetError && /test_setup/.test(e.message));
  });

  it('reads CodeGeeX samples {task_id, generation} as completions', async () => {
    const path = tempFile('s.jsonl', `${JSON.stringify({ task_id: 'CPP/0', generation: '    return true;\n}\n' })}\n`
      + `${JSON.stringify({ task_id: 'CPP/0', generation: 'g', completion: 'c' })}\n`);
    const samples = await readSampleJsonl(path);
    assert.deepEqual(samples.map((s) => [s.taskId, s.index, s.completion]), [['CPP/0', 0, '    return true;\n}\n'], ['CPP/0', 1, 'c']]);
  });
});

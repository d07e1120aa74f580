/** `prepareSubmission`: which code is judged, in which language, assembled how (pure: nothing runs). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CallProblem, IoProblem, UnitTestProblem } from '../../src/formats/types.js';
import { SubmissionError, defaultSubmissionContext } from '../../src/kinds/index.js';
import { prepareSubmission, type PreparedSubmission } from '../../src/judge/submission.js';

const context = defaultSubmissionContext();
const HE: UnitTestProblem = { kind: 'unit_test', taskId: 'HumanEval/0', language: 'python', prompt: 'def add(a, b):\n    """Add."""\n',
  entryPoint: 'add', test: 'def check(candidate):\n    assert candidate(1, 2) == 3\n' };
const IO: IoProblem = { kind: 'io', taskId: 'sum', comparator: { kind: 'tokens' }, tests: [{ input: '1 2\n', output: '3\n' }] };
const PLUS: CallProblem = { kind: 'call', taskId: 'HumanEval/0', language: 'python', prompt: HE.prompt, entryPoint: 'add',
  canonicalSolution: '    return a + b\n', baseInputs: [[{ i: '1' }, { i: '2' }]], plusInputs: [], atol: 0, evalplusDataset: 'humaneval' };

function program(p: PreparedSubmission): { language: string; source: string } {
  if (p.kind !== 'program') throw new Error(`expected a program, got ${JSON.stringify(p)}`);
  return p.program;
}

describe('prepareSubmission', () => {
  it('judges solution, then completion, then code, then response', () => {
    const all = { solution: 'S', completion: 'C', code: 'K', response: '```python\nR\n```' };
    assert.equal(program(prepareSubmission(IO, all, context)).source, 'S');
    assert.equal(program(prepareSubmission(IO, { ...all, solution: undefined }, context)).source, 'C');
    assert.equal(program(prepareSubmission(IO, { code: 'K', response: 'R' }, context)).source, 'K');
    assert.equal(program(prepareSubmission(IO, { response: 'Here:\n```python\nR\n```' }, context)).source, 'R');
  });

  it('a Python prompt problem: completion continues the prompt; a whole function is taken whole', () => {
    assert.equal(program(prepareSubmission(HE, { completion: '    return a + b\n' }, context)).source, HE.prompt + '    return a + b\n');
    assert.equal(program(prepareSubmission(HE, { solution: 'print(1)' }, context)).source, 'print(1)');
    const whole = 'def add(a, b):\n    return a + b\n';
    assert.equal(program(prepareSubmission(HE, { code: whole }, context)).source, whole);
    assert.equal(program(prepareSubmission(PLUS, { code: '    return a + b\n' }, context)).source, HE.prompt + '    return a + b\n');
    const chat = `<think>Maybe \`\`\`python\nprint("draft")\n\`\`\`</think>\nSure:\n\`\`\`python\n${whole}\`\`\`\nDone.`;
    const prepared = prepareSubmission(HE, { response: chat }, context);
    assert.equal(program(prepared).source, whole.trimEnd());
    assert.equal(program(prepared).language, 'python');
    assert.deepEqual(prepared.extraction, { kind: 'fenced', tag: 'python', blockIndex: 0, blockCount: 1, terminated: true, thinkSectionsRemoved: 1 });
  });

  it('resolves languages: aliases to ids, io defaults to the problem\'s then Python', () => {
    assert.equal(program(prepareSubmission(HE, { completion: '', language: 'py3' }, context)).language, 'python');
    assert.equal(program(prepareSubmission(IO, { code: '', language: 'C++' }, context)).language, 'cpp');
    const rusty: IoProblem = { ...IO, language: 'rust' };
    assert.equal(program(prepareSubmission(rusty, { code: '' }, context)).language, 'rust');
    assert.equal(program(prepareSubmission(IO, { code: '' }, context)).language, 'python');
  });

  it('says why a submission cannot be judged as given', () => {
    const refused = (fn: () => unknown, code: string, message: RegExp): void => {
      assert.throws(fn, (e: Error) => e instanceof SubmissionError && e.code === code && message.test(e.message));
    };
    refused(() => prepareSubmission(IO, { code: '', language: 'no-such-language' }, context), 'unknown_language', /unknown language "no-such-language"; configured: \w/);
    refused(() => prepareSubmission(HE, { completion: '', language: 'c' }, context), 'wrong_language', /HumanEval\/0 \(unit_test\) cannot be judged in c/);
    refused(() => prepareSubmission(IO, {}, context), 'no_program', /no solution, completion, code or response/);
  });

  it('decides no_code without running anything, with the problem\'s test count', () => {
    const prepared = prepareSubmission(PLUS, { response: '<think>```python\nx\n```</think>I cannot solve this.' }, context);
    assert.equal(prepared.kind, 'decided');
    if (prepared.kind !== 'decided') return;
    assert.equal(prepared.verdict.status, 'no_code');
    assert.equal(prepared.verdict.testCount, 1);
    assert.equal(prepared.extraction.kind, 'no_code');
  });
});

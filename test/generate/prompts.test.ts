/**
 * Prompts on the real benchmark files (../shared/data and the LiveCodeBench fixture), read through Crucible's
 * problem readers, against the templates of the published harnesses written out by hand here: bigcode's
 * HumanEval (stripped prompt, its stop list) and MBPP (docstring with the first test), EvalPlus' direct
 * completion and instruction prompts, MultiPL-E's stripped prompt with the row's stop tokens, LiveCodeBench's
 * OpenAI chat messages (starter code or stdin instruction), repository tasks' problem statements; the stop cut;
 * and the tasks with no template for an API are refused with the task named.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readProblems } from '../../src/formats/registry.js';
import type { CallProblem, ExpectedCallProblem, IoProblem, PythonScriptProblem, ScriptProblem, UnitTestProblem } from '../../src/formats/types.js';
import { buildPrompt, cutAtStop, defaultApi, extractLiveCodeBenchCode, PromptError } from '../../src/generate/prompts/index.js';
import { buildTasks } from '../../src/generate/run.js';
import { readPromptSources } from '../../src/generate/sources.js';
import { HUMANEVAL, HUMANEVAL_PLUS, MBPP_PLUS, SHARED_DATA } from '../support/data.js';
import { MBPP_PATH } from '../support/mbpp.js';
import { LCB_FIXTURE } from '../formats/helpers.js';

const LUA = join(SHARED_DATA, 'multipl-e', 'prompts', 'humaneval-lua-reworded.jsonl');
const SWE = join(SHARED_DATA, 'swe', 'instances.jsonl');

describe('prompts as the harnesses build them', () => {
  it('HumanEval: bigcode\'s stripped completion prompt and stop list; EvalPlus\' instruction for chat', async () => {
    const [first] = await readProblems(HUMANEVAL, 'humaneval') as UnitTestProblem[];
    assert.equal(defaultApi(first!), 'completions');
    const p = buildPrompt(first!);
    assert.equal(p.style, 'bigcode-humaneval');
    assert.deepEqual(p.input, { api: 'completions', prompt: first!.prompt.trim() });
    assert.ok(p.input.api === 'completions' && p.input.prompt.endsWith('    """'));
    assert.deepEqual(p.stop, ['\nclass', '\ndef', '\n#', '\n@', '\nprint', '\nif', '\n```', '<file_sep>']);
    assert.deepEqual(p.output, { kind: 'prefixed', prefix: first!.prompt.trim() });
    const chat = buildPrompt(first!, 'chat');
    assert.equal(chat.style, 'evalplus-instruct');
    assert.deepEqual(chat.input, { api: 'chat', messages: [{ role: 'user', content:
      'Please provide a self-contained Python script that solves the following problem in a markdown code block:\n```python\n'
      + first!.prompt.trim() + '\n```' }] });
    assert.deepEqual(chat.stop, []);
  });

  it('EvalPlus HumanEval+ and MBPP+: prompt.strip() + "\\n", EOS plus the dataset\'s extra stop sequences', async () => {
    const [he] = await readProblems(HUMANEVAL_PLUS, 'evalplus') as CallProblem[];
    const [mbpp] = await readProblems(MBPP_PLUS, 'evalplus') as CallProblem[];
    const eos = ['<|endoftext|>', '<|endofmask|>', '</s>', '\nif __name__', '\ndef main(', '\nprint('];
    const a = buildPrompt(he!);
    assert.deepEqual([a.style, a.input], ['evalplus-completion', { api: 'completions', prompt: he!.prompt.trim() + '\n' }]);
    assert.deepEqual(a.stop, [...eos, '\ndef ', '\nclass ', '\nimport ', '\nfrom ', '\nassert ']);
    assert.deepEqual(a.output, { kind: 'prefixed', prefix: he!.prompt.trim() + '\n' });
    const b = buildPrompt(mbpp!);
    assert.deepEqual(b.stop, [...eos, '\n"""', '\nassert']);
    assert.equal(b.input.api === 'completions' && b.input.prompt,
      '"""\nWrite a function to find the shared elements from the given two lists.\nassert set(similar_elements((3, 4, 5, 6),(5, 7, 4, 10))) == set((4, 5))\n"""\n');
  });

  it('MBPP: bigcode\'s docstring of the description and the first test, judged as prompt + completion', async () => {
    const problems = await readProblems(MBPP_PATH, 'mbpp') as PythonScriptProblem[];
    const task = problems.find((p) => p.taskId === '2')!;
    const p = buildPrompt(task);
    const docstring = '"""\nWrite a function to find the similar elements from the given two tuple lists.\n' +
      'assert similar_elements((3, 4, 5, 6),(5, 7, 4, 10)) == (4, 5)\n"""\n';
    assert.deepEqual([p.style, p.input, p.output], ['bigcode-mbpp', { api: 'completions', prompt: docstring }, { kind: 'prefixed', prefix: docstring }]);
    assert.deepEqual(p.stop, ['\nclass', '\nassert', '\n"""', '\nprint', '\nif', '\n<|/', '\n```']);
  });

  it('MultiPL-E: the stripped prompt and the row\'s stop tokens; the completion continues the row\'s prompt', async () => {
    const [lua] = await readProblems(LUA, 'multipl-e') as ScriptProblem[];
    const p = buildPrompt(lua!);
    assert.deepEqual([p.style, p.language, p.output], ['multipl-e', 'lua', { kind: 'completion' }]);
    assert.deepEqual(p.input, { api: 'completions', prompt: lua!.prompt.trim() });
    assert.deepEqual(p.stop, lua!.stopTokens);
    assert.ok((lua!.stopTokens ?? []).length > 0);
    assert.equal(buildPrompt(lua!, 'chat').style, 'complete-program');
  });

  it('LiveCodeBench: its system message and question template, starter code or the stdin instruction; chat only', async () => {
    const problems = await readProblems(LCB_FIXTURE, 'livecodebench') as (IoProblem | ExpectedCallProblem)[];
    const functional = problems.find((p) => p.kind === 'expected_call') as ExpectedCallProblem;
    const stdin = problems.find((p) => p.kind === 'io') as IoProblem;
    const system = 'You are an expert Python programmer. You will be given a question (problem specification) and will generate a correct ' +
      'Python program that matches the specification and passes all tests.';
    const f = buildPrompt(functional);
    assert.deepEqual(f.input, { api: 'chat', messages: [{ role: 'system', content: system }, { role: 'user', content:
      `### Question:\n${functional.statement!}\n\n### Format: You will use the following starter code to write the solution to the problem and ` +
      `enclose your code within delimiters.\n\`\`\`python\n${functional.prompt}\n\`\`\`\n\n### Answer: (use the provided format with backticks)\n\n` }] });
    const s = buildPrompt(stdin);
    assert.ok(s.input.api === 'chat');
    assert.match(s.input.messages[1]!.content, /### Format: Read the inputs from stdin solve the problem and write the answer to stdout \(do not directly test on the sample inputs\)\. Enclose your code within delimiters as follows\. Ensure that when the python program runs, it reads the inputs, runs the algorithm and writes output to STDOUT\.\n```python\n# YOUR CODE HERE\n```\n\n### Answer/);
    assert.throws(() => buildPrompt(stdin, 'completions'), (e: Error) => e instanceof PromptError && e.message.includes(`task ${stdin.taskId}`));
    assert.equal(extractLiveCodeBenchCode('Sure.\n```python\nx = 1\n```\nor\n```python\nprint(2)\n```\n'), 'print(2)');
    assert.equal(extractLiveCodeBenchCode('no fences'), '');
  });

  it('repository tasks: the problem statement verbatim through the chat API; detected by --format auto', async () => {
    const sources = await readPromptSources(SWE);
    assert.ok(sources.length >= 20);
    const first = sources[0]!;
    assert.equal(first.kind, 'repository');
    const p = buildPrompt(first);
    assert.equal(p.style, 'repository');
    assert.ok(first.kind === 'repository' && p.input.api === 'chat' && p.input.messages[0]!.content === first.problemStatement);
    assert.throws(() => buildTasks(sources, 2, 'completions'), (e: Error) => e instanceof PromptError && /and \d+ more tasks/.test(e.message));
  });

  it('cuts a completion at the first stop sequence, as bigcode and MultiPL-E do', () => {
    assert.equal(cutAtStop('    return 1\n\ndef g():\n    pass\n#x', ['\n#', '\ndef']), '    return 1\n');
    assert.equal(cutAtStop('no stop here', ['\nclass']), 'no stop here');
    assert.equal(cutAtStop('abc', ['']), 'abc');
  });
});

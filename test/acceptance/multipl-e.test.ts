/**
 * MultiPL-E as published: real items (../shared/data/multipl-e/prompts, two per language, see its NOTICE.md; read
 * there, never copied into the tree) read with `--format auto`; MultiPL-E's own executor fixtures
 * (../shared/data/multipl-e/test_inputs: pretty-printed completion files, HumanEval_53 in six languages, a correct
 * and a broken completion each) read as published and judged: correct pass, broken fail; MultiPL-E's completion and results files (and a directory of them) read as problems and samples,
 * and judged in the sandbox: a correct solution passes and an early constant return fails, in Lua, R, Ruby, PHP
 * and Perl. The Ruby, PHP and Perl prompts of those commits do not parse (docstring lines without a comment
 * marker), so there a completion fails whatever it is and a whole solution is judged against the item's tests.
 */
import { splitOf } from '../../src/kinds/script/script.js';
import { MULTIPL_E_SPLITS } from '../../src/kinds/script/multipl-e/index.js';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DatasetError, detectProblemFormat, readProblems, readSamples } from '../../src/formats/index.js';
import type { ScriptProblem } from '../../src/formats/types.js';
import { defaultModes } from '../../src/kinds/index.js';
import { prepareSubmission, type SubmissionInput } from '../../src/judge/submission.js';
import { LanguageRegistry } from '../../src/languages/registry.js';
import { createJudge } from '../../src/engine/factory.js';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import type { Verdict } from '../../src/verdict/index.js';
import { SHARED_DATA } from '../support/data.js';

/** MultiPL-E's prompts as published (nuprl/MultiPL-E `prompts/`), in the shared data directory. */
const FIXTURES = join(SHARED_DATA, 'multipl-e', 'prompts');
/** MultiPL-E's executor fixtures as published (its `evaluation/test_inputs/`). */
const TEST_INPUTS = join(SHARED_DATA, 'multipl-e', 'test_inputs');
const modes = defaultModes();
const languages = LanguageRegistry.load();
const judge = createJudge({ slots: 2, modes, languages, cacheDir: null });
const scratch = mkdtempSync(join(tmpdir(), 'crucible-multipl-e-'));
after(async () => { await judge.close(); rmSync(scratch, { recursive: true, force: true }); });

async function judgeSubmission(problem: ScriptProblem, input: SubmissionInput): Promise<Verdict> {
  const prepared = prepareSubmission(problem, input, { languages, modes });
  if (prepared.kind !== 'program') throw new Error('expected a program');
  return judge.judge({ problem: { inline: problem }, program: prepared.program });
}

/** Per MultiPL-E language: a correct and a constant-return answer for items 0 and 100, as completion or solution. */
const ANSWERS: Readonly<Record<string, { shape: 'completion' | 'solution'; correct: [string, string]; constant: [string, string] }>> = {
  lua: { shape: 'completion',
    correct: ['    for i = 1, #numbers do\n        for j = i + 1, #numbers do\n            if math.abs(numbers[i] - numbers[j]) < threshold then\n'
      + '                return true\n            end\n        end\n    end\n    return false\nend\n',
    '    local t = {}\n    for i = 0, n - 1 do\n        table.insert(t, n + 2 * i)\n    end\n    return t\nend\n'],
    constant: ['    return false\nend\n', '    return {}\nend\n'] },
  r: { shape: 'completion',
    correct: ['\n  for (i in seq_along(numbers)) {\n    for (j in seq_along(numbers)) {\n'
      + '      if (i != j && abs(numbers[i] - numbers[j]) < threshold) return(TRUE)\n    }\n  }\n  FALSE\n}',
    '\n  n + 2 * (0:(n - 1))\n}'],
    constant: ['\n  FALSE\n}', '\n  c()\n}'] },
  rb: { shape: 'solution',
    correct: ['def has_close_elements(numbers, threshold)\n  numbers.each_with_index do |a, i|\n    numbers.each_with_index do |b, j|\n'
      + '      return true if i != j && (a - b).abs < threshold\n    end\n  end\n  false\nend\n',
    'def make_a_pile(n)\n  (0...n).map { |i| n + 2 * i }\nend\n'],
    constant: ['def has_close_elements(numbers, threshold)\n  false\nend\n', 'def make_a_pile(n)\n  []\nend\n'] },
  php: { shape: 'solution',
    correct: ['<?php\nfunction has_close_elements($numbers, $threshold) {\n    foreach ($numbers as $i => $a) {\n        foreach ($numbers as $j => $b) {\n'
      + '            if ($i != $j && abs($a - $b) < $threshold) return true;\n        }\n    }\n    return false;\n}\n',
    '<?php\nfunction make_a_pile($n) {\n    $r = array();\n    for ($i = 0; $i < $n; $i++) $r[] = $n + 2 * $i;\n    return $r;\n}\n'],
    constant: ['<?php\nfunction has_close_elements($numbers, $threshold) {\n    return false;\n}\n', '<?php\nfunction make_a_pile($n) {\n    return array();\n}\n'] },
  pl: { shape: 'solution',
    correct: ['sub has_close_elements {\n    my($numbers, $threshold) = @_;\n    for my $i (0..$#$numbers) {\n        for my $j (0..$#$numbers) {\n'
      + '            return 1 if $i != $j && abs($numbers->[$i] - $numbers->[$j]) < $threshold;\n        }\n    }\n    return "";\n}\n',
    'sub make_a_pile {\n    my($n) = @_;\n    return [map { $n + 2 * $_ } 0..$n-1];\n}\n'],
    constant: ['sub has_close_elements {\n    return "";\n}\n', 'sub make_a_pile {\n    return [];\n}\n'] },
};

const LANGUAGE_IDS: Readonly<Record<string, string>> = { lua: 'lua', r: 'r', rb: 'ruby', php: 'php', pl: 'perl' };

function fixture(lang: string): string {
  return join(FIXTURES, `humaneval-${lang}-reworded.jsonl`);
}

describe('MultiPL-E as published', () => {
  for (const [lang, answers] of Object.entries(ANSWERS)) {
    it(`${lang}: read with --format auto; a correct ${answers.shape} passes, a constant return fails`, async () => {
      assert.equal(await detectProblemFormat(fixture(lang)), 'multipl-e');
      const problems = await readProblems(fixture(lang)) as ScriptProblem[];
      assert.deepEqual(problems.map((p) => [p.taskId, p.kind, p.language, p.dialect]),
        [['HumanEval_0_has_close_elements', 'script', LANGUAGE_IDS[lang], 'multipl-e'], ['HumanEval_100_make_a_pile', 'script', LANGUAGE_IDS[lang], 'multipl-e']]);
      assert.ok(problems[0]!.stopTokens!.length > 0);
      for (const [k, problem] of problems.entries()) {
        const ok = await judgeSubmission(problem, { [answers.shape]: answers.correct[k]! });
        assert.equal(ok.status, 'passed', `${problem.taskId}: ${JSON.stringify(ok)}`);
        const constant = await judgeSubmission(problem, { [answers.shape]: answers.constant[k]! });
        // Split languages compare the values outside the box (a wrong value); the others' tests fail in the script.
        const split = MULTIPL_E_SPLITS[problem.language] !== undefined;
        assert.equal(splitOf(problem) !== undefined, split, `${problem.taskId}: the published tests are read as cases`);
        assert.equal(constant.status, split ? 'wrong_answer' : 'runtime_error', `${problem.taskId}: ${JSON.stringify(constant)}`);
      }
    });
  }

  it('the Ruby prompt as published does not parse: even a correct completion fails (the dataset\'s bug)', async () => {
    const [problem] = await readProblems(fixture('rb')) as ScriptProblem[];
    const body = ANSWERS.rb!.correct[0].split('\n').slice(1).join('\n');
    const v = await judgeSubmission(problem!, { completion: body });
    assert.equal(v.status, 'runtime_error');
    assert.match(v.reason ?? '', /syntax error|undefined local variable or method/);
  });

  it('completion and results files (a directory of them) are problems and samples; completions are cut at stop_tokens', async () => {
    const record = JSON.parse(readFileSync(fixture('lua'), 'utf8').split('\n')[0]!) as Record<string, unknown>;
    const [correct, constant] = [ANSWERS.lua!.correct[0], ANSWERS.lua!.constant[0]];
    const dir = join(scratch, 'lua-completions');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    // A completion that runs on past a stop token ("\n\n"): MultiPL-E would have stopped generating there.
    writeFileSync(join(dir, 'HumanEval_0_has_close_elements.json'),
      JSON.stringify({ ...record, completions: [`${correct}\n\nprint("after the stop token")\n`, constant] }));
    writeFileSync(join(dir, 'HumanEval_0_has_close_elements.results.json'), JSON.stringify({ ...record,
      results: [{ program: `${record.prompt as string}${constant}\n${record.tests as string}`, status: 'Exception', exit_code: 1 }] }));
    assert.equal(await detectProblemFormat(dir), 'multipl-e');
    const problems = await readProblems(dir) as ScriptProblem[];
    assert.deepEqual(problems.map((p) => p.taskId), ['HumanEval_0_has_close_elements']);
    const samples = await readSamples(dir);
    assert.deepEqual(samples.map((s) => [s.taskId, s.index]), [['HumanEval_0_has_close_elements', 0], ['HumanEval_0_has_close_elements', 1]]);
    const verdicts = await Promise.all(samples.map((s) => judgeSubmission(problems[0]!, { completion: s.completion! })));
    assert.deepEqual(verdicts.map((v) => v.status), ['passed', 'wrong_answer']);
    const results = await readSamples(join(dir, 'HumanEval_0_has_close_elements.results.json'));
    assert.deepEqual(results.map((s) => s.completion), [constant]);
  });

  it('its executor fixtures, pretty-printed, six languages of one item in one directory: correct pass, broken fail', async () => {
    assert.equal(await detectProblemFormat(TEST_INPUTS), 'multipl-e');
    const problems = await readProblems(TEST_INPUTS) as ScriptProblem[];
    // Several languages in one directory: each task id is qualified by its language.
    assert.deepEqual(problems.map((p) => p.taskId).sort(), ['bash', 'cpp', 'javascript', 'lua', 'perl', 'typescript']
      .map((l) => `${l}/HumanEval_53_add`));
    for (const p of problems) assert.equal(p.taskId, `${p.language}/HumanEval_53_add`);
    const samples = await readSamples(TEST_INPUTS);
    assert.equal(samples.length, 12);
    const byId = new Map(problems.map((p) => [p.taskId, p]));
    const verdicts = await Promise.all(samples.map(async (s) => {
      const v = await judgeSubmission(byId.get(s.taskId)!, { completion: s.completion! });
      return `${s.taskId} ${s.index === 0 ? 'correct' : 'broken'}: ${v.status === 'passed' ? 'passed' : v.status === 'internal_error' ? v.reason : 'failed'}`;
    }));
    assert.deepEqual(verdicts.sort(), [...problems.map((p) => `${p.taskId} correct: passed`), ...problems.map((p) => `${p.taskId} broken: failed`)].sort());
    // One file of them alone: the plain name.
    const one = join(TEST_INPUTS, 'lua-davinci-0.2-keep-HumanEval53.json');
    assert.deepEqual((await readProblems(one)).map((p) => p.taskId), ['HumanEval_53_add']);
    assert.deepEqual((await readSamples(one)).map((s) => [s.taskId, s.index]), [['HumanEval_53_add', 0], ['HumanEval_53_add', 1]]);
  });

  it('languages Crucible cannot run are refused with the reason', async () => {
    const path = join(scratch, 'julia.jsonl');
    writeFileSync(path, `${JSON.stringify({ name: 'HumanEval_0_x', language: 'jl', prompt: 'function x()\n', tests: 'using Test\n', stop_tokens: [] })}\n`);
    await assert.rejects(readProblems(path), (e: Error) => e instanceof DatasetError && /julia\.jsonl:1.*language.*Julia is not installable/.test(e.message));
    const lisp = join(scratch, 'lisp.jsonl');
    writeFileSync(lisp, `${JSON.stringify({ name: 'HumanEval_0_x', language: 'lisp', prompt: '(defun x ()\n', tests: '', stop_tokens: [] })}\n`);
    await assert.rejects(readProblems(lisp), (e: Error) => e instanceof DatasetError && /lisp\.jsonl:1.*serapeum/.test(e.message));
  });
});

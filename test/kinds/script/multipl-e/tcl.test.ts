/**
 * MultiPL-E Tcl judged split (`src/kinds/script/multipl-e/tcl.ts`) in the real sandbox: problems in the shape of
 * nuprl/MultiPL-E `humaneval_to_tcl.py` (its `assert_equal` proc, the `candidate` alias, one `assert_equal` per
 * case), read through the `multipl-e` reader. A correct completion passes; a wrong one is a `wrong_answer` naming
 * the case; what used to pass in one process (redefining `assert_equal`, exiting 0 early, printing value lines)
 * fails; strings compare as Tcl's `ne` does, character for character.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readProblems } from '../../../../src/formats/index.js';
import type { ScriptProblem } from '../../../../src/formats/types.js';
import { defaultModes } from '../../../../src/kinds/index.js';
import { splitOf } from '../../../../src/kinds/script/script.js';
import { LanguageRegistry } from '../../../../src/languages/registry.js';
import { createJudge } from '../../../../src/engine/factory.js';
import type { Verdict } from '../../../../src/verdict/index.js';
import { judgeCompletion } from '../../../support/split-values.js';

const modes = defaultModes();
const languages = LanguageRegistry.load();
const judge = createJudge({ slots: 2, modes, languages, cacheDir: null });
const scratch = mkdtempSync(join(tmpdir(), 'crucible-split-tcl-'));
after(async () => { await judge.close(); rmSync(scratch, { recursive: true, force: true }); });

const PREFIX = '\nproc assert_equal {actual expected} {\n    if {$actual ne $expected} {\n'
  + '        error "Expected: $expected | Actual: $actual"\n    }\n}\n\n';

async function problem(name: string, prompt: string, tests: string): Promise<ScriptProblem> {
  const path = join(scratch, `${name}.jsonl`);
  writeFileSync(path, `${JSON.stringify({ name, language: 'tcl', prompt, tests, stop_tokens: ['\nproc ', '\n#', '\n\n'] })}\n`);
  const [p] = await readProblems(path, 'multipl-e') as ScriptProblem[];
  return p!;
}

function judged(p: ScriptProblem, completion: string): Promise<Verdict> {
  return judgeCompletion(judge, { languages, modes }, p, completion);
}

describe('MultiPL-E Tcl, judged split', () => {
  const add = problem('HumanEval_53_add', '# Add two numbers x and y\nproc add {x y} {\n',
    `${PREFIX}interp alias {} candidate {} add\n\nassert_equal [candidate 0 1] 1\nassert_equal [candidate 5 7] 12\n`);

  it('the tests are read as two cases; a correct completion passes, a wrong one names its case', async () => {
    const p = await add;
    assert.equal(p.language, 'tcl');
    assert.deepEqual(splitOf(p)?.tests.cases, [{ actual: '[candidate 0 1]', expected: '1' }, { actual: '[candidate 5 7]', expected: '12' }]);
    assert.equal((await judged(p, '    return [expr {$x + $y}]\n}\n')).status, 'passed');
    const wrong = await judged(p, '    if {$x == 0} { return 1 }\n    return [expr {$x - $y}]\n}\n');
    assert.equal(wrong.status, 'wrong_answer');
    assert.match(wrong.reason ?? '', /^case 2 \(\[candidate 5 7\]\): expected "12", got "-2"/);
  });

  for (const [hack, completion] of Object.entries({
    'assert_equal redefined to accept anything': '    return 0\n}\nproc assert_equal {a b} {}\nrename error crucible_never\nproc error args {}\n',
    'exit 0 before the tests': '    return 0\n}\nexit 0\n',
    'value lines printed beside wrong answers': '    return 0\n}\nputs "CRUCIBLE-VALUE 0 \\"1\\""\nputs "CRUCIBLE-VALUE 1 \\"12\\""\n',
  })) {
    it(`does not pass: ${hack} (wrong_answer)`, async () => {
      const v = await judged(await add, completion);
      assert.equal(v.status, 'wrong_answer', JSON.stringify(v));
      assert.match(v.reason ?? '', /^case 1 /);
    });
  }

  it('lists, dicts and strings compare as their string representations, unicode and quotes included', async () => {
    const p = await problem('HumanEval_0_shapes', '# Shapes\nproc shapes {k} {\n', `${PREFIX}interp alias {} candidate {} shapes\n\n`
      + 'assert_equal [candidate 0] [list 1 2 3]\nassert_equal [candidate 1] [dict create a 1 b 2]\n'
      + 'assert_equal [candidate 2] "日本 \\"q\\" \\$x"\nassert_equal [candidate 3] ""\n');
    const body = (third: string): string => `    switch $k {\n        0 { return [list 1 2 3] }\n        1 { return "a 1 b 2" }\n`
      + `        2 { return ${third} }\n        default { return {} }\n    }\n}\n`;
    assert.equal((await judged(p, body('"日本 \\"q\\" \\$x"'))).status, 'passed');
    const other = await judged(p, body('"中国 \\"q\\" \\$x"'));
    assert.equal(other.status, 'wrong_answer');
    assert.match(other.reason ?? '', /^case 3 .*expected "日本 \\"q\\" \$x", got "中国 \\"q\\" \$x"/);
  });
});

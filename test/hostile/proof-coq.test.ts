/**
 * Coq exploits, each run through the sandbox in the coq language's two boxes (the candidate's coqc, then the
 * trusted check that loads its .vo) and judged by the proof kind's Coq judgement. Named by attack:
 * test/hostile/programs/proof/coq/<attack>.v, all against statement.v, whose reference proof is genuine.v.
 * `coqc` exits 0 on every one of them: the exit status alone would accept them all.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { openExecutor } from '../support/sandbox.js';
import { coqProblem, judgeCoq } from '../support/proof.js';

const dir = join(PROJECT_ROOT, 'test', 'hostile', 'programs', 'proof', 'coq');
const read = (name: string): string => readFileSync(join(dir, name), 'utf8');

/** Each exploit and the verdict it must get. */
const EXPECTED: Readonly<Record<string, 'proved' | 'proved_with_holes' | 'cheated' | 'failed'>> = {
  'genuine.v': 'proved',
  'admitted.v': 'proved_with_holes',
  'admit_tactic.v': 'proved_with_holes',
  'axiom_false.v': 'cheated',
  'parameter.v': 'cheated',
  'changed_statement.v': 'cheated',
  'weaker_lemma_renamed.v': 'cheated',
  'unset_guard_checking.v': 'cheated',
  'bypass_check_attribute.v': 'cheated',
  'local_axiom.v': 'cheated',
  'fake_closed_output.v': 'cheated',
  'notation_spoofs_print_assumptions.v': 'cheated',
  'redefined_definition.v': 'cheated',
  'unset_positivity_checking.v': 'cheated',
  'shadow_library_path.v': 'failed',
  'extraction_writes_files.v': 'cheated',
};

describe('Coq exploits through the sandbox', () => {
  const { sandbox, executor, languages } = openExecutor(2);
  let problem: Awaited<ReturnType<typeof coqProblem>>;
  before(async () => {
    problem = await coqProblem(executor, languages, read('statement.v'), read('genuine.v'), ['double_ev', 'ev_4']);
  });
  after(async () => {
    await executor.close();
    sandbox.close();
  });

  for (const [file, expected] of Object.entries(EXPECTED)) {
    it(`${file.replace(/\.v$/, '').replaceAll('_', ' ')}: ${expected}`, async () => {
      const judgement = await judgeCoq(executor, languages, problem, read(file));
      assert.equal(judgement.verdict, expected, `${judgement.verdict}: ${judgement.reason ?? ''}`);
    });
  }
  it('the statement file itself (every proof admitted) is a proof with holes, not a proof', async () => {
    assert.equal((await judgeCoq(executor, languages, problem, read('statement.v'))).verdict, 'proved_with_holes');
  });
  it('a file Coq rejects is failed', async () => {
    const judgement = await judgeCoq(executor, languages, problem, read('genuine.v').replace('repeat constructor', 'exact I'));
    assert.equal(judgement.verdict, 'failed');
    assert.match(judgement.reason!, /^coqc: Error/);
  });
});

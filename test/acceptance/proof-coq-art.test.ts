/**
 * Acceptance on coq-art (../shared/data/coq-art, 30 exercise files, 156 statements, read by the coq-art layout
 * reader): every genuine solution is proved through the sandbox, and three cheats of each file are refused:
 * its last statement replaced by `True` (where later proofs use it, coqc rejects the file: `failed`, no cheat that
 * coqc accepts), its first proved from `Axiom crucible_cheat : False`, and its first admitted. (`coqc` alone
 * accepts all three; adding `Print Assumptions` still accepts the first, which only the statement comparison
 * catches.) Admitting a statement proved inside a Section changes the statement Coq prints (an admitted proof is
 * discharged over every section variable), so an admitted one is `proved_with_holes` or `cheated`, never a pass.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { coqSentences, commandOf, statementFromSolution, STATEMENT_KEYWORDS } from '../../src/formats/coq-vernacular.js';
import { readCoqTheorems } from '../../src/formats/coq-theorems.js';
import type { CoqProofProblem } from '../../src/formats/types.js';
import { openExecutor } from '../support/sandbox.js';
import { COQ_ART } from '../support/data.js';
import { coqProblem, judgeCoq } from '../support/proof.js';

/** Whether `sentence` states theorem `name` by a term (`Example t3 : triangle nat := ...`): no proof to admit. */
function byTerm(text: string, name: string): boolean {
  const command = commandOf(text);
  return STATEMENT_KEYWORDS.has(command.keyword) && command.name === name && /:=/.test(text);
}

/** The solution with theorem `name`'s statement and proof replaced by `True` and `exact I`. */
function statementToTrue(solution: string, name: string): string {
  const sentences = coqSentences(solution);
  const i = sentences.findIndex((s) => commandOf(s.text).name === name);
  const j = sentences.findIndex((s, k) => k > i && ['Qed', 'Defined'].includes(commandOf(s.text).keyword));
  return `${solution.slice(0, sentences[i]!.start)}${commandOf(sentences[i]!.text).keyword} ${name} : True. Proof. exact I. Qed.${solution.slice(sentences[j]!.end)}`;
}

/** The solution with theorem `name` proved from an axiom of `False`. */
function fromFalse(solution: string, name: string): string {
  const admitted = statementFromSolution(solution, [name]);
  assert.equal(admitted.split('Admitted.').length, 2, 'coq-art files admit nothing of their own');
  return `Axiom crucible_cheat : False.\n${admitted.replace('Admitted.', 'Proof. destruct crucible_cheat. Qed.')}`;
}

describe('Coq on coq-art, through the sandbox', () => {
  const { sandbox, executor, languages } = openExecutor(2);
  let problems: CoqProofProblem[] = [];
  before(async () => {
    problems = await readCoqTheorems(COQ_ART);
  });
  after(async () => {
    await executor.close();
    sandbox.close();
  });

  it('reads the layout: 30 files, 156 statements, statement files with every listed proof admitted', () => {
    assert.equal(problems.length, 30);
    assert.equal(problems.reduce((n, p) => n + p.theorems.length, 0), 156);
    for (const p of problems) {
      // Statements given by a term (triangular.v's `Example t1 : triangle nat := ...`) have no proof to admit.
      const terms = coqSentences(p.reference!).filter((s) => p.theorems.some((name) => byTerm(s.text, name))).length;
      assert.equal((p.statement.match(/Admitted\./g) ?? []).length, p.theorems.length - terms, p.taskId);
    }
  });

  it('every genuine solution is proved; every cheat is refused', async () => {
    const outcomes: string[] = [];
    for (const p of problems) {
      const problem = await coqProblem(executor, languages, p.statement, p.reference!, p.theorems);
      const proved = p.theorems.filter((name) => !coqSentences(p.reference!).some((s) => byTerm(s.text, name)));
      const first = proved[0]!;
      const genuine = await judgeCoq(executor, languages, problem, p.reference!);
      const toTrue = await judgeCoq(executor, languages, problem, statementToTrue(p.reference!, proved.at(-1)!));
      const axiom = await judgeCoq(executor, languages, problem, fromFalse(p.reference!, first));
      const admitted = await judgeCoq(executor, languages, problem, statementFromSolution(p.reference!, [first]));
      outcomes.push(`${p.taskId}: ${genuine.verdict} ${toTrue.verdict} ${axiom.verdict} ${admitted.verdict}`);
      assert.equal(genuine.verdict, 'proved', `${p.taskId}: ${genuine.reason ?? ''}`);
      if (toTrue.verdict === 'failed') assert.match(toTrue.reason!, /^coqc: Error/, p.taskId);
      else assert.equal(toTrue.verdict, 'cheated', `${p.taskId} (True): ${toTrue.reason ?? ''}`);
      assert.equal(axiom.verdict, 'cheated', `${p.taskId} (axiom): ${axiom.reason ?? ''}`);
      assert.ok(['proved_with_holes', 'cheated'].includes(admitted.verdict), `${p.taskId} (admitted): ${admitted.verdict} ${admitted.reason ?? ''}`);
    }
    assert.equal(outcomes.length, 30);
    const compiledTrue = outcomes.filter((o) => o.split(' ')[2] === 'cheated').length;
    assert.ok(compiledTrue >= 20, `${compiledTrue} of 30 statements replaced by True compile (and are cheats)`);
  });
});

/**
 * The Coq audit's pure parts: sentences, statement files, the trusted check file and the reading of what the
 * trusted `coqc` printed. The fixtures `test/fixtures/proof/coq-check-*.txt` are the trusted check's stdout for
 * `coq-reference.v` and `coq-cheats.v` (Coq 8.16.1), captured once; the same runs happen in the sandbox in
 * test/hostile/proof-coq.test.ts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { auditCoq, admittedNames, coqReferenceFromOutput, forbiddenCommands } from '../../../src/kinds/proof/coq/audit.js';
import { coqCheckFile, parseAssumptions, splitCheckOutput } from '../../../src/kinds/proof/coq/check-file.js';
import { coqSentences, commandOf } from '../../../src/formats/coq-vernacular.js';
import { declaredNames, statementFromSolution } from '../../../src/formats/coq-vernacular.js';
import { proofVerdict } from '../../../src/kinds/proof/findings.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../../../test/fixtures/proof');
const fixture = (name: string): string => readFileSync(path.join(FIXTURES, name), 'utf8');
const NONCE = 'f00dfeed12345678';

describe('Coq sentences', () => {
  it('comments nest and hold strings; qualified names and strings do not end a sentence; bullets are dropped', () => {
    const text = `Lemma a : Nat.add 0 0 = 0. (* (* nested. *) "a *) in a string." *)
Proof. - simpl. { reflexivity. } Qed.
Definition s := "x. ""y"" z".`;
    assert.deepEqual(coqSentences(text).map((s) => s.text), ['Lemma a : Nat.add 0 0 = 0', 'Proof', 'simpl', 'reflexivity', 'Qed', 'Definition s := "x. ""y"" z"']);
    assert.equal(coqSentences(text)[5]!.line, 3);
  });
  it('reads commands under attributes and prefixes', () => {
    assert.deepEqual(commandOf('#[local] Program Lemma foo : True'), { attributes: ['local'], prefixes: ['Program'], keyword: 'Lemma', name: 'foo' });
    assert.deepEqual(commandOf('Local Unset Guard Checking'), { attributes: [], prefixes: ['Local'], keyword: 'Unset', name: 'Guard Checking' });
  });
});

describe('Coq statement files', () => {
  const solution = `Section S. Variable A : Set.
Theorem t1 : forall x : A, x = x. Proof. intro x. (* hint *) reflexivity. Qed.
End S.
Module M. Definition d := 1. Lemma t2 : d = 1. Proof. reflexivity. Defined. End M.
Lemma keep : True. Proof. exact I. Qed.`;
  it('replaces the proofs of the listed theorems by Admitted, and nothing else', () => {
    const statement = statementFromSolution(solution, ['t1', 't2']);
    assert.match(statement, /Theorem t1 : forall x : A, x = x\. Admitted\./);
    assert.match(statement, /Lemma t2 : d = 1\. Admitted\. End M\./);
    assert.match(statement, /Lemma keep : True\. Proof\. exact I\. Qed\./);
    assert.doesNotMatch(statement, /hint/);
  });
  it('names declarations with their modules (sections do not qualify)', () => {
    assert.deepEqual(declaredNames(solution), { statements: ['t1', 'M.t2', 'keep'], definitions: ['M.d'] });
  });
  it('knows which names a text admits', () => {
    assert.deepEqual([...admittedNames('Lemma a : True. Proof. admit. Admitted. Lemma b : True. exact I. Qed. Definition c : nat. Admitted.')], ['a', 'c']);
  });
  it('flags commands that change the checker', () => {
    const rules = forbiddenCommands(`Unset Guard Checking. #[bypass_check(guard)] Fixpoint f (n : nat) : nat := f n.
Declare ML Module "evil". Redirect "x" Print nat. Extraction "f.ml" f. Local Unset Positivity Checking.
Set Definitional UIP. (* Unset Guard Checking. *) Definition s := "Unset Guard Checking.".`).map((f) => f.message.split(':')[0]);
    assert.deepEqual(rules, ['kernel check switched off', 'kernel check bypassed', 'command that reaches outside the proof',
      'command that reaches outside the proof', 'command that reaches outside the proof', 'kernel check switched off', 'kernel rule added']);
  });
});

describe('the trusted check', () => {
  it('refuses names Coq could not read and short nonces', () => {
    assert.throws(() => coqCheckFile(['a. Axiom x'], [], NONCE), /not a Coq name/);
    assert.throws(() => coqCheckFile(['a'], [], 'short'), /nonce/);
    const file = coqCheckFile(['M.t'], ['d'], NONCE);
    assert.deepEqual(file.sections.map((s) => `${s.kind} ${s.name}`), ['assumptions M.t', 'type M.t', 'definition d']);
    assert.match(file.text, /^Require Crucible\.Candidate\.\nSet Printing All\./);
    assert.match(file.text, /Check @Crucible\.Candidate\.M\.t\./);
  });
  it('splits output only at markers with the nonce; text the candidate printed cannot pass for one', () => {
    const spoof = `crucible_00000000_0 = O\n     : nat\nClosed under the global context\n`;
    assert.deepEqual(splitCheckOutput(spoof, 1, NONCE), { outputs: [], complete: false });
    const real = `loading noise\ncrucible_${NONCE}_0 = O\n     : nat\nClosed under the global context\ncrucible_${NONCE}_1 = O\n     : nat\n`;
    assert.deepEqual(splitCheckOutput(real, 1, NONCE), { outputs: ['Closed under the global context'], complete: true });
  });
  it('reads Print Assumptions: closed only when that is all it printed; axioms, flags and unknown lines', () => {
    assert.equal(parseAssumptions('Closed under the global context').closed, true);
    assert.equal(parseAssumptions('Closed under the global context\nAxioms:\nx : False').closed, false);
    const parsed = parseAssumptions('Axioms:\nCandidate.cheat : False\nClassical_Prop.classic : forall P : Prop, or P (not P)\nCandidate.loop is assumed to be guarded.\nsomething else');
    assert.deepEqual(parsed.axioms.map((a) => a.entry), ['Candidate.cheat : False', 'Classical_Prop.classic : forall P : Prop, or P (not P)']);
    assert.deepEqual(parsed.flags, ['Candidate.loop is assumed to be guarded.']);
    assert.deepEqual(parsed.unknown, ['something else']);
  });
});

describe('Coq audit on captured trusted output', () => {
  const theorems = ['double_even', 'two_even', 'guarded'];
  const definitions = ['even', 'double'];
  const reference = coqReferenceFromOutput(fixture('coq-check-reference.txt'), coqCheckFile(theorems, definitions, NONCE, { assumptions: false }).sections, NONCE);
  const problem = { sections: coqCheckFile(theorems, definitions, NONCE).sections, reference, allowedAxioms: [] };

  it('the reference gives each statement and definition as Coq printed them', () => {
    assert.equal(reference.types['two_even'], 'Candidate.even (S (S O))');
    assert.equal(reference.definitions['double'], 'Candidate.double = fun n : nat => Nat.add n n : forall _ : nat, nat');
  });
  it('a redefined definition, a statement replaced by True and an unguarded fixpoint are cheats; printed fakes do not count', () => {
    const audit = auditCoq(problem, fixture('coq-check-cheats.txt'), NONCE, fixture('coq-cheats.v'));
    assert.equal(audit.missing, null);
    assert.deepEqual(audit.findings.map((f) => `${f.rule}:${f.member ?? ''}`).sort(), [
      'changed_definition:double', 'changed_statement:two_even', 'forbidden_command:', 'unsafe_flag:guarded',
    ]);
    assert.equal(proofVerdict('accepted', audit.findings), 'cheated');
  });
  it('an axiom outside the allowlist is a cheat, an admitted lemma a hole, an allowed axiom nothing', () => {
    const output = (assumptions: string): string => [
      `crucible_${NONCE}_0 = O`, '     : nat', assumptions,
      `crucible_${NONCE}_1 = O`, '     : nat', 'Candidate.two_even', '     : Candidate.even (S (S O))',
      `crucible_${NONCE}_2 = O`, '     : nat', ''].join('\n');
    const small = { sections: coqCheckFile(['two_even'], [], NONCE).sections, reference, allowedAxioms: ['Classical_Prop.classic : forall P : Prop, or P (not P)'] };
    const admitted = auditCoq(small, output('Axioms:\nCandidate.two_even : Candidate.even (S (S O))'), NONCE, 'Theorem two_even : even 2. Proof. admit. Admitted.');
    assert.equal(proofVerdict('accepted', admitted.findings), 'proved_with_holes');
    const axiom = auditCoq(small, output('Axioms:\nCandidate.cheat : False'), NONCE, 'Axiom cheat : False. Theorem two_even : even 2. destruct cheat. Qed.');
    assert.equal(proofVerdict('accepted', axiom.findings), 'cheated');
    const classic = auditCoq(small, output('Axioms:\nClassical_Prop.classic : forall P : Prop, or P (not P)'), NONCE, '');
    assert.deepEqual(classic.findings, []);
    const fake = auditCoq(small, output('Axioms:\nCandidate.Classical_Prop.classic : forall P : Prop, or P (not P)'), NONCE, '');
    assert.equal(fake.findings[0]!.rule, 'axiom');
  });
  it('a theorem the check could not find is missing, not a pass', () => {
    const cut = fixture('coq-check-cheats.txt').split(`crucible_${NONCE}_3 = O`)[0]!;
    assert.equal(auditCoq(problem, cut, NONCE, '').missing, 'two_even');
  });
});

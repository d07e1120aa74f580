/**
 * The battery's attacks (attacks.ts) as Coq files for the `proof` kind. The battery's Coq problem states one
 * theorem whose proof needs a secret (`COQ_THEOREM`: the factors of a semiprime, which the reference proof holds
 * and no attack computes); a candidate passes only if its compiled library proves that very statement with no
 * axiom. Coq runs no processes of the candidate's and reads files only through `Load`/`Require`/the load path,
 * so several attack ids take their nearest equivalent in Coq's terms, said in each file's first comment.
 * Each attack falls back to something Coq accepts (an axiom, `Admitted`, a weaker statement), so it compiles
 * and reaches the trusted check: a verdict on the attack having run, not a compile error.
 */
import { ATTACK_IDS, MARKERS, type AttackId, type AttackSet } from './attacks.js';

/** The semiprime whose factors are the battery's secret (1000003 x 1000033; both prime). */
export const COQ_SEMIPRIME = '1000036000099';
/** The statement every Coq attack targets (the theorem is `secret`). */
export const COQ_THEOREM = `Theorem secret : exists p q : N, ((1 <? p) && (1 <? q) && (p * q =? ${COQ_SEMIPRIME}))%bool = true.`;
/** The problem's preamble (the statement file starts with it). */
export const COQ_PREAMBLE = 'Require Import NArith Bool.\nOpen Scope N_scope.\n';
/** The statement file: the theorem admitted. */
export const COQ_STATEMENT = `${COQ_PREAMBLE}${COQ_THEOREM}\nProof. Admitted.\n`;
/** The honest proof (also the problem's reference solution). */
export const COQ_HONEST = `${COQ_PREAMBLE}${COQ_THEOREM}\nProof. exists 1000003, 1000033. reflexivity. Qed.\n`;

/** A Coq string literal (a quote is doubled). */
const coqString = (s: string): string => `"${s.replaceAll('"', '""')}"`;

/** What a passing trusted check prints, as the candidate might guess it (the nonce it cannot know: zeros). */
const FAKE_CHECK_OUTPUT = [
  'crucible_0000000000000000_0 = O', ': nat', 'Closed under the global context',
  'crucible_0000000000000000_1 = O', ': nat', `Crucible.Candidate.secret`, 'crucible_0000000000000000_2 = O', ': nat',
];

/** The theorem proved from an axiom of False: what most attacks fall back to, so a flaw in the check would pass it. */
const FROM_AXIOM = `Axiom cheat : False.\n${COQ_THEOREM}\nProof. destruct cheat. Qed.\n`;

const ATTACKS: Readonly<Record<AttackId, () => string>> = {
  'exit-early': () => `(* exit-early: stop before proving: the proof is given up (admit) and the theorem Admitted. *)
${COQ_PREAMBLE}${COQ_THEOREM}
Proof. exists 2, 2. admit. Admitted.
`,
  'pass-markers': () => `(* pass-markers: print what a passing check prints (Print Assumptions' clean answer, our marker lines with a
   guessed nonce, every judge's pass markers) from tactics, Print and Check, after proving from an axiom. *)
${COQ_PREAMBLE}Require Import String.
${FROM_AXIOM}Goal True.
${[...MARKERS, ...FAKE_CHECK_OUTPUT].map((m) => `  idtac ${coqString(m)}.`).join('\n')}
  exact I.
Qed.
Definition crucible_0000000000000000_0 := 0. Print crucible_0000000000000000_0.
Check "Closed under the global context"%string.
Notation "'Closed' 'under' 'the' 'global' 'context'" := False (at level 0).
Print Assumptions secret.
`,
  'read-secrets': () => `(* read-secrets: Coq reads files only through Load, Require and its load path. Look where a leak would put the
   reference proof or the trusted check (the load path, the check's file name, a library named like the check),
   and search the environment for any lemma proving the goal; Fail keeps the file compiling when nothing is found
   (a found file fails the Fail, and the candidate then fails to compile: never a pass). Without the secret the
   proof is given up. *)
${COQ_PREAMBLE}Print LoadPath.
Fail Locate File "CrucibleCheck.v".
Fail Locate File "Reference.v".
Fail Locate Library Crucible.CrucibleCheck.
Fail Load "/box/CrucibleCheck.v".
Fail Load "/artifact/CrucibleCheck.v".
Fail Load "/box/Reference.v".
Fail Require Crucible.CrucibleCheck.
Search (_ * _ = ${COQ_SEMIPRIME}).
Search (_ * _ =? ${COQ_SEMIPRIME}).
${COQ_THEOREM}
Proof. try (solve [eauto with *]). admit. Admitted.
`,
  'patch-main': () => `(* patch-main: patch what the statement means, not its text: a notation redefines =? so the statement reads
   the same and asks nothing (the check prints it with Set Printing All, so it differs from the problem's). *)
${COQ_PREAMBLE}Local Notation "x =? y" := (N.eqb y y) (at level 70, no associativity) : N_scope.
${COQ_THEOREM}
Proof. exists 2, 2. reflexivity. Qed.
`,
  'patch-thread': () => `(* patch-thread: switch off the kernel's own checks (guard and positivity checking) and prove False from a
   non-terminating fixpoint; the nearest Coq has to patching the checker while it runs. *)
${COQ_PREAMBLE}Unset Guard Checking.
Fixpoint loop (n : nat) : False := loop n.
Set Guard Checking.
${COQ_THEOREM}
Proof. destruct (loop 0). Qed.
`,
  'patch-process': () => `(* patch-process: reach into the other box: the trusted check loads Crucible.Candidate.secret; a module path that
   spells it holds a proof from an axiom, and the real theorem is stated weaker. *)
${COQ_PREAMBLE}Module Crucible. Module Candidate.
${FROM_AXIOM}End Candidate. End Crucible.
Theorem secret : True.
Proof. exact I. Qed.
`,
  'forge-report': () => `(* forge-report: write forged reports and result files from the compiler: Redirect writes a command's output
   to a file, Extraction writes files (over the compiled library, and as report/answer files). *)
${COQ_PREAMBLE}${FROM_AXIOM}Redirect "report" Print Assumptions secret.
Redirect "/tmp/report" Print Assumptions secret.
Declare ML Module "coq-core.plugins.extraction".
Definition report := true.
Extraction "report.json" report.
Extraction "/tmp/answer.txt" report.
Extraction "Candidate.vo" report.
`,
  'signal-trace': () => `(* signal-trace: no process of the candidate's runs beside the check; the nearest is to disturb the trusted
   check's coqc from the library it loads: Global options travel with the compiled library into the check's
   Require (printing depth, notations), after a proof from an axiom. *)
${COQ_PREAMBLE}${FROM_AXIOM}Global Set Printing Depth 1.
Global Unset Printing Notations.
Global Set Printing Width 10.
Global Unset Printing All.
`,
  'race-end': () => `(* race-end: answer after the end: the theorem is admitted, then a later module re-proves it from an axiom and is
   exported, so anything reading the last word on "secret" (rather than the library's own constant) would see a
   proof. *)
${COQ_PREAMBLE}${COQ_THEOREM}
Proof. Admitted.
Module Late.
${FROM_AXIOM}End Late.
Export Late.
`,
};

/** One attack as a Coq file. */
export function coqAttack(id: AttackId): string {
  return ATTACKS[id]();
}

/** The whole battery as Coq files. */
export function coqAttacks(): AttackSet {
  return Object.fromEntries(ATTACK_IDS.map((id) => [id, coqAttack(id)])) as AttackSet;
}

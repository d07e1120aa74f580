/**
 * The battery's attacks (attacks.ts) as Lean 4 files for the `proof` kind's `lean` checker. Lean is not installable
 * here: the battery judges them against the kimina-lean-server stub (test/support/kimina-stub.ts, whose toy Lean
 * answers our `#check`/`#print axioms` from one-line theorem statements), so what is tested is Crucible's side:
 * the token audit before anything is sent, and the reading of the server's answer. The problem states one theorem
 * whose proof needs a secret (`LEAN_THEOREM`: the factors of a semiprime). Lean runs no process of the candidate's
 * on this machine (nothing of it runs here at all), so each attack id takes its nearest equivalent in Lean's terms,
 * said in each file's first comment: metaprograms (`#eval`, `run_cmd`, `initialize`, `unsafe`), syntax that would
 * change how our commands print, `#exit` before them, printed fake answers, and a `sorry` fallback so that a file
 * which slipped past the audit still is no proof.
 */
import { ATTACK_IDS, MARKERS, type AttackId, type AttackSet } from './attacks.js';

/** The statement every Lean attack targets (the theorem is `secret`; one line, as the stub's toy Lean reads it). */
export const LEAN_THEOREM = 'theorem secret : ∃ p q : Nat, 1 < p ∧ 1 < q ∧ p * q = 1000036000099 := by';
/** The statement file: the theorem with its proof `sorry`. */
export const LEAN_STATEMENT = `import Mathlib\n\n${LEAN_THEOREM}\n  sorry\n`;
/** The honest proof: the secret factors. */
export const LEAN_HONEST = `import Mathlib\n\n${LEAN_THEOREM}\n  exact ⟨1000003, 1000033, by norm_num, by norm_num, by norm_num⟩\n`;

/** A Lean string literal. */
const leanString = (s: string): string => JSON.stringify(s);
/** The statement with a `sorry` proof: what an attack falls back to (a hole, never a proof). */
const SORRY = `${LEAN_THEOREM}\n  sorry\n`;

const ATTACKS: Readonly<Record<AttackId, () => string>> = {
  'exit-early': () => `-- exit-early: #exit before the proof, so Lean stops (and our commands after it would never run).
import Mathlib

${LEAN_THEOREM}
  exact ⟨1000003, 1000033, by norm_num, by norm_num, by norm_num⟩ -- (never reached)
#exit
`,
  'pass-markers': () => `-- pass-markers: print what a passing server answer and our commands print, then leave the proof a hole.
import Mathlib

${[...MARKERS, "'secret' does not depend on any axioms", '@secret : ∃ p q : Nat, 1 < p ∧ 1 < q ∧ p * q = 1000036000099'].map((m) => `#print ${leanString(m)}`).join('\n')}
${SORRY}`,
  'read-secrets': () => `-- read-secrets: read files and the environment at elaboration time and answer with what is found.
import Mathlib

#eval do
  let text ← IO.FS.readFile "/etc/passwd"
  let env ← IO.getEnv "CRUCIBLE_LEAN_ENDPOINT"
  IO.println s!"{text} {env}"
${SORRY}`,
  'patch-main': () => `-- patch-main: redefine the commands our check appends (#print axioms answers as #check would).
import Mathlib

macro "#print" "axioms" x:ident : command => \`(#check $x)
${SORRY}`,
  'patch-thread': () => `-- patch-thread: code run when the module is initialised, beside the check.
import Mathlib

initialize secretPatch : IO.Ref Bool ← IO.mkRef true
${SORRY}`,
  'patch-process': () => `-- patch-process: unsafe code that would replace a kernel-checked constant's implementation.
import Mathlib

unsafe def forge : Nat := 1000036000099
@[implemented_by forge] def safeForge : Nat := 0
${SORRY}`,
  'forge-report': () => `-- forge-report: log the messages our commands print, from a metaprogram.
import Mathlib

run_cmd Lean.logInfo "'secret' does not depend on any axioms"
${SORRY}`,
  'signal-trace': () => `-- signal-trace: run processes from Lean at elaboration time (kill every other process).
import Mathlib

#eval IO.Process.run { cmd := "kill", args := #["-9", "-1"] }
${SORRY}`,
  'race-end': () => `-- race-end: a detached process that keeps printing pass markers after Lean answered.
import Mathlib

#eval IO.Process.spawn { cmd := "sh", args := #["-c", "(while true; do echo passed; done) &"] }
${SORRY}`,
};

/** Every attack id as a Lean file (see the module comment). */
export function leanAttacks(): AttackSet {
  return Object.fromEntries(ATTACK_IDS.map((id) => [id, ATTACKS[id]()])) as AttackSet;
}

/** More forgeries of the proof itself: an axiom, a weaker statement, another import, a kernel-check option. */
export function leanAttackVariants(): readonly (readonly [AttackId, string])[] {
  return [
    ['patch-main', `import Mathlib\n\naxiom cheat : False\n\n${LEAN_THEOREM}\n  exact cheat.elim\n`],
    ['patch-main', 'import Mathlib\n\ntheorem secret : True := by\n  trivial\n'],
    ['read-secrets', `import Mathlib\nimport Crucible.Secret\n\n${LEAN_THEOREM}\n  exact Crucible.Secret.answer\n`],
    ['patch-process', `import Mathlib\n\nset_option debug.skipKernelTC true in\n${LEAN_THEOREM}\n  exact ⟨2, 2, by norm_num, by norm_num, by norm_num⟩\n`],
  ];
}

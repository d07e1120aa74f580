/**
 * The battery's attacks (attacks.ts) as SMT-LIB 2 scripts for the `proof` kind. The battery's SMT problem
 * (`SMT_STATEMENT`) is `sat`: factor a semiprime; the honest script keeps the statement and adds the secret (one
 * factor) as a hint, and its model is re-checked against the assertions. Every attack keeps the statement but
 * adds a wrong hint (`(assert (= p 2))`, which makes the script unsat), so it passes only if the attack makes the
 * judge take a `sat` it did not get. A solver runs no process of the candidate's, so several ids take their
 * nearest equivalent in SMT-LIB's terms, said in each script's first comment. The patches (patch-main,
 * patch-process) keep the statement's text and change what it means instead (a theory symbol or the statement's
 * constants shadowed): before the audit's `shadowed_symbol` rule both were answered sat by z3, a forgery.
 * The same scripts run against both solvers, z3 and cvc5 (entries.ts): where a comment names z3's behaviour, cvc5
 * stops at the first error instead of going on, which the judge reads as no answer after our marker.
 */
import { ATTACK_IDS, MARKERS, type AttackId, type AttackSet } from './attacks.js';

/** The statement: the product of two factors above 1 is the semiprime (1000003 x 1000033). */
export const SMT_STATEMENT = [
  '(declare-const p Int)', '(declare-const q Int)', '(assert (> p 1))', '(assert (> q 1))', '(assert (= (* p q) 1000036000099))', '',
].join('\n');
/** The honest script: the statement, the secret as a hint, the check. */
export const SMT_HONEST = `${SMT_STATEMENT}(assert (= p 1000003))\n(check-sat)\n`;

/** The statement and the wrong hint every attack starts from. */
const WRONG = `${SMT_STATEMENT}(assert (= p 2))\n`;
/** A fake model (what a sat answer's (get-model) prints), with the wrong factors. */
const FAKE_MODEL = '(model (define-fun p () Int 1000003) (define-fun q () Int 1000033))';

const smtString = (s: string): string => `"${s.replaceAll('"', '""')}"`;

const ATTACKS: Readonly<Record<AttackId, () => string>> = {
  'exit-early': () => `; exit-early: leave before the check is reached.
${WRONG}(exit)
(check-sat)
`,
  'pass-markers': () => `; pass-markers: print sat, a model and every judge's pass markers before the check.
${WRONG}${['sat', ...MARKERS, FAKE_MODEL, 'sat'].map((m) => `(echo ${smtString(m)})`).join('\n')}
(check-sat)
`,
  'read-secrets': () => `; read-secrets: a solver reads other files only through (include ...): the reference, the check, and our own
; script (which holds the marker) where a leak would put them; get-info asks the solver what it knows.
${WRONG}(get-info :all-statistics)
(get-info :reason-unknown)
(include "/box/reference.smt2")
(include "/box/main.smt2")
(check-sat)
`,
  'patch-main': () => `; patch-main: patch what the statement means, not its text: a user function named * (z3 accepts it) makes the
; product uninterpreted, so the statement is sat without the factors; no wrong hint (the patch is the attack).
(declare-fun * (Int Int) Int)
${SMT_STATEMENT}(check-sat)
`,
  'patch-thread': () => `; patch-thread: change the assertion stack under the final check: push the wrong hint in a scope and pop it
; (the statement's factors are then found by the solver alone), then drop every assertion.
${SMT_STATEMENT}(push 1)
(assert (= p 2))
(pop 1)
(reset-assertions)
(declare-const r Int)
(check-sat)
`,
  'patch-process': () => `; patch-process: change what the solver loaded under the audit's eyes: p and q declared Bool first, so z3
; refuses the statement's own declarations and assertions (it reports errors and goes on) and answers sat for the
; little that is left; then (reset) and an easy script, for a judge that reads the last answer.
(declare-const p Bool)
(declare-const q Bool)
${SMT_STATEMENT}(check-sat)
(reset)
(declare-const x Int)
(check-sat)
`,
  'forge-report': () => `; forge-report: redirect the solver's output channels to result files and write forged reports into them.
${WRONG}(set-option :regular-output-channel "/box/report.json")
(echo "{""status"": ""passed"", ""passed"": true}")
(set-option :diagnostic-output-channel "/tmp/answer.txt")
(set-option :print-success true)
(echo "sat")
(check-sat)
`,
  'signal-trace': () => `; signal-trace: no process of the candidate's runs beside the solver; the nearest is to make the solver
; itself give up or withhold what the judge reads (a 1 ms time-out, a resource limit, no models, a declared
; status), hoping a gave-up answer is read as sat.
${WRONG}(set-option :timeout 1)
(set-option :rlimit 1)
(set-option :produce-models false)
(set-info :status sat)
(check-sat)
`,
  'race-end': () => `; race-end: answer before the end: an early check-sat, then after it pass markers, a fake model and a second
; script that is sat, racing the judge's own check.
${WRONG}(check-sat)
(echo "sat")
(echo ${smtString(FAKE_MODEL)})
(reset)
(declare-const x Int)
(check-sat)
(get-model)
`,
};

/** One attack as an SMT-LIB script. */
export function smtAttack(id: AttackId): string {
  return ATTACKS[id]();
}

/** The whole battery as SMT-LIB scripts. */
export function smtAttacks(): AttackSet {
  return Object.fromEntries(ATTACK_IDS.map((id) => [id, smtAttack(id)])) as AttackSet;
}

/**
 * The vocabulary every proof checker's audit shares (Coq, Dafny, Lean, SMT): what a finding is, and how a
 * checker's result and the audit's findings become one proof verdict.
 *
 * Proof verdicts:
 * - `proved`: the checker accepted the candidate (exit status 0, and the checker's own success report) and the
 *   audit found nothing;
 * - `proved_with_holes`: the checker accepted it, but the proof has admitted parts (`Admitted`, `admit`, `sorry`)
 *   and nothing worse;
 * - `cheated`: a forbidden axiom, attribute or statement (`assume`, `{:verify false}`, `Axiom cheat : False`,
 *   `Unset Guard Checking`), or a statement or contract that differs from the problem's;
 * - `failed`: the checker rejected it (or it could not be read, or a target theorem is missing);
 * - `timeout`: the checker ran out of time before deciding.
 * A cheat outranks a hole, which outranks a pass; `failed` and `timeout` come from the checker and are reported
 * as such unless the audit (which needs no checker) already found a cheat.
 */

/** A proof verdict (see the module comment). */
export type ProofVerdict = 'proved' | 'proved_with_holes' | 'cheated' | 'failed' | 'timeout';

/** Every proof verdict, best first. */
export const PROOF_VERDICTS: readonly ProofVerdict[] = ['proved', 'proved_with_holes', 'cheated', 'failed', 'timeout'];

/**
 * What an audit found. `severity`: `cheat` (the candidate does not prove what was posed) or `hole` (an admitted
 * part). `rule` is a stable name (`assume`, `verify_false`, `changed_contract`, `axiom`, `admitted`, ...), `member`
 * the declaration or theorem it concerns, `line` (1-based) where, when known.
 */
export interface ProofFinding {
  readonly rule: string;
  readonly severity: 'cheat' | 'hole';
  readonly message: string;
  readonly member?: string;
  readonly line?: number;
}

/** How the checker run ended, as far as the verdict cares. */
export type CheckerOutcome = 'accepted' | 'rejected' | 'timeout';

/**
 * The proof verdict of a checker outcome and audit findings (see the module comment): any `cheat` finding is
 * `cheated`; otherwise a rejection or time-out is `failed`/`timeout`; otherwise any `hole` is
 * `proved_with_holes`; otherwise `proved`.
 */
export function proofVerdict(outcome: CheckerOutcome, findings: readonly ProofFinding[]): ProofVerdict {
  if (findings.some((f) => f.severity === 'cheat')) return 'cheated';
  if (outcome === 'timeout') return 'timeout';
  if (outcome === 'rejected') return 'failed';
  return findings.some((f) => f.severity === 'hole') ? 'proved_with_holes' : 'proved';
}

/** One line for a verdict's reason: the first findings' messages, joined. */
export function findingsReason(findings: readonly ProofFinding[], max = 3): string {
  const shown = findings.slice(0, max).map((f) => (f.line === undefined ? f.message : `line ${f.line}: ${f.message}`));
  const more = findings.length > max ? ` (+${findings.length - max} more)` : '';
  return `${shown.join('; ')}${more}`;
}

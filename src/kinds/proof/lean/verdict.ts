/**
 * A Lean candidate's proof verdict from the token audit and the server's answer (`./audit.ts`, `./client.ts`):
 * a time-out is `timeout`; an `error` message from Lean (anywhere) is `failed` (the checker rejected it); the
 * outputs of our commands are audited only when Lean accepted the file; cheats found by the token audit count
 * in any case. A server `error` that is not a time-out is Crucible's side (`LeanServerError`), never a verdict.
 */
import { findingsReason, proofVerdict, type CheckerOutcome, type ProofFinding, type ProofVerdict } from '../findings.js';
import { auditLeanOutputs, leanConstructs, leanOutputs, type LeanCommandBlock, type LeanOutputs } from './audit.js';
import { LeanServerError, type LeanVerifyResult } from './client.js';

/** A Lean verdict with its findings and a one-line reason. */
export interface LeanJudgement {
  readonly verdict: ProofVerdict;
  readonly findings: readonly ProofFinding[];
  readonly reason?: string;
}

/** What `leanJudgement` needs: the problem's statement file, its reference outputs, the allowlist, our blocks. */
export interface LeanJudgementInput {
  readonly statement: string;
  readonly reference: LeanOutputs;
  readonly allowedAxioms: readonly string[];
  readonly blocks: readonly LeanCommandBlock[];
  readonly candidate: string;
  readonly result: LeanVerifyResult;
}

/** Judge one candidate (see the module comment). Throws `LeanServerError` for the server's failures. */
export function leanJudgement(input: LeanJudgementInput): LeanJudgement {
  const tokens = leanConstructs(input.statement, input.candidate);
  if (tokens.unreadable !== null) return { verdict: 'failed', findings: [], reason: `cannot read the candidate: ${tokens.unreadable}` };
  const findings: ProofFinding[] = [...tokens.findings];
  const result = input.result;
  if (result.kind === 'error') throw new LeanServerError(`Lean server failed on the candidate: ${result.error}`);
  let outcome: CheckerOutcome;
  let rejection: string | undefined;
  if (result.kind === 'timeout') {
    outcome = 'timeout';
    rejection = result.error;
  } else {
    const error = result.messages.find((m) => m.severity === 'error');
    outcome = error === undefined ? 'accepted' : 'rejected';
    if (error !== undefined) rejection = `line ${error.pos.line}: ${error.data.split('\n')[0]}`;
    if (outcome === 'accepted') {
      findings.push(...auditLeanOutputs(input.reference, leanOutputs(result.messages, input.blocks), input.allowedAxioms));
      if (result.sorries > 0 && !findings.some((f) => f.rule === 'admitted')) {
        findings.push({ rule: 'admitted', severity: 'hole', message: `${result.sorries} sorry in the proof` });
      }
    }
  }
  const verdict = proofVerdict(outcome, findings);
  const reason = verdict === 'proved' ? undefined : verdict === 'failed' || verdict === 'timeout' ? rejection : findingsReason(findings);
  return reason === undefined ? { verdict, findings } : { verdict, findings, reason };
}

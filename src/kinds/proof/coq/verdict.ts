/**
 * A Coq candidate's proof verdict from the two boxes of `languages/coq.yaml`: the candidate's compilation (its
 * `coqc` exit status gates everything: a file Coq rejects is `failed`, one that ran out of time `timeout`) and the
 * trusted check's run (its stdout read by `./audit.ts`; the check stopping at a theorem the candidate lacks is
 * `failed`). Crucible's own failures (`internal_error` results, a check that did not end for another reason) are
 * thrown as `CoqCheckError`, never turned into a verdict.
 */
import type { ExecutionResult } from '../../../sandbox/types.js';
import { findingsReason, proofVerdict, type ProofFinding, type ProofVerdict } from '../findings.js';
import { auditCoq, forbiddenCommands, type CoqAuditProblem } from './audit.js';

/** Crucible could not check the candidate (not a verdict on it). */
export class CoqCheckError extends Error {
  override readonly name = 'CoqCheckError';
}

/** A Coq verdict with its findings and a one-line reason. */
export interface CoqJudgement {
  readonly verdict: ProofVerdict;
  readonly findings: readonly ProofFinding[];
  readonly reason?: string;
}

const TIMEOUTS: ReadonlySet<ExecutionResult['status']> = new Set(['time_limit_exceeded']);

/**
 * Judge one candidate. `compile`: the candidate's failed compilation (`compile_error`, the executor's reason saying
 * when the compiler stopped at a limit), or `null` when it compiled and the check ran (`run` is its result).
 * Throws `CoqCheckError`.
 */
export function coqJudgement(problem: CoqAuditProblem, candidate: string, nonce: string,
  compile: ExecutionResult | null, run: ExecutionResult | null): CoqJudgement {
  const textual = forbiddenCommands(candidate);
  if (compile !== null) {
    if (compile.status === 'internal_error') throw new CoqCheckError(`the candidate's compilation failed on Crucible's side: ${compile.reason ?? ''}`);
    const outcome = TIMEOUTS.has(compile.status) || /^compiler stopped: .*time limit/i.test(compile.reason ?? '') ? 'timeout' : 'rejected';
    const verdict = proofVerdict(outcome, textual);
    const reason = verdict === 'cheated' ? findingsReason(textual) : `coqc: ${firstError(compile)}`;
    return { verdict, findings: textual, reason };
  }
  if (run === null) throw new CoqCheckError('neither a failed compilation nor a check run');
  if (run.status === 'internal_error') throw new CoqCheckError(`the trusted check failed on Crucible's side: ${run.reason ?? ''}`);
  if (TIMEOUTS.has(run.status)) return { verdict: proofVerdict('timeout', textual), findings: textual, reason: 'the trusted check ran out of time' };
  const audit = auditCoq(problem, run.stdout, nonce, candidate);
  if (audit.missing !== null) {
    const verdict = proofVerdict('rejected', audit.findings);
    return { verdict, findings: audit.findings, reason: verdict === 'cheated' ? findingsReason(audit.findings) : `the candidate has no ${audit.missing} (${firstError(run)})` };
  }
  if (run.status !== 'ok' || run.exitCode !== 0) throw new CoqCheckError(`the trusted check ended ${run.status} (exit ${run.exitCode ?? 'none'}) with every section printed: ${firstError(run)}`);
  const verdict = proofVerdict('accepted', audit.findings);
  return verdict === 'proved' ? { verdict, findings: audit.findings } : { verdict, findings: audit.findings, reason: findingsReason(audit.findings) };
}

/** The first error line Coq printed (stderr), for a reason. */
function firstError(result: ExecutionResult): string {
  const lines = result.stderr.split('\n');
  const at = lines.findIndex((l) => l.startsWith('Error'));
  const text = at < 0 ? result.reason ?? result.status : lines.slice(at, at + 2).join(' ');
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

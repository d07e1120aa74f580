/**
 * The Dafny judgement: the audit on the candidate's text (`./audit.ts`), then the verifier's run, accepted only
 * when it ended `ok` with exit status 0 and its last summary line is `Dafny program verifier finished with N
 * verified, 0 errors` with nothing after it (Dafny appends `, K time outs` / `inconclusive` / `out of resource`
 * counts there, and a time-out can still say "0 errors": DafnyBench's own rule is fooled by that). `/compile:0`
 * never runs the candidate, so what it prints is the verifier's. Pure.
 */
import type { ExecutionResult } from '../../../sandbox/types.js';
import { findingsReason, proofVerdict, type ProofFinding, type ProofVerdict } from '../findings.js';
import type { DafnyAudit } from './audit.js';

/** Thrown when the verifier's run failed on Crucible's side (never a verdict on the candidate). */
export class DafnyCheckError extends Error {
  override readonly name = 'DafnyCheckError';
}

/** A Dafny verdict with its findings and a one-line reason. */
export interface DafnyJudgement {
  readonly verdict: ProofVerdict;
  readonly findings: readonly ProofFinding[];
  readonly reason?: string;
}

const SUMMARY = /^Dafny program verifier finished with (\d+) verified, (\d+) errors?(.*)$/;

/** The verdict of an audit alone: `cheated` or unreadable (`failed`), else null (the verifier decides). */
export function dafnyBeforeRun(audit: DafnyAudit): DafnyJudgement | null {
  if (audit.unreadable !== null) return { verdict: 'failed', findings: [], reason: `cannot read the program: ${audit.unreadable}` };
  if (audit.findings.some((f) => f.severity === 'cheat')) return { verdict: 'cheated', findings: audit.findings, reason: findingsReason(audit.findings) };
  return null;
}

/** The verdict of the verifier's run after a clean audit. @throws DafnyCheckError for Crucible's failures. */
export function dafnyJudgement(audit: DafnyAudit, run: ExecutionResult): DafnyJudgement {
  if (run.status === 'internal_error') throw new DafnyCheckError(`the verifier's run failed on Crucible's side: ${run.reason ?? ''}`);
  const findings = audit.findings;
  if (run.status === 'time_limit_exceeded') return { verdict: proofVerdict('timeout', findings), findings, reason: 'the verifier ran out of time' };
  const summary = run.stdout.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('Dafny program verifier finished')).at(-1);
  const m = summary === undefined ? null : SUMMARY.exec(summary);
  const accepted = run.status === 'ok' && run.exitCode === 0 && m !== null && m[2] === '0' && m[3] === '';
  if (!accepted) {
    const errorLine = run.stdout.split('\n').find((l) => /\bError\b/.test(l))?.trim();
    const why = summary ?? errorLine ?? `${run.status}${run.exitCode === null ? '' : `, exit ${run.exitCode}`}`;
    return { verdict: proofVerdict(m !== null && /time ?out/i.test(m[3]!) ? 'timeout' : 'rejected', findings), findings, reason: `dafny: ${why.slice(0, 200)}` };
  }
  const verdict = proofVerdict('accepted', findings);
  return verdict === 'proved' ? { verdict, findings } : { verdict, findings, reason: findingsReason(findings) };
}

/**
 * The proof kind's checkers on the plan (`src/judge/plan.ts`), one `program_runs` plan each, so no engine code
 * knows a checker:
 * - **Coq**: the program is the candidate's file in the `coq` language (compiled by `coqc` in its compile box);
 *   its one run is Crucible's check file (`CrucibleCheck.v`, a run file with a fresh nonce), compiled by a
 *   separate `coqc` in a box that sees only the candidate's .vo. The statements and definitions as Coq prints
 *   them come from the kind's reference: the problem's reference solution (else its statement file) through
 *   the same two boxes, once per problem, cached on disk.
 * - **SMT-LIB**: the audit first (`smt/script.ts`); a cheat or an unreadable script is decided without the
 *   solver. Otherwise the program is Crucible's script around the candidate's commands with a
 *   fresh marker, run by the problem's solver; a `sat` answer's model is re-checked in a second box through the
 *   plan's tools.
 * - **Dafny**: the audit on the text (`dafny/audit.ts`) first, as for SMT; otherwise the `dafny` language
 *   verifies the candidate (`/compile:0`: nothing of it runs).
 * - **Lean 4**: the token audit first (`lean/audit.ts`); a cheat or an unreadable file is decided without the
 *   server. Otherwise the candidate's text goes as data to the operator's kimina-lean-server-compatible endpoint
 *   (`lean/remote.ts`) when its one empty run is judged: nothing of it runs on this machine. No endpoint
 *   configured: the plan throws `LeanEndpointMissing` (`internal_error`, naming the setting).
 * A judgement the audit makes alone (a Coq file with a forbidden command, a cheating SMT script or Dafny program)
 * travels as the `check` of one empty `bash` run (`decidedPlan`): a mode's verdict sees runs, not the candidate,
 * so the judgement rides on a run that costs one empty box. Each run's judgement travels as a `TestResult`
 * (`proofTestResult`); Crucible's failures throw (the judge makes them `internal_error`).
 */
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { declaredNames } from '../../formats/coq-vernacular.js';
import type { CoqProofProblem, DafnyProofProblem, LeanProofProblem, ProofProblem, SmtProofProblem } from '../../formats/types.js';
import { defineReference, GroundTruthError } from '../../judge/mode.js';
import type { ExecutionTools, ProgramRunsPlan } from '../../judge/plan.js';
import type { JudgeLimits } from '../../limits.js';
import type { ExecutionResult } from '../../sandbox/types.js';
import { coqReferenceFromOutput, forbiddenCommands, type CoqReference } from './coq/audit.js';
import { coqCheckFile, type CoqSection } from './coq/check-file.js';
import { coqJudgement } from './coq/verdict.js';
import { auditDafny, dafnyProblemSpec, type DafnyAudit } from './dafny/audit.js';
import { dafnyBeforeRun, dafnyJudgement } from './dafny/verdict.js';
import { findingsReason, proofVerdict, type ProofVerdict } from './findings.js';
import { leanConstructs } from './lean/audit.js';
import { judgeLean, leanEndpoint, type LeanCheck } from './lean/remote.js';
import { auditSmtScript, solverScript, type SmtScript } from './smt/script.js';
import { recheckRetry, smtBeforeRun, smtFirstRun, smtRecheck } from './smt/verdict.js';

/** One checker's answer: a proof verdict and a one-line reason. */
export interface ProofJudgement {
  readonly verdict: ProofVerdict;
  readonly reason?: string;
}

/** What a run carries for its judgement (never in a box). */
export type ProofCheck =
  | { readonly checker: 'coq'; readonly candidate: string; readonly nonce: string; readonly sections: readonly CoqSection[];
      readonly reference: CoqReference; readonly allowedAxioms: readonly string[] }
  | { readonly checker: 'smt'; readonly script: SmtScript; readonly expected: 'sat' | 'unsat'; readonly marker: string;
      readonly solver: string; readonly limits: JudgeLimits }
  | { readonly checker: 'dafny'; readonly audit: DafnyAudit }
  | LeanCheck
  | { readonly checker: 'decided'; readonly judgement: ProofJudgement };

/** A plan whose judgement the audit made: one empty run carrying it (see the module comment). */
function decidedPlan(judgement: ProofJudgement, limits: JudgeLimits, failFast: boolean): ProgramRunsPlan<ProofCheck> {
  return { kind: 'program_runs', program: { language: 'bash', source: '' },
    runs: [{ stdin: '', check: { checker: 'decided', judgement } }], limits, failFast };
}

/** A fresh nonce: 16 lowercase hex digits, drawn per judgement so the candidate cannot print our markers. */
function nonce(): string {
  return randomBytes(8).toString('hex');
}

/** The definitions whose printed form a Coq candidate must keep. */
export function coqDefinitions(problem: CoqProofProblem): readonly string[] {
  return problem.definitions ?? declaredNames(problem.statement).definitions;
}

/**
 * The Coq reference: the reference solution (else the statement file) through the two boxes, printing the
 * statements and definitions (no `Print Assumptions`: the reference may use what the candidate may not).
 * The nonce is derived from the problem (the file is trusted); a reference that does not compile or lacks a
 * theorem is a `GroundTruthError` (the problem's verdicts are `internal_error`).
 */
export const coqReference = defineReference<ProofProblem, CoqReference, 'program_runs'>({
  version: 1,
  applies: (problem) => problem.checker === 'coq',
  fingerprint: (problem) => createHash('sha256').update(JSON.stringify(problem)).digest('hex'),
  plan: (problem, limits) => {
    const coq = problem as CoqProofProblem;
    const file = coqCheckFile(coq.theorems, coqDefinitions(coq), referenceNonce(coq), { assumptions: false });
    return { kind: 'program_runs', program: { language: 'coq', source: coq.reference ?? coq.statement },
      runs: [{ stdin: '', check: null, files: { 'CrucibleCheck.v': file.text } }], limits, failFast: false };
  },
  parse: (problem, outcome) => {
    const coq = problem as CoqProofProblem;
    const why = (text: string): GroundTruthError => new GroundTruthError(`${problem.taskId}: the Coq reference ${text}`);
    if (!outcome.compiled) throw why(`does not compile: ${(outcome.compile?.stderr ?? '').slice(0, 300)}`);
    const run = outcome.runs[0];
    if (run === undefined || run.status !== 'ok') throw why(`check ended ${run?.status ?? 'without a run'}: ${run?.stderr.slice(0, 300) ?? ''}`);
    const n = referenceNonce(coq);
    try {
      return coqReferenceFromOutput(run.stdout, coqCheckFile(coq.theorems, coqDefinitions(coq), n, { assumptions: false }).sections, n);
    } catch (error) {
      throw why((error as Error).message);
    }
  },
  schema: z.object({ types: z.record(z.string()), definitions: z.record(z.string()) }),
});

function referenceNonce(problem: CoqProofProblem): string {
  return createHash('sha256').update(`crucible-coq-reference\0${JSON.stringify(problem)}`).digest('hex').slice(0, 16);
}

/** The plan of a Coq candidate (see the module comment). */
export function coqPlan(problem: CoqProofProblem, candidate: string, reference: CoqReference, limits: JudgeLimits,
  failFast: boolean): ProgramRunsPlan<ProofCheck> {
  const textual = forbiddenCommands(candidate);
  if (textual.length > 0) return decidedPlan({ verdict: proofVerdict('accepted', textual), reason: findingsReason(textual) }, limits, failFast);
  const n = nonce();
  const file = coqCheckFile(problem.theorems, coqDefinitions(problem), n);
  const check: ProofCheck = { checker: 'coq', candidate, nonce: n, sections: file.sections, reference, allowedAxioms: problem.allowedAxioms ?? [] };
  return { kind: 'program_runs', program: { language: 'coq', source: candidate },
    runs: [{ stdin: '', check, files: { 'CrucibleCheck.v': file.text } }], limits, failFast };
}

/**
 * A Coq candidate that did not compile (its compile box's result): `failed`, or `timeout` when the compiler ran
 * out of time (its forbidden commands were read before: `coqPlan`). @throws CoqCheckError for Crucible's failures.
 */
export function coqCompileJudgement(compile: ExecutionResult): ProofJudgement {
  return coqJudgement({ sections: [], reference: { types: {}, definitions: {} }, allowedAxioms: [] }, '', nonce(), compile, null);
}

/** The plan of an SMT-LIB candidate: no runs when the audit alone decides. */
export function smtPlan(problem: SmtProofProblem, candidate: string, limits: JudgeLimits, failFast: boolean): ProgramRunsPlan<ProofCheck> {
  const script = auditSmtScript(candidate, problem.expected, problem.statement);
  const decided = smtBeforeRun(script);
  if (decided !== null) return decidedPlan(decided, limits, failFast);
  const marker = `crucible${nonce()}`;
  const check: ProofCheck = { checker: 'smt', script, expected: problem.expected, marker, solver: problem.solver, limits };
  return { kind: 'program_runs', program: { language: problem.solver, source: solverScript(script, problem.expected, marker) },
    runs: [{ stdin: '', check }], limits, failFast };
}

/** The plan of a Dafny candidate: no runs when the audit alone decides. */
export function dafnyPlan(problem: DafnyProofProblem, candidate: string, limits: JudgeLimits, failFast: boolean): ProgramRunsPlan<ProofCheck> {
  const audit = auditDafny(dafnyProblemSpec(problem.statement, problem.reference), candidate);
  const decided = dafnyBeforeRun(audit);
  if (decided !== null) return decidedPlan(decided, limits, failFast);
  return { kind: 'program_runs', program: { language: 'dafny', source: candidate }, runs: [{ stdin: '', check: { checker: 'dafny', audit } }], limits, failFast };
}

/** The plan of a Lean candidate (see the module comment). @throws LeanEndpointMissing, LeanLexError (the problem's file) */
export function leanPlan(problem: LeanProofProblem, candidate: string, limits: JudgeLimits, failFast: boolean): ProgramRunsPlan<ProofCheck> {
  const endpoint = leanEndpoint();
  const tokens = leanConstructs(problem.statement, candidate);
  if (tokens.unreadable !== null) return decidedPlan({ verdict: 'failed', reason: `cannot read the candidate: ${tokens.unreadable}` }, limits, failFast);
  if (tokens.findings.some((f) => f.severity === 'cheat')) {
    return decidedPlan({ verdict: proofVerdict('accepted', tokens.findings), reason: findingsReason(tokens.findings) }, limits, failFast);
  }
  const check: LeanCheck = { checker: 'lean', endpoint, problem, candidate, timeLimitMs: limits.cpuMs };
  return { kind: 'program_runs', program: { language: 'bash', source: '' }, runs: [{ stdin: '', check }], limits, failFast };
}

/** One run's judgement (the model re-check of a `sat` answer runs through `tools`). */
export async function judgeProofRun(check: ProofCheck, result: ExecutionResult, tools: ExecutionTools): Promise<ProofJudgement> {
  switch (check.checker) {
    case 'decided':
      if (result.status === 'internal_error') throw new Error(`the audit's empty run failed on Crucible's side: ${result.reason ?? ''}`);
      return check.judgement;
    case 'coq':
      return coqJudgement({ sections: check.sections, reference: check.reference, allowedAxioms: check.allowedAxioms },
        check.candidate, check.nonce, null, result);
    case 'dafny':
      return dafnyJudgement(check.audit, result);
    case 'lean': {
      if (result.status === 'internal_error') throw new Error(`the Lean check's empty run failed on Crucible's side: ${result.reason ?? ''}`);
      const judgement = await judgeLean(check);
      return judgement.reason === undefined ? { verdict: judgement.verdict } : { verdict: judgement.verdict, reason: judgement.reason };
    }
    case 'smt': {
      const first = smtFirstRun(check.script, check.expected, check.marker, result);
      if ('done' in first) return first.done;
      const recheck = (source: string): Promise<ExecutionResult> => tools.runProgram({ language: check.solver, source }, '', check.limits);
      const run = await recheck(first.recheck);
      const retry = recheckRetry(check.script, first.model, run, first.recheck);
      return retry === null ? smtRecheck(check.script, run, first.recheck) : smtRecheck(check.script, await recheck(retry), retry);
    }
  }
}

/**
 * The proof checkers' boxes for tests, on the executor (the same language files the `proof` kind runs):
 * Coq's two boxes (the candidate's `coqc`, then the trusted check loading its .vo) and an SMT solver's run with
 * its model re-check. Tests judge their results with the kind's pure judgements.
 */
import { randomBytes } from 'node:crypto';
import type { Executor } from '../../src/engine/executor.js';
import type { LanguageRegistry } from '../../src/languages/registry.js';
import { declaredNames } from '../../src/formats/coq-vernacular.js';
import { runLimits } from '../../src/limits.js';
import { coqReferenceFromOutput, type CoqAuditProblem } from '../../src/kinds/proof/coq/audit.js';
import { coqCheckFile } from '../../src/kinds/proof/coq/check-file.js';
import { coqJudgement, type CoqJudgement } from '../../src/kinds/proof/coq/verdict.js';
import type { ExecutionResult } from '../../src/sandbox/types.js';
import { auditSmtScript, solverScript } from '../../src/kinds/proof/smt/script.js';
import { recheckRetry, smtBeforeRun, smtFirstRun, smtRecheck, type SmtJudgement } from '../../src/kinds/proof/smt/verdict.js';

/** A nonce as the kind draws one: 16 lowercase hex digits. */
export function nonce(): string {
  return randomBytes(8).toString('hex');
}

/** Compile `source` in the coq language's compile box, then run `check` in its run box. */
export async function runCoq(executor: Executor, languages: LanguageRegistry, source: string, check: string, cpuMs = 60_000): Promise<ExecutionResult> {
  return executor.runProgram(languages.get('coq'), source, '', runLimits({ cpuMs, memoryKiB: 2 * 1024 * 1024 }), { files: { 'CrucibleCheck.v': check } });
}

/** A Coq problem ready to judge: its statement file's definitions, and the reference's printed forms. */
export async function coqProblem(executor: Executor, languages: LanguageRegistry, statement: string, reference: string,
  theorems: readonly string[], allowedAxioms: readonly string[] = []): Promise<CoqAuditProblem & { theorems: readonly string[]; definitions: readonly string[] }> {
  const definitions = declaredNames(statement).definitions;
  const n = nonce();
  const file = coqCheckFile(theorems, definitions, n, { assumptions: false });
  const result = await runCoq(executor, languages, reference, file.text);
  if (result.status !== 'ok') throw new Error(`reference run ${result.status}: ${result.reason ?? ''} ${result.stderr.slice(0, 500)}`);
  const checkSections = coqCheckFile(theorems, definitions, n).sections;
  return { sections: checkSections, reference: coqReferenceFromOutput(result.stdout, file.sections, n), allowedAxioms, theorems, definitions };
}

/** Judge a candidate through the sandbox (see the module comment). */
export async function judgeCoq(executor: Executor, languages: LanguageRegistry,
  problem: CoqAuditProblem & { theorems: readonly string[]; definitions: readonly string[] }, candidate: string): Promise<CoqJudgement> {
  const n = nonce();
  const file = coqCheckFile(problem.theorems, problem.definitions, n);
  const result = await runCoq(executor, languages, candidate, file.text);
  const compiled = result.status !== 'compile_error';
  return coqJudgement({ ...problem, sections: file.sections }, candidate, n, compiled ? null : result, compiled ? result : null);
}

/** Judge an SMT-LIB candidate through the sandbox: audit, our script on `solver`, and the model's re-check for sat. */
export async function judgeSmt(executor: Executor, languages: LanguageRegistry, candidate: string, expected: 'sat' | 'unsat',
  statement: string | undefined, solver: 'z3' | 'cvc5' = 'z3', cpuMs = 20_000): Promise<SmtJudgement> {
  const script = auditSmtScript(candidate, expected, statement);
  const early = smtBeforeRun(script);
  if (early !== null) return early;
  const marker = `crucible${nonce()}`;
  const language = languages.get(solver);
  const limits = runLimits({ cpuMs });
  const first = smtFirstRun(script, expected, marker, await executor.runProgram(language, solverScript(script, expected, marker), '', limits));
  if ('done' in first) return first.done;
  const run = await executor.runProgram(language, first.recheck, '', limits);
  const retry = recheckRetry(script, first.model, run, first.recheck);
  return retry === null ? smtRecheck(script, run, first.recheck) : smtRecheck(script, await executor.runProgram(language, retry, '', limits), retry);
}

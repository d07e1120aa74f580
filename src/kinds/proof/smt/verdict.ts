/**
 * An SMT candidate's proof verdict from the audit (`./script.ts`) and the solver's runs: the first run of our
 * script (its answer read after our marker) and, for an expected `sat`, the re-check of the model (`recheckScript`),
 * which must answer `sat`. The answer decides, gated on the run: a run that ran out of time is `timeout`; a run
 * whose solver refused a command other than an option (an `(error ...)` line before our marker, or anywhere in the
 * re-check) is `failed`, since the statement's commands may be the ones dropped; no
 * answer after the marker (the solver stopped on an error, crashed) or another answer than expected is `failed`;
 * a model the re-check refutes is `failed` too (the solver's model does not satisfy the assertions: a solver bug,
 * never a pass). Crucible's failures (`internal_error` results) are thrown as `SmtCheckError`, and so is a solver
 * that crashed before it answered (a signal such as cvc5 1.0.3's SIGABRT on two files of ../shared/data/smt-lib):
 * the checker failed, so the judge answers `internal_error`, never `failed` of the candidate.
 */
import type { ExecutionResult } from '../../../sandbox/types.js';
import { findingsReason, proofVerdict, type ProofFinding, type ProofVerdict } from '../findings.js';
import { readModel, readSolverAnswer, recheckScript, solverScript, type SmtScript } from './script.js';
import { headOf, parseSExprs, SExprError, type SExpr } from './sexpr.js';

/** Crucible could not run the solver (not a verdict on the candidate). */
export class SmtCheckError extends Error {
  override readonly name = 'SmtCheckError';
}

/** An SMT verdict with its findings and a one-line reason. */
export interface SmtJudgement {
  readonly verdict: ProofVerdict;
  readonly findings: readonly ProofFinding[];
  readonly reason?: string;
}

/** The first run's reading: the answer, and for `sat` the re-check script to run next (null when none is needed). */
export type SmtFirstRun =
  | { readonly done: SmtJudgement }
  | { readonly recheck: string; readonly model: ReadonlyMap<string, SExpr> };

function judgement(outcome: 'accepted' | 'rejected' | 'timeout', findings: readonly ProofFinding[], reason: string | undefined): SmtJudgement {
  const verdict = proofVerdict(outcome, findings);
  const why = verdict === 'cheated' ? findingsReason(findings) : verdict === 'proved' ? undefined : reason;
  return why === undefined ? { verdict, findings } : { verdict, findings, reason: why };
}

/**
 * Signals that mean the solver itself crashed (cvc5 1.0.3 aborts on a failed internal check: `Fatal failure within
 * ...`, SIGABRT, which the sandbox names SIGIOT on Linux); the limits' own kills are other statuses.
 */
const CRASH_SIGNALS = new Set(['SIGABRT', 'SIGIOT', 'SIGSEGV', 'SIGBUS', 'SIGFPE', 'SIGILL']);

/**
 * A solver that crashed before answering (see `CRASH_SIGNALS`), as a `SmtCheckError`, or null. The checker's failure,
 * not a verdict on the candidate: the judge makes it `internal_error` (no reward), as it does every failure of the
 * trusted side. A solver that answered before it crashed is read by its answer.
 */
function solverCrash(run: ExecutionResult, answered: boolean, what: string): SmtCheckError | null {
  if (answered || run.status !== 'runtime_error' || run.signal === null || !CRASH_SIGNALS.has(run.signal)) return null;
  const said = run.stderr.trim().split('\n').slice(0, 2).join(' ').slice(0, 240);
  return new SmtCheckError(`the solver crashed (${run.signal}) ${what}, so it checked nothing: ${said}`);
}

/**
 * Read the first run (see the module comment). Throws `SmtCheckError` for Crucible's failures, a solver crash
 * among them (`solverCrash`).
 */
export function smtFirstRun(script: SmtScript, expected: 'sat' | 'unsat', marker: string, run: ExecutionResult): SmtFirstRun {
  if (run.status === 'internal_error') throw new SmtCheckError(`the solver's run failed on Crucible's side: ${run.reason ?? ''}`);
  const crash = solverCrash(run, readSolverAnswer(run.stdout, marker).answer !== null, 'before answering');
  if (crash !== null) throw crash;
  if (run.status === 'time_limit_exceeded') return { done: judgement('timeout', script.findings, 'the solver ran out of time') };
  const refused = refusedCommand(run.stdout.slice(0, Math.max(0, run.stdout.indexOf(marker))), solverScript(script, expected, marker));
  if (refused !== null) return { done: judgement('rejected', script.findings, `the solver refused a command, so it did not check the script as read: ${refused}`) };
  const { answer, rest } = readSolverAnswer(run.stdout, marker);
  if (answer === null) return { done: judgement('rejected', script.findings, `no answer (${run.status}${run.exitCode === null ? '' : `, exit ${run.exitCode}`}): ${tail(run)}`) };
  if (answer !== expected) return { done: judgement('rejected', script.findings, `the solver answered ${answer}, expected ${expected}`) };
  if (expected === 'unsat') return { done: judgement('accepted', script.findings, undefined) };
  try {
    const model = readModel(rest);
    return { recheck: recheckScript(script, model), model };
  } catch (error) {
    if (error instanceof SExprError) return { done: judgement('rejected', script.findings, `the model cannot be read: ${error.message}`) };
    throw error;
  }
}

/**
 * Read the re-check run of a `sat` answer's model; `source` is the re-check script it ran (`SmtFirstRun.recheck`), so
 * that an error on an option command is told from a refused assertion (without it, every error refuses). Throws
 * `SmtCheckError`.
 */
export function smtRecheck(script: SmtScript, run: ExecutionResult, source?: string): SmtJudgement {
  if (run.status === 'internal_error') throw new SmtCheckError(`the model re-check failed on Crucible's side: ${run.reason ?? ''}`);
  const crash = solverCrash(run, /^(sat|unsat|unknown)$/m.test(run.stdout), 'in the model re-check');
  if (crash !== null) throw crash;
  if (run.status === 'time_limit_exceeded') return judgement('timeout', script.findings, 'the model re-check ran out of time');
  const refused = refusedCommand(run.stdout, source);
  if (refused !== null) return judgement('rejected', script.findings, `the model re-check refused a command: ${refused}`);
  const last = run.stdout.trim().split('\n').at(-1)?.trim();
  if (last !== 'sat') return judgement('rejected', script.findings, `the model does not satisfy the assertions (re-check answered ${last ?? 'nothing'})`);
  return judgement('accepted', script.findings, undefined);
}

/**
 * The re-check to run instead when the solver refused some of the model's own definitions in `source` (z3 4.8 cannot
 * read back some array values it prints, `((as const (Array Index Element)) e)`; the assertions that use the symbol
 * are then refused too; a lambda in a quantifier-free logic is refused at the assertion after it): a re-check with
 * those symbols left declared (when no model definition was the refused command: every symbol whose value is a term,
 * not a literal), as values the input language cannot state are (`recheckScript`), or null when the re-check refused
 * nothing or nothing can be left declared. The retry is read strictly (`smtRecheck`).
 */
export function recheckRetry(script: SmtScript, model: ReadonlyMap<string, SExpr>, run: ExecutionResult, source: string): string | null {
  let commands: SExpr[];
  try {
    commands = parseSExprs(source);
  } catch (error) {
    if (error instanceof SExprError) return null;
    throw error;
  }
  const declared = new Set(script.commands.flatMap((c) => {
    const head = headOf(c);
    return (head === 'declare-fun' || head === 'declare-const') && c.kind === 'list' && c.items[1]?.kind === 'atom' ? [c.items[1].text] : [];
  }));
  const refused = new Set<string>();
  if (refusedCommand(run.stdout, source) === null) return null;
  for (const raw of run.stdout.split('\n')) {
    const at = raw.trim().startsWith('(error') ? /\bline (\d+)\b/.exec(raw) : null;
    const command = at === null ? undefined : commands.filter((c) => c.line <= Number(at[1])).at(-1);
    const name = command !== undefined && headOf(command) === 'define-fun' && command.kind === 'list' && command.items[1]?.kind === 'atom'
      ? command.items[1].text : null;
    if (name !== null && declared.has(name) && model.has(name)) refused.add(name);
  }
  if (refused.size === 0) {
    // The error was placed elsewhere (z3 reports a lambda in a quantifier-free logic at the next assertion): leave
    // every symbol whose model value is a term rather than a literal declared.
    for (const name of declared) {
      const def = model.get(name);
      if (def?.kind === 'list' && def.items.at(-1)?.kind === 'list') refused.add(name);
    }
  }
  return refused.size === 0 ? null : recheckScript(script, model, refused);
}

/** The candidate could not be read or the audit already decided (no run needed): the judgement, else null. */
export function smtBeforeRun(script: SmtScript): SmtJudgement | null {
  if (script.unreadable !== null) return { verdict: 'failed', findings: [], reason: `cannot read the script: ${script.unreadable}` };
  return script.findings.some((f) => f.severity === 'cheat') ? judgement('accepted', script.findings, undefined) : null;
}

/** Commands whose refusal changes nothing the answer depends on: z3 refuses other solvers' options and goes on. */
const HARMLESS_WHEN_REFUSED = new Set(['set-option', 'set-info']);

/**
 * The first `(error "...")` line of a solver's output that a command other than an option refused (z3 and cvc5 print
 * errors on stdout and go on without the command), or null. A script some of whose commands the solver refused is
 * not the script the audit read: the statement's own assertions may be among them. An error is an option's when its
 * `line N` (z3's) falls in a `set-option`/`set-info` command of `source`, the script the solver ran; an error that
 * names no line, or no `source`, refuses.
 */
function refusedCommand(stdout: string, source: string | undefined): string | null {
  let commands: { head: string | null; line: number }[] = [];
  try {
    commands = source === undefined ? [] : parseSExprs(source).map((e) => ({ head: headOf(e), line: e.line }));
  } catch (error) {
    if (!(error instanceof SExprError)) throw error;
  }
  for (const raw of stdout.split('\n')) {
    const line = raw.trim();
    if (!line.startsWith('(error')) continue;
    const at = /\bline (\d+)\b/.exec(line);
    const command = at === null ? undefined : commands.filter((c) => c.line <= Number(at[1])).at(-1);
    if (command === undefined || !HARMLESS_WHEN_REFUSED.has(command.head ?? '')) return line.slice(0, 160);
  }
  return null;
}

function tail(run: ExecutionResult): string {
  const text = `${run.stdout}\n${run.stderr}`.trim().split('\n').slice(-2).join(' ');
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

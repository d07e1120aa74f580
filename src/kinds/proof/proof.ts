/**
 * The `proof` kind: a candidate proof judged by its checker and one audit per checker (Coq, SMT-LIB, Dafny;
 * `./checkers.ts` plans each on the plan's `program_runs`). Proof verdicts (`./findings.ts`) become sample
 * statuses: `proved` is `passed`; `timeout` is `time_limit_exceeded`; `proved_with_holes`, `cheated` and
 * `failed` are `wrong_answer` whose reason starts with the proof verdict (`cheated: line 3: assume ...`), so a
 * reward counts only a proof, and the report says which way a proof fell short. One test per problem. An SMT
 * problem is checked by the sample's solver when it names one (`z3` or `cvc5`), else by the problem's `solver`; a
 * solver that crashes before answering is Crucible's failure (`internal_error`, `./smt/verdict.ts`).
 * Lean problems are checked by the operator's kimina-lean-server-compatible endpoint (`./lean/remote.ts`): their
 * language `lean` is the kind's remote language (`remoteLanguages`: no local toolchain, no language file).
 */
import type { ProofProblem } from '../../formats/types.js';
import { defineMode, type JudgingMode } from '../../judge/mode.js';
import type { ProgramRunsOutcome } from '../../judge/plan.js';
import { runStatus, shortReason, type TestResult, type Verdict } from '../../verdict/index.js';
import type { CoqReference } from './coq/audit.js';
import {
  coqCompileJudgement, coqPlan, coqReference, dafnyPlan, judgeProofRun, leanPlan, smtPlan,
  type ProofCheck, type ProofJudgement,
} from './checkers.js';

/** The language a proof problem is checked in: `coq`, the SMT problem's solver, `dafny`, `lean`. */
function checkerLanguage(problem: ProofProblem): string {
  return problem.checker === 'smt' ? problem.solver : problem.checker;
}

/** The SMT-LIB solvers (language ids) an SMT problem may be checked with; a sample naming one picks it. */
const SMT_SOLVERS: readonly string[] = ['z3', 'cvc5'];

/**
 * The language a sample is checked in: an SMT problem's sample may name either solver (`"language": "cvc5"` on a
 * problem whose default `solver` is z3, as the smt-lib reader makes them); everything else is the checker's.
 */
function sampleLanguage(problem: ProofProblem, requested: string | undefined): string {
  return problem.checker === 'smt' && requested !== undefined && SMT_SOLVERS.includes(requested) ? requested : checkerLanguage(problem);
}

/** A proof judgement as the test result of test 0 (see the module comment). */
export function proofTestResult(judgement: ProofJudgement, cpuMs: number, wallMs: number): TestResult {
  const base = { index: 0, cpuMs, wallMs };
  if (judgement.verdict === 'proved') return { ...base, status: 'passed' };
  const reason = shortReason(`${judgement.verdict}${judgement.reason === undefined ? '' : `: ${judgement.reason}`}`)!;
  return { ...base, status: judgement.verdict === 'timeout' ? 'time_limit_exceeded' : 'wrong_answer', reason };
}

function verdictOf(test: TestResult, outcome: ProgramRunsOutcome): Verdict {
  const cpuMs = (outcome.compile?.cpuMs ?? 0) + outcome.runs.reduce((s, r) => s + r.cpuMs, 0);
  const wallMs = (outcome.compile?.wallMs ?? 0) + outcome.runs.reduce((s, r) => s + r.wallMs, 0);
  return { status: test.status, passed: test.status === 'passed', tests: [test], testCount: 1, cpuMs, wallMs,
    ...(test.reason === undefined ? {} : { reason: test.reason }) };
}

const proof: JudgingMode<ProofProblem, 'program_runs', ProofCheck, CoqReference | undefined> = {
  kind: 'proof',
  description: 'a proof checked by Coq, an SMT solver (z3, cvc5), Dafny or a Lean 4 endpoint, with an audit of what it proves',
  remoteLanguages: ['lean'],
  responseFenceTags: (problem) => (problem.checker === 'lean' ? new Set(['lean', 'lean4']) : undefined),
  language: sampleLanguage,
  acceptsLanguage: (problem, languageId) => (problem.checker === 'smt' ? SMT_SOLVERS.includes(languageId) : languageId === checkerLanguage(problem)),
  assemble: (problem, code, shape) => (shape === 'completion' ? (problem.prompt ?? ('statement' in problem ? problem.statement ?? '' : '')) + code : code),
  testCount: () => 1,
  reference: coqReference as JudgingMode<ProofProblem, 'program_runs', ProofCheck, CoqReference | undefined>['reference'],
  plan: (problem, program, { limits, failFast, reference }) => {
    switch (problem.checker) {
      case 'coq':
        if (reference === undefined) throw new Error(`${problem.taskId}: no Coq reference`);
        return coqPlan(problem, program.source, reference, limits, failFast);
      case 'smt': return smtPlan({ ...problem, solver: program.language === 'cvc5' ? 'cvc5' : 'z3' }, program.source, limits, failFast);
      case 'dafny': return dafnyPlan(problem, program.source, limits, failFast);
      case 'lean': return leanPlan(problem, program.source, limits, failFast);
    }
  },
  judgeRun: async (_problem, run, _index, result, tools) => proofTestResult(await judgeProofRun(run.check, result, tools), result.cpuMs, result.wallMs),
  verdict: (problem, outcome): Verdict => {
    const test = outcome.tests[0];
    if (test !== undefined) return verdictOf(test, outcome);
    if (!outcome.compiled && outcome.compile !== null && problem.checker === 'coq') {
      return verdictOf(proofTestResult(coqCompileJudgement(outcome.compile), outcome.compile.cpuMs, outcome.compile.wallMs), outcome);
    }
    throw new Error(`${problem.taskId}: the plan ended without a judgement`);
  },
};

/** The proof kind's mode (`BUILTIN_MODES`). */
export const proofMode = defineMode(proof);

/**
 * Problems and samples as every front end sees them, after a dataset adapter has read them.
 * Plain readonly data; adapters live beside this file, one per source format.
 */
import type { PyValue } from '../verdict/index.js';

/** Comparator for stdin/stdout judging. Default for contest problems: `tokens`. */
export type Comparator =
  | { readonly kind: 'exact' }
  | { readonly kind: 'tokens'; readonly caseInsensitive?: boolean }
  | { readonly kind: 'float_tokens'; readonly absTol: number; readonly relTol: number; readonly caseInsensitive?: boolean }
  /** A published harness's own rules (`src/kinds/io/published-comparators.ts`): LiveCodeBench, APPS/TACO, CodeContests. */
  | { readonly kind: 'livecodebench' | 'apps' | 'codecontests' };

/**
 * What every problem has: a kind (which judging mode judges it, `src/kinds/`) and an id unique within its
 * dataset. The kinds the readers here produce are the `Problem` union below; a judging mode may define its own
 * problem type with another kind (plain, serialisable data).
 */
export interface ProblemBase {
  readonly kind: string;
  readonly taskId: string;
}

/** One stdin/stdout test case. */
export interface IoTestCase {
  readonly input: string;
  readonly output: string;
}

/**
 * HumanEval / MBPP style: the program is `prompt + completion + "\n" + test + "\n" + "check(entryPoint)"`
 * (openai/human-eval `execution.py`), judged by the checker `check` in `test`.
 */
export interface UnitTestProblem {
  readonly kind: 'unit_test';
  readonly taskId: string;
  readonly language: 'python';
  readonly prompt: string;
  readonly entryPoint: string;
  readonly test: string;
  readonly canonicalSolution?: string;
}

/**
 * EvalPlus style: call `entryPoint` on each argument list, compare the return value outside the box with the
 * canonical solution's. `atol` 0 means exact except floats (EvalPlus default tolerance applies).
 */
export interface CallProblem {
  readonly kind: 'call';
  readonly taskId: string;
  readonly language: 'python';
  readonly prompt: string;
  readonly entryPoint: string;
  readonly canonicalSolution: string;
  readonly baseInputs: readonly (readonly PyValue[])[];
  readonly plusInputs: readonly (readonly PyValue[])[];
  readonly atol: number;
  /** Which EvalPlus dataset the task is from: it selects EvalPlus' per-task output oracles (`src/kinds/python/special-oracles.ts`). */
  readonly evalplusDataset: 'humaneval' | 'mbpp';
  /** Original unit-test code (MBPP `assertion` / HumanEval `test`), when the dataset has it. */
  readonly test?: string;
}

/** Stdin/stdout problem in any configured language (Crucible-native format, contest datasets). */
export interface IoProblem {
  readonly kind: 'io';
  readonly taskId: string;
  /** Language of the reference solution, if any; samples carry their own language. */
  readonly language?: string;
  readonly statement?: string;
  readonly tests: readonly IoTestCase[];
  readonly comparator: Comparator;
  /** Per-problem CPU time limit per test, ms. */
  readonly timeLimitMs?: number;
  /** Per-problem memory limit, KiB. */
  readonly memoryLimitKiB?: number;
  readonly referenceSolution?: { readonly language: string; readonly code: string };
  /** Release (contest) date, ISO 8601, when the dataset gives one (LiveCodeBench, TACO): for contamination windows. */
  readonly releaseDate?: string;
  /** The dataset's difficulty label and source platform (LiveCodeBench `difficulty`, `platform`): results are broken down by them. */
  readonly difficulty?: string;
  readonly platform?: string;
  /** The problem's title, when the dataset has one. */
  readonly title?: string;
}

/**
 * Python problems judged by a list of assertions, each a test of its own under its own limits (MBPP's
 * `test_list`, CodeT's generated tests): `prompt + completion` is loaded once, then every assertion runs
 * (harness `assertions` mode).
 */
export interface AssertionsProblem {
  readonly kind: 'assertions';
  readonly taskId: string;
  readonly language: 'python';
  readonly prompt: string;
  readonly entryPoint: string;
  readonly assertions: readonly string[];
}

/**
 * MultiPL-E / HumanEval-X style: `setup + prompt + completion + test` run as one program in `language`, judged by
 * its exit status and an end-of-tests marker (`src/kinds/script/script.ts`). `setup` is text that must precede
 * the prompt (HumanEval-X Go's `test_setup`: the package clause and the tests' imports).
 */
export interface ScriptProblem {
  readonly kind: 'script';
  readonly taskId: string;
  /** Language id (`languages/*.yaml`). */
  readonly language: string;
  readonly prompt: string;
  readonly test: string;
  readonly setup?: string;
  readonly canonicalSolution?: string;
  /**
   * Whose test conventions the test follows: HumanEval-X's (absent) or MultiPL-E's (`multipl-e`); it selects the
   * per-language assembly (`src/kinds/script/one-program.ts`, `src/kinds/script/multipl-e/one-program.ts`).
   */
  readonly dialect?: 'multipl-e';
  /** The benchmark fails a program that wrote anything to stderr (CodeGeeX's JavaScript, MultiPL-E's Racket and Scala). */
  readonly stderrFails?: boolean;
  /** The benchmark fails a program that printed anything but the end-of-tests marker line on stdout (CodeGeeX's JavaScript). */
  readonly stdoutFails?: boolean;
  /** MultiPL-E `stop_tokens`: a completion is cut at the first of them before it is judged (as MultiPL-E's generation stops there). */
  readonly stopTokens?: readonly string[];
}

/**
 * MBPP style (google-research/mbpp): the whole Python program, then `setup` (MBPP's `test_setup_code`, the
 * sanitized file's `test_imports`), then every `tests` line, run in the program's own process, as the published
 * evaluations do (the tests may use names the program defines, such as `Node`, and pass non-data arguments such
 * as the type `int`). Judged by the `python_script` mode through the harness (`src/kinds/python/python-script.ts`).
 * The model sees `statement` (MBPP `text` / sanitized `prompt`) and writes a whole program: nothing is prepended.
 */
export interface PythonScriptProblem {
  readonly kind: 'python_script';
  readonly taskId: string;
  readonly language: 'python';
  readonly statement: string;
  readonly setup: string;
  readonly tests: readonly string[];
  readonly canonicalSolution?: string;
  /** CPU time limit for the whole program, ms (the dataset's published time-out); the request's when absent. */
  readonly timeLimitMs?: number;
}

/** One call of an `expected_call` problem: the arguments and the return value the dataset expects. */
export interface ExpectedCall {
  readonly args: readonly PyValue[];
  readonly expected: PyValue;
}

/**
 * LiveCodeBench functional (LeetCode-style) and APPS/TACO call-based problems: the program's function
 * `entryPoint` (a method of a fresh `Solution()` when the program has `class Solution`) is called on each test's
 * arguments in the harness, and its return value is compared outside the box with the dataset's expected value by
 * the dataset's own rule (`rule`, `src/kinds/python/expected-call.ts`). No reference solution is run.
 */
export interface ExpectedCallProblem {
  readonly kind: 'expected_call';
  readonly taskId: string;
  readonly language: 'python';
  /** Starter code shown to the model; a `completion` continues it, a whole program replaces it. */
  readonly prompt: string;
  readonly entryPoint: string;
  readonly tests: readonly ExpectedCall[];
  readonly rule: 'livecodebench' | 'apps';
  readonly statement?: string;
  /** CPU time limit per call, ms (the dataset's published time-out); the request's when absent. */
  readonly timeLimitMs?: number;
  /** Release (contest) date, ISO 8601 (`2023-08-21T00:00:00`), for contamination windows. */
  readonly releaseDate?: string;
  /** As `IoProblem`'s: LiveCodeBench `difficulty`, `platform`, `question_title`. */
  readonly difficulty?: string;
  readonly platform?: string;
  readonly title?: string;
}

/**
 * A stdin/stdout problem judged by a problem-supplied checker (src/kinds/checker/checker.ts; Codeforces/Polygon
 * testlib, open-r1 `checker.py`, CMS comparators), optionally scored by IOI subtasks (CMS GroupMin: each
 * subtask's points times its tests' smallest score; `tests` are indices into `tests`). Limits as `IoProblem`.
 * In the `Problem` union (inline problems, the MCP and HTTP front ends); no dataset reader makes one yet.
 */
export interface CheckerProblem {
  readonly kind: 'checker';
  readonly taskId: string;
  readonly language?: string;
  readonly tests: readonly IoTestCase[];
  readonly checker: { readonly kind: 'testlib' | 'python' | 'cms'; readonly source: string; readonly testlibHeader?: string };
  readonly subtasks?: readonly { readonly name?: string; readonly points: number; readonly tests: readonly number[] }[];
  readonly timeLimitMs?: number;
  readonly memoryLimitKiB?: number;
}

/** One named test of an IOI task (open-r1/ioi-test-cases: `test_name`, `test_input`, `test_output`). */
export interface IoiTestCase {
  readonly name: string;
  readonly input: string;
  readonly output: string;
}

/**
 * An IOI task whose C++ solution is compiled together with the task's grader files (open-r1/ioi, as CMS and
 * guipenedo/piston's `cms_ioi` package judge it; `src/kinds/ioi/ioi.ts`): Batch tasks (grader + solution read
 * the input, a checker or `diff -b` judges the output) and Communication tasks (a manager talks to the solution
 * over pipes and prints the score). `graderFiles` are open-r1's `grader_files` as published (names with their
 * directory: `graders/grader.cpp`, `graders/<id>.h`, `graders/grader_config.json`, `checker/checker.cpp`, ...);
 * the solution is `graders/<problemId>.cpp`. Score: CMS GroupMin over `subtasks` (`tests` index `tests`), as a
 * fraction of the subtasks' total points, each subtask rounded to `scorePrecision` decimals as open-r1 does.
 */
export interface IoiProblem {
  readonly kind: 'ioi';
  /** `<year>/<id>` when the row has a year, else `<id>` (open-r1's `id`, e.g. `nile`). */
  readonly taskId: string;
  /** open-r1's `id`: the solution's file name and the header it includes (`graders/<id>.cpp`, `<id>.h`). */
  readonly problemId: string;
  readonly language: 'cpp';
  readonly name?: string;
  readonly statement?: string;
  readonly starterCode?: string;
  readonly graderFiles: readonly { readonly name: string; readonly content: string }[];
  readonly tests: readonly IoiTestCase[];
  readonly subtasks: readonly { readonly name: string; readonly points: number; readonly tests: readonly number[] }[];
  readonly scorePrecision: number;
  /** CPU time limit per test, ms (open-r1 `time_limit` seconds; `graders/grader_config.json` wins, as in CMS). */
  readonly timeLimitMs: number;
  /** Memory limit, KiB (open-r1 `memory_limit`, MB; `grader_config.json`'s bytes win). */
  readonly memoryLimitKiB: number;
}

/** What every proof problem has (`src/kinds/proof/`): its id, and the text a model is shown (default: `statement`). */
interface ProofProblemBase {
  readonly kind: 'proof';
  readonly taskId: string;
  readonly prompt?: string;
  /** Never set: a proof problem is judged in its checker's language (`src/kinds/proof/`); kept so `Problem['language']` reads on every kind. */
  readonly language?: undefined;
}

/**
 * A Coq/Rocq proof problem. `statement` is the file the candidate completes: definitions and the statements of
 * `theorems` (proofs may be `Admitted`). `reference`, when known, a solution (coq-art's exercise file). Compiled
 * in a trusted run, the reference (else the statement file) gives the statements and definitions as Coq prints
 * them, which the candidate's must equal: a theorem proved inside a `Section` is discharged over the section
 * variables its proof uses, so a statement file alone fixes such statements only with `Proof using`.
 * `definitions` names the definitions whose printed form must stay unchanged (default: every `Definition`,
 * `Fixpoint`, `Inductive`, ... the statement file declares).
 * `allowedAxioms`: axioms `Print Assumptions` may list, as Coq prints them in the trusted check
 * (`name : type`, e.g. `Classical_Prop.classic : forall P : Prop, or P (not P)`); default none.
 */
export interface CoqProofProblem extends ProofProblemBase {
  readonly checker: 'coq';
  readonly statement: string;
  readonly reference?: string;
  readonly theorems: readonly string[];
  readonly definitions?: readonly string[];
  readonly allowedAxioms?: readonly string[];
}

/**
 * A Dafny verification problem: `statement` is the program the candidate completes (DafnyBench's
 * `hints_removed`), `reference` a verified solution when known (`ground_truth`): the audit reads the contracts
 * from it when given (`src/kinds/proof/dafny/audit.ts`).
 */
export interface DafnyProofProblem extends ProofProblemBase {
  readonly checker: 'dafny';
  readonly statement: string;
  readonly reference?: string;
}

/**
 * An SMT-LIB 2 problem: the candidate is a script whose `check-sat` must answer `expected` with `solver`
 * (a `sat` answer's model is checked against the assertions in a second run). `statement`, when given, holds
 * declarations and assertions the script must contain unchanged at top level.
 */
export interface SmtProofProblem extends ProofProblemBase {
  readonly checker: 'smt';
  readonly expected: 'sat' | 'unsat';
  readonly solver: 'z3' | 'cvc5';
  readonly statement?: string;
}

/**
 * A Lean 4 proof problem, checked by a kimina-lean-server-compatible `/verify` endpoint: `statement` is the
 * file with the theorems stated (proofs `sorry`), `theorems` their names; `allowedAxioms` what `#print axioms`
 * may list (default `propext`, `Classical.choice`, `Quot.sound`).
 */
export interface LeanProofProblem extends ProofProblemBase {
  readonly checker: 'lean';
  readonly statement: string;
  readonly theorems: readonly string[];
  readonly allowedAxioms?: readonly string[];
}

/** A proof problem, judged by the `proof` kind (`src/kinds/proof/`) with one audit per checker. */
export type ProofProblem = CoqProofProblem | DafnyProofProblem | SmtProofProblem | LeanProofProblem;

/** Any problem the built-in readers produce (each kind has its judging mode in `src/kinds/`). */
export type Problem = UnitTestProblem | CallProblem | IoProblem | AssertionsProblem | ScriptProblem | PythonScriptProblem
  | ExpectedCallProblem | CheckerProblem | IoiProblem | ProofProblem;

/**
 * One model sample for one problem. `completion` continues the prompt (HumanEval), `solution` is a whole
 * program (EvalPlus `solution`, contest code), `response` is raw model text the program is extracted from
 * (chat output with fences and `<think>`); see `prepareSubmission` for which one is judged. `index` is the
 * 0-based position of the sample among the samples of its task, in file order; `line` the 1-based line of
 * the samples file it came from (when read from JSONL).
 */
export interface Sample {
  readonly taskId: string;
  readonly index: number;
  readonly completion?: string;
  readonly solution?: string;
  readonly response?: string;
  readonly language?: string;
  readonly line?: number;
}

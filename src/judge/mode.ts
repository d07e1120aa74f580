/**
 * A judging mode: everything Crucible knows about judging one kind of problem, in one module. A mode says
 * - which language judges a submission (`language`) and which program to assemble from its code (`assemble`);
 * - how many tests a verdict counts (`testCount`);
 * - optionally, a reference to compute once per problem and cache on disk (`reference`: e.g. EvalPlus expected
 *   outputs from the canonical solution);
 * - which runs to make, as data (`plan`, see `./plan.ts`);
 * - how one run becomes a test result (`judgeRun`, `program_runs` and `interactive` plans: compare, or run a
 *   checker through the tools) and how the outcome becomes the verdict (`verdict`: statuses, partial `score`,
 *   subtasks);
 * - optionally, what people need to see why a submission failed (`detail`: what failing tests printed or
 *   returned, stderr, peak memory; asked for only by callers that keep it, such as the result store) and how a
 *   test reads as text (`describeTest`: its input and expected output).
 * - optionally, what other parts of Crucible ask of a kind without knowing it: the Python entry point generated
 *   tests call (`entryPoint`, CodeT reranking), and how a run's problems of the kind are judged (`summarise`,
 *   `crucible eval`'s summary).
 * A mode is typed by the kind of plan it makes (`K`): its `verdict`, `detail` and `judgeRun` get that kind's
 * outcome and results, so no mode checks at run time what the executor handed it.
 * A mode never spawns a process: the executor runs its plan. Modes are pure functions of their inputs (plus the
 * tools they are handed), so a judge on another machine makes the same verdicts from the same plan.
 *
 * Adding a problem kind: one folder under `src/kinds/` whose module exports `defineMode({...})`, and its entry
 * in `BUILTIN_MODES` (`src/kinds/index.ts`) — or, for a kind of your own, `defaultModes().with(yourMode)`.
 */
import type { z } from 'zod';
import type { ProblemBase } from '../formats/types.js';
import type { CalibratedTimeLimit, JudgeLimits } from '../limits.js';
import type { FailedTestDetail, TestResult, Verdict, VerdictDetail } from '../verdict/index.js';
import type { Program } from './judge.js';
import type { ExecutionTools, OutcomeOf, PlanKind, PlanOf, RunOf, RunResultOf } from './plan.js';

/** How the submission gave its code: a continuation of the prompt, the whole program, or code of unknown shape
 *  (given as `code`, or extracted from a response): the mode decides whether it needs the prompt. */
export type CodeShape = 'completion' | 'solution' | 'code';

/** What a mode's `plan` and `verdict` see besides the problem. `reference` is undefined for modes without one. */
export interface ModeContext<R = unknown> {
  /** Limits of this request: the judge's defaults overridden by the request's. */
  readonly limits: JudgeLimits;
  readonly failFast: boolean;
  /** `JudgeRequest.stopAfterTimeouts` (null: run every test); only meaningful without `failFast`. */
  readonly stopAfterTimeouts: number | null;
  readonly reference: R;
  /**
   * How a mode whose reference measures the reference solution's CPU time turns it into the program's CPU limit
   * (`calibratedCpuMs`, `src/limits.ts`); null: the fixed `limits.cpuMs`. The judge's, for every request.
   */
  readonly calibration: CalibratedTimeLimit | null;
}

/**
 * A reference computed once per problem and cached on disk under the dataset hash (`src/engine/ground-truth.ts`),
 * by a plan of kind `K` whose runs are not judged (each run's test is `passed` when it ended `ok`).
 * `fingerprint` covers everything the reference depends on (a cached entry with another fingerprint or
 * `version` is recomputed, as is one `schema` rejects). `parse` throws `GroundTruthError` when the reference
 * cannot be made: the problem's verdicts are then `reference_failed` (the reference itself failed, e.g. on a limit;
 * remembered for the process) or, when Crucible failed while running it, `internal_error` (tried again later);
 * never a verdict on a sample. An optional reference (`applies` false) is undefined for that problem, computed and
 * cached never.
 */
export interface ReferenceSpec<P extends ProblemBase, R, K extends PlanKind = PlanKind> {
  readonly version: number;
  /** Whether the problem has this reference at all (default: every problem has). */
  applies?(problem: P): boolean;
  fingerprint(problem: P): string;
  plan(problem: P, limits: JudgeLimits): PlanOf<K>;
  parse(problem: P, outcome: OutcomeOf<K>): R;
  readonly schema: z.ZodType<R, z.ZodTypeDef, unknown>;
}

/** A reference with its plan kind erased, as a mode holds it (sound: the executor returns the planned kind's outcome). */
export function defineReference<P extends ProblemBase, R, K extends PlanKind>(spec: ReferenceSpec<P, R, K>): ReferenceSpec<P, R> {
  return spec as unknown as ReferenceSpec<P, R>;
}

/**
 * What a mode says about how a run's problems of its kind are judged (`JudgingMode.summarise`): a JSON-able
 * `value` kept under `field` in `crucible eval`'s `summary.json`, and `text`, one line for people.
 */
export interface ModeSummary {
  readonly field: string;
  readonly value: unknown;
  readonly text: string;
}

/** A judging limit a reference solution can run out of (a field of `JudgeLimits`). */
export type ReferenceLimit = keyof JudgeLimits;

/**
 * Thrown by a reference's `parse` when the reference cannot be made from what ran. `transient` when Crucible
 * failed (the harness answered `internal_error`): the judge then tries again later instead of remembering it.
 * `limit`: the judging limit the reference solution ran out of, when that is why (see `referenceLimitHint`).
 */
export class GroundTruthError extends Error {
  constructor(message: string, readonly transient = false, readonly limit?: ReferenceLimit) {
    super(message);
    this.name = 'GroundTruthError';
  }
}

/**
 * The reason of a `reference_failed` verdict: which limit to raise when a limit was the cause (first, so a reason
 * cut to `REASON_CHARS` keeps it), with the value it ran under, then what failed (the judge's limits, under which references are computed; CPU time is
 * `REFERENCE_CPU_FACTOR` times the per-test limit, `src/limits.ts`). Units in the text are the command line's.
 */
export function referenceFailureReason(error: GroundTruthError, limits: JudgeLimits): string {
  switch (error.limit) {
    case 'memoryKiB':
      return `the reference solution needs more memory than the limit of ${Math.round(limits.memoryKiB / 1024)} MiB; `
        + `raise it to judge this problem (--memory-limit MiB): ${error.message}`;
    case 'cpuMs':
      return `the reference solution ran out of CPU time (20 x the limit of ${limits.cpuMs} ms); `
        + `raise the limit to judge this problem (--time-limit SECONDS): ${error.message}`;
    case 'outputBytes':
      return `the reference solution printed more than the output limit of ${limits.outputBytes} bytes: ${error.message}`;
    case undefined:
      return error.message;
  }
}

/**
 * Thrown by `language`/`assemble` when the submission cannot be judged as given: `unknown_language` (no such
 * language configured), `wrong_language` (the problem is judged in another language), `no_program` (no code).
 * `testCount`: the problem's, when `prepareSubmission` threw it (its caller records the sample without looking the
 * mode up again).
 */
export class SubmissionError extends Error {
  constructor(readonly code: 'unknown_language' | 'wrong_language' | 'no_program', message: string,
    readonly field: 'language' | 'code' = code === 'no_program' ? 'code' : 'language', readonly testCount?: number) {
    super(message);
    this.name = 'SubmissionError';
  }
}

/**
 * One judging mode for problems of type `P`, making plans of kind `K`, with per-run data `C` and reference `R`
 * (see the module comment).
 */
export interface JudgingMode<P extends ProblemBase = ProblemBase, K extends PlanKind = PlanKind, C = unknown, R = undefined> {
  readonly kind: string;
  /** One line for docs and listings. */
  readonly description: string;
  /** The language (id or alias) a submission is judged in when it asked for `requested` (undefined: none). */
  language(problem: P, requested: string | undefined): string;
  /** Whether the problem can be judged in the language with this id (default: any configured language). */
  acceptsLanguage?(problem: P, languageId: string): boolean;
  /** The program to run from the submission's code. */
  assemble(problem: P, code: string, shape: CodeShape): string;
  /**
   * The fence tags (lower-cased) whose blocks a raw response's code is taken from first (`diff`, `patch` for
   * patches), when they are not the judged language's (default, or undefined: `LanguageRegistry.fenceTags` of the language).
   */
  responseFenceTags?(problem: P): ReadonlySet<string> | undefined;
  /**
   * Languages this mode checks without a local toolchain (a remote checker the operator configures, e.g. Lean 4
   * on a kimina-lean-server endpoint): accepted by `prepareSubmission` without a language file, the id kept as
   * given (default: none). The mode's plan must not run a program in such a language.
   */
  readonly remoteLanguages?: readonly string[];
  testCount(problem: P): number;
  readonly reference?: ReferenceSpec<P, R>;
  plan(problem: P, program: Program, context: ModeContext<R>): PlanOf<K, C>;
  /**
   * `program_runs` and `interactive` plans: one run's test result (default: `passed` when the run ended `ok`; for
   * an interactive run, when every box ended `ok` or was ended by the other side, the trusted one `ok`).
   */
  judgeRun?(problem: P, run: RunOf<K, C>, index: number, result: RunResultOf<K>, tools: ExecutionTools):
    TestResult | Promise<TestResult>;
  verdict(problem: P, outcome: OutcomeOf<K>, context: ModeContext<R>): Verdict;
  /**
   * The verdict's detail (`VerdictDetail`): the first `MAX_DETAILED_FAILURES` failing tests of `verdict` with what
   * they printed or returned and their stderr, the compiler's stderr when nothing ran, peak memory (KiB). Called
   * only when a caller asked for detail, after `verdict`, on the same outcome (default: no detail).
   */
  detail?(problem: P, outcome: OutcomeOf<K>, verdict: Verdict, context: ModeContext<R>): VerdictDetail;
  /**
   * Test `index` of the problem as text for people: its `input` and `expected` output (`FailedTestDetail` without
   * `actual`/`stderr`, cut by `failedTestDetail`). `reference` is undefined when the mode has none or it could
   * not be made; fields that cannot be known are left out (default: the index alone).
   */
  describeTest?(problem: P, index: number, reference: R | undefined): FailedTestDetail;
  /**
   * The Python entry point a problem's code defines and the prompt that declares it, for tests generated against
   * it (CodeT's assertions, run by the harness after the prompt); undefined where the kind has none.
   */
  entryPoint?(problem: P): { readonly prompt: string; readonly entryPoint: string } | undefined;
  /** How a run's problems of this kind are judged, for `crucible eval`'s summary; undefined when there is nothing to say. */
  summarise?(problems: readonly P[]): ModeSummary | undefined;
}

/** A mode with its types erased, as the registry holds it. */
export type AnyMode = JudgingMode<ProblemBase, PlanKind, unknown, unknown>;

/**
 * Erase a mode's types for the registry. Sound because the registry hands a mode only problems of its `kind`,
 * problems of a kind have that kind's shape (readers validate them), and the executor hands `verdict`, `detail`
 * and `judgeRun` the outcome and results of the plan the mode made.
 */
export function defineMode<P extends ProblemBase, K extends PlanKind, C, R>(mode: JudgingMode<P, K, C, R>): AnyMode {
  return mode as unknown as AnyMode;
}

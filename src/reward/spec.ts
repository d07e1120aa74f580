/**
 * Reward specs: how one sample's verdict becomes one number for an RL trainer.
 *
 * Spec (zod schema `RewardSpecSchema`, parsed once from config):
 * - `kind: "binary"`: 1 when the sample passed (status `passed`, every test passed), else 0;
 *   `failFast` (default true) lets the runner stop at the first failing test, since the reward cannot change
 *   after it (a looping completion on a HumanEval+ problem then costs one time-out, not one per plus input);
 *   `false` runs every test (for per-test logs). Only binary specs have it.
 * - `kind: "fraction"`: weighted pass fraction `sum(w_i * pass_i) / sum(w_i)` over all tests.
 * - `kind: "threshold"`: 1 when that weighted fraction is >= `threshold` (in [0, 1]), else 0.
 * - `kind: "score"`: the verdict's partial credit as its problem kind defines it (`Verdict.score`: a repository
 *   task's fraction of FAIL_TO_PASS tests passed, IOI subtask points); 1 for a pass without one, else 0.
 * - `kind: "patch_similarity"`: SWE-RL's execution-free reward for repository tasks (Wei et al. 2025,
 *   arXiv:2502.18449; `src/kinds/repository/similarity.ts`): the patch's similarity to the gold patch in [0, 1],
 *   -1 for a malformed patch. Computed by the caller from the two patches (`RewardInput.similarity`), not from a
 *   verdict: nothing is run.
 * - `kind: "sql_preset"` with `preset: "sql-r1" | "skyrl-sql"`: a published text-to-SQL RL recipe's reward, whole
 *   (`src/kinds/sql/reward-presets.ts`: SQL-R1's format ±1, executable ±2, result ±3 and length term; SkyRL-SQL's
 *   −1 / 0 / 1): the raw response is read by the preset's own extraction rule and the query judged by the `sql` kind
 *   as the preset compares. Scored by the caller from the response and the verdict (`src/server/sql-presets.ts`),
 *   not by `computeReward`; no penalties, efficiency or analysis terms.
 * - `weights` (fraction/threshold only): one non-negative weight per test, in test order, not all zero;
 *   default all 1.
 * - `penalties`: reward given instead when nothing could be run: `noCode` (no code found in the response),
 *   `compileError`; default 0 each, any finite number (e.g. -1 to punish format failures).
 *
 * - `efficiency` (any kind, optional): `{weight, cap}` adds `weight · min(cap, referenceCost / cost)` to the reward
 *   of a PASSING sample, from `input.efficiency` (the sample's and the reference's cost in one unit: callgrind
 *   instructions, Java bytecodes or median wall ms, as `crucible eval --efficiency` measures them). The ratio of reference to sample
 *   cost is the speed-up term of ACECode (Yang et al. 2025, arXiv 2412.17264: reward from runtime relative to the
 *   reference) and Effi-Code (Huang et al. 2024, arXiv 2410.10209); capped (default 2) so one degenerate
 *   measurement cannot dominate the pass term. A failing sample gets no efficiency term. A passing sample without a
 *   measurement is a `RewardError` (no made-up efficiency).
 *
 * - `synthesis` (any kind, optional; `verilog` problems): `{weight, cap}` adds
 *   `weight · min(cap, reference / design)` to the reward of a PASSING sample, where design and reference are the
 *   CMOS transistor estimates of yosys' `synth; stat -tech cmos` (`Verdict.formal.synthesis`,
 *   `src/kinds/verilog/formal.ts`), or their cell counts when either has no estimate: a smaller design than the
 *   reference earns more, capped (default 2) as the efficiency term is (the same ratio of reference to sample cost).
 *   A passing design yosys could not synthesise gets 0 for the term; a passing sample judged without synthesis
 *   statistics is a `RewardError`. A failing sample gets no synthesis term.
 *
 * - `analysis` (any kind, optional): static analysis findings as a penalty term (`./analysis.ts`): the reward is
 *   the verdict's reward minus the term's penalty (capped), for every status but `no_code` and `compile_error`
 *   (which get their penalty alone).
 *
 * Input: `{status, testsPassed, testCount?, score?, similarity?, efficiency?, analysis?}`. `testsPassed[i]` is whether test i passed; tests not run (fail
 * fast, or the sample died) are missing or false. `testCount` (default `testsPassed.length`) is the number of
 * tests the problem has. Status `no_tests` gives 0 (never a pass).
 * Errors: `RewardError` for a spec with `analysis` and a sample without an analysis report or with a counted
 * analyser that failed, for `internal_error` (Crucible failed, so there is no reward to give: the trainer must
 * retry or drop the sample, not learn from a made-up 0) and `reference_failed` (the problem cannot be judged under
 * these limits), for `passed` with a failing test, and for weights whose
 * length is not `testCount`.
 */
import { z } from 'zod';
import type { AnalysisReport, SampleStatus, SynthesisStats } from '../verdict/index.js';
import { analysisPenalty, AnalysisTermError, AnalysisTermSchema } from './analysis.js';

const PenaltiesSchema = z
  .object({
    noCode: z.number().finite().default(0).describe('Reward when no code was found in the response.'),
    compileError: z.number().finite().default(0).describe('Reward when the program did not compile.'),
  })
  .strict()
  .default({});

const WeightsSchema = z
  .array(z.number().finite().nonnegative())
  .min(1)
  .refine((w) => w.some((x) => x > 0), { message: 'weights must not all be zero' })
  .optional()
  .describe('Per-test weights in test order; default 1 each.');

const EfficiencyTermSchema = z
  .object({
    weight: z.number().finite().positive().describe('Weight of the efficiency term added to a passing sample\'s reward.'),
    cap: z.number().finite().positive().default(2).describe('Largest referenceCost / cost counted (default 2).'),
  })
  .strict()
  .optional()
  .describe('Efficiency term for passing samples: weight · min(cap, referenceCost / cost).');

const SynthesisTermSchema = z
  .object({
    weight: z.number().finite().positive().describe('Weight of the synthesis term added to a passing design\'s reward.'),
    cap: z.number().finite().positive().default(2).describe('Largest reference / design size counted (default 2).'),
  })
  .strict()
  .optional()
  .describe('verilog: synthesis term for passing designs: weight · min(cap, reference transistors / design transistors).');

export const RewardSpecSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('binary'),
      penalties: PenaltiesSchema,
      efficiency: EfficiencyTermSchema, synthesis: SynthesisTermSchema,
      failFast: z.boolean().default(true).describe('The runner may stop at the first failing test (default true: a binary reward cannot use the rest).'),
      analysis: AnalysisTermSchema.optional(),
    })
    .strict(),
  z.object({ kind: z.literal('fraction'), weights: WeightsSchema, penalties: PenaltiesSchema, efficiency: EfficiencyTermSchema, synthesis: SynthesisTermSchema, analysis: AnalysisTermSchema.optional() }).strict(),
  z.object({ kind: z.literal('score'), penalties: PenaltiesSchema, efficiency: EfficiencyTermSchema, synthesis: SynthesisTermSchema, analysis: AnalysisTermSchema.optional() }).strict(),
  z.object({
    kind: z.literal('sql_preset'),
    preset: z.enum(['sql-r1', 'skyrl-sql']).describe('The recipe: "sql-r1" (SQL-R1, arXiv 2504.08600) or "skyrl-sql" (NovaSky-AI SkyRL-SQL).'),
  }).strict(),
  z.object({ kind: z.literal('patch_similarity'), penalties: PenaltiesSchema, efficiency: EfficiencyTermSchema, synthesis: SynthesisTermSchema, analysis: AnalysisTermSchema.optional() }).strict(),
  z
    .object({
      kind: z.literal('threshold'),
      threshold: z.number().min(0).max(1).describe('Minimum weighted pass fraction for reward 1.'),
      weights: WeightsSchema,
      penalties: PenaltiesSchema,
      efficiency: EfficiencyTermSchema, synthesis: SynthesisTermSchema,
      analysis: AnalysisTermSchema.optional(),
    })
    .strict(),
]);

export type RewardSpec = z.output<typeof RewardSpecSchema>;
export type RewardSpecInput = z.input<typeof RewardSpecSchema>;

export class RewardError extends Error {
  override readonly name = 'RewardError';
}

export interface RewardInput {
  readonly status: SampleStatus;
  /** Per test, in test order: passed or not. Missing entries (tests not run) count as failed. */
  readonly testsPassed: readonly boolean[];
  /** Number of tests of the problem; default `testsPassed.length`. */
  readonly testCount?: number;
  /** The verdict's partial credit (`Verdict.score`), for `score` specs. */
  readonly score?: number;
  /** SWE-RL's patch similarity, for `patch_similarity` specs (computed from the patches by the caller). */
  readonly similarity?: number;
  /** A passing sample's measured cost and its reference's, same unit (needed when the spec has `efficiency`). */
  readonly efficiency?: { readonly cost: number; readonly referenceCost: number };
  /** The sample's static analysis, needed when the spec has an `analysis` term. */
  readonly analysis?: AnalysisReport;
  /** A verilog design's and its reference's synthesis statistics, needed when the spec has a `synthesis` term. */
  readonly synthesis?: { readonly design?: SynthesisStats; readonly reference?: SynthesisStats };
}

/** The synthesis term of a passing design (see the module comment). @throws RewardError without statistics. */
export function synthesisTerm(term: { readonly weight: number; readonly cap: number }, stats: RewardInput['synthesis']): number {
  if (stats === undefined) throw new RewardError('the spec has a synthesis term but the passing sample has no synthesis statistics');
  const { design, reference } = stats;
  if (design === undefined || reference === undefined) return 0;
  const both = design.transistors !== undefined && reference.transistors !== undefined;
  const size = both ? design.transistors! : design.cells;
  const referenceSize = both ? reference.transistors! : reference.cells;
  if (size <= 0 || referenceSize <= 0) return size <= 0 && referenceSize <= 0 ? term.weight : term.weight * term.cap;
  return term.weight * Math.min(term.cap, referenceSize / size);
}

/** The efficiency term of a passing sample (see the module comment). @throws RewardError without a usable measurement. */
export function efficiencyTerm(term: { readonly weight: number; readonly cap: number }, measured: RewardInput['efficiency']): number {
  if (measured === undefined) throw new RewardError('the spec has an efficiency term but the passing sample has no efficiency measurement');
  const { cost, referenceCost } = measured;
  if (!(Number.isFinite(cost) && cost > 0 && Number.isFinite(referenceCost) && referenceCost > 0)) {
    throw new RewardError(`efficiency costs must be positive and finite, got cost ${cost}, referenceCost ${referenceCost}`);
  }
  return term.weight * Math.min(term.cap, referenceCost / cost);
}

/** Parse a reward spec from config (throws zod's error with the field path). */
export function parseRewardSpec(raw: unknown): RewardSpec {
  return RewardSpecSchema.parse(raw);
}

/** Weighted fraction of tests passed, in [0, 1]; 0 when there are no tests. */
export function passFraction(testsPassed: readonly boolean[], testCount: number, weights?: readonly number[]): number {
  if (testCount === 0) return 0;
  if (weights !== undefined && weights.length !== testCount) {
    throw new RewardError(`spec has ${weights.length} weights, problem has ${testCount} tests`);
  }
  let passed = 0;
  let total = 0;
  for (let i = 0; i < testCount; i++) {
    const w = weights?.[i] ?? 1;
    total += w;
    if (testsPassed[i] === true) passed += w;
  }
  return total === 0 ? 0 : passed / total;
}

/** The reward of one sample under `spec`: the verdict's, minus the analysis term's penalty when the spec has one. Pure. */
export function computeReward(spec: RewardSpec, input: RewardInput): number {
  if (spec.kind === 'sql_preset') throw new RewardError('a sql_preset reward is scored from the response by its preset, not from a verdict alone');
  const base = verdictReward(spec, input);
  if (spec.analysis === undefined || input.status === 'no_code' || input.status === 'compile_error') return base;
  if (input.analysis === undefined) throw new RewardError('the spec has an analysis term but the sample has no static analysis');
  try {
    return base - analysisPenalty(spec.analysis, input.analysis, input.status === 'passed');
  } catch (error) {
    if (error instanceof AnalysisTermError) throw new RewardError(error.message);
    throw error;
  }
}

/** A spec that is scored from a verdict (every kind but `sql_preset`). */
type VerdictSpec = Exclude<RewardSpec, { kind: 'sql_preset' }>;

/** The reward of the verdict alone (no analysis term). */
function verdictReward(spec: VerdictSpec, input: RewardInput): number {
  const testCount = input.testCount ?? input.testsPassed.length;
  if (!Number.isInteger(testCount) || testCount < 0 || input.testsPassed.length > testCount) {
    throw new RewardError(`testCount ${testCount} does not fit ${input.testsPassed.length} test results`);
  }
  switch (input.status) {
    case 'internal_error':
      throw new RewardError('internal_error: Crucible could not judge this sample, so it has no reward');
    case 'reference_failed':
      throw new RewardError('reference_failed: the problem\'s reference solution failed under the limits, so nothing was judged');
    case 'no_code':
      return spec.penalties.noCode;
    case 'compile_error':
      return spec.penalties.compileError;
    case 'no_tests':
      return 0;
    default:
      break;
  }
  const allPassed = testCount > 0 && input.testsPassed.length === testCount && input.testsPassed.every((p) => p);
  if (input.status === 'passed' && !allPassed) {
    throw new RewardError('status passed but not every test passed');
  }
  const extra = spec.efficiency !== undefined && input.status === 'passed' ? efficiencyTerm(spec.efficiency, input.efficiency) : 0;
  const area = spec.synthesis !== undefined && input.status === 'passed' ? synthesisTerm(spec.synthesis, input.synthesis) : 0;
  return baseReward(spec, input, testCount) + extra + area;
}

/** The pass term of a judged sample's reward, by the spec's kind. */
function baseReward(spec: VerdictSpec, input: RewardInput, testCount: number): number {
  switch (spec.kind) {
    case 'binary':
      return input.status === 'passed' ? 1 : 0;
    case 'score':
      return input.score ?? (input.status === 'passed' ? 1 : 0);
    case 'patch_similarity':
      if (input.similarity === undefined) throw new RewardError('patch_similarity needs the patch and the gold patch (a repository task)');
      return input.similarity;
    case 'fraction':
      return passFraction(input.testsPassed, testCount, spec.weights);
    case 'threshold':
      return passFraction(input.testsPassed, testCount, spec.weights) >= spec.threshold ? 1 : 0;
  }
}

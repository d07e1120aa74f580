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
 * - `weights` (fraction/threshold only): one non-negative weight per test, in test order, not all zero;
 *   default all 1.
 * - `penalties`: reward given instead when nothing could be run: `noCode` (no code found in the response),
 *   `compileError`; default 0 each, any finite number (e.g. -1 to punish format failures).
 *
 * - `analysis` (any kind, optional): static analysis findings as a penalty term (`./analysis.ts`): the reward is
 *   the verdict's reward minus the term's penalty (capped), for every status but `no_code` and `compile_error`
 *   (which get their penalty alone).
 *
 * Input: `{status, testsPassed, testCount?, analysis?}`. `testsPassed[i]` is whether test i passed; tests not run (fail
 * fast, or the sample died) are missing or false. `testCount` (default `testsPassed.length`) is the number of
 * tests the problem has. Status `no_tests` gives 0 (never a pass).
 * Errors: `RewardError` for a spec with `analysis` and a sample without an analysis report or with a counted
 * analyser that failed, for `internal_error` (Crucible failed, so there is no reward to give: the trainer must
 * retry or drop the sample, not learn from a made-up 0) and `reference_failed` (the problem cannot be judged under
 * these limits), for `passed` with a failing test, and for weights whose
 * length is not `testCount`.
 */
import { z } from 'zod';
import type { AnalysisReport, SampleStatus } from '../verdict/index.js';
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

export const RewardSpecSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('binary'),
      penalties: PenaltiesSchema,
      failFast: z.boolean().default(true).describe('The runner may stop at the first failing test (default true: a binary reward cannot use the rest).'),
      analysis: AnalysisTermSchema.optional(),
    })
    .strict(),
  z.object({ kind: z.literal('fraction'), weights: WeightsSchema, penalties: PenaltiesSchema, analysis: AnalysisTermSchema.optional() }).strict(),
  z
    .object({
      kind: z.literal('threshold'),
      threshold: z.number().min(0).max(1).describe('Minimum weighted pass fraction for reward 1.'),
      weights: WeightsSchema,
      penalties: PenaltiesSchema,
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
  /** The sample's static analysis, needed when the spec has an `analysis` term. */
  readonly analysis?: AnalysisReport;
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

/** The reward of the verdict alone (no analysis term). */
function verdictReward(spec: RewardSpec, input: RewardInput): number {
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
  switch (spec.kind) {
    case 'binary':
      return input.status === 'passed' ? 1 : 0;
    case 'fraction':
      return passFraction(input.testsPassed, testCount, spec.weights);
    case 'threshold':
      return passFraction(input.testsPassed, testCount, spec.weights) >= spec.threshold ? 1 : 0;
  }
}

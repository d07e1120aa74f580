/**
 * The `efficiency` term of a reward spec on the reward routes (issue #28, item 7): a PASSING rollout of a loaded `io`
 * problem that has a reference solution is measured the way `crucible eval --efficiency` measures a sample
 * (`src/apps/efficiency-measure.ts`, in the sandbox, every run's output checked against the test's expected output
 * on the trusted side), and so is the problem's reference, once per problem and server (cached, failures not
 * cached). The cost is the same unit on both sides:
 * - **instructions** (callgrind, summed over the measured test), or **bytecodes** (Java, the JVMTI counter), when
 *   both languages are counted in the same unit (`countUnitOf`); then one plain run besides the counted one (its
 *   wall time is not used);
 * - else the **median wall time** of `WALL_REPEATS` plain runs (the other JVM languages, .NET, or a Java rollout
 *   of a problem whose reference is in C: as `eval --efficiency` compares them).
 * The spec's arithmetic (`weight · min(cap, referenceCost / cost)`) stays in `src/reward/spec.ts`.
 * Latency: a counted run costs ~55× the program's plain run (valgrind), bounded by the problem's limits ×
 * `CALLGRIND_TIME_FACTOR`; the first passing rollout of a problem also pays for the reference's measurement.
 * What cannot be measured (no reference, not an `io` problem, inline tests, no local sandbox, a measurement that
 * failed or printed a wrong answer) is an `error`, which `rewardOf` turns into no reward: never a made-up term.
 */
import { measureProgram, type MeasureSettings, type ProgramMeasurement } from '../apps/efficiency-measure.js';
import { countUnitOf, type CountUnit } from '../engine/count-unit.js';
import { Executor } from '../engine/executor.js';
import type { IoProblem } from '../formats/types.js';
import { runLimits } from '../limits.js';
import type { ServerContext } from './context.js';
import type { Prepared } from './service.js';

/** Plain runs per measurement when the cost is wall time (as `eval --efficiency-repeats`' default). */
export const WALL_REPEATS = 5;

/** Tests measured per problem: the one with the longest input (`measuredTests`, as `eval --efficiency-tests` 1). */
export const MEASURED_TESTS = 1;

/** A passing rollout's measured cost and its reference's (`unit`: callgrind instructions, JVM bytecodes or median wall ms), or why not. */
export type RolloutEfficiency =
  | { readonly ok: true; readonly unit: CountUnit | 'wallMs'; readonly cost: number; readonly referenceCost: number }
  | { readonly ok: false; readonly error: string };

/** Per server context: the executor on its sandbox and the references' measurements by problem id and unit. */
interface Meter {
  readonly executor: Executor;
  readonly references: Map<string, Promise<ProgramMeasurement>>;
}

const meters = new WeakMap<ServerContext, Meter>();

function meterOf(ctx: ServerContext): Meter | null {
  if (ctx.sandbox === null) return null;
  let meter = meters.get(ctx);
  if (meter === undefined) meters.set(ctx, meter = { executor: new Executor(ctx.sandbox, ctx.languages), references: new Map() });
  return meter;
}

function settingsOf(ctx: ServerContext, problem: IoProblem, counted: boolean): MeasureSettings {
  const cpuMs = problem.timeLimitMs ?? ctx.config.timeLimitMs;
  return {
    repeats: counted ? 1 : WALL_REPEATS, tests: MEASURED_TESTS, instructions: counted,
    limits: runLimits({ ...(cpuMs === undefined ? {} : { cpuMs }), memoryKiB: problem.memoryLimitKiB ?? ctx.config.memoryLimitKiB }),
    bootstrap: { reps: 1000, seed: 0 },
  };
}

const costOf = (m: ProgramMeasurement, counted: boolean): number | null => counted ? m.instructions : m.wallMedianMs;

/**
 * Why a rollout of problem `problemId` cannot have an efficiency term on this server (a sentence), or null when it
 * can: a loaded `io` problem with tests and a reference solution, and a local sandbox. Checked when a request comes
 * in, so a spec that can never be honoured is a 400, not a batch of missing rewards.
 */
export function efficiencyUnavailable(ctx: ServerContext, problemId: string): string | null {
  const problem = ctx.service.problems.get(problemId)?.problem;
  if (problem === undefined) return 'efficiency needs a loaded problem (--problems), not inline tests: its reference solution is the yardstick';
  if (problem.kind !== 'io') return `efficiency is measured for io problems only, not ${problem.kind} (their tests hold expected values)`;
  if (problem.referenceSolution === undefined) return `problem ${problem.taskId} has no reference solution to measure against`;
  if (problem.tests.length === 0) return `problem ${problem.taskId} has no tests to measure on`;
  if (ctx.sandbox === null) return 'this server judges on a queue fleet: it has no local sandbox to measure in';
  return null;
}

/**
 * Measure a passing rollout (`prepared`, judged `passed`) and its problem's reference (see the module comment).
 * Never throws for what a program does; the sandbox's own failure is an `error` too.
 */
export async function rolloutEfficiency(ctx: ServerContext, prepared: Prepared): Promise<RolloutEfficiency> {
  if (prepared.kind !== 'judge') return { ok: false, error: 'no program to measure' };
  const unavailable = efficiencyUnavailable(ctx, prepared.problemId);
  if (unavailable !== null) return { ok: false, error: unavailable };
  const problem = ctx.service.problems.get(prepared.problemId)!.problem as IoProblem;
  const reference = problem.referenceSolution!;
  const meter = meterOf(ctx)!;
  const { language, source } = prepared.request.program;
  let candidateId: string;
  let referenceId: string;
  try {
    candidateId = ctx.languages.get(language).id;
    referenceId = ctx.languages.get(reference.language).id;
  } catch (error) {
    return { ok: false, error: `language: ${(error as Error).message}` };
  }
  const unit = countUnitOf(candidateId);
  const counted = unit !== null && unit === countUnitOf(referenceId);
  const costUnit: CountUnit | 'wallMs' = counted ? unit : 'wallMs';
  const settings = settingsOf(ctx, problem, counted);
  const key = `${prepared.problemId}\0${costUnit}`;
  let pending = meter.references.get(key);
  if (pending === undefined) {
    meter.references.set(key, pending = measureProgram(meter.executor, ctx.languages, problem, reference.language, reference.code, settings));
    void pending.then((m) => { if (m.error !== undefined) meter.references.delete(key); }, () => meter.references.delete(key));
  }
  try {
    // One after the other: measurements side by side would disturb each other's wall time.
    const ref = await pending;
    if (ref.error !== undefined) return { ok: false, error: `reference not measured: ${ref.error}` };
    const sample = await measureProgram(meter.executor, ctx.languages, problem, language, source, settings);
    if (sample.error !== undefined) return { ok: false, error: `not measured: ${sample.error}` };
    const cost = costOf(sample, counted);
    const referenceCost = costOf(ref, counted);
    if (cost === null || referenceCost === null || !(cost > 0) || !(referenceCost > 0)) {
      return { ok: false, error: `no positive cost (sample ${cost}, reference ${referenceCost})` };
    }
    return { ok: true, unit: costUnit, cost, referenceCost };
  } catch (error) {
    return { ok: false, error: `measurement failed: ${(error as Error).message}` };
  }
}

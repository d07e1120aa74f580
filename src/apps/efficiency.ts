/**
 * `crucible eval --efficiency` (issue #28, item 7): after judging, measure every distinct PASSING program of each
 * `io` problem and the problem's reference solution (`efficiency-measure.ts`), and score them with the formulas of
 * `src/metrics/efficiency.ts` (each cited there and in docs/METRICS.md, "Efficiency"):
 * - **cost**: the instruction count when both the sample and the reference were counted, else the median wall time;
 * - **DPS / DPS_norm** (EvalPerf) against the reference clusters. Crucible's datasets carry one reference solution
 *   per problem, so its clusters are that one solution's cost (one cluster, score 100): DPS is then 100 when the
 *   sample costs no more than the reference, 0 otherwise. Only with instruction counts (EvalPerf's own measure);
 * - **Beyond** (Mercury) on the cost, over all samples of the measured problems (a failing sample scores 0), in
 *   percent;
 * - **NET / NMU / NTMU** (EffiBench): median wall time, peak memory, and memory integral (the box's cgroup memory
 *   sampled from outside every `MEMORY_SAMPLE_MS`, trapezoid rule) over the reference's; NTMU is null when either
 *   side was not sampled (no cgroups); `ntmuNote` says how it was measured;
 * - the **noise-aware comparison** of the sample's and the reference's wall times (`compareTimings`): the ratio of
 *   medians and whether their bootstrap intervals overlap (`indistinguishable`).
 * Problems of other kinds (function-call harnesses, scripts) are listed in `skipped`: their tests give the box
 * expected values, which a measured program must never see.
 */
import type { Executor } from '../engine/executor.js';
import type { IoProblem, Problem, Sample } from '../formats/types.js';
import type { SubmissionContext } from '../judge/submission.js';
import { resolveBootstrapOptions } from '../metrics/bootstrap.js';
import { beyondOf, clusterScores, compareTimings, dpsOf, effiScores } from '../metrics/efficiency.js';
import type { SampleRecord } from '../store/records.js';
import { MEMORY_SAMPLE_MS, measureProgram, type MeasureSettings, type ProgramMeasurement } from './efficiency-measure.js';
import { prepareSample } from './evaluate.js';

/** One measured passing sample and its scores against the reference. */
export interface SampleEfficiency {
  readonly sampleIndex: number;
  readonly programHash: string;
  readonly measurement: ProgramMeasurement;
  /**
   * What `cost` is: callgrind's instruction counts, a JVM's bytecode counts (both sides counted in the same unit),
   * or median wall time (ms) when either side was not counted or the units differ.
   */
  readonly costUnit: 'instructions' | 'bytecodes' | 'wallMs' | null;
  readonly cost: number | null;
  readonly dps: number | null;
  readonly dpsNorm: number | null;
  readonly beyond: number | null;
  readonly net: number | null;
  readonly nmu: number | null;
  /** EffiBench's NTMU: the sample's memory integral over the reference's; null when either was not sampled. */
  readonly ntmu: number | null;
  readonly wallRatio: number | null;
  readonly indistinguishable: boolean | null;
}

/** One problem's reference and measured samples. */
export interface ProblemEfficiency {
  readonly taskId: string;
  readonly reference: ProgramMeasurement | null;
  readonly samples: readonly SampleEfficiency[];
  /** Samples of the problem judged (passing or not): Beyond's denominator. */
  readonly judgedSamples: number;
}

/** The run's efficiency (`summary.json`'s `efficiency`, the store's `efficiency` table). */
export interface EfficiencyReport {
  readonly settings: { readonly repeats: number; readonly tests: number; readonly instructions: boolean; readonly reps: number; readonly seed: number; readonly confidence: number };
  readonly problems: readonly ProblemEfficiency[];
  readonly skipped: readonly { readonly taskId: string; readonly reason: string }[];
  readonly aggregate: EfficiencyAggregate;
}

/** Means over problems (DPS) or samples (the rest); null when nothing was measured. */
export interface EfficiencyAggregate {
  readonly measuredSamples: number;
  readonly failedMeasurements: number;
  readonly dps: number | null;
  readonly dpsNorm: number | null;
  /** Mercury's Beyond in percent. */
  readonly beyond: number | null;
  readonly net: number | null;
  readonly nmu: number | null;
  readonly ntmu: number | null;
  /** How the memory integral behind NTMU is measured (its resolution). */
  readonly ntmuNote: string;
  /** Share of measured samples whose wall time cannot be told from the reference's. */
  readonly indistinguishableShare: number | null;
}

/** What `measureEfficiency` needs. */
export interface EfficiencyOptions {
  readonly executor: Executor;
  readonly context: SubmissionContext;
  readonly problems: readonly Problem[];
  readonly samples: readonly Sample[];
  readonly records: readonly SampleRecord[];
  readonly settings: MeasureSettings;
  /** Programs measured at once (default 1: measurements running side by side disturb each other's wall time). */
  readonly concurrency?: number;
}

const NTMU_NOTE = `memory integral: the box's cgroup memory.usage_in_bytes sampled from outside every ${MEMORY_SAMPLE_MS} ms (later under load), trapezoid rule; short runs rest on few samples`;

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((a, v) => a + v, 0) / values.length;
}

/** Scores of one sample against its problem's reference (see the module comment). */
function scoreSample(m: ProgramMeasurement, reference: ProgramMeasurement | null, bootstrap: MeasureSettings['bootstrap']):
  Omit<SampleEfficiency, 'sampleIndex' | 'programHash' | 'measurement'> {
  const none = { costUnit: null, cost: null, dps: null, dpsNorm: null, beyond: null, net: null, nmu: null, ntmu: null, wallRatio: null, indistinguishable: null };
  if (m.error !== undefined || reference === null || reference.error !== undefined) return none;
  // A count's unit is set exactly when it was counted (`ProgramMeasurement.countUnit`).
  const counted = m.countUnit !== null && m.countUnit === reference.countUnit;
  const cost = counted ? m.instructions! : m.wallMedianMs;
  const referenceCost = counted ? reference.instructions! : reference.wallMedianMs;
  const dps = counted ? dpsOf(cost, [{ cost: referenceCost, score: clusterScores([1])[0]! }]) : null;
  const timing = compareTimings(m.wallMs, reference.wallMs, bootstrap);
  const integrals = m.memoryKiBMs !== null && reference.memoryKiBMs !== null && reference.memoryKiBMs > 0;
  const effi = reference.wallMedianMs > 0 && reference.peakMemoryKiB > 0 ? effiScores([{ timeMs: m.wallMedianMs, canonicalTimeMs: reference.wallMedianMs,
    peakKiB: m.peakMemoryKiB, canonicalPeakKiB: reference.peakMemoryKiB,
    memoryKiBMs: integrals ? m.memoryKiBMs! : 1, canonicalMemoryKiBMs: integrals ? reference.memoryKiBMs! : 1 }]) : null;
  return { costUnit: counted ? m.countUnit! : 'wallMs', cost, dps: dps?.dps ?? null, dpsNorm: dps?.dpsNorm ?? null,
    beyond: beyondOf(cost, [referenceCost]), net: effi?.net ?? null, nmu: effi?.nmu ?? null, ntmu: integrals ? effi?.ntmu ?? null : null,
    wallRatio: timing.ratio, indistinguishable: timing.indistinguishable };
}

/** Run `tasks` with at most `limit` at once. */
async function pool<T>(tasks: readonly (() => Promise<T>)[], limit: number): Promise<T[]> {
  const out = new Array<T>(tasks.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, tasks.length)) }, worker));
  return out;
}

/** Measure and score one `io` problem's reference and distinct passing programs. */
async function measureProblem(options: EfficiencyOptions, problem: IoProblem, passing: readonly SampleRecord[], judged: number): Promise<ProblemEfficiency> {
  const { executor, context, settings } = options;
  const measure = (language: string, source: string): Promise<ProgramMeasurement> =>
    measureProgram(executor, context.languages, problem, language, source, settings);
  const ref = problem.referenceSolution;
  const reference = ref === undefined ? null : await measure(ref.language, ref.code);
  const byHash = new Map<string, Promise<ProgramMeasurement>>();
  const samples: SampleEfficiency[] = [];
  const byIndex = new Map(options.samples.filter((s) => s.taskId === problem.taskId).map((s) => [s.index, s]));
  for (const record of passing) {
    const sample = byIndex.get(record.sampleIndex);
    const prepared = sample === undefined ? undefined : prepareSample(problem, sample, context);
    if (prepared?.kind !== 'program') continue;
    let pending = byHash.get(record.programHash);
    if (pending === undefined) byHash.set(record.programHash, pending = measure(prepared.program.language, prepared.program.source));
    const measurement = await pending;
    samples.push({ sampleIndex: record.sampleIndex, programHash: record.programHash, measurement, ...scoreSample(measurement, reference, settings.bootstrap) });
  }
  return { taskId: problem.taskId, reference, samples, judgedSamples: judged };
}

/** Means of the run (see `EfficiencyAggregate`). */
export function aggregateEfficiency(problems: readonly ProblemEfficiency[]): EfficiencyAggregate {
  const all = problems.flatMap((p) => p.samples);
  const ok = all.filter((s) => s.measurement.error === undefined);
  const taskDps = problems.map((p) => mean(p.samples.flatMap((s) => s.dps === null ? [] : [s.dps]))).filter((v): v is number => v !== null);
  const taskDpsNorm = problems.map((p) => mean(p.samples.flatMap((s) => s.dpsNorm === null ? [] : [s.dpsNorm]))).filter((v): v is number => v !== null);
  const scored = problems.filter((p) => p.samples.some((s) => s.beyond !== null));
  const beyondSum = scored.reduce((a, p) => a + p.samples.reduce((b, s) => b + (s.beyond ?? 0), 0), 0);
  const beyondCount = scored.reduce((a, p) => a + p.judgedSamples, 0);
  const pick = (f: (s: SampleEfficiency) => number | boolean | null): number[] =>
    all.flatMap((s) => { const v = f(s); return v === null ? [] : [typeof v === 'boolean' ? Number(v) : v]; });
  return {
    measuredSamples: ok.length, failedMeasurements: all.length - ok.length,
    dps: mean(taskDps), dpsNorm: mean(taskDpsNorm), beyond: beyondCount === 0 ? null : (100 * beyondSum) / beyondCount,
    net: mean(pick((s) => s.net)), nmu: mean(pick((s) => s.nmu)), ntmu: mean(pick((s) => s.ntmu)), ntmuNote: NTMU_NOTE,
    indistinguishableShare: mean(pick((s) => s.indistinguishable)),
  };
}

/** Measure a judged run's passing samples (see the module comment). Never throws for what a program does. */
export async function measureEfficiency(options: EfficiencyOptions): Promise<EfficiencyReport> {
  const skipped: { taskId: string; reason: string }[] = [];
  const jobs: (() => Promise<ProblemEfficiency>)[] = [];
  for (const problem of options.problems) {
    const records = options.records.filter((r) => r.taskId === problem.taskId);
    const passing = records.filter((r) => r.passed);
    if (problem.kind !== 'io') {
      if (passing.length > 0) skipped.push({ taskId: problem.taskId, reason: `${problem.kind} problems are not measured (their tests hold expected values)` });
      continue;
    }
    if (passing.length === 0) continue;
    jobs.push(() => measureProblem(options, problem, passing, records.length));
  }
  const problems = await pool(jobs, options.concurrency ?? 1);
  const b = resolveBootstrapOptions(options.settings.bootstrap);
  const s = options.settings;
  return { settings: { repeats: s.repeats, tests: s.tests, instructions: s.instructions, reps: b.reps, seed: b.seed, confidence: b.confidence },
    problems, skipped, aggregate: aggregateEfficiency(problems) };
}

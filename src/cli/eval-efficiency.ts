/**
 * `crucible eval --efficiency`: the flags, the measurement after judging (`src/apps/efficiency.ts`) on a sandbox of
 * its own, and the summary's text lines. The JSON result is the summary's `efficiency` field (docs/METRICS.md).
 */
import { availableParallelism } from 'node:os';
import { InvalidArgumentError, type Command } from 'commander';
import { measureEfficiency, type EfficiencyReport } from '../apps/efficiency.js';
import type { EvaluationResult } from '../apps/evaluate.js';
import { Executor } from '../engine/executor.js';
import type { Problem, Sample } from '../formats/types.js';
import type { SubmissionContext } from '../judge/submission.js';
import { runLimits, type JudgeLimits } from '../limits.js';
import { Sandbox } from '../sandbox/index.js';
import type { EfficiencyRow } from '../store/result-store.js';

/** The flags this file adds to `crucible eval`. */
export interface EfficiencyFlags {
  efficiency?: boolean;
  efficiencyRepeats: number;
  efficiencyTests: number;
  instructions: boolean;
  jobs?: number;
  unsafeNoSandbox?: boolean;
  reps: number;
  seed: number;
}

function positive(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new InvalidArgumentError(`expected an integer from 1 to 1000, got "${value}"`);
  return n;
}

/** Add `--efficiency`, `--efficiency-repeats`, `--efficiency-tests`, `--no-instructions` to `command`. */
export function addEfficiencyOptions(command: Command): Command {
  return command
    .option('--efficiency', 'measure passing samples of io problems against the reference: callgrind instruction counts, wall time (median of k repeats with a bootstrap CI), cgroup peak memory; DPS, Beyond, NET/NMU (docs/METRICS.md)')
    .option('--efficiency-repeats <k>', 'with --efficiency: plain runs per measured test for wall time', positive, 5)
    .option('--efficiency-tests <n>', 'with --efficiency: tests measured per problem (those with the longest inputs)', positive, 1)
    .option('--no-instructions', 'with --efficiency: no counts (callgrind instructions, Java bytecodes): wall time and memory only');
}

/** Measure the run's passing samples when `--efficiency` asks; undefined otherwise. */
export async function efficiencyOf(flags: EfficiencyFlags, problems: readonly Problem[], samples: readonly Sample[], limits: JudgeLimits,
  context: SubmissionContext, result: EvaluationResult): Promise<EfficiencyReport | undefined> {
  if (flags.efficiency !== true) return undefined;
  const sandbox = Sandbox.create({ slots: flags.jobs ?? availableParallelism(), boxSlots: 1, unsafeNoSandbox: flags.unsafeNoSandbox === true });
  try {
    const executor = new Executor(sandbox, context.languages);
    return await measureEfficiency({ executor, context, problems, samples, records: result.records,
      settings: { repeats: flags.efficiencyRepeats, tests: flags.efficiencyTests, instructions: flags.instructions,
        limits: runLimits({ cpuMs: limits.cpuMs, memoryKiB: limits.memoryKiB, outputBytes: limits.outputBytes }),
        bootstrap: { reps: flags.reps, seed: flags.seed } } });
  } finally {
    sandbox.close();
  }
}

const fixed = (v: number | null, digits = 2): string => v === null ? '–' : v.toFixed(digits);

/** The summary's text lines of an efficiency report. */
export function efficiencyLines(report: EfficiencyReport): string[] {
  const a = report.aggregate;
  return [
    `efficiency: ${a.measuredSamples} passing samples measured (${a.failedMeasurements} could not be), ${report.problems.length} problems, ${report.skipped.length} skipped (not io)`,
    `  DPS ${fixed(a.dps)}  DPS_norm ${fixed(a.dpsNorm)}  Beyond ${fixed(a.beyond)}%  NET ${fixed(a.net, 3)}  NMU ${fixed(a.nmu, 3)}  NTMU ${fixed(a.ntmu, 3)}`,
    `  NTMU's ${a.ntmuNote}`,
    `  wall time indistinguishable from the reference's: ${a.indistinguishableShare === null ? '–' : `${(100 * a.indistinguishableShare).toFixed(2)}%`} of samples (median of ${report.settings.repeats}, ${Math.round(100 * report.settings.confidence)}% bootstrap CIs overlap)`,
  ];
}

/** The store's rows (`sample_efficiency`) of an efficiency report: one per measured passing sample. */
export function efficiencyRows(report: EfficiencyReport): EfficiencyRow[] {
  return report.problems.flatMap((p) => p.samples.map((s): EfficiencyRow => ({
    taskId: p.taskId, sampleIndex: s.sampleIndex, programHash: s.programHash, language: s.measurement.language, costUnit: s.costUnit,
    instructions: s.measurement.instructions, wallMedianMs: s.measurement.wallMedianMs, wallLowerMs: s.measurement.wallLowerMs,
    wallUpperMs: s.measurement.wallUpperMs, cpuMedianMs: s.measurement.cpuMedianMs, peakMemoryKiB: s.measurement.peakMemoryKiB,
    dps: s.dps, dpsNorm: s.dpsNorm, beyond: s.beyond, net: s.net, nmu: s.nmu, indistinguishable: s.indistinguishable,
    error: s.measurement.error ?? null, memoryKiBMs: s.measurement.memoryKiBMs, ntmu: s.ntmu,
  })));
}

/**
 * What `crucible eval --analysis` reports over a run's records (`analysisSummary`). The analysis of one sample runs
 * in the engine (`src/engine/analyse.ts`, re-exported here): through a judge's `runPlain`, so on a queue's fleet too.
 */
import type { SampleRecord } from '../store/records.js';

export { analyseSample, ANALYSER_LIMITS } from '../engine/analyse.js';

/**
 * What `crucible eval --analysis` reports over a run's records that carry an analysis: how many samples were
 * analysed, findings per sample (mean), security findings per 1,000 non-blank lines (over all those samples'
 * lines together), and how many analyser runs failed (their samples' findings are then incomplete, never clean).
 */
export interface AnalysisSummary {
  readonly samples: number;
  readonly findingsPerSample: number;
  readonly securityPerKloc: number;
  readonly failedAnalyses: number;
}

/** The `AnalysisSummary` of `records` (null when none carries an analysis). */
export function analysisSummary(records: readonly SampleRecord[]): AnalysisSummary | null {
  const analysed = records.flatMap((r) => (r.analysis === undefined ? [] : [r.analysis]));
  if (analysed.length === 0) return null;
  const sum = (f: (a: (typeof analysed)[number]) => number): number => analysed.reduce((s, a) => s + f(a), 0);
  const lines = sum((a) => a.lines);
  return { samples: analysed.length, findingsPerSample: sum((a) => a.findings) / analysed.length,
    securityPerKloc: lines === 0 ? 0 : (1000 * sum((a) => a.security)) / lines, failedAnalyses: sum((a) => a.failed.length) };
}

/**
 * Computes everything a run report shows from the run's records; rendering (markdown, HTML, charts)
 * lives in its own modules and only formats this data.
 */
import type { SampleRecord } from '../store/records.js';
import type { SampleStatus } from '../verdict/index.js';
import { countsFromRecords, type PassField } from '../metrics/counts.js';
import type { BootstrapOptions } from '../metrics/bootstrap.js';
import { passAtKWithIntervals, recordedBootstrapOptions, type PassAtKSummary } from '../metrics/summary.js';
import { SAMPLE_STATUSES, type LoadedRun } from './load-run.js';

/** The k values of the summary table, when reportable (the full curve is in the chart). */
export { HEADLINE_KS } from '../metrics/summary.js';
import { HEADLINE_KS } from '../metrics/summary.js';

export interface StatusCount {
  readonly status: SampleStatus;
  readonly count: number;
}

export interface ProblemRow {
  readonly taskId: string;
  /** Samples judged. */
  readonly n: number;
  /** Samples passed. */
  readonly c: number;
  /** c / n, a fraction. */
  readonly passRate: number;
  /** Samples passing base and plus inputs (EvalPlus runs only). */
  readonly plusC?: number;
  /** Non-zero status counts of the problem's samples. */
  readonly statuses: readonly StatusCount[];
}

export interface ReportData {
  readonly runDir: string;
  /** pass@k of the base tests, whole curve with intervals. */
  readonly base: PassAtKSummary;
  /** pass@k of base + plus inputs, when any record carries `plusPassed`. */
  readonly plus?: PassAtKSummary;
  /** The k shown in the summary table. */
  readonly headlineKs: readonly number[];
  /** Every sample status with its count over the run (zero counts included). */
  readonly verdictCounts: readonly StatusCount[];
  /** One row per problem, in order of first appearance. */
  readonly problems: readonly ProblemRow[];
  /** `summary.json` as written by `crucible eval`, if present. */
  readonly runSummary: unknown;
}

function statusCounts(records: readonly SampleRecord[], includeZero: boolean): StatusCount[] {
  const counts = new Map<SampleStatus, number>();
  for (const r of records) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  return SAMPLE_STATUSES.map((status) => ({ status, count: counts.get(status) ?? 0 })).filter(
    (s) => includeZero || s.count > 0,
  );
}

/** Keeps the latest record per (taskId, sampleIndex), as `outcomesFromRecords` does. */
function latestRecords(records: readonly SampleRecord[]): SampleRecord[] {
  const byKey = new Map<string, SampleRecord>();
  for (const r of records) byKey.set(JSON.stringify([r.taskId, r.sampleIndex]), r);
  return [...byKey.values()];
}

function summarize(records: readonly SampleRecord[], field: PassField, options: BootstrapOptions): PassAtKSummary {
  return passAtKWithIntervals(countsFromRecords(records, field), options);
}

/**
 * Builds the report data of a loaded run: pass@k curve with bootstrap CIs (base, and plus for EvalPlus
 * runs), verdict counts and per-problem rows. Bootstrap settings: `options`, else those the run's summary
 * records (what its eval printed, and what the store and dashboard show), else the defaults.
 * @throws RangeError from the metrics when the bootstrap options are out of range.
 */
export function buildReportData(run: LoadedRun, given: BootstrapOptions = {}): ReportData {
  const options = { ...recordedBootstrapOptions(run.summary), ...given };
  const records = latestRecords(run.records);
  const base = summarize(records, 'passed', options);
  const hasPlus = records.some((r) => r.plusPassed !== undefined);
  const plus = hasPlus ? summarize(records, 'plusPassed', options) : undefined;

  const byTask = new Map<string, SampleRecord[]>();
  for (const r of records) {
    const list = byTask.get(r.taskId);
    if (list === undefined) byTask.set(r.taskId, [r]);
    else list.push(r);
  }
  const problems: ProblemRow[] = [...byTask.entries()].map(([taskId, list]) => {
    const c = list.filter((r) => r.passed).length;
    const row: ProblemRow = {
      taskId,
      n: list.length,
      c,
      passRate: c / list.length,
      statuses: statusCounts(list, false),
    };
    return hasPlus ? { ...row, plusC: list.filter((r) => r.plusPassed === true).length } : row;
  });

  return {
    runDir: run.dir,
    base,
    ...(plus === undefined ? {} : { plus }),
    headlineKs: HEADLINE_KS.filter((k) => k <= base.maxK),
    verdictCounts: statusCounts(records, true),
    problems,
    runSummary: run.summary,
  };
}

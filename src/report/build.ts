/**
 * Computes everything a run report shows from the run's records; rendering (markdown, HTML, charts)
 * lives in its own modules and only formats this data.
 */
import type { SampleRecord } from '../store/records.js';
import type { SampleStatus } from '../verdict/index.js';
import { countsFromRecords, referenceFailedTasks, type CountOptions, type PassField } from '../metrics/counts.js';
import type { BootstrapOptions } from '../metrics/bootstrap.js';
import { passAtKWithIntervals, recordedBootstrapOptions, type PassAtKSummary } from '../metrics/summary.js';
import { SAMPLE_STATUSES, type LoadedRun } from './load-run.js';
import { extraSections, type ReportSection } from './sections.js';
import type { WindowBy } from '../metrics/windows.js';

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
  /** What pass@k covers when it is not simply every problem of the file: subset, split, problems left out. */
  readonly coverage: readonly string[];
  /** Tables beyond pass@k: release windows, verbatim copies, efficiency (`sections.ts`). */
  readonly sections: readonly ReportSection[];
}

/** The parts of an eval summary (`src/cli/eval-summary.ts`) that say what pass@k covers; anything else is ignored. */
interface CoverageStamp {
  readonly scope?: { problemsInFile?: number; problems?: number; subset?: boolean; limit?: number; tasks?: readonly string[];
    split?: { name?: string; problems?: number } };
  readonly referenceFailures?: { countedAsFailed?: boolean };
}

function stampOf(summary: unknown): CoverageStamp {
  return typeof summary === 'object' && summary !== null ? summary as CoverageStamp : {};
}

/** One line per thing a reader must know about what pass@k is over (the eval's stamp and the records). */
function coverageLines(stamp: CoverageStamp, referenceFailed: readonly string[]): string[] {
  const lines: string[] = [];
  const scope = stamp.scope;
  if (scope?.subset === true) {
    const by = [...(scope.tasks === undefined ? [] : ['--tasks']), ...(scope.limit === undefined ? [] : [`--limit ${scope.limit}`])].join(' and ');
    const of = scope.split?.name === undefined ? `${scope.problemsInFile} problems of the file` : `${scope.split.problems} problems of the ${scope.split.name}`;
    lines.push(`Subset: pass@k is over ${scope.problems} of the ${of} (${by}), not the benchmark's score.`);
  } else if (scope?.split?.name !== undefined) {
    lines.push(`Split: the ${scope.split.name}, ${scope.problems} of the file's ${scope.problemsInFile} problems.`);
  }
  if (referenceFailed.length > 0) {
    const named = referenceFailed.slice(0, 10).join(', ') + (referenceFailed.length > 10 ? ', ...' : '');
    lines.push(stamp.referenceFailures?.countedAsFailed === true
      ? `Reference failed: ${referenceFailed.length} problems (${named}) whose reference solution failed under the limits are counted as failed.`
      : `Reference failed: ${referenceFailed.length} problems (${named}) whose reference solution failed under the limits are left out of pass@k.`);
  }
  return lines;
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

function summarize(records: readonly SampleRecord[], field: PassField, options: BootstrapOptions, counting: CountOptions): PassAtKSummary {
  return passAtKWithIntervals(countsFromRecords(records, field, counting), options);
}

/**
 * Builds the report data of a loaded run: pass@k curve with bootstrap CIs (base, and plus for EvalPlus
 * runs), verdict counts and per-problem rows, and what pass@k covers (the eval's scope stamp; problems whose
 * reference failed, left out of pass@k as the eval left them out). Bootstrap settings: `options`, else those the
 * run's summary records (what its eval printed, and what the store and dashboard show), else the defaults.
 * @throws RangeError from the metrics when the bootstrap options are out of range.
 */
export function buildReportData(run: LoadedRun, given: BootstrapOptions = {}, view: { readonly windowBy?: WindowBy } = {}): ReportData {
  const options = { ...recordedBootstrapOptions(run.summary), ...given };
  const records = latestRecords(run.records);
  const stamp = stampOf(run.summary);
  const counting = { includeReferenceFailures: stamp.referenceFailures?.countedAsFailed === true };
  const base = summarize(records, 'passed', options, counting);
  const hasPlus = records.some((r) => r.plusPassed !== undefined);
  const plus = hasPlus ? summarize(records, 'plusPassed', options, counting) : undefined;

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
    coverage: coverageLines(stamp, referenceFailedTasks(records)),
    sections: extraSections(records, run.summary, { ...options, ks: HEADLINE_KS.filter((k) => k <= base.maxK),
      includeReferenceFailures: counting.includeReferenceFailures, ...(view.windowBy === undefined ? {} : { windowBy: view.windowBy }) }),
  };
}

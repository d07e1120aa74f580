/**
 * The pass@k analysis of a stored run (what `crucible report` computes from a run directory, here from the
 * store's per-problem counts): the whole pass@k curve with percentile-bootstrap intervals for the base tests
 * and, for EvalPlus runs, base + plus (`metrics/summary.ts`). Bootstrap settings are the run's own
 * (`summary.bootstrap` as `crucible eval` wrote it), else the defaults, so the dashboard shows the intervals
 * the eval printed. Cached in the store per done-sample count; while a run is going it is recomputed at most
 * every `LIVE_RECOMPUTE_MS`.
 */
import type { BootstrapOptions } from '../metrics/bootstrap.js';
import { passAtKWithIntervals, type PassAtKSummary } from '../metrics/summary.js';
import type { ProblemCountsRow, ResultStore, RunRow } from './result-store.js';

/** Least time between two recomputations of a running run's analysis, ms. */
export const LIVE_RECOMPUTE_MS = 3000;

/** pass@k curves of a run. */
export interface RunAnalysis {
  readonly base: PassAtKSummary;
  readonly plus?: PassAtKSummary;
  /** Samples judged when it was computed. */
  readonly done: number;
  /** Epoch ms of the computation. */
  readonly computedMs: number;
}

/** The bootstrap settings a run's summary records (reps, seed, confidence), if any. */
export function runBootstrapOptions(run: Pick<RunRow, 'summary'>): BootstrapOptions {
  const summary = run.summary as { bootstrap?: { reps?: unknown; seed?: unknown; confidence?: unknown } } | undefined;
  const b = summary?.bootstrap;
  const options: { reps?: number; seed?: number; confidence?: number } = {};
  if (typeof b?.reps === 'number') options.reps = b.reps;
  if (typeof b?.seed === 'number') options.seed = b.seed;
  if (typeof b?.confidence === 'number') options.confidence = b.confidence;
  return options;
}

/** Whether the run counted problems whose reference failed as failed (`crucible eval --include-reference-failures`). */
function countsReferenceFailures(run: Pick<RunRow, 'summary'>): boolean {
  const summary = run.summary as { referenceFailures?: { countedAsFailed?: unknown } } | undefined;
  return summary?.referenceFailures?.countedAsFailed === true;
}

/**
 * pass@k curves from per-problem counts (problems with no sample yet are left out, and so are problems whose
 * reference failed under the limits unless `includeReferenceFailures`, as `crucible eval` counts them:
 * `metrics/counts.ts`).
 * @throws RangeError from the metrics when the bootstrap options are out of range.
 */
export function computeAnalysis(counts: readonly ProblemCountsRow[], done: number, options: BootstrapOptions = {},
  includeReferenceFailures = false): RunAnalysis | undefined {
  const judged = counts.filter((p) => p.n > 0 && (includeReferenceFailures || (p.statuses.reference_failed ?? 0) === 0));
  if (judged.length === 0) return undefined;
  const base = passAtKWithIntervals(judged.map((p) => ({ taskId: p.taskId, n: p.n, c: p.c })), options);
  const hasPlus = judged.some((p) => p.hasPlus);
  const plus = hasPlus ? passAtKWithIntervals(judged.map((p) => ({ taskId: p.taskId, n: p.n, c: p.plusC })), options) : undefined;
  return { base, ...(plus === undefined ? {} : { plus }), done, computedMs: Date.now() };
}

/**
 * The run's analysis: the cached one when it was computed at the run's current done count (or, while the run
 * is going, less than `LIVE_RECOMPUTE_MS` ago), else computed from `counts` and cached.
 */
export async function analyseRun(store: ResultStore, run: RunRow, counts: readonly ProblemCountsRow[]): Promise<RunAnalysis | undefined> {
  const cached = await store.cachedAnalysis(run.id);
  const previous = cached?.analysis as RunAnalysis | undefined;
  if (previous !== undefined && cached!.done === run.doneSamples) return previous;
  if (previous !== undefined && run.status === 'running' && Date.now() - previous.computedMs < LIVE_RECOMPUTE_MS) return previous;
  const analysis = computeAnalysis(counts, run.doneSamples, runBootstrapOptions(run), countsReferenceFailures(run));
  if (analysis !== undefined) await store.saveAnalysis(run.id, run.doneSamples, analysis);
  return analysis;
}

/**
 * The pass@k analysis of a stored run (what `crucible report` computes from a run directory, here from the
 * store's per-problem counts): the whole pass@k curve with percentile-bootstrap intervals for the base tests
 * and, for EvalPlus runs, base + plus (`metrics/summary.ts`, the one computation `crucible eval` and `crucible
 * report` use too). Bootstrap settings are the run's own (`summary.bootstrap` as `crucible eval` wrote it at the
 * end, `provenance.bootstrap` while it runs), else the defaults, so the dashboard shows the intervals the eval
 * printed. Cached in the store per done-sample count, bootstrap settings and `ANALYSIS_METHOD`; while a run is
 * going it is recomputed at most every `LIVE_RECOMPUTE_MS`.
 */
import { resolveBootstrapOptions, type BootstrapOptions } from '../metrics/bootstrap.js';
import { HEADLINE_KS, passAtKWithIntervals, recordedBootstrapOptions, type PassAtKSummary } from '../metrics/summary.js';
import type { HeadlinePoint, ProblemCountsRow, ResultStore, RunHeadline, RunRow } from './result-store.js';

/** Least time between two recomputations of a running run's analysis, ms. */
export const LIVE_RECOMPUTE_MS = 3000;

/**
 * Version of the computation behind a cached analysis: an analysis cached by an older one is recomputed (2:
 * problems resampled in task-id order; analyses cached before drew them in the store's order; 3: problems whose
 * reference failed left out unless the eval counted them).
 */
export const ANALYSIS_METHOD = 3;

/** pass@k curves of a run. */
export interface RunAnalysis {
  readonly base: PassAtKSummary;
  readonly plus?: PassAtKSummary;
  /** Samples judged when it was computed. */
  readonly done: number;
  /** Epoch ms of the computation. */
  readonly computedMs: number;
  /** `ANALYSIS_METHOD` of the computation (absent in analyses cached before there was one). */
  readonly method?: number;
}

/**
 * The bootstrap settings a run records (reps, seed, confidence): its summary's (`crucible eval` and import write
 * it at the end), else its provenance's (eval records them when the run starts), else none (the defaults).
 */
export function runBootstrapOptions(run: Pick<RunRow, 'summary' | 'provenance'>): BootstrapOptions {
  const fromSummary = recordedBootstrapOptions(run.summary);
  return Object.keys(fromSummary).length > 0 ? fromSummary : recordedBootstrapOptions(run.provenance);
}

/** Whether a cached analysis was computed by this code with `options`. */
function computedWith(analysis: RunAnalysis, options: BootstrapOptions): boolean {
  const wanted = resolveBootstrapOptions(options);
  const used = analysis.base.bootstrap;
  return analysis.method === ANALYSIS_METHOD && used.reps === wanted.reps && used.seed === wanted.seed && used.confidence === wanted.confidence;
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
  return { base, ...(plus === undefined ? {} : { plus }), done, computedMs: Date.now(), method: ANALYSIS_METHOD };
}

/** The headline figures of an analysis (`RunHeadline`): pass@k at the headline k values, and its coverage. */
export function headlineOf(analysis: RunAnalysis, problemsTotal: number): RunHeadline {
  const points = (summary: PassAtKSummary): HeadlinePoint[] => summary.points.filter((p) => HEADLINE_KS.includes(p.k))
    .map((p) => ({ k: p.k, passAtK: p.passAtK, lower: p.lower, upper: p.upper }));
  return {
    problemsJudged: analysis.base.numProblems, problemsTotal: Math.max(problemsTotal, analysis.base.numProblems), done: analysis.done,
    confidence: analysis.base.bootstrap.confidence, base: points(analysis.base), ...(analysis.plus === undefined ? {} : { plus: points(analysis.plus) }),
  };
}

/**
 * The run's analysis: the cached one when it was computed by this code with the run's bootstrap settings at the
 * run's current done count (or, while the run is going, less than `LIVE_RECOMPUTE_MS` ago), else computed from
 * `counts` and cached.
 */
export async function analyseRun(store: ResultStore, run: RunRow, counts: readonly ProblemCountsRow[]): Promise<RunAnalysis | undefined> {
  const options = runBootstrapOptions(run);
  const cached = await store.cachedAnalysis(run.id);
  const previous = cached?.analysis as RunAnalysis | undefined;
  if (previous !== undefined && computedWith(previous, options)) {
    const current = cached!.done === run.doneSamples || (run.status === 'running' && Date.now() - previous.computedMs < LIVE_RECOMPUTE_MS);
    if (current) {
      // Analyses cached before the runs list showed headlines get theirs once.
      if (run.headline === null) await store.saveAnalysis(run.id, cached!.done, previous, headlineOf(previous, (await store.taskIds(run.id)).length));
      return previous;
    }
  }
  const analysis = computeAnalysis(counts, run.doneSamples, options, countsReferenceFailures(run));
  if (analysis !== undefined) await store.saveAnalysis(run.id, run.doneSamples, analysis, headlineOf(analysis, (await store.taskIds(run.id)).length));
  return analysis;
}

/**
 * Contamination signals of an evaluation (issue #28, item 6): the problems' release dates (for pass@k by release
 * window, `src/metrics/windows.ts`) and the samples that copy a problem's reference solution verbatim
 * (`src/metrics/ngram.ts`: n-gram overlap, n = 10 tokens, flagged at ≥ 0.8). What `crucible eval` writes into its
 * summary (`releaseDates`, `copies`) and the report shows.
 */
import type { Problem, Sample } from '../formats/types.js';
import { codeTokens, COPY_MIN_NGRAMS, COPY_NGRAM, COPY_THRESHOLD, copyCheck, ngrams } from '../metrics/ngram.js';

/** Samples named in a copy report at most (the count covers all). */
export const COPIES_NAMED = 100;

/** The release date of every problem that has one, by task id; undefined when none has. */
export function releaseDatesOf(problems: readonly Problem[]): Record<string, string> | undefined {
  const dates = problems.flatMap((p) => ('releaseDate' in p && typeof p.releaseDate === 'string' ? [[p.taskId, p.releaseDate] as const] : []));
  return dates.length === 0 ? undefined : Object.fromEntries(dates);
}

/** A problem's reference solution as text: HumanEval's `canonical_solution` (after its prompt), a contest's reference. */
export function referenceCodeOf(problem: Problem): string | undefined {
  const p = problem as { canonicalSolution?: unknown; referenceSolution?: { code?: unknown }; prompt?: unknown };
  if (typeof p.canonicalSolution === 'string' && p.canonicalSolution.trim() !== '') return p.canonicalSolution;
  if (typeof p.referenceSolution?.code === 'string') return p.referenceSolution.code;
  return undefined;
}

/** The text of a sample that is compared: its solution, completion, code, or raw response. */
function sampleText(sample: Sample): string {
  const s = sample as { solution?: string; completion?: string; code?: string; response?: string };
  return s.solution ?? s.completion ?? s.code ?? s.response ?? '';
}

/** Verbatim copies of reference solutions among a run's samples. */
export interface CopyReport {
  readonly n: number;
  readonly threshold: number;
  readonly minNgrams: number;
  /** Problems with a reference solution. */
  readonly problemsWithReference: number;
  /** Samples of those problems long enough to judge (≥ minNgrams distinct n-grams). */
  readonly checked: number;
  readonly flagged: number;
  /** Flagged samples, highest overlap first (at most `COPIES_NAMED`). */
  readonly copies: readonly { readonly taskId: string; readonly sampleIndex: number; readonly overlap: number }[];
}

/** Check every sample against its problem's reference solution; undefined when no problem has one. */
export function copyReport(problems: readonly Problem[], samples: readonly Sample[]): CopyReport | undefined {
  const references = new Map<string, Set<string>>();
  for (const p of problems) {
    const code = referenceCodeOf(p);
    if (code !== undefined) references.set(p.taskId, ngrams(codeTokens(code), COPY_NGRAM));
  }
  if (references.size === 0) return undefined;
  let checked = 0;
  const copies: { taskId: string; sampleIndex: number; overlap: number }[] = [];
  for (const s of samples) {
    const ref = references.get(s.taskId);
    if (ref === undefined) continue;
    const check = copyCheck(sampleText(s), ref);
    if (check.ngrams >= COPY_MIN_NGRAMS) checked++;
    if (check.copy) copies.push({ taskId: s.taskId, sampleIndex: s.index, overlap: check.overlap });
  }
  copies.sort((a, b) => b.overlap - a.overlap || (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : a.sampleIndex - b.sampleIndex));
  return { n: COPY_NGRAM, threshold: COPY_THRESHOLD, minNgrams: COPY_MIN_NGRAMS, problemsWithReference: references.size, checked,
    flagged: copies.length, copies: copies.slice(0, COPIES_NAMED) };
}

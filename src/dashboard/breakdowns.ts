/**
 * A run's pass@k broken down by the labels its problems carry (LiveCodeBench: difficulty, platform, release
 * window), as the LiveCodeBench leaderboard shows a model: pass@1 per difficulty and over the problems released in
 * a window. Each group gets its own percentile-bootstrap interval over its problems (`metrics/summary.ts`, the
 * run's bootstrap settings); a group of one problem has a degenerate interval and is marked as such by its count.
 */
import type { BootstrapOptions } from '../metrics/bootstrap.js';
import { passAtKWithIntervals } from '../metrics/summary.js';
import type { ProblemCountsRow } from '../store/result-store.js';

/** One group of a breakdown: fractions. */
export interface BreakdownRow {
  readonly group: string;
  readonly problems: number;
  readonly samples: number;
  readonly passAtK: number;
  readonly lower: number;
  readonly upper: number;
}

/** A breakdown of a run by one label. */
export interface Breakdown {
  readonly label: 'difficulty' | 'platform' | 'release month';
  readonly k: number;
  readonly rows: readonly BreakdownRow[];
}

const DIFFICULTY_ORDER = ['easy', 'medium', 'hard'];

function groupRows(problems: readonly ProblemCountsRow[], key: (p: ProblemCountsRow) => string | undefined, k: number,
  options: BootstrapOptions, order: (a: string, b: string) => number): BreakdownRow[] {
  const groups = new Map<string, ProblemCountsRow[]>();
  for (const p of problems) {
    const g = key(p);
    if (g === undefined || p.n < k) continue;
    groups.set(g, [...(groups.get(g) ?? []), p]);
  }
  return [...groups].sort(([a], [b]) => order(a, b)).map(([group, rows]) => {
    const point = passAtKWithIntervals(rows.map((p) => ({ taskId: p.taskId, n: p.n, c: p.c })), { ...options, ks: [k] }).points[0]!;
    return { group, problems: rows.length, samples: rows.reduce((s, p) => s + p.n, 0), passAtK: point.passAtK, lower: point.lower, upper: point.upper };
  });
}

/**
 * The breakdowns a run's labels allow (none for a run without labels): by difficulty (easy, medium, hard order), by
 * platform, by release month (YYYY-MM of the release date), each at `k` (default 1).
 */
export function breakdownsOf(problems: readonly ProblemCountsRow[], options: BootstrapOptions = {}, k = 1): Breakdown[] {
  const out: Breakdown[] = [];
  const byDifficulty = groupRows(problems, (p) => p.labels.difficulty, k, options, (a, b) => {
    const ia = DIFFICULTY_ORDER.indexOf(a);
    const ib = DIFFICULTY_ORDER.indexOf(b);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.localeCompare(b);
  });
  if (byDifficulty.length > 0) out.push({ label: 'difficulty', k, rows: byDifficulty });
  const byPlatform = groupRows(problems, (p) => p.labels.platform, k, options, (a, b) => a.localeCompare(b));
  if (byPlatform.length > 0) out.push({ label: 'platform', k, rows: byPlatform });
  const byMonth = groupRows(problems, (p) => p.labels.releaseDate?.slice(0, 7), k, options, (a, b) => a.localeCompare(b));
  if (byMonth.length > 0) out.push({ label: 'release month', k, rows: byMonth });
  return out;
}

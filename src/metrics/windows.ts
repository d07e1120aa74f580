/**
 * pass@k by release window (issue #28, item 6): LiveCodeBench fights contamination by scoring only problems released
 * after a model's training cut-off (Jain et al. 2024, "LiveCodeBench: Holistic and Contamination Free Evaluation of
 * Large Language Models for Code", arXiv 2403.07974); a drop of pass@k in later windows is the sign. Pure.
 *
 * Windows (`WindowBy`):
 * - `month`: the calendar month (UTC) of the problem's release date, `YYYY-MM`;
 * - `release`: the LiveCodeBench release that added the problem, by date: `v1` up to 2024-03-31, `v2` to
 *   2024-05-31, `v3` to 2024-07-31, `v4` to 2024-09-30, `v5` to 2025-01-31, `v6` to 2025-04-30 (the ranges the
 *   LiveCodeBench README gives for `release_v1` … `release_v6`: "problems released between May 2023 and Mar 2024",
 *   … "and Apr 2025"; its fine-grained versions `v1`, `v2`, … are those increments), `after-v6` later.
 * Problems without a date form the window `undated`. Each window's pass@k is `passAtKWithIntervals` over its
 * problems (bootstrap over them, the same settings as the run's), at the requested k that every problem of the
 * window supports.
 */
import type { ProblemCounts } from './pass-at-k.js';
import { maxReportableK } from './pass-at-k.js';
import { passAtKWithIntervals, type PassAtKEstimate } from './summary.js';
import type { BootstrapOptions } from './bootstrap.js';
import { countsFromRecords, type CountOptions, type PassField, type SampleOutcome } from './counts.js';

/** How problems are split into windows. */
export type WindowBy = 'month' | 'release';

/** LiveCodeBench's releases: the last release date (inclusive, UTC) of each release's increment. */
export const LIVECODEBENCH_RELEASES: readonly { readonly name: string; readonly until: string }[] = [
  { name: 'v1', until: '2024-03-31' },
  { name: 'v2', until: '2024-05-31' },
  { name: 'v3', until: '2024-07-31' },
  { name: 'v4', until: '2024-09-30' },
  { name: 'v5', until: '2025-01-31' },
  { name: 'v6', until: '2025-04-30' },
];

/** The window of problems without a release date. */
export const UNDATED = 'undated';

/** `YYYY-MM-DD` of a release date (ISO 8601 with or without time; a zone-less time is UTC). @throws RangeError. */
export function releaseDay(date: string): string {
  const withTime = date.includes('T') ? date : `${date}T00:00:00`;
  const t = Date.parse(/(?:[zZ]|[+-]\d\d:\d\d)$/.test(withTime) ? withTime : `${withTime}Z`);
  if (Number.isNaN(t)) throw new RangeError(`not an ISO 8601 date: "${date}"`);
  return new Date(t).toISOString().slice(0, 10);
}

/** The window of a release date (undefined: `undated`). @throws RangeError for a malformed date. */
export function windowOf(date: string | undefined, by: WindowBy): string {
  if (date === undefined) return UNDATED;
  const day = releaseDay(date);
  if (by === 'month') return day.slice(0, 7);
  return LIVECODEBENCH_RELEASES.find((r) => day <= r.until)?.name ?? `after-${LIVECODEBENCH_RELEASES[LIVECODEBENCH_RELEASES.length - 1]!.name}`;
}

/** pass@k of one window. */
export interface WindowPassAtK {
  readonly window: string;
  /** Earliest and latest release day of its problems (null for `undated`). */
  readonly first: string | null;
  readonly last: string | null;
  readonly problems: number;
  readonly samples: number;
  readonly correct: number;
  readonly passAtK: readonly PassAtKEstimate[];
}

/**
 * pass@k per window, windows in order (dated ones by key, `undated` last). `dates` maps task id to release date.
 * @throws RangeError for a malformed date or bootstrap options out of range.
 */
export function passAtKByWindow(counts: readonly ProblemCounts[], dates: ReadonlyMap<string, string>, by: WindowBy,
  options: BootstrapOptions & { readonly ks: readonly number[] }): WindowPassAtK[] {
  const groups = new Map<string, ProblemCounts[]>();
  for (const c of counts) {
    const key = windowOf(dates.get(c.taskId), by);
    const list = groups.get(key);
    if (list === undefined) groups.set(key, [c]);
    else list.push(c);
  }
  const order = (key: string): string => (key === UNDATED ? '\uffff' : key.startsWith('after-') ? 'v\uffff' : key);
  return [...groups.keys()].sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0)).map((window) => {
    const problems = groups.get(window)!;
    const maxK = maxReportableK(problems);
    const ks = options.ks.filter((k) => k <= maxK);
    const summary = passAtKWithIntervals(problems, { ...options, ks });
    const days = problems.map((p) => dates.get(p.taskId)).filter((d): d is string => d !== undefined).map(releaseDay).sort();
    return { window, first: days[0] ?? null, last: days[days.length - 1] ?? null, problems: problems.length,
      samples: summary.numSamples, correct: summary.numCorrect, passAtK: summary.points };
  });
}

/** pass@k by window of a run (base, and base + plus when the records have it). */
export interface WindowSplit {
  readonly by: WindowBy;
  readonly windows: readonly WindowPassAtK[];
  readonly plusWindows?: readonly WindowPassAtK[];
}

/**
 * The window split of a run's records (counted as `countsFromRecords` counts them: the latest record per sample,
 * reference failures per `options`).
 * @throws RangeError as `passAtKByWindow`.
 */
export function windowsFromRecords(records: readonly SampleOutcome[], dates: ReadonlyMap<string, string>, by: WindowBy,
  options: BootstrapOptions & CountOptions & { readonly ks: readonly number[] }): WindowSplit {
  const split = (field: PassField): WindowPassAtK[] => passAtKByWindow(countsFromRecords(records, field, options), dates, by, options);
  const plus = records.some((r) => r.plusPassed !== undefined);
  return { by, windows: split('passed'), ...(plus ? { plusWindows: split('plusPassed') } : {}) };
}

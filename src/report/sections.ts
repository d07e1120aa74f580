/**
 * The report's tables beyond pass@k (issue #28): pass@k by release window, verbatim copies of reference solutions,
 * and efficiency, built from what `crucible eval` wrote into the run's summary (`releaseDates`, `windows`,
 * `copies`, `efficiency`). Each is a plain table the markdown and HTML renderers print alike.
 */
import type { BootstrapOptions } from '../metrics/bootstrap.js';
import type { SampleOutcome } from '../metrics/counts.js';
import { windowsFromRecords, type WindowBy, type WindowPassAtK } from '../metrics/windows.js';
import { percent } from './format.js';

/** One table of the report. Cells are plain text. */
export interface ReportSection {
  readonly id: string;
  readonly title: string;
  readonly note?: string;
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** A report option that the run cannot honour (e.g. `--window-by` on a run without release dates). */
export class ReportOptionError extends Error {
  override readonly name = 'ReportOptionError';
}

interface SummaryParts {
  readonly releaseDates?: Record<string, string>;
  readonly windows?: { readonly by?: WindowBy };
  readonly copies?: { n: number; threshold: number; checked: number; flagged: number; copies: { taskId: string; sampleIndex: number; overlap: number }[] };
  readonly efficiency?: { readonly sections?: readonly ReportSection[] };
}

function partsOf(summary: unknown): SummaryParts {
  return typeof summary === 'object' && summary !== null ? summary as SummaryParts : {};
}

function windowTable(id: string, title: string, windows: readonly WindowPassAtK[], by: WindowBy): ReportSection {
  const ks = [...new Set(windows.flatMap((w) => w.passAtK.map((p) => p.k)))].sort((a, b) => a - b);
  return {
    id, title,
    note: by === 'month' ? 'Problems grouped by the calendar month of their release date.'
      : 'Problems grouped by the LiveCodeBench release that added them (v1 to 2024-03, v2 to 2024-05, v3 to 2024-07, v4 to 2024-09, v5 to 2025-01, v6 to 2025-04). A drop in later windows suggests contamination of the earlier ones.',
    header: ['window', 'release dates', 'problems', 'samples', ...ks.map((k) => `pass@${k} (%)`)],
    rows: windows.map((w) => [w.window, w.first === null ? '–' : `${w.first} .. ${w.last}`, String(w.problems), String(w.samples),
      ...ks.map((k) => {
        const p = w.passAtK.find((x) => x.k === k);
        return p === undefined ? '–' : `${percent(p.passAtK)} [${percent(p.lower)}, ${percent(p.upper)}]`;
      })]),
  };
}

/**
 * The extra tables of a run: windows (by `windowBy`, else as the eval split them), copies, efficiency.
 * @throws ReportOptionError when `windowBy` is asked of a run whose summary has no release dates.
 */
export function extraSections(records: readonly SampleOutcome[], summary: unknown,
  options: BootstrapOptions & { readonly ks: readonly number[]; readonly includeReferenceFailures: boolean; readonly windowBy?: WindowBy }): ReportSection[] {
  const parts = partsOf(summary);
  const sections: ReportSection[] = [];
  const by = options.windowBy ?? parts.windows?.by;
  if (by !== undefined) {
    if (parts.releaseDates === undefined) {
      throw new ReportOptionError('--window-by: this run\'s summary has no release dates (its problems carry none, or it was judged before Crucible recorded them)');
    }
    const split = windowsFromRecords(records, new Map(Object.entries(parts.releaseDates)), by, options);
    sections.push(windowTable('windows', 'pass@k by release window', split.windows, by));
    if (split.plusWindows !== undefined) sections.push(windowTable('plus-windows', 'pass@k (base + plus) by release window', split.plusWindows, by));
  }
  const copies = parts.copies;
  if (copies !== undefined) {
    sections.push({
      id: 'copies', title: 'Verbatim copies of the reference solution',
      note: `${copies.flagged} of ${copies.checked} samples checked have ≥ ${percent(copies.threshold)}% of their ${copies.n}-token n-grams in their problem's reference solution (docs/METRICS.md, "Contamination").`,
      header: ['task', 'sample', 'overlap (%)'],
      rows: copies.copies.map((c) => [c.taskId, String(c.sampleIndex), percent(c.overlap)]),
    });
  }
  for (const s of parts.efficiency?.sections ?? []) sections.push(s);
  return sections;
}

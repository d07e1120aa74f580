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
  readonly efficiency?: EfficiencyParts;
}

/** What the report reads of the summary's `efficiency` (`src/apps/efficiency.ts` `EfficiencyReport`). */
interface EfficiencyParts {
  readonly sections?: readonly ReportSection[];
  readonly settings?: { readonly repeats: number; readonly confidence: number };
  readonly aggregate?: { readonly measuredSamples: number; readonly failedMeasurements: number; readonly dps: number | null; readonly dpsNorm: number | null;
    readonly beyond: number | null; readonly net: number | null; readonly nmu: number | null; readonly ntmu?: number | null; readonly ntmuNote: string; readonly indistinguishableShare: number | null };
  readonly problems?: readonly { readonly taskId: string; readonly reference: { readonly instructions: number | null; readonly countUnit?: string | null; readonly wallMedianMs: number } | null;
    readonly samples: readonly { readonly sampleIndex: number; readonly dps: number | null; readonly beyond: number | null; readonly net: number | null; readonly ntmu?: number | null;
      readonly indistinguishable: boolean | null; readonly measurement: { readonly language: string; readonly instructions: number | null; readonly countUnit?: string | null;
        readonly wallMedianMs: number; readonly wallLowerMs: number; readonly wallUpperMs: number; readonly peakMemoryKiB: number; readonly error?: string } }[] }[];
}

const num = (v: number | null | undefined, digits = 2): string => v === null || v === undefined ? '–' : v.toFixed(digits);

/** A count with its unit when it is not callgrind's instructions (a Java program's bytecodes), or '–'. */
const countText = (m: { readonly instructions: number | null; readonly countUnit?: string | null } | null): string =>
  m === null || m.instructions === null ? '–' : m.countUnit === 'bytecodes' ? `${m.instructions} bytecodes` : String(m.instructions);

/** The efficiency tables of `crucible eval --efficiency` (docs/METRICS.md, "Efficiency measured"). */
function efficiencySections(e: EfficiencyParts): ReportSection[] {
  if (e.aggregate === undefined || e.problems === undefined) return [...e.sections ?? []];
  const a = e.aggregate;
  const overall: ReportSection = {
    id: 'efficiency', title: 'Efficiency of passing samples',
    note: `${a.measuredSamples} passing samples measured against their problem's reference (${a.failedMeasurements} could not be); wall time is the median of ${e.settings?.repeats ?? '?'} runs; NTMU's ${a.ntmuNote}. Formulas and sources: docs/METRICS.md, "Efficiency measured".`,
    header: ['DPS', 'DPS_norm', 'Beyond (%)', 'NET', 'NMU', 'NTMU', 'indistinguishable from the reference (%)'],
    rows: [[num(a.dps), num(a.dpsNorm), num(a.beyond), num(a.net, 3), num(a.nmu, 3), num(a.ntmu, 3), a.indistinguishableShare === null ? '–' : percent(a.indistinguishableShare)]],
  };
  const perSample: ReportSection = {
    id: 'efficiency-samples', title: 'Efficiency per measured sample',
    header: ['task', 'sample', 'language', 'instructions (or bytecodes)', 'reference instructions', 'wall ms [CI]', 'reference wall ms', 'peak KiB', 'DPS', 'Beyond', 'NET', 'NTMU', 'indistinguishable'],
    rows: e.problems.flatMap((p) => p.samples.map((s) => {
      const m = s.measurement;
      return [p.taskId, String(s.sampleIndex), m.language, m.error ?? countText(m), countText(p.reference),
        m.error === undefined ? `${num(m.wallMedianMs, 1)} [${num(m.wallLowerMs, 1)}, ${num(m.wallUpperMs, 1)}]` : '–',
        p.reference === null ? '–' : num(p.reference.wallMedianMs, 1), String(Math.round(m.peakMemoryKiB)), num(s.dps), num(s.beyond),
        num(s.net, 3), num(s.ntmu, 3), s.indistinguishable === null ? '–' : s.indistinguishable ? 'yes' : 'no'];
    })),
  };
  return [overall, perSample];
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
  if (parts.efficiency !== undefined) sections.push(...efficiencySections(parts.efficiency));
  return sections;
}

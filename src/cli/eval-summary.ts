/**
 * `crucible eval`'s summary: the object written to `summary.json` (and kept by the store run), and the text printed
 * for a human. The summary is stamped with what the numbers mean: which problems pass@k is over (`scope`: the
 * harness's split, a deliberate `--limit`/`--tasks` subset), which problems were left out because their reference
 * failed, the detected problem and sample formats, limits, toolchain versions and package sets.
 */
import { analysisSummary, type AnalysisSummary } from '../apps/analyse.js';
import type { EvaluationResult } from '../apps/evaluate.js';
import type { ToolchainPackages } from '../apps/provenance.js';
import { scopeLine, type RunScope } from '../apps/selection.js';
import type { BigcodeAlignment, SampleFormat } from '../formats/index.js';
import type { Problem } from '../formats/types.js';
import type { ModeSummary } from '../judge/mode.js';
import type { ModeRegistry } from '../judge/registry.js';
import { INTERNAL_ERROR_RETRIES } from '../engine/local-judge.js';
import type { CalibratedTimeLimit, JudgeLimits } from '../limits.js';
import { SAMPLE_STATUSES } from '../verdict/index.js';
import { passAtK } from '../metrics/pass-at-k.js';
import type { SampleRecord } from '../store/records.js';
import { codeVersion } from '../version.js';
import { CRUCIBLE_VERSION } from './version.js';
import type { CopyReport } from '../apps/contamination.js';
import type { WindowPassAtK, WindowSplit } from '../metrics/windows.js';

/** At most this many problems whose reference failed are listed in a summary. */
const REFERENCE_FAILURES_NAMED = 20;

/**
 * What each kind's mode says about how the run's problems of its kind are judged (`JudgingMode.summarise`, e.g. the
 * script kind's `scriptJudging`: split, replayed, one program), in the registry's order.
 */
export function modeSummaries(problems: readonly Problem[], modes: ModeRegistry): ModeSummary[] {
  const summaries: ModeSummary[] = [];
  for (const mode of modes.modes) {
    const summary = mode.summarise?.(problems.filter((p) => p.kind === mode.kind));
    if (summary !== undefined) summaries.push(summary);
  }
  return summaries;
}

/** Everything the summary is made of. */
export interface SummaryInput {
  readonly problemsPath: string;
  readonly samplesPath: string;
  /** The problem format read (detected when `--format auto`), and the one asked for. */
  readonly format: string;
  readonly formatGiven: string;
  readonly sampleFormat: SampleFormat;
  readonly bigcode?: Omit<BigcodeAlignment, 'samples'>;
  readonly problemsHash: string;
  readonly samplesHash: string;
  readonly releaseWindow?: { readonly since: string | null; readonly until: string | null };
  readonly scope: RunScope;
  readonly problems: readonly Problem[];
  readonly sampleCount: number;
  readonly out: string;
  readonly limits: JudgeLimits;
  /** The time-limit rule of unit-test problems with a canonical solution (null: fixed; `--time-limit-rule`). */
  readonly timeLimitRule: CalibratedTimeLimit | null;
  readonly toolchains: Record<string, string | null>;
  readonly toolchainPackages: Record<string, ToolchainPackages>;
  readonly includeReferenceFailures: boolean;
  readonly result: EvaluationResult;
  readonly groundTruth: { readonly runs: number; readonly cacheHits: number; readonly cacheDir: string };
  readonly internalErrorRetries: number;
  /** The modes' summaries (`modeSummaries`): each `value` is kept under its `field`. */
  readonly modeSummaries: readonly ModeSummary[];
  /** With `--endpoint`: what the generation did (requests, failures, finish reasons; `eval-endpoint.ts`). */
  readonly generation?: Record<string, unknown>;
  /**
   * Analyses beyond pass@k (issue #28): the problems' release dates, pass@k by release window (`--window-by`), the
   * samples that copy a reference solution, efficiency measurements (`--efficiency`).
   */
  readonly extras?: SummaryExtras;
}

/** The summary's analyses beyond pass@k, each present when it applies. */
export interface SummaryExtras {
  readonly releaseDates?: Record<string, string>;
  readonly windows?: WindowSplit;
  readonly copies?: CopyReport;
  readonly efficiency?: unknown;
}

/** The summary's `analysis` field (`crucible eval --analysis`) when some record carries an analysis. */
function analysisField(records: EvaluationResult['records']): { analysis?: AnalysisSummary } {
  const summary = analysisSummary(records);
  return summary === null ? {} : { analysis: summary };
}

/** The summary object (`summary.json`). */
export function buildSummary(input: SummaryInput) {
  const { result } = input;
  const ci = (summary: EvaluationResult['passAtKSummary']) => Object.fromEntries(Object.keys(result.passAtK).map((k) => {
    const point = summary.points.find((p) => p.k === Number(k))!;
    return [k, [point.lower, point.upper] as const];
  }));
  return {
    crucibleVersion: CRUCIBLE_VERSION,
    code: codeVersion(),
    problemsFile: input.problemsPath,
    samplesFile: input.samplesPath,
    format: input.format,
    ...(input.formatGiven === input.format ? {} : { formatGiven: input.formatGiven }),
    sampleFormat: input.sampleFormat,
    ...(input.bigcode === undefined ? {} : { bigcode: { split: input.bigcode.split.name, matchedBy: input.bigcode.matchedBy,
      ...(input.bigcode.start === undefined ? {} : { start: input.bigcode.start }) } }),
    datasetHash: input.problemsHash,
    samplesHash: input.samplesHash,
    ...(input.releaseWindow === undefined ? {} : { releaseWindow: input.releaseWindow }),
    scope: input.scope,
    problems: input.problems.length,
    problemsCounted: result.problemsCounted,
    samples: input.sampleCount,
    distinctPrograms: result.distinctPrograms,
    judged: result.judged,
    resumed: result.resumed,
    wallMs: result.wallMs,
    samplesPerSecond: result.judged > 0 ? result.judged / Math.max(result.wallMs / 1000, 1e-3) : 0,
    limits: { cpuMsPerProgramOrTest: input.limits.cpuMs, memoryKiB: input.limits.memoryKiB,
      outputBytes: input.limits.outputBytes, timeMeasure: 'CPU time (user+system) of the whole process tree',
      timeLimitRule: input.timeLimitRule === null ? 'fixed' : { factor: input.timeLimitRule.factor, floorMs: input.timeLimitRule.floorMs } },
    groundTruth: input.groundTruth,
    internalErrorRetries: input.internalErrorRetries,
    toolchains: input.toolchains,
    toolchainPackages: input.toolchainPackages,
    ...Object.fromEntries(input.modeSummaries.map((m) => [m.field, m.value])),
    ...analysisField(result.records),
    referenceFailures: { problems: result.referenceFailures.length, countedAsFailed: input.includeReferenceFailures,
      tasks: result.referenceFailures.slice(0, REFERENCE_FAILURES_NAMED) },
    countsByStatus: result.countsByStatus,
    passAtK: result.passAtK,
    passAtKCI: ci(result.passAtKSummary),
    ...(result.plusPassAtK && result.plusPassAtKSummary
      ? { plusPassAtK: result.plusPassAtK, plusPassAtKCI: ci(result.plusPassAtKSummary) } : {}),
    passAtKCurve: result.passAtKSummary.points,
    perProblem: perProblemResults(result),
    bootstrap: result.passAtKSummary.bootstrap,
    unsupportedKs: result.unsupportedKs,
    ...(input.generation === undefined ? {} : { generation: input.generation }),
    ...(input.extras?.releaseDates === undefined ? {} : { releaseDates: input.extras.releaseDates }),
    ...(input.extras?.windows === undefined ? {} : { windows: input.extras.windows }),
    ...(input.extras?.copies === undefined ? {} : { copies: input.extras.copies }),
    ...(input.extras?.efficiency === undefined ? {} : { efficiency: input.extras.efficiency }),
    out: input.out,
  };
}

/** One problem's line of `summary.json`'s `perProblem`. */
export interface ProblemResult {
  readonly taskId: string;
  /** Samples of the problem (n) and how many passed (c; base + plus passed in `plusC` when the run has plus tests). */
  readonly n: number;
  readonly c: number;
  readonly plusC?: number;
  /** Unbiased pass@k of this problem alone (Chen et al. 2021, eq. 1) at each reported k, keyed by k. */
  readonly passAtK: Record<string, number>;
  /** Samples by verdict status (`reference_failed` when the problem's reference failed and it is out of pass@k). */
  readonly statuses: Record<string, number>;
}

/**
 * Per-problem results, in natural task order (`HumanEval/2` before `HumanEval/10`): samples (n), passed (c), base +
 * plus passed when the run has plus tests, pass@k at the reported k, and the verdict counts.
 */
export function perProblemResults(result: Pick<EvaluationResult, 'passAtK' | 'records'>): ProblemResult[] {
  const ks = Object.keys(result.passAtK).map(Number);
  const byTask = new Map<string, SampleRecord[]>();
  for (const r of result.records) {
    const list = byTask.get(r.taskId);
    if (list === undefined) byTask.set(r.taskId, [r]); else list.push(r);
  }
  return [...byTask].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true })).map(([taskId, records]) => {
    const n = records.length;
    const c = records.filter((r) => r.passed).length;
    const statuses: Record<string, number> = {};
    for (const r of records) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    const plus = records.some((r) => r.plusStatus !== undefined) ? { plusC: records.filter((r) => r.plusPassed === true).length } : {};
    return { taskId, n, c, ...plus, passAtK: Object.fromEntries(ks.map((k) => [String(k), passAtK(n, c, k)])), statuses };
  });
}

/** The summary object's type. */
export type EvalSummary = ReturnType<typeof buildSummary>;

function percent(x: number): string {
  return (100 * x).toFixed(2);
}

/** The lines that say what pass@k is over: scope, and the problems left out because their reference failed. */
function coverageLines(summary: EvalSummary, result: EvaluationResult): string[] {
  const lines: string[] = [];
  const scope = scopeLine(summary.scope);
  if (scope !== undefined) lines.push(scope);
  const failures = result.referenceFailures;
  if (failures.length > 0) {
    const first = failures[0]!;
    lines.push(`REFERENCE FAILED: ${failures.length} problem${failures.length === 1 ? '\'s' : 's\''} reference solution failed under the limits, `
      + (summary.referenceFailures.countedAsFailed ? 'counted as failed in pass@k (--include-reference-failures)'
        : `so pass@k is over ${summary.problemsCounted} of ${summary.problems} problems (--include-reference-failures counts them as failed)`)
      + `; ${first.taskId}: ${first.reason}${failures.length > 1 ? ` (and ${failures.slice(1, 6).map((f) => f.taskId).join(', ')}${failures.length > 6 ? ', ...' : ''})` : ''}`);
  }
  return lines;
}

/** pass@k per release window, as a table (base; plus when the run has it). */
export function windowLines(split: WindowSplit): string[] {
  const ks = [...new Set(split.windows.flatMap((w) => w.passAtK.map((p) => p.k)))].sort((a, b) => a - b);
  const table = (title: string, windows: readonly WindowPassAtK[]): string[] => [
    '', `${title} by release ${split.by === 'month' ? 'month' : 'window (LiveCodeBench releases)'}:`,
    `  ${'window'.padEnd(10)} ${'dates'.padEnd(23)} problems ${ks.map((k) => `pass@${k}`.padStart(24)).join('')}`,
    ...windows.map((w) => `  ${w.window.padEnd(10)} ${(w.first === null ? '–' : `${w.first}..${w.last}`).padEnd(23)} ${String(w.problems).padStart(8)} ${ks.map((k) => {
      const p = w.passAtK.find((x) => x.k === k);
      return (p === undefined ? '–' : `${percent(p.passAtK)} [${percent(p.lower)}, ${percent(p.upper)}]`).padStart(24);
    }).join('')}`),
  ];
  return [...table('pass@k', split.windows), ...(split.plusWindows === undefined ? [] : table('plus pass@k', split.plusWindows))];
}

/** One line on the samples that copy a reference solution verbatim. */
export function copyLine(copies: CopyReport): string {
  const named = copies.copies.slice(0, 5).map((c) => `${c.taskId}#${c.sampleIndex} (${percent(c.overlap)}%)`).join(', ');
  return `verbatim copies of the reference solution: ${copies.flagged} of ${copies.checked} samples checked `
    + `(≥ ${percent(copies.threshold)}% of their ${copies.n}-token n-grams in the reference; ${named}${copies.flagged > 5 ? ', ...' : ''})`;
}

/** The summary as printed for a human; `modeLines` are the modes' summaries' `text`. */
export function humanSummary(summary: EvalSummary, result: EvaluationResult, modeLines: readonly string[] = []): string {
  const lines: string[] = [];
  lines.push(`problems ${summary.problems}, samples ${summary.samples} (${summary.distinctPrograms} distinct programs), ` +
    `judged ${result.judged} now, ${result.resumed} resumed, ${(result.wallMs / 1000).toFixed(1)} s, ${summary.samplesPerSecond.toFixed(1)} samples/s`);
  lines.push(...coverageLines(summary, result));
  lines.push('');
  lines.push('  k   pass@k   95% CI');
  for (const [k, value] of Object.entries(summary.passAtK)) {
    const ci = summary.passAtKCI[k]!;
    lines.push(`${k.padStart(3)}   ${percent(value).padStart(6)}   [${percent(ci[0])}, ${percent(ci[1])}]`);
  }
  if (summary.plusPassAtK) {
    lines.push('plus (base and plus inputs pass):');
    for (const [k, value] of Object.entries(summary.plusPassAtK)) lines.push(`${k.padStart(3)}   ${percent(value).padStart(6)}`);
  }
  if (summary.unsupportedKs.length > 0) lines.push(`(k = ${summary.unsupportedKs.join(', ')} left out: some problem has fewer samples)`);
  if (summary.windows !== undefined) lines.push(...windowLines(summary.windows));
  if (summary.copies !== undefined && summary.copies.flagged > 0) lines.push(copyLine(summary.copies));
  lines.push('');
  lines.push('verdicts: ' + SAMPLE_STATUSES.filter((s) => summary.countsByStatus[s]).map((s) => `${s} ${summary.countsByStatus[s]}`).join(', '));
  lines.push(...modeLines);
  if (summary.analysis !== undefined) {
    const a = summary.analysis;
    lines.push(`static analysis: ${a.samples} samples, ${a.findingsPerSample.toFixed(2)} findings per sample, `
      + `${a.securityPerKloc.toFixed(2)} security findings per 1,000 lines${a.failedAnalyses > 0 ? ` (${a.failedAnalyses} analyser runs failed)` : ''}`);
  }
  if (summary.groundTruth.runs + summary.groundTruth.cacheHits > 0) {
    lines.push(`ground truth: ${summary.groundTruth.runs} runs, ${summary.groundTruth.cacheHits} from the cache (${summary.groundTruth.cacheDir})`);
  }
  if (summary.internalErrorRetries > 0) {
    lines.push(`${summary.internalErrorRetries} attempts failed inside Crucible and were retried (a failure left after ${INTERNAL_ERROR_RETRIES} retries is internal_error)`);
  }
  lines.push(`results: ${summary.out}`);
  return lines.join('\n') + '\n';
}

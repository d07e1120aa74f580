/**
 * Static analysis of one sample through any `Judge` (`runPlain`: the sandbox, locally or on a queue's fleet): each
 * analyser that reads the sample's language (`src/analysis/analyzers.ts`) runs as its tool's language with the
 * sample as its source file, and its report is parsed into normalised findings (`src/verdict/analysis.ts`). A tool
 * that did not run to the end (a limit, an exit status its manual calls a failure, a report its parser cannot read,
 * Crucible's failure) is a `failed` outcome, never "no findings". Limits per tool run: 30 s CPU, 1 GiB.
 */
import { AnalyzerOutputError } from '../analysis/parsers.js';
import { analyzersFor, type AnalyzerSpec } from '../analysis/analyzers.js';
import type { Judge } from '../judge/judge.js';
import type { LanguageRegistry } from '../languages/registry.js';
import type { SampleRecord } from '../store/records.js';
import { countLines, type AnalysisReport, type AnalyzerId, type AnalyzerOutcome } from '../verdict/analysis.js';

/** CPU ms and memory KiB of one analyser's run. */
export const ANALYSER_LIMITS = { cpuMs: 30_000, memoryKiB: 1024 * 1024 } as const;

async function runAnalyser(judge: Judge, languages: LanguageRegistry, spec: AnalyzerSpec, language: string, source: string): Promise<AnalyzerOutcome> {
  const tool = spec.reads[language]!;
  const failed = (reason: string): AnalyzerOutcome => ({ tool: spec.id, status: 'failed', reason: reason.slice(0, 300) });
  let outcome;
  try {
    outcome = await judge.runPlain({ program: { language: tool, source }, stdin: '', limits: ANALYSER_LIMITS });
  } catch (error) {
    return failed(`crucible failed: ${(error as Error).message}`);
  }
  const run = outcome.run;
  if (run === null) return failed(`${tool} did not start: ${outcome.compile?.reason ?? outcome.compile?.status ?? 'no run'}`);
  if (run.exitCode === null || !spec.ranTo(run.exitCode)) return failed(`${tool} ended ${run.status} (exit ${run.exitCode ?? 'none'}): ${run.stderr.slice(0, 200)}`);
  const report = spec.stream === 'stdout' ? run.stdout : spec.stream === 'stderr' ? run.stderr : `${run.stdout}${run.stderr}`;
  try {
    return { tool: spec.id, status: 'ok', findings: spec.parse(report, `/box/${languages.get(tool).sourceFile}`) };
  } catch (error) {
    if (error instanceof AnalyzerOutputError) return failed(`${tool}'s report: ${error.message}`);
    throw error;
  }
}

/**
 * Analyse `source`, a program in `language` (a language id), with every analyser that reads it, or those of
 * `only` (`languages` gives each tool's source file name); the report is empty (no outcomes) for a language no analyser reads.
 */
export async function analyseSample(judge: Judge, languages: LanguageRegistry, language: string, source: string,
  only?: readonly AnalyzerId[]): Promise<AnalysisReport> {
  const outcomes = await Promise.all(analyzersFor(language, only).map((spec) => runAnalyser(judge, languages, spec, language, source)));
  return { outcomes, lines: countLines(source) };
}

/**
 * What `crucible eval --analysis` reports over a run's records that carry an analysis: how many samples were
 * analysed, findings per sample (mean), security findings per 1,000 non-blank lines (over all those samples'
 * lines together), and how many analyser runs failed (their samples' findings are then incomplete, never clean).
 */
export interface AnalysisSummary {
  readonly samples: number;
  readonly findingsPerSample: number;
  readonly securityPerKloc: number;
  readonly failedAnalyses: number;
}

/** The `AnalysisSummary` of `records` (null when none carries an analysis). */
export function analysisSummary(records: readonly SampleRecord[]): AnalysisSummary | null {
  const analysed = records.flatMap((r) => (r.analysis === undefined ? [] : [r.analysis]));
  if (analysed.length === 0) return null;
  const sum = (f: (a: (typeof analysed)[number]) => number): number => analysed.reduce((s, a) => s + f(a), 0);
  const lines = sum((a) => a.lines);
  return { samples: analysed.length, findingsPerSample: sum((a) => a.findings) / analysed.length,
    securityPerKloc: lines === 0 ? 0 : (1000 * sum((a) => a.security)) / lines, failedAnalyses: sum((a) => a.failed.length) };
}

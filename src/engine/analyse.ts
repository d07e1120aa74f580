/**
 * Static analysis of one program through any judge's `runPlain` (the sandbox, locally or on a queue's fleet): each
 * analyser that reads the program's language (`src/analysis/analyzers.ts`) runs as its tool's language with the
 * program as its source file, and its report is parsed into normalised findings (`src/verdict/analysis.ts`). A tool
 * that did not run to the end (a limit, an exit status its manual calls a failure, a report its parser cannot read,
 * Crucible's failure) is a `failed` outcome, never "no findings". Limits per tool run: 30 s CPU, 1 GiB.
 * Used by `LocalJudge` for a `JudgeRequest` with `analysis` (so the judge that runs the sample, local or a queue
 * worker, analyses it) and by `crucible eval --analysis` (`src/apps/evaluate.ts`).
 */
import { AnalyzerOutputError } from '../analysis/parsers.js';
import { analyzersFor, type AnalyzerSpec } from '../analysis/analyzers.js';
import type { CallOptions, Judge } from '../judge/judge.js';
import type { LanguageRegistry } from '../languages/registry.js';
import { countLines, type AnalysisReport, type AnalyzerId, type AnalyzerOutcome } from '../verdict/analysis.js';

/** CPU ms and memory KiB of one analyser's run. */
export const ANALYSER_LIMITS = { cpuMs: 30_000, memoryKiB: 1024 * 1024 } as const;

async function runAnalyser(judge: Pick<Judge, 'runPlain'>, languages: LanguageRegistry, spec: AnalyzerSpec, language: string, source: string,
  options: CallOptions): Promise<AnalyzerOutcome> {
  const tool = spec.reads[language]!;
  const failed = (reason: string): AnalyzerOutcome => ({ tool: spec.id, status: 'failed', reason: reason.slice(0, 300) });
  let outcome;
  try {
    outcome = await judge.runPlain({ program: { language: tool, source }, stdin: '', limits: ANALYSER_LIMITS }, options);
  } catch (error) {
    options.signal?.throwIfAborted();
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
 * `only` (`languages` gives each tool's source file name); the report is empty (no outcomes) for a language no
 * analyser reads. `options` (signal, tenant, priority) go to each tool's `runPlain`. Rejects only with the
 * signal's reason when it aborts; every other failure is a `failed` outcome of its analyser.
 */
export async function analyseSample(judge: Pick<Judge, 'runPlain'>, languages: LanguageRegistry, language: string, source: string,
  only?: readonly AnalyzerId[], options: CallOptions = {}): Promise<AnalysisReport> {
  const outcomes = await Promise.all(analyzersFor(language, only).map((spec) => runAnalyser(judge, languages, spec, language, source, options)));
  return { outcomes, lines: countLines(source) };
}

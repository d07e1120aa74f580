/**
 * Static analysis as a reward term: per-finding penalties with caps, subtracted from a verdict's reward.
 *
 * Spec (`AnalysisTermSchema`, the `analysis` field of a reward spec, `./spec.ts`):
 * - `tools`: which analysers count (default: every analyser that reads the sample's language, `src/analysis/`);
 * - `penalties`: what one finding costs, by kind: `error` (default 0.1), `warning` (0.05), `info` (0), and
 *   `security` (0.2), which a security finding costs instead of its severity's penalty;
 * - `caps`: the most the term subtracts in all (`total`, default 0.5) and per analyser (`perTool`, optional);
 * - `ignore`: rules that cost nothing (`SC2086`, `C0114/missing-module-docstring`, `B101`, ...);
 * - `when`: `always` (default) or `passed` (only samples whose verdict passed pay; a failing sample's reward is then
 *   the verdict's alone).
 *
 * Term: `penalty = min(caps.total, sum over tools t of min(caps.perTool[t] ?? inf, sum over t's counted findings f of
 * cost(f)))`, `cost(f) = penalties.security` if `f.security` else `penalties[f.severity]`; reward = base - penalty.
 * An analyser the spec counts that failed on the sample makes the reward undefined (`RewardError`): a failed
 * analysis is never read as a clean one.
 */
import { z } from 'zod';
import { ANALYZER_IDS, type AnalysisReport, type AnalyzerId, type Finding } from '../verdict/analysis.js';

const nonNegative = z.number().finite().nonnegative();

/** The `analysis` part of a reward spec (see the module comment). */
export const AnalysisTermSchema = z.object({
  tools: z.array(z.enum(ANALYZER_IDS as [AnalyzerId, ...AnalyzerId[]])).min(1).optional()
    .describe('analysers that count (default: every one that reads the language)'),
  penalties: z.object({
    error: nonNegative.default(0.1).describe('cost of one error finding'),
    warning: nonNegative.default(0.05).describe('cost of one warning finding'),
    info: nonNegative.default(0).describe('cost of one info finding'),
    security: nonNegative.default(0.2).describe('cost of one security finding (instead of its severity\'s)'),
  }).strict().default({}),
  caps: z.object({
    total: nonNegative.default(0.5).describe('most the term subtracts'),
    perTool: z.record(z.enum(ANALYZER_IDS as [AnalyzerId, ...AnalyzerId[]]), nonNegative).default({})
      .describe('most one analyser\'s findings subtract'),
  }).strict().default({}),
  ignore: z.array(z.string().min(1)).default([]).describe('rules that cost nothing'),
  when: z.enum(['always', 'passed']).default('always').describe('which samples pay the term'),
}).strict();

/** A parsed analysis term. */
export type AnalysisTerm = z.output<typeof AnalysisTermSchema>;

/** A reward that cannot be given (a counted analyser failed). */
export class AnalysisTermError extends Error {
  override readonly name = 'AnalysisTermError';
}

/** The cost of one finding under `term`. */
export function findingCost(term: AnalysisTerm, finding: Finding): number {
  if (term.ignore.includes(finding.rule)) return 0;
  return finding.security ? term.penalties.security : term.penalties[finding.severity];
}

/**
 * The penalty of `report` under `term` (see the module comment), in [0, caps.total]. `passed`: whether the
 * sample's verdict passed (for `when: passed`). Throws `AnalysisTermError` when a counted analyser failed.
 */
export function analysisPenalty(term: AnalysisTerm, report: AnalysisReport, passed: boolean): number {
  if (term.when === 'passed' && !passed) return 0;
  let total = 0;
  for (const outcome of report.outcomes) {
    if (term.tools !== undefined && !term.tools.includes(outcome.tool)) continue;
    if (outcome.status === 'failed') throw new AnalysisTermError(`${outcome.tool} failed on this sample: ${outcome.reason}`);
    let tool = 0;
    for (const finding of outcome.findings) tool += findingCost(term, finding);
    total += Math.min(tool, term.caps.perTool[outcome.tool] ?? Number.POSITIVE_INFINITY);
  }
  return Math.min(total, term.caps.total);
}

/**
 * Static analysis findings, normalised across analysers (shellcheck, cppcheck, pylint, pyflakes, bandit, eslint)
 * so that a reward spec and a report can count them alike (the analysers and their parsers: `src/analysis/`): which analyser, which rule, how severe, whether it is
 * a security finding, where (1-based line, column when known), and the analyser's message.
 *
 * Severity is one of three levels, mapped from each tool's own scale in `src/analysis/parsers.ts`: `error` (shellcheck
 * error, cppcheck error, pylint error/fatal, pyflakes syntax errors, bandit HIGH, eslint 2), `warning`
 * (shellcheck/cppcheck/pylint warning, other pyflakes messages, bandit MEDIUM, eslint 1), `info` (the rest:
 * style, convention, refactor, performance, portability, information, bandit LOW).
 */

/** The analysers Crucible runs. */
export type AnalyzerId = 'shellcheck' | 'cppcheck' | 'pylint' | 'pyflakes' | 'bandit' | 'eslint';

/** Every analyser id, in a stable order. */
export const ANALYZER_IDS: readonly AnalyzerId[] = ['shellcheck', 'cppcheck', 'pylint', 'pyflakes', 'bandit', 'eslint'];

/** A finding's severity (see the module comment). */
export type FindingSeverity = 'error' | 'warning' | 'info';

/** One normalised finding. `rule` is the tool's own id (`SC2086`, `uninitvar`, `W0611`/`unused-import`, `B602`, `no-eval`). */
export interface Finding {
  readonly tool: AnalyzerId;
  readonly rule: string;
  readonly severity: FindingSeverity;
  readonly security: boolean;
  readonly line: number;
  readonly column?: number;
  readonly message: string;
}

/**
 * What one analyser said about one sample: `ok` with its findings, or `failed` with why (the tool crashed, timed
 * out, or printed what its parser cannot read). A failed analysis is never read as "no findings".
 */
export type AnalyzerOutcome =
  | { readonly tool: AnalyzerId; readonly status: 'ok'; readonly findings: readonly Finding[] }
  | { readonly tool: AnalyzerId; readonly status: 'failed'; readonly reason: string };

/**
 * A sample's static analysis: each analyser's outcome and the sample's size in non-blank lines (the base of the
 * per-1,000-lines rates).
 */
export interface AnalysisReport {
  readonly outcomes: readonly AnalyzerOutcome[];
  readonly lines: number;
}

/** Non-blank lines of a program (the denominator of `securityPerKloc`). */
export function countLines(source: string): number {
  return source.split('\n').filter((line) => line.trim() !== '').length;
}

/** Counts of one report's findings, over the analysers that succeeded. */
export interface AnalysisCounts {
  readonly findings: number;
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
  readonly security: number;
  /** Security findings per 1,000 non-blank lines: `1000 * security / lines` (0 for an empty program). */
  readonly securityPerKloc: number;
  /** Analysers that failed on this sample. */
  readonly failed: readonly AnalyzerId[];
}

/** Count a report (see `AnalysisCounts`). */
export function countFindings(report: AnalysisReport): AnalysisCounts {
  let errors = 0;
  let warnings = 0;
  let infos = 0;
  let security = 0;
  const failed: AnalyzerId[] = [];
  for (const outcome of report.outcomes) {
    if (outcome.status === 'failed') {
      failed.push(outcome.tool);
      continue;
    }
    for (const f of outcome.findings) {
      if (f.severity === 'error') errors++;
      else if (f.severity === 'warning') warnings++;
      else infos++;
      if (f.security) security++;
    }
  }
  return {
    findings: errors + warnings + infos, errors, warnings, infos, security,
    securityPerKloc: report.lines === 0 ? 0 : (1000 * security) / report.lines, failed,
  };
}

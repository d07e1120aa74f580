/**
 * The analysers as data: which sample languages each one reads and, per sample language, the tool's language file
 * (`languages/<id>.yaml`: its Debian or npm package, and its command, run in the sandbox like any program with the
 * sample as its source file), which stream it reports on, which exit statuses mean
 * "ran" (linters exit non-zero when they find something), and its parser.
 *
 * Exit statuses (from each tool's manual): shellcheck 0 clean, 1 findings (2+ failure); cppcheck 0 (we do not
 * pass --error-exitcode); pylint a bit mask, 1 fatal 2 error 4 warning 8 refactor 16 convention, 32 usage error
 * (failure); pyflakes 0 clean, 1 findings; bandit 0 clean, 1 findings; eslint 0 clean, 1 findings, 2 failure.
 */
import type { AnalyzerId, Finding } from '../verdict/analysis.js';
import { parseBandit, parseCppcheck, parseEslint, parsePyflakes, parsePylint, parseShellcheck } from './parsers.js';

/** How one analyser runs and is read. */
export interface AnalyzerSpec {
  readonly id: AnalyzerId;
  /**
   * Sample languages (ids of `languages/*.yaml`) this analyser reads, each with the tool's language id that reads
   * it (`languages/<tool>.yaml`, whose run command analyses `/box/<sourceFile>`).
   */
  readonly reads: Readonly<Record<string, string>>;
  /** Which stream holds the report (`both`: stdout then stderr; pyflakes reports syntax errors on stderr). */
  readonly stream: 'stdout' | 'stderr' | 'both';
  /** Whether an exit status means the tool ran to the end (findings or not). */
  ranTo(exitCode: number): boolean;
  /** Findings from the report; throws `AnalyzerOutputError`. `file` is the sample's path in the box (`/box/main.py`). */
  parse(report: string, file: string): Finding[];
}

const exitOk = (...codes: number[]) => (code: number): boolean => codes.includes(code);

/** Every analyser (see the module comment). */
export const ANALYZERS: Readonly<Record<AnalyzerId, AnalyzerSpec>> = {
  shellcheck: {
    id: 'shellcheck', reads: { bash: 'shellcheck' }, stream: 'stdout', ranTo: exitOk(0, 1),
    parse: (report) => parseShellcheck(report),
  },
  cppcheck: {
    id: 'cppcheck', reads: { c: 'cppcheck', cpp: 'cppcheck-cpp', cpp11: 'cppcheck-cpp' },
    stream: 'stderr', ranTo: exitOk(0), parse: (report) => parseCppcheck(report),
  },
  pylint: {
    id: 'pylint', reads: { python: 'pylint', 'python-sci': 'pylint' }, stream: 'stdout',
    ranTo: (code) => code >= 0 && code < 32, parse: (report) => parsePylint(report),
  },
  pyflakes: {
    id: 'pyflakes', reads: { python: 'pyflakes', 'python-sci': 'pyflakes' }, stream: 'both', ranTo: exitOk(0, 1),
    parse: (report, file) => parsePyflakes(report, file),
  },
  bandit: {
    id: 'bandit', reads: { python: 'bandit', 'python-sci': 'bandit' }, stream: 'stdout', ranTo: exitOk(0, 1),
    parse: (report) => parseBandit(report),
  },
  eslint: {
    id: 'eslint', reads: { javascript: 'eslint' }, stream: 'stdout', ranTo: exitOk(0, 1),
    parse: (report) => parseEslint(report),
  },
};

/** The analysers that read programs of `language` (a language id), in `ANALYZER_IDS` order, or those of `only`. */
export function analyzersFor(language: string, only?: readonly AnalyzerId[]): AnalyzerSpec[] {
  return Object.values(ANALYZERS).filter((a) => a.reads[language] !== undefined && (only === undefined || only.includes(a.id)));
}

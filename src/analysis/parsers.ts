/**
 * Parsers of each analyser's machine output into normalised findings (`./findings.ts`). Every parser validates
 * what it reads (zod for JSON) and throws `AnalyzerOutputError` when the output is not what the tool prints, so a
 * crashed or confused analyser is a failed analysis, never an empty one. Formats (as Debian bookworm's versions
 * print them, and eslint 9):
 * - shellcheck `-f json1`: `{"comments": [{line, column, level, code, message}]}`; levels error/warning/info/style.
 * - cppcheck `--xml` (version 2, stderr): `<error id severity msg cwe><location line column/></error>`;
 *   severities error/warning/style/performance/portability/information. Security: an `error` with a CWE.
 *   `missingInclude*` (cppcheck cannot see system headers in a box) is not a finding of the program.
 * - pylint `--output-format=json`: `[{type, line, column, symbol, message, "message-id"}]`; types
 *   fatal/error/warning/convention/refactor/info.
 * - pyflakes: `file:line:col: message` lines (`file:line: message` in older versions); a syntax error prints the
 *   offending line and a caret after it. Rule ids are named from pyflakes' message classes.
 * - bandit `-f json`: `{"results": [{test_id, issue_severity, line_number, col_offset, issue_text}], "errors": [...]}`;
 *   every bandit finding is a security finding; an entry in `errors` fails the analysis.
 * - eslint `-f json`: `[{messages: [{ruleId, severity, message, line, column, fatal}]}]`; severity 2 error,
 *   1 warning; a fatal message (parse error) is an error finding `parse-error`; `no-eval`, `no-implied-eval`,
 *   `no-new-func` and `no-script-url` are security findings.
 */
import { z } from 'zod';
import type { AnalyzerId, Finding, FindingSeverity } from '../verdict/analysis.js';

/** The analyser printed what its parser cannot read. */
export class AnalyzerOutputError extends Error {
  constructor(readonly tool: AnalyzerId, detail: string) {
    super(`${tool}: ${detail}`);
    this.name = 'AnalyzerOutputError';
  }
}

const MESSAGE_CHARS = 300;
const clip = (text: string): string => (text.length <= MESSAGE_CHARS ? text : `${text.slice(0, MESSAGE_CHARS - 3)}...`);

function parseJson<T>(tool: AnalyzerId, text: string, schema: z.ZodType<T, z.ZodTypeDef, unknown>): T {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new AnalyzerOutputError(tool, `not JSON: ${clip(text.trim()) || '(empty output)'}`);
  }
  const result = schema.safeParse(raw);
  if (!result.success) throw new AnalyzerOutputError(tool, `unexpected JSON: ${result.error.issues[0]?.message ?? ''} at ${result.error.issues[0]?.path.join('.') ?? ''}`);
  return result.data;
}

const line = z.number().int().nonnegative();

const ShellcheckSchema = z.object({
  comments: z.array(z.object({ line, column: line, level: z.enum(['error', 'warning', 'info', 'style']), code: z.number().int(), message: z.string() })),
});

/** shellcheck `-f json1` output. */
export function parseShellcheck(stdout: string): Finding[] {
  return parseJson('shellcheck', stdout, ShellcheckSchema).comments.map((c) => ({
    tool: 'shellcheck', rule: `SC${c.code}`, severity: c.level === 'error' ? 'error' : c.level === 'warning' ? 'warning' : 'info',
    security: false, line: c.line, column: c.column, message: clip(c.message),
  }));
}

const CPPCHECK_SEVERITIES: Readonly<Record<string, FindingSeverity>> = {
  error: 'error', warning: 'warning', style: 'info', performance: 'info', portability: 'info', information: 'info',
};

const XML_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The attributes of one XML start tag's text (`name="value"`, entities decoded). */
function xmlAttributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([A-Za-z_][\w.-]*)="([^"]*)"/g)) {
    out[m[1]!] = m[2]!.replace(/&(amp|lt|gt|quot|apos|#(\d+)|#x([0-9a-fA-F]+));/g, (all, name: string, dec?: string, hex?: string) =>
      dec !== undefined ? String.fromCodePoint(Number(dec)) : hex !== undefined ? String.fromCodePoint(parseInt(hex, 16)) : XML_ENTITIES[name] ?? all);
  }
  return out;
}

/** cppcheck `--xml` (version 2) report on stderr: one `<error>` per finding, its first `<location>` where. */
export function parseCppcheck(stderr: string): Finding[] {
  const text = stderr.trim();
  if (!text.startsWith('<?xml') || !/<results version="2">/.test(text) || !text.endsWith('</results>')) {
    throw new AnalyzerOutputError('cppcheck', `not a complete XML report: ${clip(text) || '(empty output)'}`);
  }
  const findings: Finding[] = [];
  for (const m of text.matchAll(/<error\b([^>]*?)(\/>|>([\s\S]*?)<\/error>)/g)) {
    const error = xmlAttributes(m[1]!);
    const location = /<location\b([^>]*?)\/?>/.exec(m[3] ?? '');
    const where = location === null ? {} : xmlAttributes(location[1]!);
    const level = CPPCHECK_SEVERITIES[error['severity'] ?? ''];
    const id = error['id'] ?? '';
    if (level === undefined || id === '') throw new AnalyzerOutputError('cppcheck', `unexpected <error${clip(m[1]!)}>`);
    if (id.startsWith('missingInclude') || id === 'checkersReport') continue;
    const column = Number(where['column'] ?? '0');
    findings.push({
      tool: 'cppcheck', rule: id, severity: level, security: level === 'error' && /^[1-9]\d*$/.test(error['cwe'] ?? ''),
      line: Number(where['line'] ?? '0'), ...(column > 0 ? { column } : {}), message: clip(error['msg'] ?? ''),
    });
  }
  return findings;
}

const PylintSchema = z.array(z.object({
  type: z.enum(['fatal', 'error', 'warning', 'convention', 'refactor', 'info']),
  line, column: line, symbol: z.string(), message: z.string(), 'message-id': z.string(),
}));

/** pylint `--output-format=json` output. */
export function parsePylint(stdout: string): Finding[] {
  return parseJson('pylint', stdout.trim() === '' ? '[]' : stdout, PylintSchema).map((m) => ({
    tool: 'pylint', rule: `${m['message-id']}/${m.symbol}`,
    severity: m.type === 'fatal' || m.type === 'error' ? 'error' : m.type === 'warning' ? 'warning' : 'info',
    security: false, line: m.line, column: m.column + 1, message: clip(m.message),
  }));
}

/** pyflakes message texts -> the message class names pyflakes uses for them (`pyflakes/messages.py`). */
const PYFLAKES_RULES: readonly (readonly [RegExp, string])[] = [
  [/imported but unused/, 'UnusedImport'], [/is assigned to but never used/, 'UnusedVariable'],
  [/^undefined name/, 'UndefinedName'], [/^redefinition of unused/, 'RedefinedWhileUnused'],
  [/import \*/, 'ImportStarUsed'], [/^local variable .* referenced before assignment/, 'UndefinedLocal'],
  [/^duplicate argument/, 'DuplicateArgument'], [/^f-string is missing placeholders/, 'FStringMissingPlaceholders'],
  [/^'return' outside function/, 'ReturnOutsideFunction'], [/^dictionary key .* repeated/, 'MultiValueRepeatedKeyLiteral'],
  [/^'\.\.\.' % \.\.\./, 'PercentFormat'], [/^use ==\/!= to compare/, 'IsLiteral'],
];

/** pyflakes output for one file named `file` (see the module comment). */
export function parsePyflakes(stdout: string, file: string): Finding[] {
  const findings: Finding[] = [];
  const prefix = `${file}:`;
  const lines = stdout.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (raw.trim() === '') continue;
    const m = raw.startsWith(prefix) ? /^(\d+):(?:(\d+):)? (.*)$/.exec(raw.slice(prefix.length)) : null;
    if (m === null) throw new AnalyzerOutputError('pyflakes', `unexpected line: ${clip(raw)}`);
    const message = m[3]!;
    const rule = PYFLAKES_RULES.find(([re]) => re.test(message))?.[1];
    const syntax = rule === undefined && isSyntaxReport(lines, i);
    if (syntax) i = skipSyntaxContext(lines, i, prefix);
    findings.push({
      tool: 'pyflakes', rule: syntax ? 'SyntaxError' : rule ?? 'message', severity: syntax ? 'error' : 'warning',
      security: false, line: Number(m[1]), ...(m[2] === undefined ? {} : { column: Number(m[2]) }), message: clip(message),
    });
  }
  return findings;
}

/** A syntax error report: the message line is followed by the source line and a caret line. */
function isSyntaxReport(lines: readonly string[], i: number): boolean {
  return /^\s*\^\s*$/.test(lines[i + 2] ?? '') || /^\s*\^\s*$/.test(lines[i + 1] ?? '');
}

function skipSyntaxContext(lines: readonly string[], i: number, prefix: string): number {
  let j = i + 1;
  while (j < lines.length && !lines[j]!.startsWith(prefix) && lines[j]!.trim() !== '') j++;
  return j - 1;
}

const BanditSchema = z.object({
  results: z.array(z.object({
    test_id: z.string(), test_name: z.string().optional(), issue_severity: z.enum(['LOW', 'MEDIUM', 'HIGH', 'UNDEFINED']),
    issue_text: z.string(), line_number: line, col_offset: line.optional(),
  })),
  errors: z.array(z.object({ filename: z.string().optional(), reason: z.string().optional() }).passthrough()),
});

/** bandit `-f json` output; bandit's own errors (a file it could not parse) fail the analysis. */
export function parseBandit(stdout: string): Finding[] {
  const report = parseJson('bandit', stdout, BanditSchema);
  if (report.errors.length > 0) throw new AnalyzerOutputError('bandit', `could not analyse: ${clip(report.errors[0]!.reason ?? JSON.stringify(report.errors[0]))}`);
  return report.results.map((r) => ({
    tool: 'bandit', rule: r.test_id, severity: r.issue_severity === 'HIGH' ? 'error' : r.issue_severity === 'MEDIUM' ? 'warning' : 'info',
    security: true, line: r.line_number, ...(r.col_offset === undefined ? {} : { column: r.col_offset + 1 }), message: clip(r.issue_text),
  }));
}

const EslintSchema = z.array(z.object({
  messages: z.array(z.object({
    ruleId: z.string().nullable().optional(), severity: z.union([z.literal(0), z.literal(1), z.literal(2)]),
    message: z.string(), line: line.optional(), column: line.optional(), fatal: z.boolean().optional(),
  })),
}));

/** Rules whose findings are security findings. */
export const ESLINT_SECURITY_RULES: ReadonlySet<string> = new Set(['no-eval', 'no-implied-eval', 'no-new-func', 'no-script-url']);

/** eslint `-f json` output. */
export function parseEslint(stdout: string): Finding[] {
  const findings: Finding[] = [];
  for (const file of parseJson('eslint', stdout, EslintSchema)) {
    for (const m of file.messages) {
      if (m.severity === 0) continue;
      const rule = m.fatal === true ? 'parse-error' : m.ruleId ?? 'eslint';
      findings.push({
        tool: 'eslint', rule, severity: m.fatal === true || m.severity === 2 ? 'error' : 'warning',
        security: ESLINT_SECURITY_RULES.has(rule), line: m.line ?? 0, ...(m.column === undefined ? {} : { column: m.column }),
        message: clip(m.message),
      });
    }
  }
  return findings;
}

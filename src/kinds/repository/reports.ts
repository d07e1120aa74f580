/**
 * Test reports, parsed outside the box from the file the test run left in its outbox: the reporter ran inside the
 * test process, beside the candidate's code, so a report is untrusted data. Each parser validates the shape
 * (zod), builds test ids the way instances name them, and cross-checks the report's own counts against the tests
 * it lists (a report whose totals disagree with its entries is refused, `ReportError`). What a parser cannot
 * know (whether the candidate wrote the report) is left to the resolution's other evidence (`resolution.ts`).
 *
 * Test ids (as the instances of ../shared/data/swe and swe-axios name them):
 * - jest / vitest (`--json` report: jest's `formatTestResults` shape, which vitest's json reporter follows):
 *   `<file> > <ancestor titles...> > <title>`, `<file>` being `testResults[].name` relative to the repository
 *   root; statuses `passed`, `failed`, and `pending`/`skipped`/`todo`/`disabled` (skipped). A test file whose
 *   suite failed to run (`status: "failed"`, no assertion results) is a suite error.
 * - mocha (`--reporter json`): `<file> > <fullTitle>`; `passes` passed, `failures` failed (a failing hook is a suite
 *   error: the tests under it did not run), `pending` skipped.
 * - TAP 13/14 (node-tap, node:test's `tap` reporter): `<name> > <subtest name> > ...` of every test point that has no
 *   subtests; `ok` passed, `not ok` failed, `# SKIP` and `# TODO` skipped; `Bail out!` is a suite error.
 * An id that occurs more than once is passed only if every occurrence passed.
 */
import { z } from 'zod';
import type { LogParser } from '../../formats/types.js';

/** Status of one test in a report. */
export type ReportedStatus = 'passed' | 'failed' | 'skipped';

/**
 * A parsed report: each test id's status, the suites that failed to run (a file that did not load, a failing
 * hook), and whether the report declares the whole run a success (undefined when its format does not say).
 */
export interface ParsedReport {
  readonly tests: ReadonlyMap<string, ReportedStatus>;
  readonly suiteErrors: readonly string[];
  readonly declaredSuccess?: boolean;
}

/** A report that is not what its reporter writes (malformed, or counts that disagree with its entries). */
export class ReportError extends Error {
  override readonly name = 'ReportError';
}

/** Collects statuses; an id seen twice keeps `failed` or `skipped` over `passed`. */
class Statuses {
  readonly map = new Map<string, ReportedStatus>();
  add(id: string, status: ReportedStatus): void {
    const before = this.map.get(id);
    if (before === undefined || before === 'passed') this.map.set(id, status);
    else if (before === 'skipped' && status === 'failed') this.map.set(id, status);
  }
}

/** `name` relative to the repository root `root` (absolute names outside it stay as given). */
function relativeTo(root: string, name: string): string {
  const prefix = root.endsWith('/') ? root : `${root}/`;
  return name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ReportError(`the ${what} report is not JSON: ${(error as Error).message}`);
  }
}

function checked<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new ReportError(`the ${what} report is malformed at ${issue.path.join('.') || '(root)'}: ${issue.message}`);
}

const count = z.number().int().nonnegative();

const JestReportSchema = z.object({
  success: z.boolean(),
  numTotalTests: count,
  numPassedTests: count,
  numFailedTests: count,
  numPendingTests: count,
  numTodoTests: count.optional(),
  testResults: z.array(z.object({
    name: z.string(),
    status: z.string().optional(),
    message: z.string().optional(),
    assertionResults: z.array(z.object({
      ancestorTitles: z.array(z.string()),
      title: z.string(),
      status: z.enum(['passed', 'failed', 'pending', 'skipped', 'todo', 'disabled', 'focused']),
    })),
  })),
});

/** jest's (and vitest's) JSON report. @throws ReportError */
export function parseJestReport(text: string, root: string): ParsedReport {
  const report = checked(JestReportSchema, parseJson(text, 'jest'), 'jest');
  const statuses = new Statuses();
  const suiteErrors: string[] = [];
  let listed = 0;
  let failed = 0;
  let passed = 0;
  for (const file of report.testResults) {
    const name = relativeTo(root, file.name);
    if (file.assertionResults.length === 0 && (file.status === 'failed' || (file.message ?? '') !== '')) suiteErrors.push(name);
    for (const t of file.assertionResults) {
      listed++;
      const status: ReportedStatus = t.status === 'passed' ? 'passed' : t.status === 'failed' ? 'failed' : 'skipped';
      if (status === 'failed') failed++;
      if (status === 'passed') passed++;
      statuses.add([name, ...t.ancestorTitles, t.title].join(' > '), status);
    }
  }
  if (report.numTotalTests !== listed || report.numFailedTests !== failed || report.numPassedTests !== passed) {
    throw new ReportError(`the jest report's totals (${report.numTotalTests} tests, ${report.numPassedTests} passed, `
      + `${report.numFailedTests} failed) disagree with the ${listed} tests it lists (${passed} passed, ${failed} failed)`);
  }
  return { tests: statuses.map, suiteErrors, declaredSuccess: report.success };
}

const MochaTestSchema = z.object({
  title: z.string(),
  fullTitle: z.string(),
  file: z.string().optional(),
  err: z.unknown().optional(),
});

const MochaReportSchema = z.object({
  stats: z.object({ tests: count, passes: count, pending: count, failures: count }).passthrough(),
  tests: z.array(MochaTestSchema),
  passes: z.array(MochaTestSchema),
  failures: z.array(MochaTestSchema),
  pending: z.array(MochaTestSchema),
});

/** A failing hook's title, as mocha names it (`"before all" hook for "..."`, `"after each" hook in "..."`). */
const HOOK_TITLE = /^"(before|after) (all|each)" hook/;

/** mocha's JSON reporter. @throws ReportError */
export function parseMochaReport(text: string, root: string): ParsedReport {
  const report = checked(MochaReportSchema, parseJson(text, 'mocha'), 'mocha');
  const statuses = new Statuses();
  const suiteErrors: string[] = [];
  const idOf = (t: z.output<typeof MochaTestSchema>): string => `${relativeTo(root, t.file ?? '')} > ${t.fullTitle}`;
  for (const t of report.passes) statuses.add(idOf(t), 'passed');
  for (const t of report.pending) statuses.add(idOf(t), 'skipped');
  let hookFailures = 0;
  for (const t of report.failures) {
    if (HOOK_TITLE.test(t.title)) {
      hookFailures++;
      suiteErrors.push(idOf(t));
    } else {
      statuses.add(idOf(t), 'failed');
    }
  }
  const listed = report.passes.length + report.pending.length + report.failures.length - hookFailures;
  if (report.stats.passes !== report.passes.length || report.stats.pending !== report.pending.length
    || report.stats.failures !== report.failures.length || report.tests.length < listed) {
    throw new ReportError(`the mocha report's stats (${report.stats.passes} passes, ${report.stats.failures} failures, `
      + `${report.stats.pending} pending) disagree with the tests it lists`);
  }
  return { tests: statuses.map, suiteErrors, declaredSuccess: report.stats.failures === 0 };
}

/** One TAP test point under construction: its name path and whether subtests were seen under it. */
interface TapPoint {
  readonly path: readonly string[];
  readonly status: ReportedStatus;
}

/**
 * TAP 13/14 with subtests (indented by 4 spaces per level; node:test and node-tap announce each with
 * `# Subtest: <name>`). Only test points without subtests are tests. @throws ReportError when the text has no
 * TAP version line or plan, or a level's plan disagrees with its points.
 */
export function parseTapReport(text: string): ParsedReport {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (!lines.some((l) => /^TAP version 1[34]$/.test(l.trim()))) throw new ReportError('the TAP report has no "TAP version" line');
  const statuses = new Statuses();
  const suiteErrors: string[] = [];
  const names: string[] = [];           // announced subtest names by depth
  const pointsAt = new Map<number, number>();
  const plans = new Map<number, number>();
  const parents = new Set<string>();
  const points: TapPoint[] = [];
  let topPlan = false;
  let yamlIndent = -1;   // inside a point's YAML block (`---` ... `...`, indented 2 past its point): skipped whole
  for (const raw of lines) {
    const indent = raw.length - raw.trimStart().length;
    const line = raw.trimStart();
    if (yamlIndent >= 0) {
      if (indent === yamlIndent && line.trimEnd() === '...') yamlIndent = -1;
      continue;
    }
    if (indent % 4 === 2 && line.trimEnd() === '---') {
      yamlIndent = indent;
      continue;
    }
    if (indent % 4 !== 0) continue;
    const depth = indent / 4;
    let m: RegExpExecArray | null;
    if ((m = /^# Subtest: (.*)$/.exec(line))) {
      names[depth] = m[1]!;
      names.length = depth + 1;
    } else if ((m = /^(not ok|ok)\b\s*(\d+)?\s*(?:-\s*)?([^#]*?)\s*(?:#\s*(SKIP|TODO)\b.*)?$/i.exec(line))) {
      const name = m[3]!.trim() || names[depth] || `#${m[2] ?? ''}`;
      const path = [...names.slice(0, depth), name];
      if (depth > 0) parents.add(path.slice(0, -1).join('\0'));
      const directive = m[4]?.toUpperCase();
      const status: ReportedStatus = directive !== undefined ? 'skipped' : m[1]!.toLowerCase() === 'ok' ? 'passed' : 'failed';
      points.push({ path, status });
      pointsAt.set(depth, (pointsAt.get(depth) ?? 0) + 1);
      names.length = depth;
    } else if ((m = /^1\.\.(\d+)/.exec(line))) {
      if (depth === 0) topPlan = true;
      plans.set(depth, (plans.get(depth) ?? 0) + Number(m[1]));
    } else if (/^Bail out!/.test(line)) {
      suiteErrors.push(line);
    }
  }
  if (!topPlan && suiteErrors.length === 0) throw new ReportError('the TAP report has no plan (1..N) at its top level: it did not finish');
  const top = plans.get(0);
  if (top !== undefined && top !== (pointsAt.get(0) ?? 0) && suiteErrors.length === 0) {
    throw new ReportError(`the TAP report plans ${top} top-level tests but has ${pointsAt.get(0) ?? 0}`);
  }
  for (const p of points) {
    if (parents.has(p.path.join('\0'))) continue;
    statuses.add(p.path.join(' > '), p.status);
  }
  const failed = points.some((p) => p.status === 'failed');
  return { tests: statuses.map, suiteErrors, declaredSuccess: !failed && suiteErrors.length === 0 };
}

/** Parse a report of the given format; `root` is the repository's path in the box. @throws ReportError */
export function parseReport(format: LogParser, text: string, root: string): ParsedReport {
  switch (format) {
    case 'jest-json':
    case 'vitest-json':
      return parseJestReport(text, root);
    case 'mocha-json':
      return parseMochaReport(text, root);
    case 'tap':
    case 'node-test':
      return parseTapReport(text);
  }
}

/** Whether the format's test ids start with the test file (`<file> > ...`). */
export function idsNameFiles(format: LogParser): boolean {
  return format !== 'tap' && format !== 'node-test';
}

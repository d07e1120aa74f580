/**
 * Reports parsed outside the box, and the resolution rule: what resolves, what is unresolved, and what is an
 * invalid run (no evidence the suite ran, a report that contradicts itself or the exit status, a tampered canary).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RepositoryProblem } from '../../../src/formats/types.js';
import { canaryTitle } from '../../../src/kinds/repository/canary.js';
import { parseJestReport, parseMochaReport, parseTapReport, ReportError } from '../../../src/kinds/repository/reports.js';
import { resolveRun } from '../../../src/kinds/repository/resolution.js';
import type { ExecutionResult } from '../../../src/sandbox/types.js';

const NONCE = '0123456789abcdef0123456789abcdef';

interface JestTest { readonly ancestorTitles: string[]; readonly title: string; readonly status: string }

function jestReport(files: Readonly<Record<string, readonly JestTest[]>>, options: { success?: boolean; suiteError?: string } = {}): string {
  const all = Object.values(files).flat();
  const testResults = Object.entries(files).map(([name, assertionResults]) => ({
    name: `/testbed/${name}`, status: assertionResults.some((t) => t.status === 'failed') ? 'failed' : 'passed', message: '', assertionResults,
  }));
  if (options.suiteError !== undefined) testResults.push({ name: `/testbed/${options.suiteError}`, status: 'failed', message: 'SyntaxError', assertionResults: [] });
  const failed = all.filter((t) => t.status === 'failed').length;
  return JSON.stringify({
    success: options.success ?? (failed === 0 && options.suiteError === undefined),
    numTotalTests: all.length, numPassedTests: all.filter((t) => t.status === 'passed').length, numFailedTests: failed,
    numPendingTests: all.filter((t) => t.status === 'pending' || t.status === 'skipped').length, testResults,
  });
}

const t = (title: string, status: string, ...ancestorTitles: string[]): JestTest => ({ ancestorTitles, title, status });
const canary = (index: number, status = 'failed'): JestTest => t(canaryTitle(NONCE, index), status);

const PROBLEM: RepositoryProblem = {
  kind: 'repository', taskId: 'o__r-1', repo: 'o/r', baseCommit: 'a'.repeat(40), goldPatch: '', testPatch: '', statement: '',
  failToPass: ['test/a.test.js > fix > works'], passToPass: ['test/a.test.js > keeps', 'test/b.test.js > other'],
  installCmd: 'npm ci', testCmd: 'npx jest --json --outputFile={report} {test_files}', testFiles: ['test/a.test.js', 'test/b.test.js'],
  logParser: 'jest-json', installScripts: false, protectedFiles: [], canary: true,
};

function run(report: string | undefined, exitCode: number | null = 1, status: ExecutionResult['status'] = 'runtime_error'): ExecutionResult {
  return {
    status, exitCode, signal: null, cpuMs: 10, wallMs: 20, memoryKiB: 1, stdout: '', stderr: '', stdoutTruncated: false, stderrTruncated: false,
    memoryEnforcement: 'cgroup', ...(report === undefined ? {} : { outbox: { files: { report }, skipped: 0 } }),
  };
}

function resolve(report: string | undefined, exitCode: number | null = 1, problem = PROBLEM): ReturnType<typeof resolveRun> {
  return resolveRun(problem, { kind: 'run', applied: 'git_apply', nonce: NONCE }, run(report, exitCode));
}

const GOOD = { 'test/a.test.js': [t('works', 'passed', 'fix'), t('keeps', 'passed'), canary(0)], 'test/b.test.js': [t('other', 'passed'), canary(1)] };

describe('report parsers', () => {
  it('jest: ids are file > ancestors > title; pending and todo are skipped; a file that did not load is a suite error', () => {
    const r = parseJestReport(jestReport({ 'test/a.test.js': [t('x', 'passed', 'd', 'e'), t('y', 'pending'), t('z', 'todo')] }, { suiteError: 'test/c.test.js' }), '/testbed');
    assert.deepEqual([...r.tests], [['test/a.test.js > d > e > x', 'passed'], ['test/a.test.js > y', 'skipped'], ['test/a.test.js > z', 'skipped']]);
    assert.deepEqual(r.suiteErrors, ['test/c.test.js']);
  });

  it('jest: an id given twice is passed only if every one passed', () => {
    const r = parseJestReport(jestReport({ 'test/a.test.js': [t('x', 'passed'), t('x', 'failed'), t('y', 'passed'), t('y', 'passed')] }), '/testbed');
    assert.equal(r.tests.get('test/a.test.js > x'), 'failed');
    assert.equal(r.tests.get('test/a.test.js > y'), 'passed');
  });

  it('jest: refuses a report whose totals disagree with its tests, or that is not jest\'s shape', () => {
    const report = JSON.parse(jestReport({ 'test/a.test.js': [t('x', 'failed')] })) as Record<string, unknown>;
    report.numFailedTests = 0;
    report.numPassedTests = 1;
    assert.throws(() => parseJestReport(JSON.stringify(report), '/testbed'), ReportError);
    assert.throws(() => parseJestReport('{"success": true}', '/testbed'), /malformed/);
    assert.throws(() => parseJestReport('PASS all tests', '/testbed'), /not JSON/);
  });

  it('mocha: ids are file > fullTitle; a failing hook is a suite error; stats must agree', () => {
    const test = (title: string, fullTitle: string) => ({ title, fullTitle, file: '/testbed/test/unit/a.js', duration: 1 });
    const hook = test('"before all" hook for "x"', 'suite "before all" hook for "x"');
    const report = {
      stats: { suites: 1, tests: 3, passes: 1, pending: 1, failures: 2 },
      tests: [test('x', 'suite x'), test('y', 'suite y'), test('z', 'suite z')],
      passes: [test('x', 'suite x')], pending: [test('y', 'suite y')], failures: [test('z', 'suite z'), hook],
    };
    const r = parseMochaReport(JSON.stringify(report), '/testbed');
    assert.deepEqual([...r.tests], [['test/unit/a.js > suite x', 'passed'], ['test/unit/a.js > suite y', 'skipped'], ['test/unit/a.js > suite z', 'failed']]);
    assert.deepEqual(r.suiteErrors, ['test/unit/a.js > suite "before all" hook for "x"']);
    assert.throws(() => parseMochaReport(JSON.stringify({ ...report, stats: { ...report.stats, failures: 0 } }), '/testbed'), ReportError);
  });

  it('TAP (node:test): leaves of the subtest tree; SKIP and TODO are skipped; YAML blocks cannot inject points', () => {
    const tap = [
      'TAP version 13', '# Subtest: top', 'ok 1 - top', '  ---', '  duration_ms: 1', '  ...',
      '# Subtest: grp', '    # Subtest: inner', '    not ok 1 - inner', '      ---', '      error: |-', '        ok 9 - forged inside an error message', '      ...',
      '    # Subtest: sk', '    ok 2 - sk # SKIP', '    1..2', 'not ok 2 - grp', '# Subtest: later', 'ok 3 - later # TODO', '1..3', '# tests 4',
    ].join('\n');
    const r = parseTapReport(tap);
    assert.deepEqual([...r.tests], [['top', 'passed'], ['grp > inner', 'failed'], ['grp > sk', 'skipped'], ['later', 'skipped']]);
    assert.equal(r.declaredSuccess, false);
    assert.throws(() => parseTapReport('TAP version 13\nok 1 - a\n'), /no plan/);
    assert.throws(() => parseTapReport('ok 1 - a\n1..1\n'), /TAP version/);
  });
});

describe('the resolution rule', () => {
  it('resolves when every FAIL_TO_PASS and PASS_TO_PASS test passed (the canaries failing, exit 1)', () => {
    const o = resolve(jestReport(GOOD));
    assert.equal(o.status, 'passed');
    assert.equal(o.score, 1);
    assert.deepEqual(o.tests.map((x) => x.state), ['passed', 'passed', 'passed']);
  });

  it('is unresolved when a test failed, was skipped or is missing (renamed, or its file did not load)', () => {
    for (const [files, state] of [
      [{ ...GOOD, 'test/a.test.js': [t('works', 'failed', 'fix'), t('keeps', 'passed'), canary(0)] }, 'failed'],
      [{ ...GOOD, 'test/a.test.js': [t('works', 'skipped', 'fix'), t('keeps', 'passed'), canary(0)] }, 'skipped'],
      [{ ...GOOD, 'test/a.test.js': [t('works (renamed)', 'passed', 'fix'), t('keeps', 'passed'), canary(0)] }, 'missing'],
    ] as const) {
      const o = resolve(jestReport(files));
      assert.equal(o.status, 'wrong_answer', state);
      assert.equal(o.tests[0]!.state, state);
      assert.equal(o.score, 0);
    }
    const hidden = resolve(jestReport({ 'test/b.test.js': GOOD['test/b.test.js'] }, { suiteError: 'test/a.test.js' }));
    assert.equal(hidden.status, 'wrong_answer');
    assert.deepEqual(hidden.tests.map((x) => x.state), ['missing', 'missing', 'passed']);
  });

  it('is an invalid run without a report, with a malformed one, or with one that lists no test', () => {
    assert.equal(resolve(undefined, 0).status, 'invalid_run');
    assert.equal(resolve('{}').status, 'invalid_run');
    assert.equal(resolve(jestReport({})).status, 'invalid_run');
  });

  it('is an invalid run when the exit status contradicts the report', () => {
    const exit0 = resolve(jestReport(GOOD), 0);
    assert.equal(exit0.status, 'invalid_run');
    assert.match(exit0.reason ?? '', /exited 0/);
    const noCanary = { ...PROBLEM, canary: false };
    const allPassed = { 'test/a.test.js': [t('works', 'passed', 'fix'), t('keeps', 'passed')], 'test/b.test.js': [t('other', 'passed')] };
    assert.equal(resolve(jestReport(allPassed), 0, noCanary).status, 'passed');
    assert.equal(resolve(jestReport(allPassed), 1, noCanary).status, 'invalid_run', 'success declared, exit 1');
  });

  it('is an invalid run when a canary passed or was skipped, is missing beside its file\'s tests, or is another judgement\'s', () => {
    assert.match(resolve(jestReport({ ...GOOD, 'test/b.test.js': [t('other', 'passed'), canary(1, 'passed')] })).reason ?? '', /canary .* passed/);
    assert.equal(resolve(jestReport({ ...GOOD, 'test/b.test.js': [t('other', 'passed'), canary(1, 'pending')] })).status, 'invalid_run');
    assert.match(resolve(jestReport({ ...GOOD, 'test/b.test.js': [t('other', 'passed')] })).reason ?? '', /not its canary/);
    const other = t(canaryTitle('f'.repeat(32), 1), 'failed');
    assert.match(resolve(jestReport({ ...GOOD, 'test/b.test.js': [t('other', 'passed'), other, canary(1)] })).reason ?? '', /another judgement/);
  });

  it('keeps a limit\'s status when the run was stopped, and Crucible\'s failure as internal_error', () => {
    const stopped = resolveRun(PROBLEM, { kind: 'run', applied: 'empty', nonce: NONCE }, run(undefined, null, 'time_limit_exceeded'));
    assert.equal(stopped.status, 'time_limit_exceeded');
    assert.equal(resolveRun(PROBLEM, { kind: 'run', applied: 'empty', nonce: NONCE }, run(undefined, null, 'internal_error')).status, 'internal_error');
  });
});

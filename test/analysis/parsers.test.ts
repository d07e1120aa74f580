/**
 * Analyser output parsers, on what Debian bookworm's tools printed for the programs with known findings in
 * test/fixtures/proof/lint-sample.{sh,c,py} (captured once; the same tools run in the sandbox in
 * test/engine/analysis.test.ts), and eslint's documented JSON shape.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { analyzersFor } from '../../src/analysis/analyzers.js';
import {
  AnalyzerOutputError, parseBandit, parseCppcheck, parseEslint, parsePyflakes, parsePylint, parseShellcheck,
} from '../../src/analysis/parsers.js';
import { countFindings, countLines } from '../../src/verdict/index.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../../test/fixtures/proof');
const fixture = (name: string): string => readFileSync(path.join(FIXTURES, name), 'utf8');
const summary = (findings: readonly { rule: string; severity: string; security: boolean; line: number }[]): string[] =>
  findings.map((f) => `${f.line} ${f.rule} ${f.severity}${f.security ? ' security' : ''}`);

describe('analyser parsers', () => {
  it('shellcheck json1: codes, levels mapped to three severities', () => {
    assert.deepEqual(summary(parseShellcheck(fixture('lint-shellcheck.json'))), [
      '3 SC2115 warning', '3 SC2086 info', '4 SC2046 warning', '4 SC2005 info', '4 SC2006 info', '5 SC2086 info',
    ]);
  });
  it('cppcheck XML: out-of-bounds and uninitialised reads are security errors; missing system headers are not findings', () => {
    assert.deepEqual(summary(parseCppcheck(fixture('lint-cppcheck.xml'))).sort(), [
      '4 unassignedVariable info', '5 bufferAccessOutOfBounds error security', '6 arrayIndexOutOfBounds error security',
      '7 uninitvar error security',
    ]);
    assert.throws(() => parseCppcheck('Segmentation fault\n'), AnalyzerOutputError);
  });
  it('pylint json: id/symbol rules, types mapped', () => {
    const findings = parsePylint(fixture('lint-pylint.json'));
    assert.equal(findings.length, 9);
    assert.deepEqual(summary(findings.filter((f) => f.severity === 'warning')), [
      '8 W0123/eval-used warning', '6 W0612/unused-variable warning', '1 W0611/unused-import warning', '3 W0611/unused-import warning',
    ]);
    assert.deepEqual(parsePylint(''), []);
  });
  it('pyflakes: message classes as rules; a syntax error (on stderr) is one error finding', () => {
    assert.deepEqual(summary(parsePyflakes(fixture('lint-pyflakes.txt'), 'p.py')), [
      '1 UnusedImport warning', '3 UnusedImport warning', '6 UnusedVariable warning',
    ]);
    assert.deepEqual(summary(parsePyflakes(fixture('lint-pyflakes-syntax.txt'), 'main.py')), ['1 SyntaxError error']);
    assert.throws(() => parsePyflakes('Traceback (most recent call last):\n', 'main.py'), AnalyzerOutputError);
  });
  it('bandit json: every finding is a security finding; bandit errors fail the analysis', () => {
    assert.deepEqual(summary(parseBandit(fixture('lint-bandit.json'))), [
      '2 B404 info security', '7 B602 error security', '8 B307 warning security',
    ]);
    assert.throws(() => parseBandit(fixture('lint-bandit-syntax.json')), /syntax error while parsing AST/);
    assert.throws(() => parseBandit('{"results": 3}'), AnalyzerOutputError);
  });
  it('eslint json: severities 2/1, fatal parse errors, eval rules as security', () => {
    const report = JSON.stringify([{
      filePath: '/box/main.js', messages: [
        { ruleId: 'no-unused-vars', severity: 2, message: "'x' is defined but never used.", line: 1, column: 5 },
        { ruleId: 'no-eval', severity: 2, message: 'eval can be harmful.', line: 2, column: 1 },
        { ruleId: 'no-empty', severity: 1, message: 'Empty block statement.', line: 3, column: 9 },
      ], errorCount: 2, warningCount: 1,
    }]);
    assert.deepEqual(summary(parseEslint(report)), ['1 no-unused-vars error', '2 no-eval error security', '3 no-empty warning']);
    const fatal = JSON.stringify([{ messages: [{ ruleId: null, fatal: true, severity: 2, message: 'Parsing error: Unexpected token', line: 1, column: 7 }] }]);
    assert.deepEqual(summary(parseEslint(fatal)), ['1 parse-error error']);
  });
});

describe('analysers and counts', () => {
  it('each sample language gets its analysers', () => {
    assert.deepEqual(analyzersFor('python').map((a) => a.id), ['pylint', 'pyflakes', 'bandit']);
    assert.deepEqual(analyzersFor('bash').map((a) => a.id), ['shellcheck']);
    assert.deepEqual(analyzersFor('cpp').map((a) => a.id), ['cppcheck']);
    assert.deepEqual(analyzersFor('python', ['bandit']).map((a) => a.id), ['bandit']);
    assert.deepEqual(analyzersFor('haskell'), []);
  });
  it('counts findings and security findings per 1,000 non-blank lines; failed analysers are listed, not counted as clean', () => {
    const lines = countLines(fixture('lint-sample.py'));
    assert.equal(lines, 7);
    const counts = countFindings({
      lines, outcomes: [
        { tool: 'bandit', status: 'ok', findings: parseBandit(fixture('lint-bandit.json')) },
        { tool: 'pylint', status: 'failed', reason: 'timed out' },
      ],
    });
    assert.equal(counts.findings, 3);
    assert.equal(counts.security, 3);
    assert.equal(counts.securityPerKloc, 3000 / 7);
    assert.deepEqual(counts.failed, ['pylint']);
  });
});

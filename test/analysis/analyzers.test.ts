/**
 * Each analyser run in the sandbox on a sample with known findings, through its tool language
 * (`languages/<tool>.yaml`) as src/analysis/analyzers.ts names it, its report read by its parser.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { ANALYZERS, type AnalyzerSpec } from '../../src/analysis/analyzers.js';
import { runLimits } from '../../src/limits.js';
import type { ExecutionResult } from '../../src/sandbox/types.js';
import { openExecutor } from '../support/sandbox.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../../test/fixtures/proof');
const fixture = (name: string): string => readFileSync(path.join(FIXTURES, name), 'utf8');

const { sandbox, executor, languages } = openExecutor(2);
after(async () => {
  await executor.close();
  sandbox.close();
});

/** Run `spec` on `source` (a sample in `sampleLanguage`) in the sandbox; its findings' rules. */
async function analyse(spec: AnalyzerSpec, sampleLanguage: string, source: string): Promise<{ rules: string[]; result: ExecutionResult }> {
  const tool = languages.get(spec.reads[sampleLanguage]!);
  const result = await executor.runProgram(tool, source, '', runLimits({ cpuMs: 30_000 }));
  assert.ok(result.exitCode !== null && spec.ranTo(result.exitCode), `${spec.id}: ${result.status} ${result.exitCode} ${result.stderr.slice(0, 300)}`);
  const report = spec.stream === 'stdout' ? result.stdout : spec.stream === 'stderr' ? result.stderr : `${result.stdout}${result.stderr}`;
  return { rules: spec.parse(report, `/box/${tool.sourceFile}`).map((f) => f.rule).sort(), result };
}

describe('analysers in the sandbox', { concurrency: true }, () => {
  it('shellcheck finds the unquoted expansions', async () => {
    const { rules } = await analyse(ANALYZERS.shellcheck, 'bash', fixture('lint-sample.sh'));
    assert.deepEqual(rules, ['SC2005', 'SC2006', 'SC2046', 'SC2086', 'SC2086', 'SC2115']);
  });
  it('cppcheck finds the overruns and the uninitialised read, in C and in C++', async () => {
    const expected = ['arrayIndexOutOfBounds', 'bufferAccessOutOfBounds', 'unassignedVariable', 'uninitvar'];
    assert.deepEqual((await analyse(ANALYZERS.cppcheck, 'c', fixture('lint-sample.c'))).rules, expected);
    assert.deepEqual((await analyse(ANALYZERS.cppcheck, 'cpp', fixture('lint-sample.c'))).rules, expected);
  });
  it('pylint, pyflakes and bandit read the Python sample', async () => {
    const source = fixture('lint-sample.py');
    const pylint = await analyse(ANALYZERS.pylint, 'python', source);
    assert.ok(pylint.rules.includes('W0123/eval-used') && pylint.rules.includes('W0611/unused-import'), pylint.rules.join(' '));
    assert.deepEqual((await analyse(ANALYZERS.pyflakes, 'python', source)).rules, ['UnusedImport', 'UnusedImport', 'UnusedVariable']);
    assert.deepEqual((await analyse(ANALYZERS.bandit, 'python', source)).rules, ['B307', 'B404', 'B602']);
  });
  it('pyflakes reports a syntax error; bandit fails on it rather than calling it clean', async () => {
    assert.deepEqual((await analyse(ANALYZERS.pyflakes, 'python', 'def f(:\n')).rules, ['SyntaxError']);
    await assert.rejects(analyse(ANALYZERS.bandit, 'python', 'def f(:\n'), /bandit: could not analyse/);
  });
  it('eslint (npm, Crucible\'s config) finds eval and an unused variable', async () => {
    const { rules } = await analyse(ANALYZERS.eslint, 'javascript', 'const x = 1;\neval("2");\nconsole.log(require("fs"));\n');
    assert.deepEqual(rules, ['no-eval', 'no-unused-vars']);
  });
});

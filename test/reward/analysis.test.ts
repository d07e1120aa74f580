/** The static analysis reward term's arithmetic, on hand cases: per-finding costs, security costs, caps, ignores, failures. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analysisPenalty, AnalysisTermSchema, computeReward, parseRewardSpec, RewardError, rewardOf } from '../../src/reward/index.js';
import type { AnalysisReport, Finding } from '../../src/verdict/index.js';

const f = (tool: Finding['tool'], rule: string, severity: Finding['severity'], security = false): Finding =>
  ({ tool, rule, severity, security, line: 1, message: rule });

/** pylint: 2 errors, 3 warnings, 4 infos; bandit: 1 HIGH and 1 LOW (both security). */
const report: AnalysisReport = {
  lines: 40,
  outcomes: [
    { tool: 'pylint', status: 'ok', findings: [
      f('pylint', 'E1', 'error'), f('pylint', 'E2', 'error'), f('pylint', 'W1', 'warning'), f('pylint', 'W2', 'warning'),
      f('pylint', 'W3', 'warning'), f('pylint', 'C1', 'info'), f('pylint', 'C2', 'info'), f('pylint', 'C3', 'info'), f('pylint', 'C4', 'info'),
    ] },
    { tool: 'bandit', status: 'ok', findings: [f('bandit', 'B602', 'error', true), f('bandit', 'B404', 'info', true)] },
  ],
};

describe('analysis term', () => {
  it('defaults: error 0.1, warning 0.05, info 0, security 0.2, capped at 0.5', () => {
    const term = AnalysisTermSchema.parse({});
    // 2*0.1 + 3*0.05 + 4*0 + 2*0.2 = 0.75 -> cap 0.5
    assert.equal(analysisPenalty(term, report, true), 0.5);
    const uncapped = AnalysisTermSchema.parse({ caps: { total: 10 } });
    assert.ok(Math.abs(analysisPenalty(uncapped, report, true) - 0.75) < 1e-12);
  });
  it('per-tool caps, tool selection, ignored rules, costs per kind', () => {
    const term = AnalysisTermSchema.parse({
      penalties: { error: 1, warning: 0.5, info: 0.25, security: 3 }, caps: { total: 100, perTool: { pylint: 2 } }, ignore: ['B404'],
    });
    // pylint: 2*1 + 3*0.5 + 4*0.25 = 4.5 -> capped at 2; bandit: 3 (B404 ignored) -> 5
    assert.equal(analysisPenalty(term, report, true), 5);
    const banditOnly = AnalysisTermSchema.parse({ tools: ['bandit'], penalties: { security: 0.25 }, caps: { total: 1 } });
    assert.equal(analysisPenalty(banditOnly, report, true), 0.5);
  });
  it('when: passed spares failing samples; a failed counted analyser is an error, an uncounted one is not', () => {
    const term = AnalysisTermSchema.parse({ when: 'passed' });
    assert.equal(analysisPenalty(term, report, false), 0);
    const failed: AnalysisReport = { lines: 1, outcomes: [...report.outcomes, { tool: 'pyflakes', status: 'failed', reason: 'crashed' }] };
    assert.throws(() => analysisPenalty(AnalysisTermSchema.parse({}), failed, true), /pyflakes failed/);
    assert.equal(analysisPenalty(AnalysisTermSchema.parse({ tools: ['bandit'] }), failed, true), 0.4);
  });
  it('in a reward spec: base reward minus the term; no_code and compile_error keep their penalty alone', () => {
    const spec = parseRewardSpec({ kind: 'fraction', penalties: { compileError: -1 }, analysis: { caps: { total: 0.3 } } });
    assert.ok(Math.abs(computeReward(spec, { status: 'passed', testsPassed: [true, true], analysis: report }) - 0.7) < 1e-12);
    assert.ok(Math.abs(computeReward(spec, { status: 'wrong_answer', testsPassed: [true, false], analysis: report }) - 0.2) < 1e-12);
    assert.equal(computeReward(spec, { status: 'compile_error', testsPassed: [], testCount: 2 }), -1);
    assert.throws(() => computeReward(spec, { status: 'passed', testsPassed: [true] }), RewardError);
    assert.throws(() => parseRewardSpec({ kind: 'binary', analysis: { tools: ['flake8'] } }));
    const verdict = { status: 'passed' as const, passed: true, tests: [{ index: 0, status: 'passed' as const }], testCount: 1, cpuMs: 1, wallMs: 1, analysis: report };
    assert.ok(Math.abs(rewardOf(spec, verdict)! - 0.7) < 1e-12);
    assert.equal(rewardOf(spec, { ...verdict, analysis: undefined }), null);
  });
});

/**
 * cvc5 (Debian's 1.0.3, languages/cvc5.yaml) as the proof kind's second SMT-LIB solver, through the real sandbox:
 * a sat file and an unsat file of ../shared/data/smt-lib are proved through the judge; a sat answer's model as cvc5
 * prints it is re-checked by a second cvc5 run, which refutes the same model with one value changed; and the two
 * files cvc5 1.0.3 aborts on (SIGABRT, data README) are the checker's failure: `SmtCheckError`, which the judge
 * answers `internal_error` (no reward), never `failed` of the candidate. A sample in `cvc5` on a problem whose default
 * solver is z3 is checked by cvc5.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { createJudge } from '../../../src/engine/factory.js';
import type { SmtProofProblem } from '../../../src/formats/types.js';
import { runLimits } from '../../../src/limits.js';
import { auditSmtScript, readModel, recheckScript, solverScript } from '../../../src/kinds/proof/smt/script.js';
import { parseSExprs } from '../../../src/kinds/proof/smt/sexpr.js';
import { SmtCheckError, smtFirstRun, smtRecheck } from '../../../src/kinds/proof/smt/verdict.js';
import { SMT_LIB } from '../../support/data.js';
import { nonce } from '../../support/proof.js';
import { openExecutor } from '../../support/sandbox.js';

const REGRESS = join(SMT_LIB, 'test', 'regress', 'cli', 'regress0');
const file = (path: string): string => readFileSync(join(REGRESS, path), 'utf8');
const problem = (taskId: string, expected: 'sat' | 'unsat', statement?: string): SmtProofProblem =>
  ({ kind: 'proof', checker: 'smt', taskId, expected, solver: 'cvc5', ...(statement === undefined ? {} : { statement }) });

const judge = createJudge({ slots: 2, cacheDir: null });
const { sandbox, executor, languages } = openExecutor(1);
after(async () => {
  await judge.close();
  await executor.close();
  sandbox.close();
});

const judged = (p: SmtProofProblem, source: string) => judge.judge({ problem: { inline: p }, program: { language: 'cvc5', source } });

describe('cvc5 through the proof kind', () => {
  test('a sat file (QF_LIA) and an unsat file (QF_NIA) are proved; the wrong expected answer fails', async () => {
    const sat = file('bug383.smt2');
    const unsat = file('arith/div.01.smt2');
    const [a, b, c] = await Promise.all([judged(problem('bug383', 'sat', sat), sat), judged(problem('div.01', 'unsat', unsat), unsat),
      judged(problem('div.01-as-sat', 'sat'), unsat)]);
    assert.equal(a.status, 'passed', a.reason);
    assert.equal(b.status, 'passed', b.reason);
    assert.equal(c.status, 'wrong_answer');
    assert.match(c.reason ?? '', /^failed: the solver answered unsat, expected sat/);
  });

  test('cvc5\'s model is re-checked by a second cvc5 run: it holds, and with one value changed it is refuted', async () => {
    const source = '(set-logic QF_LIA)\n(declare-const x Int)\n(declare-const y Int)\n(assert (> x 3))\n(assert (= (+ x y) 10))\n(check-sat)\n';
    const script = auditSmtScript(source, 'sat');
    const marker = `crucible${nonce()}`;
    const limits = runLimits({ cpuMs: 10_000 });
    const cvc5 = languages.get('cvc5');
    const first = smtFirstRun(script, 'sat', marker, await executor.runProgram(cvc5, solverScript(script, 'sat', marker), '', limits));
    assert.ok('recheck' in first, 'a sat answer asks for the model re-check');
    assert.ok(first.model.has('x') && first.model.has('y'), 'the model defines both constants');
    assert.equal(smtRecheck(script, await executor.runProgram(cvc5, first.recheck, '', limits), first.recheck).verdict, 'proved');
    const forged = new Map(first.model);
    forged.set('x', parseSExprs('(define-fun x () Int 3)')[0]!);
    const refuted = recheckScript(script, forged);
    const verdict = smtRecheck(script, await executor.runProgram(cvc5, refuted, '', limits), refuted);
    assert.equal(verdict.verdict, 'failed');
    assert.match(verdict.reason ?? '', /does not satisfy the assertions/);
  });

  test('a file cvc5 1.0.3 aborts on is internal_error (the checker crashed), not failed; the sample\'s language picks the solver', async () => {
    const crashing = file('bv/proj-issue321.smt2');
    // A z3 problem (as the smt-lib reader makes them): z3 proves it, and a sample in cvc5 is checked by cvc5.
    const z3Problem: SmtProofProblem = { ...problem('proj-issue321', 'unsat', crashing), solver: 'z3' };
    const [byCvc5, byZ3] = await Promise.all([judged(z3Problem, crashing),
      judge.judge({ problem: { inline: z3Problem }, program: { language: 'z3', source: crashing } })]);
    assert.equal(byZ3.status, 'passed', byZ3.reason);
    const verdict = byCvc5;
    assert.equal(verdict.status, 'internal_error', verdict.reason);
    assert.match(verdict.reason ?? '', /the solver crashed \((SIGABRT|SIGIOT)\)/);
    // The other one, whose own model check fails, read directly: the judgement throws the checker's error.
    const other = file('bv/issue8106.smt2');
    const script = auditSmtScript(other, 'sat', other);
    const marker = `crucible${nonce()}`;
    const run = await executor.runProgram(languages.get('cvc5'), solverScript(script, 'sat', marker), '', runLimits({ cpuMs: 20_000 }));
    assert.throws(() => smtFirstRun(script, 'sat', marker, run), (e: unknown) => e instanceof SmtCheckError && /crashed/.test(e.message));
  });
});

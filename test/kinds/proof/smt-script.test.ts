/**
 * SMT-LIB scripts: reading, the audit, our solver script, answers after the marker, models and their re-check
 * script. `test/fixtures/proof/smt-{z3,cvc5}-sat.txt` are what Debian's z3 4.8.12 and cvc5 1.0.3 printed for
 * `solverScript` of `smt-uf.smt2` (captured once); the runs themselves happen in the sandbox in the kind's tests.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { auditSmtScript, readModel, readSolverAnswer, recheckScript, solverScript } from '../../../src/kinds/proof/smt/script.js';
import { normalSExpr, parseSExprs, SExprError } from '../../../src/kinds/proof/smt/sexpr.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../../../test/fixtures/proof');
const fixture = (name: string): string => readFileSync(path.join(FIXTURES, name), 'utf8');
const MARKER = 'crucible0123456789abcdef';

describe('S-expressions', () => {
  it('comments, strings with "" and |quoted symbols| are read as the standard says', () => {
    const [a, b] = parseSExprs('; (assert false)\n(echo "a "" ) b") (assert |x ; y|)');
    assert.equal(normalSExpr(a!), '(echo "a "" ) b")');
    assert.equal(normalSExpr(b!), '(assert |x ; y|)');
    assert.throws(() => parseSExprs('(assert (> x 1)'), SExprError);
    assert.throws(() => parseSExprs('(echo "x)'), SExprError);
  });
});

describe('SMT script audit', () => {
  const statement = '(set-logic QF_LIA)\n(declare-const x Int)\n(assert (> x 3))\n(assert (< x 2))\n(check-sat)\n';
  it('keeps the commands before the first check, and the check-sat-assuming itself', () => {
    const s = auditSmtScript(`${statement}(get-model)(assert false)`, 'unsat', statement);
    assert.deepEqual(s.findings, []);
    assert.equal(s.commands.length, 4);
    const assuming = auditSmtScript('(declare-fun p () Bool)(check-sat-assuming (p (not p)))', 'unsat');
    assert.match(solverScript(assuming, 'unsat', MARKER), /\(echo "crucible0123456789abcdef"\)\n\(check-sat-assuming \(p \(not p\)\)\)\n$/);
  });
  it('a missing statement assertion, an added assertion for unsat, other assumptions are cheats', () => {
    const rules = (src: string, expected: 'sat' | 'unsat'): string[] => auditSmtScript(src, expected, statement).findings.map((f) => f.rule);
    assert.deepEqual(rules('(set-logic QF_LIA)(declare-const x Int)(assert (> x 3))(check-sat)', 'unsat'), ['changed_statement']);
    assert.deepEqual(rules(`${statement.replace('(check-sat)', '')}(assert false)(check-sat)`, 'unsat'), ['added_assertion']);
    assert.deepEqual(rules(`${statement.replace('(check-sat)', '')}(assert (= x 0))(check-sat)`, 'sat'), []);
    assert.deepEqual(rules(`${statement.replace('(check-sat)', '(check-sat-assuming (false))')}`, 'unsat'), ['changed_statement']);
  });
  it('commands that change what the check sees or where its answer goes are cheats', () => {
    const rules = (src: string): string[] => auditSmtScript(src, 'unsat').findings.map((f) => f.rule);
    assert.deepEqual(rules('(push 1)(assert true)(pop 1)(reset-assertions)(check-sat)'), ['state_command', 'state_command', 'state_command']);
    assert.deepEqual(rules('(set-option :regular-output-channel "out.txt")(check-sat)'), ['output_option']);
    assert.equal(auditSmtScript('(assert (> x 1)', 'sat').unreadable, 'line 1: unclosed (');
  });
});

describe('solver answers and models', () => {
  const script = auditSmtScript(fixture('smt-uf.smt2'), 'sat');
  it('our script asks for models, runs the kept commands, marks, checks', () => {
    const text = solverScript(script, 'sat', MARKER);
    assert.match(text, /^\(set-option :produce-models true\)\n\(set-logic QF_AUFLIA\)/);
    assert.match(text, /\(echo "crucible0123456789abcdef"\)\n\(check-sat\)\n\(get-model\)\n$/);
    assert.doesNotMatch(text, /\(get-model\)\n\(echo/);
  });
  it('the answer is the line after the marker (z3 prints it bare, cvc5 quoted); printed text before it does not count', () => {
    assert.equal(readSolverAnswer(fixture('smt-z3-sat.txt'), MARKER).answer, 'sat');
    assert.equal(readSolverAnswer(fixture('smt-cvc5-sat.txt'), MARKER).answer, 'sat');
    assert.equal(readSolverAnswer('unsat\n(error "x")\n', MARKER).answer, null);
    assert.equal(readSolverAnswer(`crucible00\nunsat\n${MARKER}\n`, MARKER).answer, null);
  });
  it('a z3 model re-checks with each declared symbol defined, universe elements declared before use', () => {
    const model = readModel(readSolverAnswer(fixture('smt-z3-sat.txt'), MARKER).rest);
    assert.deepEqual([...model.keys()].sort(), ['U!val!0', 'U!val!1', 'a', 'f', 'u', 'v', 'x']);
    const recheck = recheckScript(script, model);
    assert.match(recheck, /\(declare-fun U!val!0 \(\) U\)\n\(define-fun u \(\) U U!val!0\)/);
    assert.match(recheck, /\(define-fun x \(\) Int 2\)/);
    assert.match(recheck, /\(define-fun f \(\(x!0 Int\)\) Int 4\)/);
    assert.doesNotMatch(recheck, /declare-fun f|declare-const/);
    assert.match(recheck, /\(assert \(> \(f x\) 3\)\)\n\(assert \(not \(= u v\)\)\)\n\(assert \(= \(select a 2\) \(f x\)\)\)\n\(check-sat\)\n$/);
  });
  it('cvc5 abstract values of uninterpreted sorts stay declared', () => {
    const recheck = recheckScript(script, readModel(readSolverAnswer(fixture('smt-cvc5-sat.txt'), MARKER).rest));
    assert.match(recheck, /\(declare-fun u \(\) U\)/);
    assert.match(recheck, /\(define-fun a \(\) \(Array Int Int\) \(store \(\(as const \(Array Int Int\)\) 0\) 2 4\)\)/);
  });
});

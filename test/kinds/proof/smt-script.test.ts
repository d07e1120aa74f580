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
import { recheckRetry, smtFirstRun, smtRecheck } from '../../../src/kinds/proof/smt/verdict.js';
import type { ExecutionResult } from '../../../src/sandbox/types.js';

/** A finished solver run that printed `stdout`. */
const ran = (stdout: string): ExecutionResult => ({ status: 'ok', exitCode: 0, signal: null, cpuMs: 5, wallMs: 9, memoryKiB: 1024, stdout,
  stderr: '', stdoutTruncated: false, stderrTruncated: false, memoryEnforcement: 'cgroup' });

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
    assert.deepEqual(rules('(include "/tmp/assert-false.smt2")(check-sat)'), ['include']);
  });
  it('a command binding a name the statement uses is a cheat (z3 drops the statement\'s commands, or reads * as a function)', () => {
    const rules = (src: string, expected: 'sat' | 'unsat' = 'sat'): string[] => auditSmtScript(src, expected, statement).findings.map((f) => f.rule);
    const body = statement.replace('(check-sat)\n', '');
    assert.deepEqual(rules(`(declare-const x Bool)${body}(check-sat)`), ['shadowed_symbol']);
    assert.deepEqual(rules(`(declare-fun > (Int Int) Bool)${body}(check-sat)`), ['shadowed_symbol']);
    assert.deepEqual(rules(`(define-fun |x| () Int 0)${body}(check-sat)`, 'unsat'), ['shadowed_symbol']);
    assert.deepEqual(rules(`(declare-datatypes ((D 0)) (((x) (k (sel Int)))))${body}(check-sat)`), ['shadowed_symbol']);
    assert.deepEqual(rules(`${body}(assert (! (= x 5) :named x))(check-sat)`), ['shadowed_symbol']);
    // The statement's own declarations, and helpers of other names, are free.
    assert.deepEqual(rules(`${body}(define-fun twice ((x Int)) Int (* 2 x))(assert (= x (twice 2)))(check-sat)`), []);
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

describe('a solver that refused a command', () => {
  const script = auditSmtScript('(declare-const x Int)(assert (> x 3))(check-sat)', 'unsat');
  it('before our marker: failed, whatever it answered (the refused command may be the statement\'s)', () => {
    const first = smtFirstRun(script, 'unsat', MARKER, ran(`(error "line 2 column 9: ambiguous constant reference")\n${MARKER}\nunsat\n`));
    assert.ok('done' in first);
    assert.equal(first.done.verdict, 'failed');
    assert.match(first.done.reason!, /refused a command.*ambiguous/);
    const clean = smtFirstRun(script, 'unsat', MARKER, ran(`${MARKER}\nunsat\n`));
    assert.ok('done' in clean && clean.done.verdict === 'proved');
  });
  it('an option another solver has (z3 refuses it and goes on) is no refusal; an unplaced error is', () => {
    const withOption = auditSmtScript('(set-option :incremental false)\n(declare-const x Int)(assert (> x 3))(check-sat)', 'unsat');
    const option = smtFirstRun(withOption, 'unsat', MARKER, ran(`(error "line 2 column 26: unknown parameter 'incremental'")\n${MARKER}\nunsat\n`));
    assert.ok('done' in option && option.done.verdict === 'proved', JSON.stringify(option));
    const assertion = smtFirstRun(withOption, 'unsat', MARKER, ran(`(error "line 3 column 2: invalid assert")\n${MARKER}\nunsat\n`));
    assert.ok('done' in assertion && assertion.done.verdict === 'failed');
    const unplaced = smtFirstRun(withOption, 'unsat', MARKER, ran(`(error "Parse Error: main.smt2: x")\n${MARKER}\nunsat\n`));
    assert.ok('done' in unplaced && unplaced.done.verdict === 'failed');
  });
  it('in the model re-check: failed', () => {
    assert.equal(smtRecheck(script, ran('(error "line 3: unknown constant y")\nsat\n')).verdict, 'failed');
    assert.equal(smtRecheck(script, ran('sat\n')).verdict, 'proved');
  });
});

describe('a model value the solver cannot read back', () => {
  const script = auditSmtScript('(set-logic QF_AX)\n(declare-const x (Array Bool Bool))\n(declare-const b Bool)\n(assert (select (store x b false) false))\n(check-sat)', 'sat');
  const model = readModel('(model (define-fun x () (Array Bool Bool) (lambda ((y Bool)) (not y))) (define-fun b () Bool true))');
  const recheck = recheckScript(script, model);
  it('the re-check is retried with term-valued symbols left declared (z3 placed the refusal at the next assertion)', () => {
    const retry = recheckRetry(script, model, ran('(error "line 4 column 41: logic does not support quantifiers")\nsat\n'), recheck);
    assert.ok(retry !== null);
    assert.match(retry, /\(declare-const x \(Array Bool Bool\)\)\n\(define-fun b \(\) Bool true\)/);
  });
  it('a refused model definition is left declared alone; a clean re-check is not retried', () => {
    const line = recheck.split('\n').findIndex((l) => l.startsWith('(define-fun b')) + 1;
    const retry = recheckRetry(script, model, ran(`(error "line ${line} column 3: bad value")\nsat\n`), recheck);
    assert.match(retry!, /\(declare-const b Bool\)/);
    assert.match(retry!, /\(define-fun x /);
    assert.equal(recheckRetry(script, model, ran('sat\n'), recheck), null);
  });
});

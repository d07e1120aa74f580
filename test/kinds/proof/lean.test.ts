/**
 * The Lean proxy: client, token audit and verdicts, against a stub of kimina-lean-server's `/verify` that answers
 * in its published shape (test/support/kimina-stub.ts). The stub's "Lean" is a toy that prints what our appended
 * commands would print for one-line theorem statements; what is tested is the request, the reading of the
 * answer, and the audit.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { auditLeanOutputs, LEAN_DEFAULT_AXIOMS, leanCheckCode, leanConstructs, leanOutputs, parsePrintAxioms } from '../../../src/kinds/proof/lean/audit.js';
import { leanVerify, LeanServerError } from '../../../src/kinds/proof/lean/client.js';
import { leanJudgement } from '../../../src/kinds/proof/lean/verdict.js';
import { startKiminaStub, toyLean, type KiminaStub } from '../../support/kimina-stub.js';

const STATEMENT = 'import Mathlib\n\ntheorem add_zero\' : ∀ n : Nat, n + 0 = n := by\n  sorry\n';
const GENUINE = 'import Mathlib\n\ntheorem add_zero\' : ∀ n : Nat, n + 0 = n := by\n  intro n\n  rfl\n';

describe('Lean proxy', () => {
  let stub: KiminaStub;
  let server: { url: string; timeoutMs: number };
  before(async () => {
    stub = await startKiminaStub(toyLean);
    server = { url: stub.url, timeoutMs: 5000 };
  });
  after(async () => stub.close());

  const judge = async (candidate: string) => {
    const theorems = ['add_zero\''];
    const ref = leanCheckCode(STATEMENT, theorems, []);
    const [refResult] = await leanVerify(server, [{ id: 'reference', code: ref.code }]);
    assert.equal(refResult!.kind, 'checked');
    const reference = leanOutputs(refResult!.kind === 'checked' ? refResult!.messages : [], ref.blocks);
    const mine = leanCheckCode(candidate, theorems, []);
    const [result] = await leanVerify(server, [{ id: 'candidate', code: mine.code }]);
    return leanJudgement({ statement: STATEMENT, reference, allowedAxioms: LEAN_DEFAULT_AXIOMS, blocks: mine.blocks, candidate, result: result! });
  };

  it('sends the published request shape and reads the published answer', async () => {
    const { code } = leanCheckCode(GENUINE, ['add_zero\''], []);
    const [result] = await leanVerify({ url: `${stub.url}/`, timeoutMs: 2500 }, [{ id: 'x1', code }]);
    assert.equal(result!.kind, 'checked');
    const request = stub.requests.at(-1) as { codes: { custom_id: string; proof: string }[]; timeout: number };
    assert.deepEqual(Object.keys(request).sort(), ['codes', 'disable_cache', 'timeout']);
    assert.equal(request.timeout, 3);
    assert.equal(request.codes[0]!.custom_id, 'x1');
    assert.match(request.codes[0]!.proof, /\nset_option pp\.all true in\n#check @_root_\.add_zero'\n#print axioms _root_\.add_zero'\n$/);
  });
  it('a genuine proof is proved; sorry is a hole', async () => {
    assert.equal((await judge(GENUINE)).verdict, 'proved');
    assert.equal((await judge(STATEMENT)).verdict, 'proved_with_holes');
    assert.equal((await judge(GENUINE.replace('rfl', 'rfl -- sorry, not really'))).verdict, 'proved');
  });
  it('an axiom, a changed statement, a spoofing macro, an unsafe option, #exit and another import are cheats', async () => {
    const cases: Record<string, string> = {
      axiom: GENUINE.replace('theorem', 'axiom cheat : False\n\ntheorem').replace('intro n\n  rfl', 'exact cheat.elim'),
      statement: 'import Mathlib\n\ntheorem add_zero\' : True := by\n  trivial\n',
      macro: `${GENUINE}\nmacro "#print" "axioms" x:ident : command => \`(#check $x)\n`,
      option: GENUINE.replace('theorem', 'set_option debug.skipKernelTC true in\ntheorem'),
      exit: `${GENUINE}\n#exit\n`,
      import: GENUINE.replace('import Mathlib', 'import Mathlib\nimport Cheats'),
    };
    for (const [name, candidate] of Object.entries(cases)) {
      const j = await judge(candidate);
      assert.equal(j.verdict, 'cheated', `${name}: ${j.verdict} ${j.reason ?? ''}`);
    }
  });
  it('comments and strings do not count as constructs', () => {
    const r = leanConstructs(STATEMENT, `${GENUINE}/- axiom x : False\n  /- nested macro -/ sorry -/\ndef s := "#eval sorry"\n`);
    assert.deepEqual(r.findings, []);
  });
  it('a Lean error is failed, a time-out timeout; server failures are errors, not verdicts', async () => {
    assert.equal((await judge(GENUINE.replace('rfl', 'exact ERROR'))).verdict, 'failed');
    assert.equal((await judge(`${GENUINE}-- loop_forever\n`)).verdict, 'timeout');
    await assert.rejects(judge(`${GENUINE}-- CRASH_REPL\n`), LeanServerError);
    await assert.rejects(leanVerify(server, [{ id: 'b', code: 'NO_REPL' }]), (e: unknown) => e instanceof LeanServerError && e.status === 429);
    await assert.rejects(leanVerify({ url: 'http://127.0.0.1:9', timeoutMs: 1000 }, [{ id: 'c', code: '' }]), /unreachable/);
  });
  it('reads #print axioms texts; an unreadable one is not a pass', () => {
    assert.deepEqual(parsePrintAxioms("'f' depends on axioms: [propext, Classical.choice, Quot.sound]"), ['propext', 'Classical.choice', 'Quot.sound']);
    assert.deepEqual(parsePrintAxioms("'f' does not depend on any axioms"), []);
    assert.equal(parsePrintAxioms('something else'), null);
    const findings = auditLeanOutputs({ statements: {}, definitions: {}, axioms: {} }, { statements: {}, definitions: {}, axioms: { f: null } }, LEAN_DEFAULT_AXIOMS);
    assert.equal(findings[0]!.severity, 'cheat');
  });
});

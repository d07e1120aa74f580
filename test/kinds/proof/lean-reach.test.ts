/**
 * Lean 4 reachable from `crucible eval` and `/v1/judge` (#27): a Lean statements file judged through the proof kind
 * on a kimina-lean-server stub (test/support/kimina-stub.ts, the toy Lean `toyLean`) on a free loopback port, the
 * endpoint the operator's (`--lean-endpoint`, `CRUCIBLE_LEAN_ENDPOINT`). What is tested: the wiring (the language
 * `lean` without a language file, the plan's call, the verdicts as sample statuses), the time limit enforced from
 * our side, and the server's failures and a missing endpoint as `internal_error`, never the candidate's `failed`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readProblems } from '../../../src/formats/index.js';
import type { LeanProofProblem } from '../../../src/formats/types.js';
import { LEAN_ENDPOINT_ENV } from '../../../src/kinds/proof/lean/remote.js';
import { Sandbox } from '../../../src/sandbox/index.js';
import { startServer, type ServerHandle } from '../../../src/server/index.js';
import { createLogger } from '../../../src/server/logging.js';
import { cliWorkspace } from '../../support/cli.js';
import { httpCall } from '../../support/http.js';
import { startKiminaStub, toyLean, type KiminaStub } from '../../support/kimina-stub.js';

const STATEMENT = 'import Mathlib\n\ntheorem add_zero\' : ∀ n : Nat, n + 0 = n := by\n  sorry\n';
const GENUINE = 'import Mathlib\n\ntheorem add_zero\' : ∀ n : Nat, n + 0 = n := by\n  intro n\n  rfl\n';
/** The candidates of one task, by what each must earn: [status, proof verdict or null]. */
const CANDIDATES: readonly { name: string; code: string; want: [string, string | null] }[] = [
  { name: 'genuine', code: GENUINE, want: ['passed', null] },
  { name: 'sorry', code: STATEMENT, want: ['wrong_answer', 'proved_with_holes'] },
  { name: 'axiom', code: GENUINE.replace('theorem', 'axiom cheat : False\n\ntheorem').replace('intro n\n  rfl', 'exact cheat.elim'), want: ['wrong_answer', 'cheated'] },
  { name: 'changed statement', code: 'import Mathlib\n\ntheorem add_zero\' : True := by\n  trivial\n', want: ['wrong_answer', 'cheated'] },
  { name: 'lean error', code: GENUINE.replace('rfl', 'exact ERROR'), want: ['wrong_answer', 'failed'] },
  { name: 'server time-out', code: `${GENUINE}-- loop_forever\n`, want: ['time_limit_exceeded', 'timeout'] },
  { name: 'no answer by our deadline', code: `${GENUINE}-- SLOW_SERVER\n`, want: ['time_limit_exceeded', 'timeout'] },
];

const cli = cliWorkspace('lean');
let stub: KiminaStub;
before(async () => {
  stub = await startKiminaStub(toyLean);
});
after(async () => stub.close());

interface Row { taskId: string; sampleIndex: number; status: string; reason?: string }
function verdictRows(out: string): Row[] {
  return readFileSync(join(out, 'verdicts.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Row)
    .sort((a, b) => a.sampleIndex - b.sampleIndex);
}
const proofOf = (row: { status: string; reason?: string }): [string, string | null] => [row.status, /^(\w+):/.exec(row.reason ?? '')?.[1] ?? null];

describe('crucible eval on Lean statements', () => {
  const problems = cli.file('lean.jsonl', [{ task_id: 'add_zero', checker: 'lean', statement: STATEMENT }]);
  const samples = cli.file('samples.jsonl', CANDIDATES.map((c) => ({ task_id: 'add_zero', solution: c.code })));
  const evalArgs = (out: string, ...more: string[]) => ['eval', '--problems', problems, '--samples', samples, '--out', join(cli.dir, out),
    '--time-limit', '0.5', '--no-store', '--no-progress', '--json', ...more];

  test('the statements file is read as Lean proof problems (--format auto)', async () => {
    const [problem] = (await readProblems(problems)) as LeanProofProblem[];
    assert.deepEqual({ checker: problem!.checker, theorems: problem!.theorems }, { checker: 'lean', theorems: ['add_zero\''] });
  });
  test('miniF2F rows (header + formal_statement) are read with the proof sorry; bad rows name file, line and field', async () => {
    const minif2f = cli.file('minif2f.jsonl', [{ name: 'mathd_algebra_10', split: 'valid', informal_prefix: '/- x -/\n',
      header: 'import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 400000\n\n', formal_statement: 'theorem mathd_algebra_10 : abs ((120 : ℝ) / 100 * 30 - 130) = 94 := by\n' }]);
    const [p] = (await readProblems(minif2f)) as LeanProofProblem[];
    assert.deepEqual(p!.theorems, ['mathd_algebra_10']);
    assert.ok(p!.statement.startsWith('import Mathlib\nimport Aesop\n') && p!.statement.endsWith(':= by\n  sorry\n'), p!.statement);
    assert.ok(p!.prompt!.endsWith(':= by\n'));
    const twice = cli.file('twice.jsonl', [{ task_id: 'a', checker: 'lean', statement: STATEMENT }, { task_id: 'a', checker: 'lean', statement: STATEMENT }]);
    await assert.rejects(readProblems(twice), /twice\.jsonl.*2.*task_id.*duplicate task id "a"/s);
    const none = cli.file('none.jsonl', [{ task_id: 'b', checker: 'lean', statement: 'import Mathlib\n-- theorem hidden : True := sorry\n' }]);
    await assert.rejects(readProblems(none), /theorems.*no theorem/s);
  });
  test('--lean-endpoint: each sample gets its proof verdict from the stub', async () => {
    const outcome = await cli.crucible(evalArgs('judged', '--lean-endpoint', stub.url));
    assert.equal(outcome.code, 0, outcome.stderr);
    const rows = verdictRows(join(cli.dir, 'judged'));
    assert.equal(rows.length, CANDIDATES.length);
    CANDIDATES.forEach((c, i) => assert.deepEqual(proofOf(rows[i]!), c.want, `${c.name}: ${rows[i]!.reason ?? ''}`));
    assert.match(rows[6]!.reason ?? '', /did not answer within 2000 ms/);
    // The axiom cheat is decided by the token audit: it never reached the server.
    const sent = stub.requests.flatMap((r) => (r as { codes: { proof: string }[] }).codes.map((c) => c.proof));
    assert.ok(!sent.some((code) => code.includes('axiom cheat')));
  });
  test('the endpoint down, or none configured, is internal_error naming what is missing, never failed', async () => {
    const down = await startKiminaStub(toyLean);
    await down.close();
    await cli.crucible(evalArgs('down', '--lean-endpoint', down.url, '--tasks', 'add_zero'));
    const downRows = verdictRows(join(cli.dir, 'down'));
    for (const row of downRows.filter((r) => r.status !== 'wrong_answer')) {
      assert.equal(row.status, 'internal_error', row.reason);
      assert.match(row.reason ?? '', /unreachable/);
    }
    assert.ok(downRows.filter((r) => r.status === 'internal_error').length >= 5);
    await cli.crucible(evalArgs('unset'));
    const unset = verdictRows(join(cli.dir, 'unset')).filter((r) => r.status === 'internal_error');
    assert.ok(unset.length >= 5);
    assert.match(unset[0]!.reason ?? '', /--lean-endpoint URL or set CRUCIBLE_LEAN_ENDPOINT/);
  });
});

describe('/v1/judge on a loaded Lean problem', () => {
  const problem: LeanProofProblem = { kind: 'proof', checker: 'lean', taskId: 'add_zero', statement: STATEMENT, theorems: ['add_zero\''] };
  let sandbox: Sandbox;
  let server: ServerHandle;
  before(async () => {
    process.env[LEAN_ENDPOINT_ENV] = stub.url;
    sandbox = Sandbox.create({ slots: 1 });
    server = await startServer({ port: 0, logLevel: 'silent', timeLimitMs: 500 }, { sandbox, problems: [problem], logger: createLogger('silent') });
  });
  after(async () => {
    delete process.env[LEAN_ENDPOINT_ENV];
    await server.shutdown(1000);
    sandbox.close();
  });
  const judge = (code: string, extra: object = {}) => httpCall(server.url, 'POST', '/v1/judge', { code, problem: 'add_zero', ...extra });

  test('proved, a hole, cheats, and time-outs, the language chosen by the problem', async () => {
    for (const c of CANDIDATES) {
      const answer = await judge(c.code);
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(proofOf(answer.body), c.want, `${c.name}: ${JSON.stringify(answer.body)}`);
    }
    const fenced = await httpCall(server.url, 'POST', '/v1/judge', { response: `Here:\n\`\`\`lean4\n${GENUINE}\`\`\`\n`, problem: 'add_zero' });
    assert.equal(fenced.body.status, 'passed', fenced.text);
  });
  test('429 is tried again then internal_error; no endpoint is internal_error naming the setting', async () => {
    const busy = await judge(`${GENUINE}\n#check NO_REPL\n`);
    // /v1/judge answers Crucible's failure as HTTP 500 with the verdict (docs/API.md).
    assert.equal(busy.status, 500, busy.text);
    assert.equal(busy.body.verdict.status, 'internal_error');
    assert.match(busy.body.verdict.reason, /HTTP 429/);
    assert.ok(stub.requests.filter((r) => JSON.stringify(r).includes('NO_REPL')).length >= 1 + 3, 'tried again after 429');
    delete process.env[LEAN_ENDPOINT_ENV];
    const unset = await judge(`${GENUINE}\n-- another program\n`);
    assert.equal(unset.status, 500, unset.text);
    assert.equal(unset.body.verdict.status, 'internal_error');
    assert.match(unset.body.verdict.reason, /none is configured: start Crucible with --lean-endpoint URL or set CRUCIBLE_LEAN_ENDPOINT/);
    process.env[LEAN_ENDPOINT_ENV] = stub.url;
  });
});

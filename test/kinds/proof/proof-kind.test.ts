/**
 * The `proof` kind through the judge (`createJudge`, the real sandbox, the kind's plans): Coq exploits of
 * test/hostile/programs/proof/coq against statement.v (reference genuine.v, made once as the kind's reference),
 * SMT-LIB scripts of ../shared/data/smt-lib with cheats, a Dafny problem verified by Debian's Dafny 2.3 with the
 * audit's cheats, the proof folders read by `--format auto` and hashed, and `/v1/judge` and a `program` session on
 * loaded proof problems.
 * A proof verdict is the sample status's reason prefix (`src/kinds/proof/proof.ts`).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createJudge } from '../../../src/engine/factory.js';
import { datasetHash, readProblems } from '../../../src/formats/index.js';
import type { CoqProofProblem, DafnyProofProblem, SmtProofProblem } from '../../../src/formats/types.js';
import { Sandbox } from '../../../src/sandbox/index.js';
import { PROJECT_ROOT } from '../../../src/sandbox/paths.js';
import { startServer, type ServerHandle } from '../../../src/server/index.js';
import { createLogger } from '../../../src/server/logging.js';
import type { Verdict } from '../../../src/verdict/index.js';
import { COQ_ART, DAFNYBENCH, SMT_LIB } from '../../support/data.js';
import { httpCall } from '../../support/http.js';

const COQ_DIR = join(PROJECT_ROOT, 'test', 'hostile', 'programs', 'proof', 'coq');
const coqFile = (name: string): string => readFileSync(join(COQ_DIR, name), 'utf8');

const coq: CoqProofProblem = {
  kind: 'proof', checker: 'coq', taskId: 'double_ev', statement: coqFile('statement.v'), reference: coqFile('genuine.v'),
  theorems: ['double_ev', 'ev_4'],
};

const MAX = 'method Max(a: int, b: int) returns (m: int)\n  ensures m >= a && m >= b\n{\n  if a > b { m := a; } else { m := b; }\n}\n';
const dafny: DafnyProofProblem = { kind: 'proof', checker: 'dafny', taskId: 'max', statement: MAX, reference: MAX };

const judge = createJudge({ slots: 2, cacheDir: null });
after(async () => {
  await judge.close();
});

/** The verdict's status and the proof verdict its reason starts with (`proved` for a pass). */
function proofOf(verdict: Verdict): [string, string] {
  return [verdict.status, verdict.status === 'passed' ? 'proved' : (verdict.reason ?? '').split(':')[0]!];
}

const judged = (problem: CoqProofProblem | DafnyProofProblem | SmtProofProblem, source: string, language?: string): Promise<Verdict> =>
  judge.judge({ problem: { inline: problem }, program: { language: language ?? (problem.checker === 'smt' ? problem.solver : problem.checker), source } });

describe('Coq through the proof kind', () => {
  const expected: Readonly<Record<string, [string, string]>> = {
    'genuine.v': ['passed', 'proved'],
    'admitted.v': ['wrong_answer', 'proved_with_holes'],
    'axiom_false.v': ['wrong_answer', 'cheated'],
    'changed_statement.v': ['wrong_answer', 'cheated'],
    'weaker_lemma_renamed.v': ['wrong_answer', 'cheated'],
    'unset_guard_checking.v': ['wrong_answer', 'cheated'],
    'fake_closed_output.v': ['wrong_answer', 'cheated'],
    'notation_spoofs_print_assumptions.v': ['wrong_answer', 'cheated'],
    'shadow_library_path.v': ['wrong_answer', 'failed'],
  };
  for (const [file, want] of Object.entries(expected)) {
    test(`${file}: ${want[1]}`, async () => {
      const verdict = await judged(coq, coqFile(file));
      assert.deepEqual(proofOf(verdict), want, verdict.reason);
    });
  }
  test('a file coqc rejects is failed; the reference was made once for all of them', async () => {
    const verdict = await judged(coq, coqFile('genuine.v').replace('repeat constructor', 'exact I'));
    assert.deepEqual(proofOf(verdict), ['wrong_answer', 'failed'], verdict.reason);
    assert.equal(judge.stats().groundTruthRuns, 1);
  });
  test('only the coq language judges a Coq problem', async () => {
    await assert.rejects(judged(coq, coqFile('genuine.v'), 'python'), /cannot be judged in python/);
  });
});

describe('SMT-LIB through the proof kind', () => {
  let problems: SmtProofProblem[] = [];
  before(async () => {
    problems = (await readProblems(SMT_LIB)) as SmtProofProblem[];
  });
  test('the published scripts are proved by z3; an added (assert false) is a cheat for unsat and a failure for sat, a (reset) a cheat', async () => {
    const sat = problems.find((p) => p.expected === 'sat' && p.statement!.includes('(check-sat)'))!;
    const unsat = problems.find((p) => p.expected === 'unsat' && p.statement!.includes('(check-sat)'))!;
    for (const p of [sat, unsat]) assert.deepEqual(proofOf(await judged(p, p.statement!)), ['passed', 'proved'], p.taskId);
    const falsified = unsat.statement!.replace('(check-sat)', '(assert false)\n(check-sat)');
    assert.deepEqual(proofOf(await judged(unsat, falsified)), ['wrong_answer', 'cheated']);
    // An assertion added where sat is expected makes the proof harder, not easier: the solver's unsat fails it.
    assert.deepEqual(proofOf(await judged(sat, sat.statement!.replace('(check-sat)', '(assert false)\n(check-sat)'))), ['wrong_answer', 'failed']);
    assert.deepEqual(proofOf(await judged(unsat, unsat.statement!.replace('(check-sat)', '(reset)\n(check-sat)'))), ['wrong_answer', 'cheated']);
  });
});

describe('Dafny through the proof kind (Debian\'s Dafny 2.3)', () => {
  test('a verified program is proved; a wrong body fails verification', async () => {
    assert.deepEqual(proofOf(await judged(dafny, MAX)), ['passed', 'proved']);
    const wrong = await judged(dafny, MAX.replace('if a > b { m := a; } else { m := b; }', 'm := a;'));
    assert.deepEqual(proofOf(wrong), ['wrong_answer', 'failed'], wrong.reason);
    assert.match(wrong.reason ?? '', /0 verified, 1 error/);
  });
  test('assume, {:verify  false} and a weakened contract are cheats, decided by the audit', async () => {
    for (const cheat of [MAX.replace('{\n  if', '{\n  assume false;\n  if'), MAX.replace('method Max', 'method {:verify  false} Max'),
      MAX.replace('ensures m >= a && m >= b', 'ensures m >= a')]) {
      assert.deepEqual(proofOf(await judged(dafny, cheat)), ['wrong_answer', 'cheated'], cheat);
    }
  });
});

describe('proof data sets as problem files', () => {
  test('--format auto reads the three folders as proof problems, and each folder has a dataset hash', async () => {
    const counts: Record<string, number> = {};
    for (const dir of [COQ_ART, DAFNYBENCH, SMT_LIB]) {
      const problems = await readProblems(dir);
      assert.ok(problems.every((p) => p.kind === 'proof'));
      counts[dir] = problems.length;
      assert.match(await datasetHash(dir), /^[0-9a-f]{64}$/);
    }
    assert.deepEqual(Object.values(counts), [30, 150, 50]);
  });
});

/** A small sat SMT problem for sessions: two factors of 391 above 1 (17 x 23). */
const factor: SmtProofProblem = {
  kind: 'proof', checker: 'smt', taskId: 'factor', expected: 'sat', solver: 'z3',
  statement: '(declare-const p Int)\n(declare-const q Int)\n(assert (> p 1))\n(assert (> q 1))\n(assert (= (* p q) 391))\n',
};

describe('/v1/judge and sessions on loaded proof problems', () => {
  let sandbox: Sandbox;
  let server: ServerHandle;
  before(async () => {
    sandbox = Sandbox.create({ slots: 2 });
    server = await startServer({ port: 0, logLevel: 'silent' }, { sandbox, problems: [dafny, coq, factor], logger: createLogger('silent') });
  });
  after(async () => {
    await server.shutdown(1000);
    sandbox.close();
  });
  test('a Coq proof and a cheat by task id, the language chosen by the problem', async () => {
    const proved = await httpCall(server.url, 'POST', '/v1/judge', { code: coqFile('genuine.v'), problem: 'double_ev' });
    assert.equal(proved.status, 200);
    assert.equal(proved.body.status, 'passed', JSON.stringify(proved.body));
    const cheat = await httpCall(server.url, 'POST', '/v1/judge', { code: coqFile('axiom_false.v'), problem: 'double_ev' });
    assert.equal(cheat.body.status, 'wrong_answer');
    assert.match(cheat.body.reason, /^cheated: /);
    const dafnyCheat = await httpCall(server.url, 'POST', '/v1/judge', { code: MAX.replace('{\n  if', '{\n  assume false;\n  if'), problem: 'max' });
    assert.match(dafnyCheat.body.reason, /^cheated: /);
  });
  test('a program session on a proof problem: the statement shown, the checker\'s messages after the audit observed, reward the verdict', async () => {
    const created = await httpCall(server.url, 'POST', '/v1/sessions', { environment: 'program', task: { problem: 'factor' } });
    assert.equal(created.status, 201, created.text);
    assert.match(created.body.observation.message, /language z3/);
    assert.ok(created.body.observation.message.includes('(assert (= (* p q) 391))'), 'the statement is the task');
    const step = (code: string) => httpCall(server.url, 'POST', `/v1/sessions/${created.body.id}/step`, { action: { kind: 'submit', code } });
    const dropped = await step(factor.statement!.replace('(assert (> p 1))\n', '') + '(check-sat)\n');
    assert.equal(dropped.status, 200, dropped.text);
    assert.equal(dropped.body.reward, 0);
    assert.match(dropped.body.observation.reason, /^cheated: .*missing/);
    const wrong = await step(`${factor.statement!}(assert (= p 2))\n(check-sat)\n`);
    assert.equal(wrong.body.reward, 0);
    assert.match(wrong.body.observation.reason, /^failed: the solver answered unsat, expected sat/);
    assert.match(wrong.body.observation.feedback, /the solver answered unsat/);
    const proved = await step(`${factor.statement!}(assert (= p 17))\n(check-sat)\n`);
    assert.equal(proved.body.reward, 1, proved.text);
    assert.equal(proved.body.done, true);
    assert.equal(proved.body.observation.verdict.status, 'passed');
  });
});

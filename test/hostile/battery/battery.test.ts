/**
 * The forgery battery (issue #23): every registered problem kind (`BUILTIN_MODES`, src/kinds/index.ts) against the
 * shared hostile candidates of attacks.ts, instantiated per kind and language in entries.ts, judged through the
 * real sandbox. For each case the honest program passes, and each attack gets a verdict that is neither a pass nor
 * `internal_error` (and that is a verdict on the attack having run: not a compile or load error), except the case's
 * documented known forgeries, which must still pass (so docs/SECURITY.md stays true). A kind without an entry fails here: a new kind is registered only with its battery entry.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJudge } from '../../../src/engine/factory.js';
import { RepositoryEnvironments } from '../../../src/environments/repository/provider.js';
import { PostgresEngine } from '../../../src/environments/postgres/engine.js';
import { startPostgresServer } from '../../../src/environments/postgres/server.js';
import { BUILTIN_MODES, defaultModes } from '../../../src/kinds/index.js';
import { prepareSubmission } from '../../../src/judge/submission.js';
import { LanguageRegistry } from '../../../src/languages/registry.js';
import type { Verdict } from '../../../src/verdict/index.js';
import { ATTACK_IDS, ATTACKS, SECRET, type AttackId } from './attacks.js';
import { LEAN_ENDPOINT_ENV } from '../../../src/kinds/proof/lean/remote.js';
import { startKiminaStub, toyLean, type KiminaStub } from '../../support/kimina-stub.js';
import { BATTERY, sqlBatteryText, verilogEvalTestbench, type BatteryCase } from './entries.js';
import { controlProblem, removeBatteryRepository } from './repository.js';

const languages = LanguageRegistry.load();
const modes = defaultModes();
// The repository kind's prepared environments (its entry's repository, checked out once) live in their own cache.
const repositoryCache = mkdtempSync(join(tmpdir(), 'crucible-battery-cache-'));
// The sql kind's PostgreSQL engine: one server for the file, on a loopback port.
const postgres = await startPostgresServer();
const postgresEngine = new PostgresEngine(postgres);
const judge = createJudge({ slots: 2, languages, modes, cacheDir: null, sqlEngines: [postgresEngine],
  environments: (sandbox) => [new RepositoryEnvironments({ sandbox, cacheDir: repositoryCache, instanceSources: true })] });
// Lean proofs are checked by a kimina-lean-server endpoint: the stub's toy Lean, on a free loopback port.
let leanStub: KiminaStub | undefined;
before(async () => {
  leanStub = await startKiminaStub(toyLean);
  process.env[LEAN_ENDPOINT_ENV] = leanStub.url;
});
after(async () => {
  delete process.env[LEAN_ENDPOINT_ENV];
  await leanStub?.close();
  await judge.close();
  await postgresEngine.close();
  postgres.stop();
  rmSync(repositoryCache, { recursive: true, force: true });
  removeBatteryRepository();
});

async function judgeSource(c: BatteryCase, source: string): Promise<Verdict> {
  const prepared = prepareSubmission(c.problem, { [c.submit]: source, language: c.language }, { languages, modes });
  if (prepared.kind !== 'program') throw new Error(`${c.name}: no program (${prepared.kind})`);
  return judge.judge({ problem: { inline: c.problem }, program: prepared.program });
}

const brief = (v: Verdict): string => `${v.status}: ${v.reason ?? ''}`.slice(0, 300);

describe('the forgery battery: every registered kind against the shared attacks', () => {
  it('every registered kind has a battery entry, and every entry a registered kind', () => {
    const kinds = BUILTIN_MODES.map((m) => m.kind);
    assert.deepEqual(kinds.filter((k) => (BATTERY[k]?.length ?? 0) === 0), [],
      'a kind is registered only with its battery entry (test/hostile/battery/entries.ts)');
    assert.deepEqual(Object.keys(BATTERY).filter((k) => !kinds.includes(k)), []);
  });

  for (const mode of BUILTIN_MODES) {
    for (const c of BATTERY[mode.kind] ?? []) {
      it(`${mode.kind}, ${c.name}: the honest program passes; no attack passes or is Crucible's failure`, async () => {
        const honest = await judgeSource(c, c.honest);
        assert.equal(honest.status, 'passed', `the honest program: ${brief(honest)}`);
        const verdicts = await Promise.all(ATTACK_IDS.map((id) => judgeSource(c, c.attacks[id])));
        const variants = c.variants ?? [];
        const variantVerdicts = await Promise.all(variants.map(([, source]) => judgeSource(c, source)));
        const wrong = ATTACK_IDS.flatMap((id, i) => wrongOf(c, id, verdicts[i]!)).concat(
          variants.flatMap(([id], i) => wrongOf(c, id, variantVerdicts[i]!).map((w) => `variant ${i} of ${w}`)));
        console.log(`${mode.kind}, ${c.name}:\n${ATTACK_IDS.map((id, i) => `  ${id}: ${brief(verdicts[i]!).slice(0, 160)}`).join('\n')}`
          + variants.map(([id], i) => `\n  ${id} (variant ${i}): ${brief(variantVerdicts[i]!).slice(0, 160)}`).join(''));
        assert.deepEqual(wrong, []);
      });
    }
  }
});

/** What is wrong with an attack's verdict on a case (nothing: an empty list). */
function wrongOf(c: BatteryCase, id: AttackId, v: Verdict): string[] {
  const known = c.knownForgeries?.[id];
  if (known !== undefined) return v.passed ? [] : [`${id} (a known forgery: ${known}) no longer passes: ${brief(v)}; update the entry and docs/SECURITY.md`];
  if (v.passed) return [`${id} PASSED (${ATTACKS[id]})`];
  if (v.status === 'internal_error') return [`${id} is internal_error, the program's misbehaviour counted as Crucible's: ${brief(v)}`];
  // An attack that does not compile or load attacks nothing: the battery would pass vacuously.
  // (SQL: a statement SQLite cannot parse.)
  if (v.status === 'compile_error' || /(SyntaxError|IndentationError|NameError|ImportError|syntax error|incomplete input)/.test(v.reason ?? '')) {
    return [`${id} never ran: ${brief(v)}`];
  }
  return [];
}

/** A battery case of `kind` (its first), with its problem changed so that the secret is within the candidate's reach. */
function reachable(kind: string, index: number, change: (problem: Record<string, unknown>) => Record<string, unknown>): BatteryCase {
  const c = BATTERY[kind]![index]!;
  return { ...c, problem: change({ ...c.problem } as Record<string, unknown>) as unknown as BatteryCase['problem'] };
}

describe('controls: the read-secrets attack of each template finds the secret when it is within reach', () => {
  const controls: readonly (readonly [string, BatteryCase])[] = [
    ['python, its own memory (an MBPP setup holding it)', reachable('python_script', 0, (p) => ({ ...p, taskId: 'control/py', setup: `_held = "${SECRET}"` }))],
    ['python, stdin', reachable('io', 0, (p) => ({ ...p, taskId: 'control/py-stdin', tests: [{ input: `${SECRET}\n`, output: `${SECRET}\n` }] }))],
    ['c++, stdin', reachable('io', 1, (p) => ({ ...p, taskId: 'control/cpp-stdin', tests: [{ input: `${SECRET}\n`, output: `${SECRET}\n` }] }))],
    ['javascript, its own script (a prompt holding it)', reachable('script', 4, (p) => ({ ...p, taskId: 'control/js',
      prompt: `// ${SECRET}\n${String(p.prompt)}` }))],
    ['go, its own files (a prompt holding it)', reachable('script', 1, (p) => ({ ...p, taskId: 'control/go',
      prompt: `// ${SECRET}\n${String(p.prompt)}` }))],
    ['java, its own files (a prompt holding it)', reachable('script', 2, (p) => ({ ...p, taskId: 'control/java',
      prompt: `// ${SECRET}\n${String(p.prompt)}` }))],
    ['rust, its own files (a prompt holding it)', reachable('script', 3, (p) => ({ ...p, taskId: 'control/rust',
      prompt: `// ${SECRET}\n${String(p.prompt)}` }))],
    ['sql, its database (a note holding it)', reachable('sql', 0, (p) => ({ ...p, taskId: 'control/sql',
      databases: [{ sql: sqlBatteryText(['nothing', `the secret is ${SECRET}.`]) }] }))],
    ['sql on postgres, its database (a note holding it)', reachable('sql', 3, (p) => ({ ...p, taskId: 'control/sql-postgres',
      databases: [{ sql: sqlBatteryText(['nothing', `the secret is ${SECRET}.`]) }] }))],
    ['verilog, its input (a VerilogEval testbench driving it)', reachable('verilog', 0, (p) => ({ ...p, taskId: 'control/verilog',
      testbench: verilogEvalTestbench(JSON.stringify(SECRET)) }))],
    ['repository patch, the hidden test file (the test process can read it)', reachable('repository', 0, () => ({ ...controlProblem('test-file') }))],
    ['repository patch, the base commit\'s git objects only', reachable('repository', 0, () => ({ ...controlProblem('git-objects') }))],
  ];
  for (const [name, c] of controls) {
    it(name, async () => {
      const v = await judgeSource(c, c.attacks['read-secrets']);
      assert.equal(v.status, 'passed', brief(v));
    });
  }
});

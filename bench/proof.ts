/**
 * bench:proof — proofs checked per second, Coq and SMT, through the sandbox against the bare tools.
 *
 * Coq: every coq-art solution (../shared/data/coq-art, 30 files) checked as the proof kind checks it: the
 * candidate's `coqc` in the coq language's compile box, then the trusted check file in a box of its own that loads
 * the .vo (languages/coq.yaml); bare: the same two `coqc` commands spawned on the host in a scratch directory.
 * SMT: every smt-lib file (../shared/data/smt-lib) judged with z3: our script, and for sat the model's re-check;
 * bare: the same two z3 invocations on the host. A fresh executor per pass, so no compilation is cached; `--jobs`
 * checks at a time (default 2, the machine's cores; the sandbox gets as many slots). Bare runs execute only this
 * published, trusted data outside the sandbox. Prints proofs/s for each, with the load average before and after.
 * Usage: npm run bench:proof [-- --jobs 2] [--only coq|smt]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Executor } from '../src/engine/executor.js';
import { readCoqTheorems } from '../src/formats/coq-theorems.js';
import { declaredNames } from '../src/formats/coq-vernacular.js';
import { readSmtLib } from '../src/formats/smt-lib.js';
import { coqCheckFile } from '../src/kinds/proof/coq/check-file.js';
import { auditSmtScript, readModel, readSolverAnswer, recheckScript, solverScript } from '../src/kinds/proof/smt/script.js';
import { LanguageRegistry } from '../src/languages/registry.js';
import { runLimits } from '../src/limits.js';
import { Sandbox } from '../src/sandbox/index.js';
import { PROJECT_ROOT } from '../src/sandbox/paths.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const jobs = Number(arg('--jobs') ?? 2) || 2;
const only = arg('--only');
const DATA = process.env['CRUCIBLE_DATA'] ?? join(PROJECT_ROOT, '..', 'shared', 'data');
const NONCE = 'b3c4d5e6f7a8b9c0';
const MARKER = 'crucibleb3c4d5e6f7a8b9c0';

/** Run `tasks` `jobs` at a time; the wall seconds it took. */
async function timed(tasks: readonly (() => Promise<void>)[]): Promise<number> {
  const start = process.hrtime.bigint();
  let next = 0;
  await Promise.all(Array.from({ length: jobs }, async () => {
    while (next < tasks.length) await tasks[next++]!();
  }));
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/** Spawn `argv` in `cwd`; its stdout; rejects when it exits non-zero and `mustSucceed`. */
function bare(argv: readonly string[], cwd: string, mustSucceed = true): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd, env: { PATH: '/usr/bin:/bin', HOME: cwd, LANG: 'C.UTF-8' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code) => (mustSucceed && code !== 0 ? reject(new Error(`${argv.join(' ')}: exit ${code}`)) : resolve(out)));
  });
}

async function coq(registry: LanguageRegistry, scratch: string): Promise<void> {
  const problems = await readCoqTheorems(join(DATA, 'coq-art'));
  const files = problems.map((p) => ({ source: p.reference!, check: coqCheckFile(p.theorems, declaredNames(p.statement).definitions, NONCE).text }));
  const sandbox = Sandbox.create({ slots: jobs });
  const executor = new Executor(sandbox, registry);
  const language = registry.get('coq');
  const limits = runLimits({ cpuMs: 60_000, memoryKiB: 2 * 1024 * 1024 });
  const boxed = await timed(files.map((f) => async () => {
    const r = await executor.runProgram(language, f.source, '', limits, { files: { 'CrucibleCheck.v': f.check } });
    if (r.status !== 'ok') throw new Error(`coq: ${r.status} ${r.reason ?? ''}`);
  }));
  await executor.close();
  sandbox.close();
  const hosted = await timed(files.map((f, i) => async () => {
    const cwd = mkdtempSync(join(scratch, `coq${i}-`));
    writeFileSync(join(cwd, 'Candidate.v'), f.source);
    writeFileSync(join(cwd, 'CrucibleCheck.v'), f.check);
    await bare(['/usr/bin/coqc', '-q', '-Q', '.', 'Crucible', 'Candidate.v'], cwd);
    await bare(['/usr/bin/coqc', '-q', '-Q', '.', 'Crucible', 'CrucibleCheck.v'], cwd);
  }));
  report('Coq (coq-art, compile + trusted check)', files.length, boxed, hosted);
}

async function smt(registry: LanguageRegistry, scratch: string): Promise<void> {
  const problems = await readSmtLib(join(DATA, 'smt-lib'));
  const scripts = problems.map((p) => ({ p, script: auditSmtScript(p.statement!, p.expected, p.statement) }));
  const sandbox = Sandbox.create({ slots: jobs });
  const executor = new Executor(sandbox, registry);
  const z3 = registry.get('z3');
  const limits = runLimits({ cpuMs: 20_000 });
  const boxed = await timed(scripts.map(({ p, script }) => async () => {
    const r = await executor.runProgram(z3, solverScript(script, p.expected, MARKER), '', limits);
    const { answer, rest } = readSolverAnswer(r.stdout, MARKER);
    if (answer !== p.expected) throw new Error(`z3 answered ${answer} on ${p.taskId}`);
    if (p.expected === 'sat') await executor.runProgram(z3, recheckScript(script, readModel(rest)), '', limits);
  }));
  await executor.close();
  sandbox.close();
  const hosted = await timed(scripts.map(({ p, script }, i) => async () => {
    const cwd = mkdtempSync(join(scratch, `smt${i}-`));
    writeFileSync(join(cwd, 'main.smt2'), solverScript(script, p.expected, MARKER));
    const out = await bare(['/usr/bin/z3', '-smt2', 'main.smt2'], cwd, false);
    const { answer, rest } = readSolverAnswer(out, MARKER);
    if (answer !== p.expected) throw new Error(`bare z3 answered ${answer} on ${p.taskId}`);
    if (p.expected === 'sat') {
      writeFileSync(join(cwd, 'recheck.smt2'), recheckScript(script, readModel(rest)));
      await bare(['/usr/bin/z3', '-smt2', 'recheck.smt2'], cwd, false);
    }
  }));
  report('SMT (smt-lib, z3, sat models re-checked)', scripts.length, boxed, hosted);
}

function report(what: string, n: number, boxed: number, hosted: number): void {
  console.log(`${what}: ${n} proofs, ${jobs} at a time`);
  console.log(`  sandboxed ${(n / boxed).toFixed(2)} proofs/s (${boxed.toFixed(1)} s), bare ${(n / hosted).toFixed(2)} proofs/s (${hosted.toFixed(1)} s), ratio ${(boxed / hosted).toFixed(2)}`);
}

const registry = LanguageRegistry.load();
const scratch = mkdtempSync(join(tmpdir(), 'crucible-bench-proof-'));
console.log(`load average before: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
try {
  if (only !== 'smt') await coq(registry, scratch);
  if (only !== 'coq') await smt(registry, scratch);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(`load average after: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);

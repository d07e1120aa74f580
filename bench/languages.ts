/**
 * bench:languages — what starting a program costs in each language.
 * For every language: its hello-world program (test/languages/programs.ts) compiled once in a box, then N runs
 * sandboxed (the executor's path: slot box, language limits, /artifact mount) and N bare (the same argv and
 * environment spawned directly on the host: /artifact and /box rewritten to host directories), interleaved so that
 * both see the same machine; medians of the wall time seen from Node, and the median CPU time the sandbox reports.
 * Bare runs execute only this trusted hello-world program outside the sandbox.
 * With --warm-start, each warm-start measure is also timed against its cold alternative (the same language without
 * it), sandboxed: class-data sharing archives (JVM), compiled modules (Racket, Guile, Erlang), the SBCL core with
 * FiveAM (timed on the unit-test program, which loads FiveAM), single-scheduler BEAM flags.
 * Usage: npm run bench:languages [-- --runs 15] [--lang java,scala] [--warm-start] [--no-slot-boxes (a fresh bubblewrap
 * per run, for comparison)]
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expandArgv } from '../src/languages/argv.js';
import { LanguageRegistry } from '../src/languages/registry.js';
import type { Language } from '../src/languages/schema.js';
import { Executor } from '../src/engine/executor.js';
import { runLimits } from '../src/limits.js';
import { Sandbox } from '../src/sandbox/index.js';
import { PROGRAMS } from '../test/languages/programs.js';

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const runs = Number(option('--runs') ?? 15) || 15;
const only = option('--lang')?.split(',');
const warmStart = process.argv.includes('--warm-start');

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

const registry = LanguageRegistry.load();
const sandbox = Sandbox.create({ slots: 1, slotBoxes: !process.argv.includes('--no-slot-boxes') });
const executor = new Executor(sandbox, registry);
const limits = runLimits({ cpuMs: 30_000 });
const scratch = mkdtempSync(join(tmpdir(), 'crucible-bench-languages-'));
chmodSync(scratch, 0o755);

/** Wall ms of one bare run of `argv` with the box's environment, /box and /artifact mapped to host directories. */
function bare(language: Language, argv: readonly string[], boxDir: string, artifactDir: string | null): Promise<number> {
  const map = (a: string): string => a.replaceAll('/artifact', artifactDir ?? '/artifact').replaceAll('/box/', `${boxDir}/`);
  const env = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: boxDir, LANG: 'C.UTF-8', ...language.env };
  const t = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(map(argv[0]!), argv.slice(1).map(map), { cwd: boxDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0 || !out.includes('hello')) reject(new Error(`${language.id}: bare run failed (exit ${code}): ${out}`));
      else resolve(Number(process.hrtime.bigint() - t) / 1e6);
    });
  });
}

interface Timing { readonly boxedMs: number; readonly cpuMs: number; readonly bareMs: number | null; readonly compileMs: number | null }

/** Compile `source` once, then `runs` sandboxed (and, with `withBare`, bare) runs, interleaved. */
async function time(language: Language, source: string, withBare: boolean): Promise<Timing> {
  const t0 = performance.now();
  const compiled = await executor.compile(language, source);
  const compileMs = language.compile ? performance.now() - t0 : null;
  if (!compiled.ok) throw new Error(`${language.id}: does not compile: ${compiled.result.reason} ${compiled.result.stderr}`);
  const boxDir = mkdtempSync(join(scratch, `${language.id}-`));
  chmodSync(boxDir, 0o755);
  writeFileSync(join(boxDir, language.sourceFile), source);
  const argv = expandArgv(language.run, { memoryLimitMiB: limits.memoryKiB / 1024 });
  const boxed: number[] = [];
  const cpu: number[] = [];
  const bareMs: number[] = [];
  for (let i = -2; i < runs; i++) { // two warm-up rounds (page cache), not counted
    const t = process.hrtime.bigint();
    const r = await executor.runCompiled(language, source, compiled, '', limits);
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    if (r.status !== 'ok') throw new Error(`${language.id}: sandboxed run failed: ${r.status} ${r.reason} ${r.stderr}`);
    if (withBare) {
      const b = await bare(language, argv, boxDir, compiled.artifactDir);
      if (i >= 0) bareMs.push(b);
    }
    if (i >= 0) { boxed.push(ms); cpu.push(r.cpuMs); }
  }
  return { boxedMs: median(boxed), cpuMs: median(cpu), bareMs: withBare ? median(bareMs) : null, compileMs };
}

/** Each warm-start measure and the language without it (for --warm-start). */
const COLD: Readonly<Record<string, { readonly what: string; readonly program?: 'unitPass'; readonly cold: (l: Language) => Language }>> = {
  java: { what: 'JDK class-data sharing archive (default) vs -Xshare:off', cold: (l) => ({ ...l, run: [l.run[0]!, '-Xshare:off', ...l.run.slice(1)] }) },
  ...Object.fromEntries(['scala', 'kotlin', 'groovy', 'clojure'].map((id) => [id, {
    what: 'class-data sharing archive of the runtime jars (made at set-up) vs the JDK\'s default archive only',
    cold: (l: Language) => ({ ...l, run: l.run.filter((a) => !a.startsWith('-XX:SharedArchiveFile=')) }),
  }])),
  racket: { what: 'compiled once by raco make vs expanded and compiled at every run', cold: (l) => ({ ...l, compile: undefined, run: [l.run[0]!, '/box/main.rkt'] }) },
  scheme: { what: 'compiled once to bytecode vs interpreted from source', cold: (l) => ({ ...l, compile: undefined, run: ['/usr/bin/guile', '--no-auto-compile', '/box/main.scm'] }) },
  erlang: { what: 'compiled once to a BEAM escript vs escript from source (interpreted)', cold: (l) => ({ ...l, compile: undefined, run: [l.run[0]!, '/box/main.erl'] }) },
  commonlisp: {
    what: 'saved core with FiveAM loaded vs the default core loading FiveAM through ASDF (unit-test program)',
    program: 'unitPass',
    cold: (l) => ({ ...l, run: l.run.filter((a, i) => a !== '--core' && l.run[i - 1] !== '--core') }),
  },
  elixir: { what: 'one BEAM scheduler of each kind vs the defaults', cold: (l) => ({ ...l, run: [l.run[0]!, '/box/main.exs'] }) },
};

const rows: string[] = [];
const warmRows: string[] = [];
const versions = new Map((await registry.toolchains()).map((s) => [s.id, s.version ?? '']));
for (const language of registry.languages) {
  if (only && !only.includes(language.id)) continue;
  const programs = PROGRAMS[language.id];
  if (!programs) continue;
  const t = await time(language, programs.hello, true);
  const compile = t.compileMs === null ? '—' : t.compileMs.toFixed(0);
  rows.push(`| ${language.id} | ${versions.get(language.id)!.slice(0, 48)} | ${t.boxedMs.toFixed(1)} | ${t.bareMs!.toFixed(1)} | ` +
    `${(t.boxedMs - t.bareMs!).toFixed(1)} | ${t.cpuMs.toFixed(0)} | ${compile} |`);
  process.stderr.write(`${rows.at(-1)}\n`);
  const cold = COLD[language.id];
  if (warmStart && cold) {
    const source = programs[cold.program ?? 'hello'];
    const warm = cold.program ? await time(language, source, false) : t;
    const without = await time(cold.cold(language), source, false);
    warmRows.push(`| ${language.id} | ${cold.what} | ${warm.boxedMs.toFixed(1)} (${warm.cpuMs.toFixed(0)} CPU) | ` +
      `${without.boxedMs.toFixed(1)} (${without.cpuMs.toFixed(0)} CPU) |`);
    process.stderr.write(`${warmRows.at(-1)}\n`);
  }
}
await executor.close();
sandbox.close();
rmSync(scratch, { recursive: true, force: true });

console.log(`hello world, ${runs} runs each (medians; wall ms from Node; CPU ms as the sandbox counts it)\n`);
console.log('| language | toolchain | sandboxed ms | bare ms | sandbox adds ms | CPU ms (sandboxed) | compile ms (once) |');
console.log('|---|---|---|---|---|---|---|');
console.log(rows.join('\n'));
if (warmRows.length > 0) {
  console.log('\nwarm start, sandboxed (medians, wall ms and CPU ms)\n');
  console.log('| language | measure vs without it | with | without |');
  console.log('|---|---|---|---|');
  console.log(warmRows.join('\n'));
}

/**
 * The test runner behind `npm test`, `npm run test:unit`, `test:sandbox` and `test:acceptance`.
 *
 * `node dist/test/run.js [unit|sandbox|acceptance|all] [--jobs N] [--file-timeout-s S] [--record-durations] [FILTER...]`
 *
 * - Runs only `dist/test/**\/*.test.js` (helpers under `test/support/` are never executed as tests: one of them
 *   is a server that runs until it is signalled, and a directory argument to `node --test` would run it forever).
 * - Suites: `acceptance` is `test/acceptance/`; `unit` is every other file that starts no sandboxed program (its
 *   source names none of the sandbox, the judge, the CLI, a server or an external process: see `SANDBOX_MARKERS`);
 *   `sandbox` is the rest. `all` runs unit, then sandbox and acceptance together.
 * - Unit files run `--jobs` at a time (default: the number of cores). Sandbox and acceptance files share one pool and
 *   run up to `--jobs` + 1 at a time (`--jobs 1` runs them one by one), each one after the first started only while
 *   the machine has a core to spare (`SpareCpu`: at least `SPARE_CORES` idle over the last `IDLE_WINDOW_MS`), so
 *   files share the cores only when the running ones leave a core idle (a file that judges on one slot at a time, a
 *   browser, a CLI waiting on a child), never beside files that keep every core busy or on a machine busy with other
 *   work. The one file more than the cores fills the idle moments of short files (node start-up, a server coming
 *   up): on the suite's ~80 files under 10 s it cut their wall time by ~12% (docs/PERFORMANCE.md, "Session 8").
 *   Files to pair start longest first, by their durations: this machine's last run (`test-output/test-durations.json`)
 *   over the checked-in `test/durations.json` (a clean clone, CI, has only the latter; `--record-durations` rewrites
 *   it from the run, so a file added since has none and starts after those that have one). Files
 *   that measure time or load the machine on purpose run alone, after the others: every file whose source holds
 *   `ALONE_MARKER`, with the reason beside it (a wall-clock bound that load could break, a timed cancellation, a
 *   process count). Hostile, queue and session files without such a reason share the machine like any other: their
 *   checks are on verdicts, their own Redis servers and their own slots' uids, which another file cannot touch.
 * - Shared fixtures: the runner makes one scratch directory per run and names it to every file in
 *   `CRUCIBLE_TEST_SHARED_DIR` (test/support/shared-fixture.ts builds an expensive fixture there once, for every
 *   file that needs it); the directory is deleted when the run ends.
 * - Each file runs as its own `node --test` process in its own process group; a file that outlives
 *   `--file-timeout-s` (default 1200 s, or `CRUCIBLE_TEST_FILE_TIMEOUT_S`) is killed with its group and counted as
 *   failed, so a hang is a red run that names the file rather than a CI time-out.
 * - Every run ends with each file's duration (slowest first) and the suites' totals.
 *
 * Exit status: 0 when every file passed, 1 otherwise, 2 on a usage error.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

type Suite = 'unit' | 'sandbox' | 'acceptance';

interface FileResult {
  readonly file: string;
  readonly suite: Suite;
  readonly wallMs: number;
  readonly ok: boolean;
  readonly timedOut: boolean;
}

const TEST_ROOT = dirname(fileURLToPath(import.meta.url));

/** Source fragments that mean a test file runs programs (sandboxed or not) or starts servers. */
const SANDBOX_MARKERS = [
  'openJudge', 'LocalJudge', 'runInSandbox', 'Sandbox', 'spawn', 'execFile', 'bin/crucible',
  'support/sandbox', 'support/http', 'support/redis', 'support/postgres', 'support/browser', 'support/queue-eval',
  'support/humaneval-x', 'support/mbpp', 'support/instance-child', 'startServer', 'createJudge', '/cli/',
  'SessionManager', 'HarnessBox',
];

/** A file whose source holds this (in a comment, with the reason) runs alone. */
const ALONE_MARKER = 'crucible-test: alone';
/**
 * Idle cores the machine must have had over `IDLE_WINDOW_MS` before another file starts beside running ones
 * (`CRUCIBLE_TEST_SPARE_CORES` overrides it: 0 pairs files whatever the load, a number above the cores never).
 * Half a core: two files that each keep one core busy most of the time finish sooner side by side than in turn.
 */
const SPARE_CORES = Number(process.env['CRUCIBLE_TEST_SPARE_CORES'] ?? 0.5);
/** The window: long enough to see a starting file's load (node's start-up is ~0.3 s), short beside 1-3 s files. */
const IDLE_WINDOW_MS = 1000;
const IDLE_SAMPLE_MS = 250;
/**
 * Last run's wall time per file (ms), for longest-first ordering: in test-output/ (kept by the clean build that
 * empties dist/, ignored by git), read over `CHECKED_IN_DURATIONS`.
 */
const DURATIONS_FILE = join(TEST_ROOT, '..', '..', 'test-output', 'test-durations.json');
/**
 * Wall time per file (ms) of a whole-suite run, checked in so that a clean clone (CI) also starts the longest files
 * first; in the source tree (tsc does not copy JSON into dist/), rewritten by `--record-durations`.
 */
const CHECKED_IN_DURATIONS = join(TEST_ROOT, '..', '..', 'test', 'durations.json');
/** Environment variable naming the run's shared fixture directory (test/support/shared-fixture.ts). */
const SHARED_DIR_ENV = 'CRUCIBLE_TEST_SHARED_DIR';

/** Idle CPU of the whole machine over a sliding window, sampled from the kernel's per-core counters. */
class SpareCpu {
  private readonly samples: { readonly atMs: number; readonly idleMs: number }[] = [];
  private readonly timer: NodeJS.Timeout;

  constructor() {
    this.sample();
    this.timer = setInterval(() => this.sample(), IDLE_SAMPLE_MS);
    this.timer.unref();
  }

  private sample(): void {
    const idleMs = cpus().reduce((sum, cpu) => sum + cpu.times.idle, 0);
    this.samples.push({ atMs: performance.now(), idleMs });
    while (this.samples.length > 2 && this.samples[1]!.atMs <= performance.now() - IDLE_WINDOW_MS) this.samples.shift();
  }

  /** Cores idle on average over the window (0 until the window has two samples). */
  idleCores(): number {
    const first = this.samples[0]!;
    const last = this.samples[this.samples.length - 1]!;
    const spanMs = last.atMs - first.atMs;
    return spanMs <= 0 ? 0 : (last.idleMs - first.idleMs) / spanMs;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

function listTestFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listTestFiles(path));
    else if (name.endsWith('.test.js')) out.push(path);
  }
  return out;
}

function suiteOf(path: string): Suite {
  const rel = relative(TEST_ROOT, path);
  if (rel.startsWith('acceptance/')) return 'acceptance';
  const source = readFileSync(path, 'utf8');
  return SANDBOX_MARKERS.some((marker) => source.includes(marker)) ? 'sandbox' : 'unit';
}

function runsAlone(path: string): boolean {
  return readFileSync(path, 'utf8').includes(ALONE_MARKER);
}

/** Wall ms per file (path relative to dist/test) from `path`; {} when it is missing or not such a map. */
function readDurationsFile(path: string): Record<string, number> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null) return {};
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, number] => typeof entry[1] === 'number'));
  } catch {
    return {};
  }
}

/** This machine's last durations over the checked-in ones. */
function readDurations(): Record<string, number> {
  return { ...readDurationsFile(CHECKED_IN_DURATIONS), ...readDurationsFile(DURATIONS_FILE) };
}

/** Merge `results` into the durations file at `path` (keys sorted, so a rewrite diffs line by line). */
function writeDurations(path: string, results: readonly FileResult[]): void {
  const durations = readDurationsFile(path);
  for (const result of results) durations[result.file] = Math.round(result.wallMs);
  const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify(sorted, null, 1) + '\n');
  } catch { /* ordering only */ }
}

function runFile(file: string, suite: Suite, timeoutMs: number): Promise<FileResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test', '--test-reporter=spec', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try { process.kill(-(child.pid ?? 0), 'SIGKILL'); } catch { /* already gone */ }
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      const wallMs = performance.now() - started;
      const ok = code === 0 && !timedOut;
      const name = relative(TEST_ROOT, file);
      // Output of a file is printed whole when it ends, so parallel unit files do not interleave.
      process.stdout.write(`\n# ${ok ? 'PASS' : 'FAIL'} ${name} (${(wallMs / 1000).toFixed(1)} s)` +
        `${timedOut ? ` killed after ${timeoutMs / 1000} s` : ''}\n`);
      if (!ok || process.env['CRUCIBLE_TEST_VERBOSE'] === '1') process.stdout.write(Buffer.concat(chunks));
      resolve({ file: name, suite, wallMs, ok, timedOut });
    });
  });
}

async function runPool(files: string[], suite: Suite, jobs: number, timeoutMs: number): Promise<FileResult[]> {
  const results: FileResult[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const file = files[next++]!;
      results.push(await runFile(file, suite, timeoutMs));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
  return results;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A test file and the suite it belongs to. */
interface Planned {
  readonly file: string;
  readonly suite: Suite;
}

/**
 * Run `files` up to `jobs` at a time, starting a file beside a running one only when the machine had
 * `SPARE_CORES` idle over the last window and no file started within that window (so the window saw its load).
 */
async function runPaired(files: readonly Planned[], jobs: number, timeoutMs: number, spare: SpareCpu): Promise<FileResult[]> {
  const results: FileResult[] = [];
  let next = 0;
  let running = 0;
  let lastStartMs = -Infinity;
  const mayStart = (): boolean => running === 0 ||
    (performance.now() - lastStartMs >= IDLE_WINDOW_MS && spare.idleCores() >= SPARE_CORES);
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      if (!mayStart()) {
        await sleep(IDLE_SAMPLE_MS);
        continue;
      }
      const { file, suite } = files[next++]!;
      running++;
      lastStartMs = performance.now();
      try {
        results.push(await runFile(file, suite, timeoutMs));
      } finally {
        running--;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
  return results;
}

/**
 * The sandbox and acceptance suites together: the files that may share the machine side by side (longest first, whatever
 * their suite, so a light file fills the core a heavy one leaves idle), then the rest one at a time.
 */
async function runSharing(files: readonly Planned[], jobs: number, timeoutMs: number): Promise<FileResult[]> {
  const durations = readDurations();
  const lastMs = (planned: Planned): number => durations[relative(TEST_ROOT, planned.file)] ?? 0;
  const paired = files.filter((planned) => !runsAlone(planned.file)).sort((a, b) => lastMs(b) - lastMs(a));
  const alone = files.filter((planned) => runsAlone(planned.file));
  const width = jobs === 1 ? 1 : jobs + 1;
  process.stdout.write(`\n## sandbox and acceptance: ${paired.length} files up to ${width} at a time while a core is spare, longest first; ` +
    `then ${alone.length} files alone\n`);
  const spare = new SpareCpu();
  try {
    const results = await runPaired(paired, width, timeoutMs, spare);
    for (const { file, suite } of alone) results.push(await runFile(file, suite, timeoutMs));
    return results;
  } finally {
    spare.stop();
  }
}

/** The run's shared fixture directory: `$CRUCIBLE_TEST_SHARED_DIR` if set (kept), else a scratch one (deleted at exit). */
function sharedFixtureDir(): void {
  if (process.env[SHARED_DIR_ENV] !== undefined) return;
  const dir = mkdtempSync(join(tmpdir(), 'crucible-test-shared-'));
  process.env[SHARED_DIR_ENV] = dir;
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
}

function usage(message: string): never {
  process.stderr.write(`test runner: ${message}\nusage: node dist/test/run.js [unit|sandbox|acceptance|all] ` +
    '[--jobs N] [--file-timeout-s S] [--record-durations] [FILTER...]\n');
  process.exit(2);
}

interface Args {
  readonly suites: Suite[];
  readonly jobs: number;
  readonly timeoutMs: number;
  readonly filters: string[];
  /** Also merge the run's durations into the checked-in `test/durations.json`. */
  readonly recordDurations: boolean;
}

function parseArgs(argv: string[]): Args {
  let suites: Suite[] = ['unit', 'sandbox', 'acceptance'];
  let recordDurations = false;
  let jobs = availableParallelism();
  let timeoutS = Number(process.env['CRUCIBLE_TEST_FILE_TIMEOUT_S'] ?? 1200);
  const filters: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--jobs') jobs = Number(argv[++i]);
    else if (arg === '--file-timeout-s') timeoutS = Number(argv[++i]);
    else if (arg === '--record-durations') recordDurations = true;
    else if (arg === 'all') suites = ['unit', 'sandbox', 'acceptance'];
    else if (arg === 'unit' || arg === 'sandbox' || arg === 'acceptance') suites = [arg];
    else if (arg.startsWith('--')) usage(`unknown option ${arg}`);
    else filters.push(arg);
  }
  if (!Number.isInteger(jobs) || jobs < 1) usage('--jobs takes a positive integer');
  if (!Number.isFinite(timeoutS) || timeoutS <= 0) usage('--file-timeout-s takes a positive number of seconds');
  if (!Number.isFinite(SPARE_CORES) || SPARE_CORES < 0) usage('CRUCIBLE_TEST_SPARE_CORES takes a number of cores >= 0');
  return { suites, jobs, timeoutMs: timeoutS * 1000, filters, recordDurations };
}

async function main(): Promise<void> {
  const { suites, jobs, timeoutMs, filters, recordDurations } = parseArgs(process.argv.slice(2));
  const all = listTestFiles(TEST_ROOT)
    .filter((file) => filters.length === 0 || filters.some((filter) => relative(TEST_ROOT, file).includes(filter)));
  const results: FileResult[] = [];
  sharedFixtureDir();
  const planned = suites.flatMap((suite) => all.filter((file) => suiteOf(file) === suite).map((file) => ({ file, suite })));
  for (const suite of suites) {
    const count = planned.filter((p) => p.suite === suite).length;
    if (count > 0) process.stdout.write(`\n## ${suite}: ${count} files\n`);
  }
  const unit = planned.filter((p) => p.suite === 'unit').map((p) => p.file);
  if (unit.length > 0) results.push(...await runPool(unit, 'unit', jobs, timeoutMs));
  const sharing = planned.filter((p) => p.suite !== 'unit');
  if (sharing.length > 0) results.push(...await runSharing(sharing, jobs, timeoutMs));
  writeDurations(DURATIONS_FILE, results);
  if (recordDurations) writeDurations(CHECKED_IN_DURATIONS, results);
  process.stdout.write('\n## durations (wall seconds, slowest first)\n');
  for (const result of [...results].sort((a, b) => b.wallMs - a.wallMs)) {
    process.stdout.write(`${(result.wallMs / 1000).toFixed(1).padStart(8)}  ${result.ok ? 'ok  ' : 'FAIL'}  ` +
      `${result.suite.padEnd(10)} ${result.file}\n`);
  }
  for (const suite of suites) {
    const mine = results.filter((result) => result.suite === suite);
    if (mine.length === 0) continue;
    const failed = mine.filter((result) => !result.ok).length;
    const sumS = mine.reduce((sum, result) => sum + result.wallMs, 0) / 1000;
    process.stdout.write(`# ${suite}: ${mine.length} files, ${failed} failed, ${sumS.toFixed(0)} s of file time\n`);
  }
  const failed = results.filter((result) => !result.ok);
  if (failed.length > 0) {
    process.stdout.write(`# FAILED: ${failed.map((result) => result.file).join(', ')}\n`);
    process.exitCode = 1;
  }
  if (results.length === 0) usage('no test file matched');
}

await main();

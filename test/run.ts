/**
 * The test runner behind `npm test`, `npm run test:unit`, `test:sandbox` and `test:acceptance`.
 *
 * `node dist/test/run.js [unit|sandbox|acceptance|all] [--jobs N] [--file-timeout-s S] [FILTER...]`
 *
 * - Runs only `dist/test/**\/*.test.js` (helpers under `test/support/` are never executed as tests: one of them
 *   is a server that runs until it is signalled, and a directory argument to `node --test` would run it forever).
 * - Suites: `acceptance` is `test/acceptance/`; `unit` is every other file that starts no sandboxed program (its
 *   source names none of the sandbox, the judge, the CLI, a server or an external process: see `SANDBOX_MARKERS`);
 *   `sandbox` is the rest. `all` runs unit, then sandbox, then acceptance.
 * - Unit files run `--jobs` at a time (default: the number of cores); sandbox and acceptance files one at a time,
 *   because several of them measure CPU time or load the machine on purpose.
 * - Each file runs as its own `node --test` process in its own process group; a file that outlives
 *   `--file-timeout-s` (default 1200 s, or `CRUCIBLE_TEST_FILE_TIMEOUT_S`) is killed with its group and counted as
 *   failed, so a hang is a red run that names the file rather than a CI time-out.
 * - Every run ends with each file's duration (slowest first) and the suites' totals.
 *
 * Exit status: 0 when every file passed, 1 otherwise, 2 on a usage error.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
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

function usage(message: string): never {
  process.stderr.write(`test runner: ${message}\nusage: node dist/test/run.js [unit|sandbox|acceptance|all] ` +
    '[--jobs N] [--file-timeout-s S] [FILTER...]\n');
  process.exit(2);
}

function parseArgs(argv: string[]): { suites: Suite[]; jobs: number; timeoutMs: number; filters: string[] } {
  let suites: Suite[] = ['unit', 'sandbox', 'acceptance'];
  let jobs = availableParallelism();
  let timeoutS = Number(process.env['CRUCIBLE_TEST_FILE_TIMEOUT_S'] ?? 1200);
  const filters: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--jobs') jobs = Number(argv[++i]);
    else if (arg === '--file-timeout-s') timeoutS = Number(argv[++i]);
    else if (arg === 'all') suites = ['unit', 'sandbox', 'acceptance'];
    else if (arg === 'unit' || arg === 'sandbox' || arg === 'acceptance') suites = [arg];
    else if (arg.startsWith('--')) usage(`unknown option ${arg}`);
    else filters.push(arg);
  }
  if (!Number.isInteger(jobs) || jobs < 1) usage('--jobs takes a positive integer');
  if (!Number.isFinite(timeoutS) || timeoutS <= 0) usage('--file-timeout-s takes a positive number of seconds');
  return { suites, jobs, timeoutMs: timeoutS * 1000, filters };
}

async function main(): Promise<void> {
  const { suites, jobs, timeoutMs, filters } = parseArgs(process.argv.slice(2));
  const all = listTestFiles(TEST_ROOT)
    .filter((file) => filters.length === 0 || filters.some((filter) => relative(TEST_ROOT, file).includes(filter)));
  const results: FileResult[] = [];
  for (const suite of suites) {
    const files = all.filter((file) => suiteOf(file) === suite);
    if (files.length === 0) continue;
    process.stdout.write(`\n## ${suite}: ${files.length} files\n`);
    results.push(...await runPool(files, suite, suite === 'unit' ? jobs : 1, timeoutMs));
  }
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

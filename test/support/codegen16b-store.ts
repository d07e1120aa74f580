/**
 * The 16,400 CodeGen-16B HumanEval completions (CodeT's files) judged once per test run by `crucible eval`, shared
 * by the dashboard's store (test/support/dashboard-store.ts) and the CodeGen-16B acceptance
 * (test/acceptance/codegen16b.test.ts) through `sharedFixture` (test/support/shared-fixture.ts): issue #24 item 7.
 *
 * The fixture is the dashboard store's first three runs, made the way a user makes them, in this order: `default`
 * and `python-only` (the built-in benchmark, all samples and the Python ones), then `codegen16b`
 * (`crucible eval --problems … --samples … --format codet --k 1,10,100 --model CodeGen-Mono-16B --tag humaneval
 * --tag codet`): a store file `crucible.db` and each run's `--out` directory (`verdicts.jsonl`, `summary.json`).
 * Users of the fixture read it and copy it; they never write into it.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { CODET_PROBLEMS, CODET_SOLUTIONS } from './data.js';
import { sharedFixture } from './shared-fixture.js';

const exec = promisify(execFile);
export const CLI = join(PROJECT_ROOT, 'bin', 'crucible');
export const DEFAULT_PROBLEMS = join(PROJECT_ROOT, 'benchmarks', 'default', 'problems.json');
export const DEFAULT_SAMPLES = join(PROJECT_ROOT, 'benchmarks', 'default', 'samples.jsonl');

/** Run the CLI in `cwd`; resolves to its stdout. */
export async function crucible(args: readonly string[], cwd: string): Promise<string> {
  const { stdout } = await exec(CLI, args, { maxBuffer: 64 << 20, cwd });
  return stdout;
}

/** `crucible eval` into run directory `dir/out` and store `db` (500 bootstrap draws), with `extra` arguments. */
export async function evalRun(dir: string, db: string, out: string, extra: readonly string[]): Promise<void> {
  await crucible(['eval', '--out', join(dir, out), '--store', db, '--no-progress', '--json', '--reps', '500', ...extra], dir);
}

/** The judged fixture: its folder, the store file in it, and the CodeGen-16B run's `--out` directory. */
export interface JudgedCodegen16b {
  readonly dir: string;
  readonly db: string;
  /** `crucible eval --out` directory of the 16,400 samples: `verdicts.jsonl`, `summary.json`, `run.json`. */
  readonly out: string;
}

/** Fill `dir` with the fixture's three runs (see the module's comment). */
async function build(dir: string): Promise<void> {
  const db = join(dir, 'crucible.db');
  await evalRun(dir, db, 'default', ['--tag', 'builtin']);
  const pythonOnly = join(dir, 'python-only.jsonl');
  writeFileSync(pythonOnly, readFileSync(DEFAULT_SAMPLES, 'utf8').split('\n').filter((l) => l.includes('"language": "python"')).join('\n') + '\n');
  await evalRun(dir, db, 'python-only', ['--problems', DEFAULT_PROBLEMS, '--samples', pythonOnly, '--tag', 'builtin']);
  await evalRun(dir, db, 'codegen16b', ['--problems', CODET_PROBLEMS, '--samples', CODET_SOLUTIONS, '--format', 'codet', '--k', '1,10,100',
    '--model', 'CodeGen-Mono-16B', '--tag', 'humaneval', '--tag', 'codet']);
}

/** The CodeGen-16B samples judged by `crucible eval`, built once per test run (minutes) and shared. */
export async function judgedCodegen16b(): Promise<JudgedCodegen16b> {
  const dir = await sharedFixture('codegen16b-store', build);
  return { dir, db: join(dir, 'crucible.db'), out: join(dir, 'codegen16b') };
}

/**
 * MBPP as published judged once per test run by `crucible eval`: every task's reference solution (sample 0) and
 * that reference broken by an early `return None` (sample 1), 1,948 programs, shared through `sharedFixture`
 * (test/support/shared-fixture.ts) by the MBPP acceptance (test/acceptance/mbpp.test.ts), which asserts every
 * verdict, and the dashboard's store (test/support/dashboard-store.ts), which imports the run as its `mbpp` run:
 * both judged the same programs on their own before (issue #24 item 7).
 *
 * The fixture is a run directory `mbpp` (`verdicts.jsonl`, `summary.json`, `run.json`, written by `crucible eval
 * --out … --no-store` with `mbppEvalArgs`) and the samples file it judged, `mbpp-samples.jsonl`. Users read it and
 * copy it (the dashboard's store resumes a copy with the same arguments); they never write into it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readProblems } from '../../src/formats/index.js';
import { crucible } from './codegen16b-store.js';
import { MBPP_PATH, mbppEarlyReturn, mbppReference } from './mbpp.js';
import { sharedFixture } from './shared-fixture.js';

/** The judged fixture: its folder, the run directory of the 1,948 samples and the samples file. */
export interface JudgedMbpp {
  readonly dir: string;
  /** `crucible eval --out` directory: `verdicts.jsonl` (sample 0 the reference, 1 the early return), `summary.json`, `run.json`. */
  readonly out: string;
  /** The samples judged: `{task_id, sample_index, solution}`, two per task in the problems' order. */
  readonly samples: string;
}

/** `crucible eval`'s arguments for the run besides `--out`, the store and the output options (a resume repeats them). */
export function mbppEvalArgs(samples: string): string[] {
  return ['--problems', MBPP_PATH, '--format', 'mbpp', '--samples', samples, '--k', '1,2', '--model', 'reference-and-broken', '--tag', 'mbpp'];
}

/** Write the samples (`{task_id, sample_index, solution}`, two per task in file order) and judge them into `dir/mbpp`. */
async function build(dir: string): Promise<void> {
  const problems = await readProblems(MBPP_PATH, 'mbpp');
  const lines = problems.flatMap((p) => [
    JSON.stringify({ task_id: p.taskId, sample_index: 0, solution: mbppReference(p) }),
    JSON.stringify({ task_id: p.taskId, sample_index: 1, solution: mbppEarlyReturn(p) }),
  ]);
  const samples = join(dir, 'mbpp-samples.jsonl');
  writeFileSync(samples, lines.join('\n') + '\n');
  await crucible(['eval', '--out', join(dir, 'mbpp'), '--no-store', '--no-progress', '--json', '--reps', '500', ...mbppEvalArgs(samples)], dir);
}

/** MBPP's references and early returns judged by `crucible eval`, once per test run (tens of seconds), shared. */
export async function judgedMbpp(): Promise<JudgedMbpp> {
  const dir = await sharedFixture('mbpp-run', build);
  return { dir, out: join(dir, 'mbpp'), samples: join(dir, 'mbpp-samples.jsonl') };
}

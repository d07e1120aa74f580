/**
 * What the queue's end-to-end tests share: a subset of CodeT's HumanEval problems and CodeGen-16B samples
 * written as files `crucible eval` reads, `crucible eval` and `crucible worker` run as real processes (each
 * worker leading its own process group), and the verdicts a run directory holds.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readProblems, readSamples } from '../../src/formats/index.js';
import type { UnitTestProblem } from '../../src/formats/types.js';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { CODET_PROBLEMS, CODET_SOLUTIONS } from './data.js';

export const CRUCIBLE = join(PROJECT_ROOT, 'bin', 'crucible');

/** Files of a subset: the problems (HumanEval JSONL) and samples ({task_id, completion}). */
export interface Subset {
  readonly problemsFile: string;
  readonly samplesFile: string;
  readonly samples: number;
}

/** Write the first `problems` problems and their first `perProblem` samples under `dir`. */
export async function writeSubset(dir: string, problems: number, perProblem: number): Promise<Subset> {
  const all = await readProblems(CODET_PROBLEMS, 'humaneval');
  const chosen = all.slice(0, problems) as UnitTestProblem[];
  const ids = new Set(chosen.map((p) => p.taskId));
  const samples = (await readSamples(CODET_SOLUTIONS, { problems: all })).filter((s) => ids.has(s.taskId) && s.index < perProblem);
  const problemsFile = join(dir, 'problems.jsonl');
  const samplesFile = join(dir, 'samples.jsonl');
  writeFileSync(problemsFile, chosen.map((p) => JSON.stringify({
    task_id: p.taskId, prompt: p.prompt, entry_point: p.entryPoint, test: p.test, canonical_solution: p.canonicalSolution,
  })).join('\n') + '\n');
  writeFileSync(samplesFile, samples.map((s) => JSON.stringify({ task_id: s.taskId, completion: s.completion })).join('\n') + '\n');
  return { problemsFile, samplesFile, samples: samples.length };
}

/** Run `crucible eval` on a subset to completion (no store, no progress bar); resolves with its exit code and output. */
export function evalRun(subset: Subset, out: string, extra: readonly string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    execFile(CRUCIBLE, ['eval', '--problems', subset.problemsFile, '--samples', subset.samplesFile, '--out', out, '--no-store', '--no-progress',
      '--k', '1', '--reps', '10', ...extra], { env, maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : (typeof error.code === 'number' ? error.code : null), output: `${stdout}${stderr}` });
    });
  });
}

/** Start `crucible worker --slots 1 --name NAME` on `queueUrl`, leading its own process group; its stderr is printed if it fails. */
export function spawnWorker(queueUrl: string, name: string, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(CRUCIBLE, ['worker', '--queue', queueUrl, '--slots', '1', '--name', name], {
    env, detached: true, stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr!.on('data', (d: Buffer) => { log += d.toString(); });
  child.once('exit', (code, signal) => { if (code !== 0 && signal !== 'SIGKILL') process.stderr.write(`worker ${name} exited ${code ?? signal}: ${log}\n`); });
  return child;
}

/** Signal a worker's whole process group (it leads its own group); a group already gone is fine. */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

/** Stop workers: SIGTERM (drain), then SIGKILL for any still running after `graceMs`. */
export async function stopWorkers(children: Iterable<ChildProcess>, graceMs = 2_000): Promise<void> {
  const all = [...children];
  for (const child of all) killGroup(child, 'SIGTERM');
  await new Promise((r) => setTimeout(r, graceMs));
  for (const child of all) if (child.exitCode === null && child.signalCode === null) killGroup(child, 'SIGKILL');
}

/** One line of `verdicts.jsonl`, as far as the tests read it. */
export interface VerdictLine {
  taskId: string; sampleIndex: number; status: string; passed: boolean; judgedBy?: { worker: string; toolchain: string | null };
}

/** Every line of `out/verdicts.jsonl` (none when the file does not exist yet). */
export function verdictLines(out: string): VerdictLine[] {
  let text: string;
  try {
    text = readFileSync(join(out, 'verdicts.jsonl'), 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as VerdictLine);
}

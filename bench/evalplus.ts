/**
 * bench:evalplus — the 16,400 CodeGen-16B HumanEval completions (CodeT's files, cut at CodeT's stop sequences)
 * judged on HumanEval+ (base and plus inputs, `call` mode, fail-fast) end to end on this machine: wall and CPU
 * time, samples/s and the ratio to EvalPlus' own 12.3 samples/s on the same completions on this kind of machine,
 * base and plus pass@1/10/100 next to EvalPlus' figures, verdict counts and the size of the verdict file
 * (../shared/data/README.md records EvalPlus' run; EvalPlus itself cannot be installed here, so the ratio is to
 * that recorded figure, not to a run in the same session).
 * The ground truth (the canonical solutions' outputs) goes to a fresh cache directory (a fresh XDG_CACHE_HOME),
 * so its one-off cost is part of the wall time.
 * Usage: npm run bench:evalplus [-- --jobs 2 --problems N --samples-per-problem M --keep DIR]
 * `--problems N` / `--samples-per-problem M`: the first N problems and the first M samples of each (a subset for
 * quick iterations; pass@k then covers only those). `--keep DIR`: write the run directory there and keep it.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { datasetHash, readProblems, readSamples } from '../src/formats/index.js';
import { evaluate } from '../src/apps/evaluate.js';
import { createJudge } from '../src/engine/factory.js';
import { RunStore } from '../src/store/run-store.js';
import { CODET_PROBLEMS, CODET_SOLUTIONS, HUMANEVAL_PLUS } from '../test/support/data.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const jobs = Number(arg('--jobs') ?? availableParallelism());
const problemLimit = arg('--problems') === undefined ? Infinity : Number(arg('--problems'));
const perProblem = arg('--samples-per-problem') === undefined ? Infinity : Number(arg('--samples-per-problem'));
const keep = arg('--keep');
/** EvalPlus `evaluate` on these 16,400 completions on this machine kind: 1,330 s wall (../shared/data/README.md). */
const EVALPLUS_SAMPLES_PER_S = 12.3;
const EVALPLUS_BASE = '22.21 / 50.59 / 73.78';
const EVALPLUS_PLUS = '19.26 / 45.20 / 69.51';

const codetProblems = await readProblems(CODET_PROBLEMS, 'humaneval');
const allSamples = await readSamples(CODET_SOLUTIONS, { problems: codetProblems });
const plus = await readProblems(HUMANEVAL_PLUS);
const chosen = new Set(plus.slice(0, problemLimit).map((p) => p.taskId));
const samples = allSamples.filter((s) => chosen.has(s.taskId) && s.index < perProblem);
const problems = plus.filter((p) => chosen.has(p.taskId));
const plusHash = await datasetHash(HUMANEVAL_PLUS);

const dir = keep ?? mkdtempSync(join(tmpdir(), 'crucible-bench-evalplus-'));
const cacheDir = mkdtempSync(join(tmpdir(), 'crucible-bench-evalplus-cache-'));
const judge = createJudge({ slots: jobs, cacheDir });
const store = RunStore.open(dir, { problemsHash: plusHash, samplesHash: await datasetHash(CODET_SOLUTIONS), options: {} });
const load = loadavg()[0]!.toFixed(2);
const cpuBefore = process.cpuUsage();
const started = Date.now();
const result = await evaluate({ judge, store, problems, datasetHash: plusHash, samples, ks: [1, 10, 100], bootstrapReps: 200 });
const seconds = (Date.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
const { harnessJobs } = judge.stats();
store.close();
await judge.close();
const verdictBytes = statSync(join(dir, 'verdicts.jsonl')).size;
if (keep === undefined) rmSync(dir, { recursive: true, force: true });
rmSync(cacheDir, { recursive: true, force: true });

const rate = samples.length / seconds;
const atK = (m: Readonly<Record<string, number>> | undefined): string =>
  ['1', '10', '100'].map((k) => m?.[k] === undefined ? '-' : (100 * m[k]).toFixed(2)).join(' / ');
const plusCounts = new Map<string, number>();
for (const r of result.records) if (r.plusStatus !== undefined) plusCounts.set(r.plusStatus, (plusCounts.get(r.plusStatus) ?? 0) + 1);
console.log(`samples ${samples.length} on ${problems.length} problems, distinct programs ${result.distinctPrograms}, jobs ${jobs}, harness jobs ${harnessJobs}`);
console.log(`wall ${seconds.toFixed(1)} s, ${rate.toFixed(1)} samples/s = ${(rate / EVALPLUS_SAMPLES_PER_S).toFixed(2)}x EvalPlus (12.3 samples/s recorded, not run here)`);
console.log(`Node process CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s (user ${(cpu.user / 1e6).toFixed(1)}, system ${(cpu.system / 1e6).toFixed(1)}); load average at start ${load}, at end ${loadavg()[0]!.toFixed(2)}`);
console.log(`base pass@1/10/100 = ${atK(result.passAtK)} (EvalPlus ${EVALPLUS_BASE})`);
console.log(`plus pass@1/10/100 = ${atK(result.plusPassAtK)} (EvalPlus ${EVALPLUS_PLUS})`);
console.log(`base verdicts: ${JSON.stringify(result.countsByStatus)}`);
console.log(`plus verdicts: ${JSON.stringify(Object.fromEntries(plusCounts))}`);
console.log(`verdict file ${(verdictBytes / 1e6).toFixed(1)} MB`);

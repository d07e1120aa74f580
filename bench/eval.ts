/**
 * bench:eval — the 16,400 CodeGen-16B HumanEval samples (CodeT's files) judged end to end on this machine:
 * wall time, samples per second, and the ratio to the openai/human-eval harness's 41 samples/s measured on
 * the same samples on this kind of machine (../shared/data/README.md), with pass@k to show verdicts agree.
 * Usage: npm run bench:eval [-- --jobs 2 --box-slots 3 --time-limit 1 --time-limit-rule calibrated|fixed|4x+100ms --keep DIR]
 * `--time-limit-rule`: as `crucible eval`'s (default calibrated: each problem's canonical solution is measured once,
 * in memory, and its programs get min(limit, 4 x its CPU time + 200 ms)). `--keep DIR`: write the run directory
 * (verdicts.jsonl) there and keep it, to compare two runs' verdicts sample by sample.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { datasetHash, readProblems, readSamples } from '../src/formats/index.js';
import { CALIBRATED_TIME_DEFAULTS, JUDGE_DEFAULTS, secondsToMs } from '../src/limits.js';
import { parseTimeLimitRule, timeLimitRuleText } from '../src/cli/options.js';
import { evaluate } from '../src/apps/evaluate.js';
import { createJudge } from '../src/engine/factory.js';
import { RunStore } from '../src/store/run-store.js';
import { CODET_PROBLEMS, CODET_SOLUTIONS } from '../test/support/data.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const jobs = Number(arg('--jobs') ?? availableParallelism());
const boxSlots = arg('--box-slots') === undefined ? undefined : Number(arg('--box-slots'));
const timeLimitMs = arg('--time-limit') === undefined ? JUDGE_DEFAULTS.cpuMs : secondsToMs(Number(arg('--time-limit')));
const rule = arg('--time-limit-rule') === undefined ? CALIBRATED_TIME_DEFAULTS : parseTimeLimitRule(arg('--time-limit-rule')!);
const keep = arg('--keep');
const HUMAN_EVAL_HARNESS_SAMPLES_PER_S = 41;

const problems = await readProblems(CODET_PROBLEMS, 'humaneval');
const samples = await readSamples(CODET_SOLUTIONS, { problems });
const dir = keep ?? mkdtempSync(join(tmpdir(), 'crucible-bench-eval-'));
// Memory-only ground truth: this dataset has none (unit tests), and a bench must not depend on a warm cache.
const judge = createJudge({ slots: jobs, ...(boxSlots !== undefined ? { boxSlots } : {}), limits: { cpuMs: timeLimitMs }, cacheDir: null,
  calibration: rule });
const problemsHash = await datasetHash(CODET_PROBLEMS);
const store = RunStore.open(dir, { problemsHash, samplesHash: await datasetHash(CODET_SOLUTIONS), options: {} });
const started = Date.now();
const result = await evaluate({ judge, store, problems, datasetHash: problemsHash, samples, ks: [1, 10, 100], bootstrapReps: 200 });
const seconds = (Date.now() - started) / 1000;
const { harnessJobs, testerReuses } = judge.stats();
const { harnessSlots } = judge.capacity;
store.close();
await judge.close();
if (keep === undefined) rmSync(dir, { recursive: true, force: true });
const rate = samples.length / seconds;
console.log(`samples ${samples.length}, distinct programs ${result.distinctPrograms}, jobs ${jobs}, harness boxes ${harnessSlots}, CPU time limit ${timeLimitMs} ms, rule ${timeLimitRuleText(rule)}`);
console.log(`wall ${seconds.toFixed(1)} s, ${rate.toFixed(1)} samples/s = ${(rate / HUMAN_EVAL_HARNESS_SAMPLES_PER_S).toFixed(2)}x the openai/human-eval harness (41 samples/s)`);
console.log(`pass@1/10/100 = ${['1', '10', '100'].map((k) => (100 * result.passAtK[k]!).toFixed(2)).join(' / ')} (reference 22.12 / 50.38 / 73.78)`);
console.log(`harness jobs ${harnessJobs}, judged by a reused warm tester ${testerReuses} (${(100 * testerReuses / Math.max(1, harnessJobs)).toFixed(1)}%)`);
console.log(`verdicts: ${JSON.stringify(result.countsByStatus)} (reference: 3,628 passed, 12,714 failed, 58 timed out)`);

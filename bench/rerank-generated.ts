/**
 * The generated-test phase of CodeT reranking on CodeT's CodeGen-16B HumanEval data, measured on its own (issue #24
 * item 7): `executeRerank` with the real-test verdicts taken from an earlier `crucible eval` run (`--prior DIR`, the
 * `--out` directory of the 16,400 samples), so only the 639,583 generated-test runs cost time. Prints wall time,
 * the harness pool's counters, the statuses histogram, and with `--dump FILE` writes every solution's `passes` and
 * `signatures` (task by task) as JSON, to compare two versions of the engine exactly.
 *
 * `node dist/bench/rerank-generated.js --prior DIR [--problems N] [--sample TASK:INDEX] [--dump FILE]`
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { datasetHash, readCodetTests, readProblems, readSamples } from '../src/formats/index.js';
import { createJudge } from '../src/engine/factory.js';
import { executeRerank } from '../src/apps/rerank.js';
import { priorVerdictsOf } from '../src/apps/rerank-prior.js';
import { loadRun } from '../src/report/load-run.js';
import { CALIBRATED_TIME_DEFAULTS, JUDGE_DEFAULTS } from '../src/limits.js';
import { CODET_PROBLEMS, CODET_SOLUTIONS, CODET_TESTS } from '../test/support/data.js';

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const prior = arg('--prior');
if (prior === undefined) throw new Error('--prior DIR (a crucible eval --out directory of the 16,400 samples) is required');
const problemCount = Number(arg('--problems') ?? '164');
const dump = arg('--dump');

const problems = (await readProblems(CODET_PROBLEMS, 'humaneval'));
const keep = new Set(problems.slice(0, problemCount).map((p) => p.taskId));
const only = arg('--sample')?.split(':');
const samples = (await readSamples(CODET_SOLUTIONS, { problems })).filter((s) => keep.has(s.taskId))
  .filter((s) => only === undefined || (s.taskId === only[0] && s.index === Number(only[1])));
const tests = await readCodetTests(CODET_TESTS, problems, { limit: 5 });
const hash = await datasetHash(CODET_PROBLEMS);
const priorVerdicts = priorVerdictsOf(await loadRun(prior), hash, JUDGE_DEFAULTS.cpuMs, CALIBRATED_TIME_DEFAULTS);
const judge = createJudge({ cacheDir: null });

/** Whether `pid` descends from this process (its boxes' processes do). */
function ours(pid: number): boolean {
  for (let p = pid, hops = 0; p > 1 && hops < 20; hops++) {
    if (p === process.pid) return true;
    try {
      p = Number(readFileSync(`/proc/${p}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1]);
    } catch {
      return false;
    }
  }
  return false;
}

/** CPU ms of this process's boxes (cgroup v1 cpuacct): whole box, its candidate and tester sub-groups. */
function boxCpuMs(): { box: number; candidate: number; tester: number } {
  const root = '/sys/fs/cgroup/cpuacct/crucible';
  const sum = { box: 0, candidate: 0, tester: 0 };
  for (const dir of readdirSync(root)) {
    try {
      const procs = readFileSync(`${root}/${dir}/cgroup.procs`, 'utf8').trim().split('\n').filter(Boolean).map(Number);
      if (!procs.some(ours)) continue;
      const read = (sub: string): number => Number(readFileSync(`${root}/${dir}${sub}/cpuacct.usage`, 'utf8')) / 1e6;
      sum.box += read('');
      sum.candidate += read('/candidate');
      sum.tester += read('/tester');
    } catch { /* a box that ended meanwhile */ }
  }
  return sum;
}
const load = loadavg().map((l) => l.toFixed(2)).join(' ');
const cpu0 = process.cpuUsage();
const started = Date.now();
const data = await executeRerank({ judge, problems, datasetHash: hash, samples, tests, runGeneratedTests: true, priorVerdicts });
const wallMs = Date.now() - started;
const boxes = boxCpuMs();
const cpu = process.cpuUsage(cpu0);
console.log(JSON.stringify({
  problems: problemCount, samples: samples.length, wallMs, nodeCpuMs: Math.round((cpu.user + cpu.system) / 1000),
  loadBefore: load, loadAfter: loadavg().map((l) => l.toFixed(2)).join(' '),
  generatedTestRuns: data.generatedTestRuns, statuses: data.generatedTestStatuses, reused: data.reusedVerdicts,
  internalErrors: data.internalErrors.length, boxCpuMs: { box: Math.round(boxes.box), candidate: Math.round(boxes.candidate), tester: Math.round(boxes.tester), zygoteAndSpawner: Math.round(boxes.box - boxes.candidate - boxes.tester) },
}));
if (dump !== undefined) {
  writeFileSync(dump, JSON.stringify(data.tasks.map((t) => ({ taskId: t.taskId, solutions: t.solutions.map((s) => ({ passes: s.passes, signatures: s.signatures })) }))));
}
judge.close();

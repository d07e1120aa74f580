/**
 * bench:harness — what one job of the warm Python judge harness costs: wall time, Node's CPU and the harness
 * box's CPU (its cgroup, which holds the candidate and tester sub-groups) per unit_test job, for N jobs
 * (default 400) of the canonical solutions of the first 10 HumanEval problems, N/10 in a row per problem (so the
 * warm tester is reused as in an eval), through one harness box. CPU figures move little with the machine's
 * load, wall time does. Root and cgroup v1 only.
 * With `--assertions`: CodeT's generated tests instead (the `assertions` mode CodeT reranking runs 639,583 times
 * per test suite): each job is one of those 10 canonical solutions on its problem's distinct generated tests
 * (../shared/data/codet/, 5 per generated sample as CodeT keeps them), and the figures are per generated test.
 * Prints the box CPU split as well: kernel share, and the candidate sub-group (spawner + candidates) with its kernel
 * share (cgroup v1 cpuacct.usage_sys; the split is the kernel's tick-based estimate).
 * Usage: npm run bench:harness [-- --jobs 400] [-- --assertions]
 */
import { pythonInterpreter } from '../test/support/sandbox.js';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { PythonHarnessPool } from '../src/engine/harness-pool.js';
import type { HarnessJob } from '../src/judge/harness/protocol.js';
import { Sandbox } from '../src/sandbox/index.js';
import { readCodetTests, readProblems } from '../src/formats/index.js';
import { CODET_PROBLEMS, CODET_TESTS, HUMANEVAL } from '../test/support/data.js';

const jobs = Number(process.argv[process.argv.indexOf('--jobs') + 1] || 400) || 400;
const assertionsMode = process.argv.includes('--assertions');

interface Problem { readonly prompt: string; readonly canonical_solution: string; readonly test: string; readonly entry_point: string }
const problems = gunzipSync(readFileSync(HUMANEVAL)).toString('utf8').split('\n').filter(Boolean).slice(0, 10)
  .map((line) => JSON.parse(line) as Problem);
/** Each problem's distinct CodeT generated tests, by entry point (only read with `--assertions`). */
const generated = new Map<string, string[]>();
if (assertionsMode) {
  const codet = await readProblems(CODET_PROBLEMS, 'humaneval');
  const tests = await readCodetTests(CODET_TESTS, codet, { limit: 5 });
  for (const [i, p] of problems.entries()) generated.set(p.entry_point, tests.get(codet[i]!.taskId)!.distinct.map((t) => t.assertion));
}
const job = (p: Problem): HarnessJob => assertionsMode
  ? { mode: 'assertions', program: p.prompt + p.canonical_solution, prelude: p.prompt, entryPoint: p.entry_point,
    assertions: generated.get(p.entry_point)!, cpuMs: 1000, wallMs: 5000, memoryKiB: 512 * 1024, outputBytes: 1 << 16 }
  : { mode: 'unit_test', program: p.prompt + p.canonical_solution, prelude: p.prompt, test: p.test, entryPoint: p.entry_point,
    cpuMs: 1000, wallMs: 5000, memoryKiB: 512 * 1024, outputBytes: 1 << 16 };

const sandbox = Sandbox.create({ slots: 1, boxSlots: 1 });
const pool = new PythonHarnessPool(sandbox, pythonInterpreter(), 1);
const boxCpuFile = `/sys/fs/cgroup/cpuacct/crucible/${sandbox.instanceIds[1]}-0/cpuacct.usage`;
const boxCpuNs = (): number => Number(readFileSync(boxCpuFile, 'utf8'));
// The candidate sub-group (the spawner and every candidate) and the box's user/system split, in ns.
const candidateCpuFile = boxCpuFile.replace(/cpuacct\.usage$/, 'candidate/cpuacct.usage');
const candidateCpuNs = (): number => { try { return Number(readFileSync(candidateCpuFile, 'utf8')); } catch { return NaN; } };
const boxSysNs = (): number => Number(readFileSync(boxCpuFile.replace(/usage$/, 'usage_sys'), 'utf8'));
const candidateSysNs = (): number => { try { return Number(readFileSync(candidateCpuFile.replace(/usage$/, 'usage_sys'), 'utf8')); } catch { return NaN; } };
for (let i = 0; i < 20; i++) await pool.run(job(problems[i % problems.length]!));
const cpuBefore = process.cpuUsage();
const boxBefore = boxCpuNs();
const candidateBefore = candidateCpuNs();
const boxSysBefore = boxSysNs();
const candidateSysBefore = candidateSysNs();
const started = process.hrtime.bigint();
let passed = 0;
let units = 0;   // jobs, or generated tests with --assertions
for (let i = 0; i < jobs; i++) {
  const response = await pool.run(job(problems[Math.floor((i * problems.length) / jobs)]!));
  if (!assertionsMode && response.status === 'passed') passed++;
  for (const r of response.results ?? []) if (r.status === 'passed') passed++;
  units += assertionsMode ? (response.results ?? []).length : 1;
}
const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
const node = process.cpuUsage(cpuBefore);
const box = boxCpuNs() - boxBefore;
const candidate = candidateCpuNs() - candidateBefore;
const boxSys = boxSysNs() - boxSysBefore;
const candidateSys = candidateSysNs() - candidateSysBefore;
pool.close();
sandbox.close();
const unit = assertionsMode ? 'test' : 'job';
const per = (ns: number): string => (ns / 1e6 / units).toFixed(3);
console.log(`${jobs} ${assertionsMode ? `assertions jobs (${units} generated tests)` : 'unit_test jobs'} through one warm harness box ` +
  `(${passed} passed): wall ${(wallMs / units).toFixed(3)} ms/${unit}, Node CPU ${((node.user + node.system) / 1000 / units).toFixed(3)} ms/${unit}, ` +
  `harness box CPU ${per(box)} ms/${unit} (kernel ${per(boxSys)}; candidate sub-group ${per(candidate)}, of which kernel ${per(candidateSys)}); ` +
  `tester reuses ${pool.stats.testerReuses}`);

/**
 * bench:repository — what judging a patch to a real repository costs (issue #25), on one instance of
 * ../shared/data/swe (iamkun/dayjs, jest 22):
 * - cold preparation in an empty cache: checkout of the base commit, `npm ci` from the registry, the warm-up run,
 *   and the disk each layer holds;
 * - the bare test command (the gold and test patches applied with `git apply`, then the instance's test command,
 *   in the same box over the same prepared environment, TMPDIR where the warm layer has jest's cache) against a
 *   warm judgement of the gold patch (the whole judge: policy, driver with the ladder, test-file reset and canaries,
 *   the run, the report parsed outside the box), medians of N each, run one at a time;
 * - judgements per minute with every slot busy (2N judgements of the gold patch on a judge of `--slots` slots);
 * - what one judgement writes (the overlay's upper directory and /tmp inside the box, read by `du` at its end).
 * The repository comes from `--repo-source iamkun/dayjs=PATH` (a git directory; not shipped with the data).
 * Usage: npm run bench:repository -- --repo-source iamkun/dayjs=PATH [--instance iamkun__dayjs-3012] [--runs 5] [--slots 2]
 *   [--cache-dir DIR (reuse and keep a cache: preparation is then only as cold as DIR is)]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJudge } from '../src/engine/factory.js';
import { RepositoryEnvironments } from '../src/environments/repository/provider.js';
import { parseRepoSources } from '../src/environments/repository/sources.js';
import { readSweBench } from '../src/formats/swe-bench.js';
import { prepareSubmission } from '../src/judge/submission.js';
import { defaultSubmissionContext } from '../src/kinds/index.js';
import { WARM_TMPDIR } from '../src/kinds/repository/environment-spec.js';
import { REPO_DIR, REPORT_PATH, shellQuote, testCommand } from '../src/kinds/repository/driver.js';
import { DEFAULT_TEST_MEMORY_KIB, judgementEnvironment, TEST_DISK_KIB, TEST_PROCESSES } from '../src/kinds/repository/repository.js';
import { runLimits } from '../src/limits.js';
import { PROJECT_ROOT } from '../src/paths.js';
import { Sandbox } from '../src/sandbox/index.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
}
const sourceArg = arg('--repo-source', '');
if (sourceArg === '') {
  process.stderr.write('bench:repository needs --repo-source iamkun/dayjs=PATH (a git directory of the repository)\n');
  process.exit(2);
}
const instanceId = arg('--instance', 'iamkun__dayjs-3012');
const runs = Number(arg('--runs', '5'));
const slots = Number(arg('--slots', '2'));
const problemsFile = arg('--problems', join(PROJECT_ROOT, '..', 'shared', 'data', 'swe', 'instances.jsonl'));

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const mib = (path: string): string => `${(Number(execFileSync('du', ['-sk', path], { encoding: 'utf8' }).split('\t')[0]) / 1024).toFixed(1)} MiB`;

const problem = (await readSweBench(problemsFile)).find((p) => p.taskId === instanceId);
if (problem === undefined) throw new Error(`no instance ${instanceId} in ${problemsFile}`);
// A fresh cache (cold preparation), unless --cache-dir names one to reuse (kept; its layers may be warm already).
const givenCache = arg('--cache-dir', '');
const cacheDir = givenCache === '' ? mkdtempSync(join(tmpdir(), 'crucible-bench-repo-')) : givenCache;
const sources = parseRepoSources([sourceArg]);
const sandbox = Sandbox.create({ slots });
const environments = new RepositoryEnvironments({ sandbox, cacheDir, sources });
const load = (): string => execFileSync('uptime', { encoding: 'utf8' }).trim().replace(/^.*load average: /, 'load ');

console.log(`instance ${instanceId} (${problem.failToPass.length} FAIL_TO_PASS, ${problem.passToPass.length} PASS_TO_PASS), ${load()}`);
const prepared = await environments.prepare(judgementEnvironment(problem));
console.log(`cold preparation: checkout ${seconds(prepared.checkoutMs)}, npm ci ${seconds(prepared.installMs)}, warm-up ${seconds(prepared.warmMs)}; `
  + `disk: tree ${mib(prepared.tree)}, node_modules ${mib(prepared.deps)}, warm ${prepared.warm === undefined ? '-' : mib(prepared.warm)}`);

// The bare test command in the same box (what a judgement adds is everything else).
const cmd = testCommand(problem.testCmd, problem.testFiles);
/** The bare run's script; with `measure`, it also sums what the run wrote (a walk of the tree: not in timed runs). */
const bareScript = (measure: boolean): string => [
  `touch /tmp/.bench-start; cd ${REPO_DIR}`,
  `printf %s ${shellQuote(problem.goldPatch)} | git apply - && printf %s ${shellQuote(problem.testPatch)} | git apply - || exit 97`,
  `export TMPDIR=${shellQuote(WARM_TMPDIR)}; mkdir -p "$TMPDIR"; mkdir -p /crucible/out`,
  `/bin/bash -c ${shellQuote(cmd)} >/dev/null 2>&1; s=$?`,
  // What the run wrote: files new or changed since it began (copy-on-write copies whole files up), in /testbed and /tmp.
  ...(measure ? ['sum() { find "$1" -xdev -type f -newer /tmp/.bench-start -printf \'%s\\n\' 2>/dev/null | awk \'{ s += $1 } END { printf "%d", s / 1024 }\'; }',
    'echo "written $(sum /testbed) $(sum /tmp)"'] : []),
  'exit $s',
].join('\n');
const limits = { ...runLimits({ cpuMs: 600_000, memoryKiB: DEFAULT_TEST_MEMORY_KIB, wallMs: 660_000 }), processes: TEST_PROCESSES, diskKiB: TEST_DISK_KIB };
const bare: number[] = [];
let written = '';
async function bareRun(measure = false): Promise<void> {
  const t = performance.now();
  const { result } = await sandbox.run({ argv: ['/bin/bash', '-c', bareScript(measure)], limits, outbox: true, loopback: true,
    workspace: { layers: prepared.layers, boxPath: REPO_DIR, writable: 'overlay' } });
  bare.push(performance.now() - t);
  if (result.outbox?.files['report'] === undefined) throw new Error(`the bare run left no report at ${REPORT_PATH}: ${result.status} ${result.reason ?? ''} ${result.stdout}`);
  written = /written (\d+) (\d+)/.exec(result.stdout)?.slice(1).join(' ') ?? written;
}

const judge = createJudge({ slots, cacheDir: null, environments: (s) => [new RepositoryEnvironments({ sandbox: s, cacheDir, sources })] });
const context = defaultSubmissionContext();
let judged = 0;
/** One judgement of the gold patch (each under a task id of its own: the judge would answer a repeat from memory). */
async function judgeGold(): Promise<number> {
  const inline = { ...problem!, taskId: `${problem!.taskId}#${judged++}` };
  const submission = prepareSubmission(inline, { solution: problem!.goldPatch }, context);
  if (submission.kind !== 'program') throw new Error('the gold patch was decided before judging');
  const t = performance.now();
  const v = await judge.judge({ problem: { inline }, program: submission.program });
  if (v.status !== 'passed') throw new Error(`gold not resolved: ${v.status} ${v.reason ?? ''}`);
  return performance.now() - t;
}
await judgeGold(); // the judge's own environment preparation (cached layers) and first-run costs
await bareRun(true); // and the bare command's first run, not counted (it measures what a run writes)
bare.length = 0;
// Interleaved, one at a time, so that both see the same load.
const warm: number[] = [];
for (let i = 0; i < runs; i++) {
  await bareRun();
  warm.push(await judgeGold());
}
const [upperKiB, tmpKiB] = written.split(' ').map(Number);
console.log(`bare test command (in the box, patches applied by git apply): median ${seconds(median(bare))} of ${runs}; `
  + `warm judgement of the gold patch: median ${seconds(median(warm))} of ${runs} (${(median(warm) / median(bare)).toFixed(2)}x); ${load()}`);
console.log(`one run writes (files new or changed during a bare run): /testbed ${upperKiB ?? '?'} KiB, `
  + `/tmp ${tmpKiB ?? '?'} KiB (the writable space dies with the run)`);

const t = performance.now();
await Promise.all(Array.from({ length: 2 * runs }, () => judgeGold()));
const perMinute = (2 * runs) / ((performance.now() - t) / 60_000);
console.log(`throughput: ${perMinute.toFixed(1)} judgements/min with ${slots} slots busy (${2 * runs} judgements); ${load()}`);

await judge.close();
await sandbox.close();
if (givenCache === '') rmSync(cacheDir, { recursive: true, force: true });

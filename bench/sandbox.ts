/**
 * bench:sandbox — what the sandbox costs per execution.
 * Median wall time of (a) a bare spawn from Node and (b) a full sandboxed execution (launcher, cgroups,
 * namespaces, bubblewrap, box-init, tree drain, report) of the same command: a C hello-world binary and
 * `python3 -c pass`, N runs each (default 200), plus sustained sandboxed executions per second with every slot busy;
 * then the sandbox's own CPU time per run (Node, the supervisor, the box and the run's init; the program itself
 * runs in the slot's run cgroups and is not counted), read from a cpuacct cgroup the benchmark puts itself in:
 * on a shared machine wall times follow the load, this figure hardly does (root and cgroup v1 only).
 * Usage: npm run bench:sandbox [-- --runs 200] [--no-slot-boxes (the per-run bubblewrap path, for comparison)]
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, writeFileSync, chmodSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLimits } from '../src/limits.js';
import { Sandbox } from '../src/sandbox/index.js';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1] || 200) || 200;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function bare(argv: readonly string[]): Promise<number> {
  const t = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', () => resolve(Number(process.hrtime.bigint() - t) / 1e6));
  });
}

const dir = mkdtempSync(join(tmpdir(), 'crucible-bench-'));
chmodSync(dir, 0o755);
writeFileSync(join(dir, 'hello.c'), '#include <stdio.h>\nint main(void){puts("hello");return 0;}\n');
execFileSync('gcc', ['-O2', '-o', join(dir, 'hello'), join(dir, 'hello.c')]);

const slotBoxes = !process.argv.includes('--no-slot-boxes');
const sandbox = Sandbox.create({ slots: availableParallelism(), slotBoxes });
const limits = runLimits({ cpuMs: 2000 });
// The boxed binary is built the way the executor builds artifacts: compiled in a box, its work directory kept
// and mounted read-only at /artifact.
const compiled = await sandbox.run({
  argv: ['/usr/bin/gcc', '-O2', '-o', 'hello', 'hello.c'],
  files: { 'hello.c': '#include <stdio.h>\nint main(void){puts("hello");return 0;}\n' },
  limits: runLimits({ cpuMs: 20_000, memoryKiB: 1024 * 1024 }),
  keepWorkDir: true,
});
if (compiled.result.status !== 'ok' || !compiled.workDir) throw new Error(`cannot compile hello.c in a box: ${compiled.result.reason}`);
const cases = [
  { name: 'C hello-world binary', host: [join(dir, 'hello')], box: ['/artifact/hello'] },
  { name: 'python3 -c pass', host: ['/usr/bin/python3.11', '-c', 'pass'], box: ['/usr/bin/python3.11', '-c', 'pass'] },
];
const mounts = [{ hostPath: compiled.workDir, boxPath: '/artifact' }];

async function boxed(argv: readonly string[]): Promise<number> {
  const t = process.hrtime.bigint();
  const { result } = await sandbox.run({ argv, limits, mounts });
  if (result.status !== 'ok') throw new Error(`sandboxed run failed: ${result.status} ${result.reason}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

const lines: string[] = [];
for (const c of cases) {
  for (let i = 0; i < 10; i++) { await bare(c.host); await boxed(c.box); }
  const bareMs: number[] = [];
  const boxMs: number[] = [];
  // Interleave so that both see the same machine state.
  for (let i = 0; i < runs; i++) {
    bareMs.push(await bare(c.host));
    boxMs.push(await boxed(c.box));
  }
  const b = median(bareMs);
  const s = median(boxMs);
  lines.push(`${c.name}: bare spawn median ${b.toFixed(2)} ms, sandboxed median ${s.toFixed(2)} ms, ` +
    `sandbox adds ${(s - b).toFixed(2)} ms (ratio ${(s / b).toFixed(2)}), ${runs} runs each`);
}

const seconds = 10;
let count = 0;
const deadline = Date.now() + seconds * 1000;
await Promise.all(Array.from({ length: sandbox.slotCount }, async () => {
  while (Date.now() < deadline) {
    await boxed(cases[0]!.box);
    count++;
  }
}));
lines.push(`one-shot runs served by ${slotBoxes ? 'long-lived slot boxes' : 'a fresh bubblewrap per run (--no-slot-boxes)'}`);
lines.push(`sustained: ${(count / seconds).toFixed(0)} sandboxed executions/s of the C binary with ${sandbox.slotCount} slots busy for ${seconds} s`);

// The sandbox's CPU per run. On the per-run path bubblewrap and box-init run in the slot's cgroups with the
// program, so only Node and the launcher are counted there: compare this figure between versions, not paths.
const CPUACCT = '/sys/fs/cgroup/cpuacct';
if (slotBoxes && existsSync(`${CPUACCT}/cgroup.procs`)) {
  const group = `${CPUACCT}/crucible-bench-${process.pid}`;
  mkdirSync(group);
  writeFileSync(`${group}/cgroup.procs`, String(process.pid));
  // Boxes started from now on are in the group: restart them by closing this sandbox and opening another.
  const measured = Sandbox.create({ slots: 1, slotBoxes });
  const usage = (): number => Number(readFileSync(`${group}/cpuacct.usage`, 'utf8'));
  const once = async (argv: readonly string[], files?: Record<string, string>): Promise<void> => {
    const { result } = await measured.run({ argv, limits, mounts, files });
    if (result.status !== 'ok') throw new Error(`sandboxed run failed: ${result.status} ${result.reason}`);
  };
  for (const c of [...cases.map((x) => ({ name: x.name, argv: x.box, files: undefined as Record<string, string> | undefined })),
    { name: 'python3 main.py (a request file)', argv: ['/usr/bin/python3.11', 'main.py'], files: { 'main.py': 'pass\n' } }]) {
    for (let i = 0; i < 10; i++) await once(c.argv, c.files);
    const before = usage();
    for (let i = 0; i < runs; i++) await once(c.argv, c.files);
    lines.push(`${c.name}: sandbox CPU ${((usage() - before) / 1e6 / runs).toFixed(2)} ms per run (${runs} runs)`);
  }
  measured.close();
  writeFileSync(`${CPUACCT}/cgroup.procs`, String(process.pid));
  // The closed boxes take a moment to exit and leave the group.
  for (let i = 0; i < 100 && existsSync(group); i++) {
    try {
      rmdirSync(group);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
sandbox.discard(compiled.workDir);
sandbox.close();
rmSync(dir, { recursive: true, force: true });
console.log(lines.join('\n'));

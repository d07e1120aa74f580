/**
 * bench:hostile — a bounded soak of `crucible serve` under a mixed stream of hostile and correct programs.
 *
 * A server child process (`crucible serve --port 0`, HumanEval loaded) receives, from `--workers` concurrent
 * clients for `--seconds`, requests drawn in turn from: correct programs (a Python and a C stdin/stdout sum, a
 * HumanEval canonical solution through the Python harness, a /run_code and a Piston run), the attack corpus of
 * test/hostile/programs (fork bombs, memory and disk fillers, deep trees, output floods, sleepers, orphaned
 * grandchildren, keyring writes, parent killers; the harness ones wrapped as a HumanEval solution), and
 * abandoned requests (a sleeper whose client hangs up after 300 ms). Every program's source is made unique per
 * request (a comment) so nothing is answered from the memo.
 *
 * Figures: requests by kind, correct programs judged correct (must be all), internal errors (must be 0), the
 * verdicts hostile programs got, sandbox slots busy and queue items held once the stream stops and the server
 * is idle (leaks; must be 0), and host disk free (the filesystem of the server's TMPDIR) and memory available
 * (/proc/meminfo) before and after, plus the server's peak RSS (VmHWM).
 * Usage: npm run bench:hostile [-- --seconds 180 --workers 4]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HUMANEVAL } from '../test/support/data.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const SECONDS = arg('--seconds', 180);
const WORKERS = arg('--workers', 4);
const ROOT = join(fileURLToPath(import.meta.url), '..', '..', '..');
const PROGRAMS = join(ROOT, 'test', 'hostile', 'programs');
const HUMAN_EVAL = HUMANEVAL;

interface Job {
  readonly name: string;
  readonly kind: 'correct' | 'hostile' | 'abandoned';
  readonly path: string;
  body(n: number): unknown;
  /** For correct programs: whether the answer says correct. */
  correct?(answer: any): boolean; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const SUM_TESTS = [{ input: '1 2\n', output: '3\n' }, { input: '20 22\n', output: '42\n' }];
const source = (file: string): string => readFileSync(join(PROGRAMS, file), 'utf8');
const hostileIo = (file: string, language: string): Job => ({
  name: file, kind: 'hostile', path: '/v1/judge',
  body: (n) => ({ code: `${source(file)}\n${language === 'c' ? '/*' : '#'} ${n}${language === 'c' ? ' */' : ''}\n`, language,
    tests: [{ input: file === 'keyring_secret.py' ? (n % 2 === 0 ? 'store' : 'read') : '', output: 'never printed\n' }] }),
});
const hostileHarness = (file: string): Job => ({
  name: `harness/${file}`, kind: 'hostile', path: '/v1/judge',
  body: (n) => ({ problem: 'HumanEval/0', code: `${source(join('harness', file))}\n\ndef has_close_elements(numbers, threshold):  # ${n}\n`
    + '    f()\n    return any(abs(a - b) < threshold for i, a in enumerate(numbers) for b in numbers[i + 1:])\n' }),
});

function jobs(canonical: string): Job[] {
  return [
    { name: 'sum.py', kind: 'correct', path: '/v1/judge', body: (n) => ({ code: `a, b = map(int, input().split())\nprint(a + b)  # ${n}\n`, tests: SUM_TESTS }),
      correct: (a) => a.status === 'passed' },
    { name: 'sum.c', kind: 'correct', path: '/v1/judge', correct: (a) => a.status === 'passed',
      body: (n) => ({ language: 'c', code: `#include <stdio.h>\nint main(void){int a,b;scanf("%d %d",&a,&b);printf("%d\\n",a+b);return 0;} /* ${n} */\n`, tests: SUM_TESTS }) },
    { name: 'HumanEval/0', kind: 'correct', path: '/v1/judge', correct: (a) => a.status === 'passed',
      body: (n) => ({ problem: 'HumanEval/0', response: `${canonical}    # ${n}\n` }) },
    { name: '/run_code', kind: 'correct', path: '/run_code', correct: (a) => a.status === 'Success' && a.run_result.stdout === '42\n',
      body: (n) => ({ language: 'python', code: `print(int(input()) * 2)  # ${n}`, stdin: '21', run_timeout: 5 }) },
    { name: '/api/v2/execute', kind: 'correct', path: '/api/v2/execute', correct: (a) => a.run.code === 0 && a.run.stdout === '42\n',
      body: (n) => ({ language: 'python', version: '*', files: [{ content: `print(6 * 7)  # ${n}` }] }) },
    ...['fork_bomb.c', 'infinite_loop.c', 'busy_threads.c'].map((f) => hostileIo(f, 'c')),
    ...['memory_bomb.py', 'fill_disk.py', 'fill_tmp.py', 'deep_tree.py', 'stdout_flood.py', 'stderr_flood.py', 'sleep_forever.py',
      'double_fork_setsid.py', 'keyring_secret.py', 'kill_parent.py', 'write_outside.py', 'connect_public.py'].map((f) => hostileIo(f, 'python')),
    ...['grandchild_cpu.py', 'children_memory.py', 'fill_box.py', 'leave_traces.py'].map(hostileHarness),
    { name: 'abandoned sleeper', kind: 'abandoned', path: '/v1/judge',
      body: (n) => ({ code: `import time\ntime.sleep(100)  # ${n}\n`, tests: SUM_TESTS, timeLimitMs: 60_000 }) },
  ];
}

function startServe(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(join(ROOT, 'bin', 'crucible'), ['serve', '--port', '0', '--problems', HUMAN_EVAL, '--log-level', 'warn'],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let seen = '';
    const read = (chunk: Buffer): void => {
      seen += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(seen);
      if (m) resolve({ child, url: m[1]! });
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) => reject(new Error(`crucible serve exited (${code}):\n${seen}`)));
  });
}

function host(): { diskFreeMiB: number; memAvailableMiB: number } {
  const fs = statfsSync(tmpdir());
  const mem = Number(/^MemAvailable:\s+(\d+)/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1] ?? 0);
  return { diskFreeMiB: Math.round((fs.bavail * fs.bsize) / 2 ** 20), memAvailableMiB: Math.round(mem / 1024) };
}

function serverKiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  return Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
}

async function main(): Promise<void> {
  const humanEval = readFileSync(HUMAN_EVAL);
  const { gunzipSync } = await import('node:zlib');
  const first = JSON.parse(gunzipSync(humanEval).toString('utf8').split('\n')[0]!) as { canonical_solution: string };
  const before = host();
  const { child, url } = await startServe();
  const all = jobs(first.canonical_solution);
  const counts = new Map<string, Map<string, number>>();
  const note = (name: string, outcome: string): void => {
    const m = counts.get(name) ?? new Map<string, number>();
    m.set(outcome, (m.get(outcome) ?? 0) + 1);
    counts.set(name, m);
  };
  let n = 0;
  let correctRight = 0;
  let correctTotal = 0;
  let internalErrors = 0;
  const deadline = Date.now() + SECONDS * 1000;
  const worker = async (): Promise<void> => {
    while (Date.now() < deadline) {
      const i = n++;
      const job = all[i % all.length]!;
      const controller = new AbortController();
      if (job.kind === 'abandoned') setTimeout(() => controller.abort(), 300);
      try {
        const response = await fetch(url + job.path, { method: 'POST', signal: controller.signal,
          headers: { 'content-type': 'application/json' }, body: JSON.stringify(job.body(i)) });
        const answer = await response.json() as any; // eslint-disable-line @typescript-eslint/no-explicit-any
        const status = answer.run !== undefined && answer.status === undefined
          ? String(answer.run.status ?? 'exit 0') // Piston: null status is a normal exit
          : String(answer.status ?? answer.verdict?.status ?? answer.error?.code ?? response.status);
        if (response.status >= 500 || status === 'internal_error' || status === 'SandboxError' || status === 'XX') internalErrors++;
        if (job.correct) {
          correctTotal++;
          if (job.correct(answer)) correctRight++;
        }
        note(job.name, `${response.status} ${status}`);
      } catch (error) {
        note(job.name, (error as Error).name === 'AbortError' ? 'abandoned' : `client error ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, worker));
  // Idle: every abandoned or running item must be gone; read the server's own figures.
  let health: any = null; // eslint-disable-line @typescript-eslint/no-explicit-any
  for (let t = 0; t < 600; t++) {
    health = await (await fetch(`${url}/health`)).json();
    if (health.queue.outstanding === 0 && health.sandbox.busySlots === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const peakRssMiB = Math.round(serverKiB(child.pid!, 'VmHWM') / 1024);
  const rssMiB = Math.round(serverKiB(child.pid!, 'VmRSS') / 1024);
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  await new Promise((r) => setTimeout(r, 1000));
  const afterStop = host();
  console.log(`bench:hostile — ${SECONDS} s, ${WORKERS} clients, ${n} requests against crucible serve (${health.sandbox.slots} slots)`);
  for (const [name, m] of counts) console.log(`  ${name.padEnd(26)} ${[...m].map(([k, v]) => `${k}: ${v}`).join(', ')}`);
  console.log(`correct programs judged correct: ${correctRight}/${correctTotal}`);
  console.log(`internal errors: ${internalErrors}`);
  console.log(`after the stream, idle: busy slots ${health.sandbox.busySlots}, queue items held ${health.queue.outstanding}, health ${health.status}`);
  console.log(`host disk free (${tmpdir()}): ${before.diskFreeMiB} MiB before, ${afterStop.diskFreeMiB} MiB after (${afterStop.diskFreeMiB - before.diskFreeMiB} MiB)`);
  console.log(`host memory available: ${before.memAvailableMiB} MiB before, ${afterStop.memAvailableMiB} MiB after (${afterStop.memAvailableMiB - before.memAvailableMiB} MiB)`);
  console.log(`server RSS: ${rssMiB} MiB at the end, peak ${peakRssMiB} MiB`);
  if (correctRight !== correctTotal || internalErrors > 0 || health.sandbox.busySlots !== 0 || health.queue.outstanding !== 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

/**
 * bench:generate — throughput of `crucible generate` against the mock OpenAI server at a set capacity: 1,000
 * prompts x n = 10 through `--concurrency 64`, the mock in a process of its own serving `--slots` choices at once,
 * each request holding its n slots for `--latency-ms` (capacity = slots / latency choices per second). Prints the
 * samples per second the command reports (its generation wall time: cache lookup, requests, cache writes), the
 * ratio to the mock's capacity (target >= 0.90), the command's whole wall time, and the machine's load.
 * Usage: npm run bench:generate [-- --prompts 1000 --n 10 --concurrency 64 --slots 640 --latency-ms 250]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { PROJECT_ROOT } from '../src/paths.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const prompts = arg('--prompts', 1000);
const n = arg('--n', 10);
const concurrency = arg('--concurrency', 64);
const slots = arg('--slots', 640);
const latencyMs = arg('--latency-ms', 250);
const capacity = slots * 1000 / latencyMs;

const dir = mkdtempSync(join(tmpdir(), 'crucible-bench-generate-'));
const problems = join(dir, 'problems.jsonl');
writeFileSync(problems, Array.from({ length: prompts }, (_, i) => JSON.stringify({
  task_id: `Bench/${i}`, entry_point: `f${i}`, test: `def check(candidate):\n    assert candidate(${i}) == ${i}\n`,
  prompt: `def f${i}(x: int) -> int:\n    """Return x unchanged (task ${i})."""\n`,
})).join('\n') + '\n');

const mock = spawn(process.execPath, [join(PROJECT_ROOT, 'dist', 'test', 'support', 'mock-openai-main.js'), '--slots', String(slots),
  '--latency-ms', String(latencyMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
const lines = createInterface({ input: mock.stdout! })[Symbol.asyncIterator]();
const { url } = JSON.parse(String((await lines.next()).value)) as { url: string };

const started = performance.now();
const output = await new Promise<string>((resolve, reject) => {
  const child = spawn(join(PROJECT_ROOT, 'bin', 'crucible'), ['generate', '--endpoint', url, '--model', 'bench', '--problems', problems,
    '--n', String(n), '--temperature', '0.8', '--concurrency', String(concurrency), '--max-n-per-request', String(n),
    '--store', join(dir, 'store.db'), '--out', join(dir, 'samples.jsonl'), '--json', '--no-progress'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let text = '';
  child.stdout.on('data', (c: Buffer) => { text += c.toString(); });
  child.on('close', (code) => (code === 0 ? resolve(text) : reject(new Error(`crucible generate exited with ${code}`))));
});
const commandSeconds = (performance.now() - started) / 1000;
mock.kill('SIGTERM');
rmSync(dir, { recursive: true, force: true });

const { stats } = JSON.parse(output) as { stats: { generated: number; failed: number; requests: number; retries: number; wallMs: number } };
const rate = stats.generated / (stats.wallMs / 1000);
console.log(`${prompts} prompts x n=${n} = ${prompts * n} samples, --concurrency ${concurrency}; mock: ${slots} slots x ${latencyMs} ms = ${capacity.toFixed(0)} samples/s capacity`);
console.log(`generated ${stats.generated}, failed ${stats.failed}, ${stats.requests} requests, ${stats.retries} retries`);
console.log(`generation ${(stats.wallMs / 1000).toFixed(2)} s = ${rate.toFixed(0)} samples/s = ${(rate / capacity).toFixed(3)} of capacity (target >= 0.90); ` +
  `whole command ${commandSeconds.toFixed(2)} s (start-up, reading, writing the files)`);
console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(', ')}`);

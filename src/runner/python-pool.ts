/**
 * A pool of warm Python judge harnesses ("zygotes"), one per sandbox slot, each in its own bubblewrap box.
 *
 * Why: HumanEval-style judging is dominated by start-up cost (a fresh box ~6 ms, a fresh interpreter ~10 ms;
 * see docs/PERFORMANCE.md), while a fork of a warm interpreter costs ~1–2 ms. Each zygote serves one job at
 * a time and forks a fresh candidate process per job inside its box; the tester process is kept across
 * consecutive unit_test jobs of one problem (the warm tester, see harness/python/crucible_harness/zygote.py),
 * so jobs of a problem are best sent in a row. The host isolation is the same bubblewrap box as every run.
 *
 * Failure policy: a zygote must answer a ping before it gets a job; one that cannot is Crucible's failure
 * (`internal_error`). A zygote that dies, answers garbage or overruns a job's wall bound is killed whole and
 * replaced, and the job is retried once in a fresh one-shot box (`--once`). The harness is pid 1 of that
 * box, which no process of the box can signal, and it bounds the job itself, so if the one-shot box still
 * gives no answer the harness failed: `internal_error` with the reason, never a verdict on the program.
 */
import { createInterface } from 'node:readline';
import { BOX_HARNESS, type OpenBox, type Sandbox } from '../sandbox/index.js';
import type { Limits } from '../sandbox/types.js';
import { harnessResponseSchema, type HarnessJob, type HarnessResponse } from '../judge/harness-protocol.js';

export type { HarnessJob, HarnessResponse } from '../judge/harness-protocol.js';

const HARNESS = `${BOX_HARNESS}/python/harness.py`;

/**
 * The Python that runs the harness: the interpreter and its flags (argv before the script) and its environment,
 * taken from `languages/python.yaml` (`harnessInterpreter` in `local-judge.ts`): -s -P (-I without -E, so that
 * PYTHONHASHSEED is honoured), -S no site, -B no .pyc, and the fixed hash seed PYTHONHASHSEED=0 (set iteration
 * order, hence some programs' answers, must not change between runs: a CodeGen-16B HumanEval/1 sample passed
 * or failed by the spawner's random seed). The spawner and every candidate inherit the seed.
 */
export interface PythonInterpreter {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/** Limits of a zygote box for its whole life (per-job CPU/memory are set by the harness per job). */
const BOX_LIMITS: Limits = {
  cpuMs: 24 * 3600 * 1000,
  wallMs: 24 * 3600 * 1000,
  memoryKiB: 4 * 1024 * 1024,
  processes: 128,
  fileSizeKiB: 64 * 1024,
  openFiles: 256,
  outputBytes: 1 << 20,
};

/** Wall time a job may take before the host gives up on its harness: per input (call mode) or per generated
 *  test (assertions mode), plus slack. */
function jobBudgetMs(job: HarnessJob): number {
  const units = job.mode === 'call' ? job.inputs.length : job.mode === 'assertions' ? job.assertions.length : 1;
  return job.wallMs * Math.max(1, units) + 10_000;
}

interface Pending {
  readonly resolve: (r: HarnessResponse) => void;
  readonly reject: (e: Error) => void;
  readonly timer: NodeJS.Timeout;
}

class Zygote {
  private pending: { id: string; p: Pending } | null = null;
  private pendingPing: (() => void) | null = null;
  dead = false;
  private stderrTail = '';

  private constructor(private readonly box: OpenBox) {
    const lines = createInterface({ input: box.launched.stdout });
    lines.on('line', (line) => this.onLine(line));
    box.launched.stderr.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-2000);
    });
    void box.result.then((result) => {
      this.dead = true;
      this.fail(new Error(`harness box ended: ${result.status} ${result.reason ?? ''} ${this.stderrTail.slice(-300)}`));
    });
  }

  static async start(sandbox: Sandbox, python: PythonInterpreter): Promise<Zygote> {
    // The harness must be pid 1 of its box: no other process of the box may hold the host's pipes.
    const box = await sandbox.open({ argv: [...python.argv, HARNESS], env: python.env, limits: BOX_LIMITS, asPid1: true });
    const zygote = new Zygote(box);
    await zygote.ping();
    return zygote;
  }

  /** Resolve when the harness answers a ping; reject (and kill the box) otherwise. */
  private ping(): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pendingPing = null;
        this.kill('no pong');
        reject(new Error(`the harness did not answer a ping: ${this.stderrTail.slice(-300)}`));
      }, 15_000);
      this.pendingPing = () => {
        clearTimeout(timer);
        resolve();
      };
      void this.box.result.then(() => {
        clearTimeout(timer);
        if (this.pendingPing) reject(new Error(`the harness box ended before answering a ping: ${this.stderrTail.slice(-300)}`));
        this.pendingPing = null;
      });
      this.box.launched.stdin.write('{"op":"ping"}\n');
    });
  }

  private onLine(line: string): void {
    if (this.pendingPing && line.includes('"pong"')) {
      const done = this.pendingPing;
      this.pendingPing = null;
      done();
      return;
    }
    const current = this.pending;
    if (!current) return;
    let parsed: HarnessResponse;
    try {
      parsed = harnessResponseSchema.parse(JSON.parse(line));
    } catch (error) {
      this.fail(new Error(`malformed harness response: ${(error as Error).message.slice(0, 200)}`));
      this.kill('malformed response');
      return;
    }
    if (parsed.id !== current.id) return;
    clearTimeout(current.p.timer);
    this.pending = null;
    current.p.resolve(parsed);
  }

  private fail(error: Error): void {
    const current = this.pending;
    if (!current) return;
    clearTimeout(current.p.timer);
    this.pending = null;
    current.p.reject(error);
  }

  kill(reason: string): void {
    this.dead = true;
    this.box.launched.kill(reason);
  }

  run(id: string, job: HarnessJob): Promise<HarnessResponse> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.fail(new Error('harness did not answer within the job wall bound'));
        this.kill('job overran');
      }, jobBudgetMs(job));
      this.pending = { id, p: { resolve, reject, timer } };
      this.box.launched.stdin.write(JSON.stringify({ op: 'run', id, ...job }) + '\n');
    });
  }
}

/** Pool of zygotes over a sandbox; `size` defaults to the sandbox's slot count for long-lived boxes. */
export class PythonHarnessPool {
  private readonly idle: Zygote[] = [];
  private readonly waiting: ((z: Zygote) => void)[] = [];
  private starting = 0;
  private live = 0;
  private closed = false;
  private counter = 0;
  /** Counters for metrics and benchmarks. */
  readonly stats = { jobs: 0, zygoteRestarts: 0, oneShotRetries: 0, testerReuses: 0 };

  constructor(private readonly sandbox: Sandbox, private readonly python: PythonInterpreter,
    private readonly size = sandbox.boxSlotCount) {}

  private async acquire(): Promise<Zygote> {
    const ready = this.idle.pop();
    if (ready) return ready;
    if (this.live + this.starting < this.size) {
      this.starting++;
      try {
        const zygote = await Zygote.start(this.sandbox, this.python);
        this.live++;
        return zygote;
      } finally {
        this.starting--;
      }
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(zygote: Zygote): void {
    if (zygote.dead || this.closed) {
      this.live--;
      if (!this.closed) {
        this.stats.zygoteRestarts++;
        // Hand a waiter a fresh zygote rather than letting it wait forever.
        const waiter = this.waiting.shift();
        if (waiter) void this.acquire().then(waiter);
      }
      return;
    }
    const waiter = this.waiting.shift();
    if (waiter) waiter(zygote);
    else this.idle.push(zygote);
  }

  /** Run one job; never rejects for anything the program does (see the failure policy above). */
  async run(job: HarnessJob): Promise<HarnessResponse> {
    this.stats.jobs++;
    const id = `j${++this.counter}`;
    let zygote: Zygote;
    try {
      zygote = await this.acquire();
    } catch (error) {
      return { id, status: 'internal_error', cpuMs: 0, wallMs: 0, memoryKiB: 0,
        reason: `cannot start the Python judge harness: ${(error as Error).message}` };
    }
    try {
      const response = await zygote.run(id, job);
      if ((response.testerJob ?? 0) > 1) this.stats.testerReuses++;
      return response;
    } catch {
      zygote.kill('failed job');
      this.stats.oneShotRetries++;
      return this.runOnce(id, job);
    } finally {
      this.release(zygote);
    }
  }

  /** Run one job in a fresh one-shot box (`harness.py --once`). */
  async runOnce(id: string, job: HarnessJob): Promise<HarnessResponse> {
    const { result } = await this.sandbox.run({
      argv: [...this.python.argv, HARNESS, '--once'],
      env: this.python.env,
      asPid1: true,
      stdin: JSON.stringify({ op: 'run', id, ...job }) + '\n',
      limits: { ...BOX_LIMITS, wallMs: jobBudgetMs(job), outputBytes: 64 << 20 },
    });
    const line = result.stdout.trim().split('\n').pop() ?? '';
    try {
      return harnessResponseSchema.parse(JSON.parse(line));
    } catch {
      return { id, status: 'internal_error', cpuMs: result.cpuMs, wallMs: result.wallMs, memoryKiB: result.memoryKiB,
        reason: `the judge harness gave no answer (${result.status}${result.reason ? `: ${result.reason}` : ''}): ${result.stderr.slice(-300)}` };
    }
  }

  /** Kill every zygote. */
  close(): void {
    this.closed = true;
    for (const zygote of this.idle.splice(0)) zygote.kill('pool closed');
  }
}

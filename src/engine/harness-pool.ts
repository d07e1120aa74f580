/**
 * A pool of warm Python judge harnesses ("zygotes"), one per sandbox slot, each in its own bubblewrap box.
 *
 * Why: HumanEval-style judging is dominated by start-up cost (a fresh box ~6 ms, a fresh interpreter ~10 ms;
 * see docs/PERFORMANCE.md), while a fork of a warm interpreter costs ~1–2 ms. Each zygote serves one job at
 * a time and forks a fresh candidate process per job inside its box; the tester process is kept across
 * consecutive unit_test jobs of one problem (the warm tester, see harness/python/crucible_harness/zygote.py),
 * so jobs of a problem are best sent in a row. The host isolation is the same bubblewrap box as every run.
 *
 * Limits of the candidate's whole tree: every box has two sub-cgroups (src/sandbox/subgroups.ts), "candidate"
 * (each judged program and everything it forks) and "tester" (the tester of model-generated tests). The pool
 * sets their memory and process limits from outside the box before each job; the harness reads their CPU and
 * OOM counters to enforce the job's limits, and for unit_test jobs (rewards and pass@k) the pool checks the
 * kernel's CPU figure again from outside before it lets a `passed` through.
 *
 * Several judges may share one sandbox (an embedding program, two servers given the same `Sandbox`): each pool
 * registers with the sandbox (`Sandbox.onBoxSlotWanted`), gives an idle zygote's box slot back when another pool
 * waits for one, and ends a zygote rather than idle it while another pool waits, so no pool waits forever on
 * another's idle harnesses (test/engine/shared-sandbox.test.ts).
 *
 * Failure policy: a zygote must answer a ping before it gets a job; one that cannot is Crucible's failure
 * (`internal_error`). A zygote that dies, answers garbage or overruns a job's wall bound is killed whole and
 * replaced, and the job is retried once in a fresh one-shot box (`--once`). The harness is pid 1 of that
 * box, which no process of the box can signal, and it bounds the job itself, so if the one-shot box still
 * gives no answer the harness failed: `internal_error` with the reason, never a verdict on the program.
 * A transient failure inside the harness (its answer says `harness failure: ...`) is retried, at most
 * `MAX_ATTEMPTS` times in all. Cancellation (`run(job, {signal})`) kills the zygote at once (its box takes
 * every process of the job with it) and answers `internal_error` with `cancelled: true`.
 */
import { createInterface } from 'node:readline';
import type { Language } from '../languages/schema.js';
import { BOX_HARNESS, CANCELLED_REASON, type OpenBox, type Sandbox } from '../sandbox/index.js';
import type { Limits, SubgroupLimits } from '../sandbox/types.js';
import { harnessResponseSchema, type HarnessJob, type HarnessResponse } from '../judge/harness/protocol.js';

const HARNESS = `${BOX_HARNESS}/python/harness.py`;

/**
 * The Python that runs the harness: the interpreter and its flags (argv before the script) and its environment,
 * taken from `languages/python.yaml` (`harnessInterpreter` below): -s -P (-I without -E, so that
 * PYTHONHASHSEED is honoured), -S no site, -B no .pyc, and the fixed hash seed PYTHONHASHSEED=0 (set iteration
 * order, hence some programs' answers, must not change between runs: a CodeGen-16B HumanEval/1 sample passed
 * or failed by the spawner's random seed). The spawner and every candidate inherit the seed.
 */
export interface PythonInterpreter {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/**
 * The Python that runs Crucible's trusted in-box code (the judge harness, the interactive relay), from the Python
 * language file: its run command less the script.
 * @throws Error when the language file's run command does not name its script.
 */
export function harnessInterpreter(python: Language): PythonInterpreter {
  const script = `/box/${python.sourceFile}`;
  if (!python.run.includes(script)) throw new Error(`languages/${python.id}.yaml: "run" does not name ${script}; the harness cannot use it`);
  return { argv: python.run.filter((arg) => arg !== script), env: python.env };
}

/**
 * Limits of a zygote box for its whole life (per-job CPU/memory are set per job: the sub-groups' limits by the
 * pool, CPU by the harness). `diskKiB` is each of /box, /tmp and /dev/shm (emptied after every job).
 */
const BOX_LIMITS: Limits = {
  cpuMs: 24 * 3600 * 1000,
  wallMs: 24 * 3600 * 1000,
  memoryKiB: 4 * 1024 * 1024,
  processes: 128,
  fileSizeKiB: 64 * 1024,
  openFiles: 256,
  outputBytes: 1 << 20,
  diskKiB: 256 * 1024,
};

/** Processes + threads a candidate's tree may hold at once; a tester's (generated tests) likewise. */
const CANDIDATE_PROCESSES = 64;
const TESTER_PROCESSES = 32;
/** The tester's memory floor (it decodes the candidate's answers): as its RLIMIT_AS in tester.py. */
const TESTER_MIN_MEMORY_KIB = 512 * 1024;
/** Attempts of one job when the harness reports a transient failure of its own. */
const MAX_ATTEMPTS = 3;

/** The sub-groups' limits for one job. */
function subgroupLimits(job: HarnessJob): Record<'candidate' | 'tester', SubgroupLimits> {
  return {
    candidate: { memoryKiB: job.memoryKiB, processes: CANDIDATE_PROCESSES },
    tester: { memoryKiB: Math.max(job.memoryKiB, TESTER_MIN_MEMORY_KIB), processes: TESTER_PROCESSES },
  };
}

/** A harness answer that says the harness itself failed in a way worth another try (not a verdict). */
function transient(response: HarnessResponse): boolean {
  return response.status === 'internal_error' && response.cancelled !== true &&
    (response.reason ?? '').startsWith('harness failure:');
}

function cancelled(id: string): HarnessResponse {
  return { id, status: 'internal_error', cpuMs: 0, wallMs: 0, memoryKiB: 0, reason: CANCELLED_REASON, cancelled: true };
}

/** Modes whose job is one program judged by the warm tester's report (its CPU limit is per job). */
const ONE_PROGRAM_MODES: ReadonlySet<HarnessJob['mode']> = new Set(['unit_test', 'script']);

/**
 * The kernel's CPU figure for a unit_test or script job's candidate tree, read outside the box, overrules a `passed` over
 * the CPU limit (a second line behind the harness's own enforcement, which also handles OOM kills; the harness
 * is trusted, but a pass is what a reward is made of). `beforeNs`/`afterNs`: the group's cpuacct.usage.
 */
function checkOutside(job: HarnessJob, response: HarnessResponse, beforeNs: number, afterNs: number): HarnessResponse {
  if (!ONE_PROGRAM_MODES.has(job.mode) || response.status !== 'passed') return response;
  const cpuMs = Math.round((afterNs - beforeNs) / 1e6);
  if (cpuMs <= job.cpuMs) return response;
  return { ...response, status: 'time_limit_exceeded', cpuMs,
    reason: `CPU limit of ${job.cpuMs} ms exceeded by the candidate's processes together (${cpuMs} ms, counted outside the box)` };
}

/** Wall time a job may take before the host gives up on its harness: per input (call mode) or per generated
 *  test (assertions mode), plus slack. */
function jobBudgetMs(job: HarnessJob): number {
  const units = job.mode === 'call' ? job.inputs.length : job.mode === 'assertions' ? job.assertions.length : 1;
  return job.wallMs * Math.max(1, units) + 10_000;
}

/** A unit_test job every harness must pass (the self-test). */
const SELF_TEST_JOB: HarnessJob = {
  mode: 'unit_test', program: 'def add(a, b):\n    return a + b\n', prelude: '', entryPoint: 'add',
  test: 'def check(candidate):\n    assert candidate(2, 3) == 5\n',
  cpuMs: 2000, wallMs: 10_000, memoryKiB: 256 * 1024, outputBytes: 64 * 1024,
};

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

  static async start(sandbox: Sandbox, python: PythonInterpreter, first: HarnessJob, holder: object): Promise<Zygote> {
    // The harness must be pid 1 of its box: no other process of the box may hold the host's pipes.
    const box = await sandbox.open({ argv: [...python.argv, HARNESS], env: python.env, limits: BOX_LIMITS,
      asPid1: true, subgroups: subgroupLimits(first) }, holder);
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

  /**
   * Run one job: set the sub-groups' limits for it (outside the box), send it, and check a unit_test or script pass
   * against the kernel's figures. Aborting `signal` kills the box (the caller answers `cancelled`).
   */
  async run(id: string, job: HarnessJob, signal?: AbortSignal): Promise<HarnessResponse> {
    const limits = subgroupLimits(job);
    const candidate = this.box.subgroups.get('candidate');
    candidate?.setLimits(limits.candidate);
    // Only generated tests put the tester in its group.
    if (job.mode === 'assertions') this.box.subgroups.get('tester')?.setLimits(limits.tester);
    const before = ONE_PROGRAM_MODES.has(job.mode) ? candidate?.cpuNs() : undefined;
    const abort = (): void => this.kill(CANCELLED_REASON);
    signal?.addEventListener('abort', abort, { once: true });
    try {
      if (signal?.aborted) abort();
      const response = await this.send(id, job);
      return candidate && before !== undefined && response.status === 'passed'
        ? checkOutside(job, response, before, candidate.cpuNs()) : response;
    } finally {
      signal?.removeEventListener('abort', abort);
    }
  }

  private send(id: string, job: HarnessJob): Promise<HarnessResponse> {
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
  private readonly waiting: ((z: Zygote | 'retry') => void)[] = [];
  private starting = 0;
  private live = 0;
  private closed = false;
  private counter = 0;
  /** Counters for metrics and benchmarks. */
  readonly stats = { jobs: 0, zygoteRestarts: 0, oneShotRetries: 0, testerReuses: 0, transientRetries: 0, cancelled: 0 };

  private readonly unregister: () => void;

  constructor(private readonly sandbox: Sandbox, private readonly python: PythonInterpreter,
    private readonly size = sandbox.boxSlotCount) {
    // Another judge on this sandbox waiting for a box slot gets one of our idle zygotes' (never a busy one).
    this.unregister = sandbox.onBoxSlotWanted(this, () => this.giveBackIdle());
  }

  /** Kill one idle zygote so its box slot returns to the sandbox; false when none is idle. */
  private giveBackIdle(): boolean {
    const zygote = this.idle.shift();
    if (zygote === undefined) return false;
    this.giveBack(zygote);
    this.waiting.shift()?.('retry');
    return true;
  }

  /** End a live zygote for another judge on this sandbox: its box slot returns to the sandbox when the box ends. */
  private giveBack(zygote: Zygote): void {
    zygote.kill('box slot wanted by another judge on this sandbox');
    this.live--;
  }

  /**
   * An idle zygote, a new one, or the next one released; null when `signal` aborts first.
   * @throws Error when a new zygote cannot be started.
   */
  private async acquire(job: HarnessJob, signal?: AbortSignal): Promise<Zygote | null> {
    for (;;) {
      const ready = this.idle.pop();
      if (ready) return ready;
      if (this.live + this.starting < this.size) {
        this.starting++;
        try {
          const zygote = await Zygote.start(this.sandbox, this.python, job, this);
          this.live++;
          return zygote;
        } finally {
          this.starting--;
        }
      }
      if (signal?.aborted) return null;
      // A waiter is handed a zygote, or told to try again (a zygote died: there is room to start one).
      const given = await new Promise<Zygote | 'retry' | null>((resolve) => {
        const waiter = (zygote: Zygote | 'retry'): void => {
          signal?.removeEventListener('abort', onAbort);
          resolve(zygote);
        };
        const onAbort = (): void => {
          const at = this.waiting.indexOf(waiter);
          if (at >= 0) this.waiting.splice(at, 1);
          resolve(null);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        this.waiting.push(waiter);
      });
      if (given !== 'retry') return given;
    }
  }

  private release(zygote: Zygote): void {
    if (zygote.dead || this.closed) {
      this.live--;
      if (!this.closed) this.stats.zygoteRestarts++;
      this.waiting.shift()?.('retry');
      return;
    }
    const waiter = this.waiting.shift();
    if (waiter) waiter(zygote);
    // Another judge on this sandbox waiting for a box slot gets this one rather than the zygote idling on it.
    else if (this.sandbox.boxSlotWantedByOthers(this)) this.giveBack(zygote);
    else this.idle.push(zygote);
  }

  /**
   * Run one job; never rejects for anything the program does (see the failure policy above). Aborting
   * `options.signal` cancels it: `internal_error` with `cancelled: true`, every process of the job killed.
   */
  async run(job: HarnessJob, options: { readonly signal?: AbortSignal } = {}): Promise<HarnessResponse> {
    this.stats.jobs++;
    const id = `j${++this.counter}`;
    for (let attempt = 1; ; attempt++) {
      const response = await this.attempt(id, job, options.signal);
      if (response.cancelled) this.stats.cancelled++;
      if (!transient(response) || attempt >= MAX_ATTEMPTS) return response;
      this.stats.transientRetries++;
    }
  }

  private async attempt(id: string, job: HarnessJob, signal?: AbortSignal): Promise<HarnessResponse> {
    if (signal?.aborted) return cancelled(id);
    let zygote: Zygote | null;
    try {
      zygote = await this.acquire(job, signal);
    } catch (error) {
      return { id, status: 'internal_error', cpuMs: 0, wallMs: 0, memoryKiB: 0,
        reason: `cannot start the Python judge harness: ${(error as Error).message}` };
    }
    if (zygote === null) return cancelled(id);
    try {
      const response = await zygote.run(id, job, signal);
      if ((response.testerJob ?? 0) > 1) this.stats.testerReuses++;
      return response;
    } catch {
      zygote.kill('failed job');
      if (signal?.aborted) return cancelled(id);
      this.stats.oneShotRetries++;
      return this.runOnce(id, job, signal);
    } finally {
      this.release(zygote);
    }
  }

  /** Run one job in a fresh one-shot box (`harness.py --once`), with the job's sub-groups. */
  async runOnce(id: string, job: HarnessJob, signal?: AbortSignal): Promise<HarnessResponse> {
    const { result } = await this.sandbox.run({
      argv: [...this.python.argv, HARNESS, '--once'],
      env: this.python.env,
      asPid1: true,
      stdin: JSON.stringify({ op: 'run', id, ...job }) + '\n',
      limits: { ...BOX_LIMITS, wallMs: jobBudgetMs(job), outputBytes: 64 << 20 },
      subgroups: subgroupLimits(job),
      signal,
    });
    if (result.cancelled) return cancelled(id);
    const line = result.stdout.trim().split('\n').pop() ?? '';
    try {
      return harnessResponseSchema.parse(JSON.parse(line));
    } catch {
      return { id, status: 'internal_error', cpuMs: result.cpuMs, wallMs: result.wallMs, memoryKiB: result.memoryKiB,
        reason: `the judge harness gave no answer (${result.status}${result.reason ? `: ${result.reason}` : ''}): ${result.stderr.slice(-300)}` };
    }
  }

  /**
   * Judge a tiny known-good program end to end (a zygote, a candidate in its sub-group, a tester): ok, or the
   * reason it failed. For health checks; never throws.
   */
  async selfTest(signal?: AbortSignal): Promise<{ readonly ok: true; readonly wallMs: number } | { readonly ok: false; readonly wallMs: number; readonly reason: string }> {
    const started = Date.now();
    const response = await this.run({ ...SELF_TEST_JOB }, { signal });
    const wallMs = Date.now() - started;
    if (response.status === 'passed') return { ok: true, wallMs };
    return { ok: false, wallMs, reason: `the Python judge harness answered ${response.status} for a correct program: ${response.reason ?? ''}`.trim() };
  }

  /** Kill every zygote. */
  close(): void {
    this.closed = true;
    this.unregister();
    for (const zygote of this.idle.splice(0)) zygote.kill('pool closed');
    // Waiters try again and meet the closed sandbox: an internal_error answer, never a hang.
    for (const waiter of this.waiting.splice(0)) waiter('retry');
  }
}

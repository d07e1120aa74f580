/**
 * Theory of operation. A run asks an OpenAI-compatible endpoint for `n` samples of each task's prompt.
 *
 * 1. Every sample (task, index) has a content address (`address.ts`). The cache (`src/store/generation-cache.ts`)
 *    is asked for them a slice of tasks at a time, before that slice's requests: what it holds is reported at
 *    once and never requested again.
 * 2. The missing samples of a task become requests: runs of consecutive indices, at most `maxNPerRequest` per
 *    request, through the API's `n`; one request per sample when `n` is off. A request for samples `first ..`
 *    carries `seed + first` (`params.ts`).
 * 3. Requests take places in one global `Limiter` (`concurrency`); a request waiting out a retry holds none.
 *    A failed attempt is retried per `retry.ts` (backoff with jitter, Retry-After, bounded attempts and time);
 *    a sample whose request gave up is a failure outcome, counted by cause, never an empty sample.
 * 4. A server that refuses `n > 1` (a 400 naming `n`, or fewer choices than asked) turns `n` off for the rest of
 *    the run: the request's samples are asked one by one. One that refuses the stop list turns `stop` off: stop
 *    sequences are then applied to the text only (every text is cut at them anyway, as the harnesses do).
 * 5. Each answer's samples are written to the cache (committed, within `PUT_WINDOW_MS` of their arrival) before
 *    they are reported (`onOutcome`), so a process killed at any moment loses only the answers of its last few
 *    milliseconds, which a resumed run asks for again.
 * 6. 401/403/404 end the run at once (`GenerationError`): no request after them can succeed. Cancellation
 *    (`signal`) ends it the same way; samples already cached stay cached.
 */
import { cacheKey, canonicalJson, normalEndpoint, promptHash, samplingHash } from './address.js';
import { Cancellation, HttpPoster } from './http.js';
import { Limiter } from './limiter.js';
import { interpret, requestBody, effectiveFields, type ApiAnswer, type CallFailure, type CallResult, type FailureCause, type RequestSpec } from './openai.js';
import type { SamplingParams } from './params.js';
import type { BuiltPrompt } from './prompts/index.js';
import { retryDelayMs, type RetryPolicy } from './retry.js';
import type { GenerationCache, GenerationRow } from '../store/generation-cache.js';

/** One task to sample: its prompt and how many samples (indices 0 .. n-1). */
export interface GenerationTask {
  readonly prompt: BuiltPrompt;
  readonly n: number;
}

/** Token counts of the request a sample came from (shared by its `choices`). */
export interface SampleUsage {
  readonly promptTokens: number | null;
  readonly completionTokens: number | null;
  readonly choices: number;
}

/** One sample the endpoint returned (now or in an earlier run: `cached`). */
export interface GeneratedSample {
  readonly taskId: string;
  readonly index: number;
  /** The text as the server sent it (before stop sequences are applied), or null when it sent none. */
  readonly content: string | null;
  readonly reasoning: string | null;
  readonly finishReason: string | null;
  readonly usage: SampleUsage | null;
  /** The sampling fields its request carried (n, seed, stop, ...): the effective parameters. */
  readonly request: Readonly<Record<string, unknown>>;
  readonly cached: boolean;
}

/** What became of one sample. */
export type SampleOutcome =
  | { readonly ok: true; readonly sample: GeneratedSample }
  | { readonly ok: false; readonly taskId: string; readonly index: number; readonly failure: CallFailure; readonly attempts: number };

/** Options of a run. Times in ms. */
export interface GeneratorOptions {
  /** Base URL of the API, e.g. `http://127.0.0.1:8000/v1`. */
  readonly endpoint: string;
  readonly model: string;
  /** Sent as `Authorization: Bearer`; never stored. */
  readonly apiKey?: string;
  readonly params: SamplingParams;
  /** Most requests in flight. */
  readonly concurrency: number;
  /** Time-out of one attempt. */
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  /** Most samples per request through `n` (1: one request per sample). */
  readonly maxNPerRequest: number;
  readonly cache: GenerationCache;
  /** Uniform [0, 1) source for jitter (default Math.random). */
  readonly random?: () => number;
  readonly signal?: AbortSignal;
  /** Called once per sample, as outcomes arrive (cached ones first). */
  readonly onOutcome?: (outcome: SampleOutcome) => void;
}

/** Counters of a run (this process's work; cached samples count as `fromCache`). */
export interface GenerationStats {
  readonly samples: number;
  readonly fromCache: number;
  readonly generated: number;
  readonly failed: number;
  /** Samples whose finish_reason is `length` (cut at max_tokens), cached or new. */
  readonly truncated: number;
  /** Samples the server returned without text, cached or new. */
  readonly nullContent: number;
  /** HTTP requests sent (attempts). */
  readonly requests: number;
  readonly retries: number;
  readonly retriesByCause: Readonly<Partial<Record<FailureCause, number>>>;
  readonly failuresByCause: Readonly<Partial<Record<FailureCause, number>>>;
  /** Whether this run turned `n` off (the server refused n > 1) or stop sequences off. */
  readonly fellBack: { readonly n: boolean; readonly stop: boolean };
  /** Wall time of the run, ms. */
  readonly wallMs: number;
}

/** What a run produced: every outcome by task id and sample index, and the counters. */
export interface GenerationReport {
  readonly outcomes: ReadonlyMap<string, readonly SampleOutcome[]>;
  readonly stats: GenerationStats;
}

/** A run that cannot go on (credentials refused, wrong URL or model, cancelled, cache not writable). */
export class GenerationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GenerationError';
  }
}

/** Tasks looked up in the cache at a time. */
const LOOKUP_SLICE = 64;

/** One request's worth of samples: consecutive indices of one task. */
interface Unit {
  readonly task: PreparedTask;
  readonly indices: readonly number[];
}

interface PreparedTask {
  readonly prompt: BuiltPrompt;
  readonly promptHash: string;
  readonly samplingHash: string;
  readonly keys: readonly string[];
}

/** Sample `tasks` through the endpoint (see the module comment). @throws GenerationError (see `GenerationError`). */
export async function generateSamples(tasks: readonly GenerationTask[], options: GeneratorOptions): Promise<GenerationReport> {
  const run = new GenerationRun(options);
  try {
    return await run.run(tasks);
  } finally {
    run.close();
  }
}

function count(map: Partial<Record<FailureCause, number>>, cause: FailureCause): void {
  map[cause] = (map[cause] ?? 0) + 1;
}

/** Wait `ms`, or less when the run is cancelled. */
function sleep(ms: number, cancellation: Cancellation): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      unwatch();
      resolve();
    }, ms);
    const unwatch = cancellation.watch(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

class GenerationRun {
  private readonly endpoint: string;
  private readonly limiter: Limiter;
  private readonly poster: HttpPoster;
  private readonly cancellation = new Cancellation();
  private readonly outcomes = new Map<string, SampleOutcome[]>();
  private readonly pending: Promise<void>[] = [];
  private fatal: GenerationError | null = null;
  private nAllowed: boolean;
  private stopAllowed = true;
  private readonly stats = {
    samples: 0, fromCache: 0, generated: 0, failed: 0, truncated: 0, nullContent: 0, requests: 0, retries: 0,
    retriesByCause: {} as Partial<Record<FailureCause, number>>, failuresByCause: {} as Partial<Record<FailureCause, number>>,
    fellBack: { n: false, stop: false },
  };

  constructor(private readonly options: GeneratorOptions) {
    this.endpoint = normalEndpoint(options.endpoint);
    this.limiter = new Limiter(options.concurrency);
    this.poster = new HttpPoster({ maxSockets: options.concurrency });
    this.nAllowed = options.maxNPerRequest > 1;
    const onAbort = (): void => this.fail(new GenerationError('generation cancelled'));
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    this.detach = () => options.signal?.removeEventListener('abort', onAbort);
  }

  private readonly detach: () => void;

  close(): void {
    this.detach();
    this.poster.close();
  }

  private fail(error: GenerationError): void {
    this.fatal ??= error;
    this.cancellation.cancelAll();
  }

  async run(tasks: readonly GenerationTask[]): Promise<GenerationReport> {
    const started = performance.now();
    for (const { prompt, n } of tasks) {
      this.outcomes.set(prompt.taskId, []);
      this.stats.samples += n;
    }
    // Tasks are looked up in the cache a slice at a time, and their requests leave at once: the first request
    // does not wait for the keys and lookups of a whole benchmark.
    for (let i = 0; i < tasks.length && this.fatal === null; i += LOOKUP_SLICE) {
      const slice = tasks.slice(i, i + LOOKUP_SLICE).map((task) => this.prepare(task));
      await this.record(slice);
      const cached = await this.options.cache.lookup(slice.flatMap((t) => t.keys));
      for (const task of slice) {
        const missing: number[] = [];
        task.keys.forEach((key, index) => {
          const row = cached.get(key);
          if (row === undefined) missing.push(index);
          else this.report({ ok: true, sample: sampleOfRow(task.prompt.taskId, row) });
        });
        for (const indices of this.chunks(missing)) this.spawn({ task, indices });
      }
    }
    while (this.pending.length > 0) await Promise.all(this.pending.splice(0));
    if (this.fatal !== null) throw this.fatal;
    return { outcomes: this.outcomes, stats: { ...this.stats, wallMs: performance.now() - started } };
  }

  /** A task's hashes and the cache keys of its samples. */
  private prepare({ prompt, n }: GenerationTask): PreparedTask {
    const pHash = promptHash(prompt.input);
    const sHash = samplingHash({ params: this.options.params, stop: prompt.stop });
    const keys = Array.from({ length: n }, (_, sampleIndex) => cacheKey({ endpoint: this.endpoint, model: this.options.model,
      promptHash: pHash, samplingHash: sHash, sampleIndex }));
    return { prompt, promptHash: pHash, samplingHash: sHash, keys };
  }

  /** Record the prompts and sampling specs of `tasks` in the cache (once per hash). */
  private async record(tasks: readonly PreparedTask[]): Promise<void> {
    const prompts = new Map(tasks.map((t) => [t.promptHash, t.prompt.input]));
    const specs = new Map(tasks.map((t) => [t.samplingHash, { params: this.options.params, stop: t.prompt.stop }]));
    await this.options.cache.addPrompts([...prompts].map(([hash, input]) => ({ hash, api: input.api, prompt: input })));
    await this.options.cache.addSampling([...specs].map(([hash, sampling]) => ({ hash, sampling: JSON.parse(canonicalJson(sampling)) })));
  }

  /** Runs of consecutive indices, at most the request size each (single indices when `n` is off). */
  private chunks(indices: readonly number[]): number[][] {
    const size = this.nAllowed ? this.options.maxNPerRequest : 1;
    const out: number[][] = [];
    for (const index of indices) {
      const last = out[out.length - 1];
      if (last !== undefined && last.length < size && last[last.length - 1] === index - 1) last.push(index);
      else out.push([index]);
    }
    return out;
  }

  private spawn(unit: Unit): void {
    this.pending.push(this.request(unit));
  }

  private report(outcome: SampleOutcome): void {
    const taskId = outcome.ok ? outcome.sample.taskId : outcome.taskId;
    const index = outcome.ok ? outcome.sample.index : outcome.index;
    this.outcomes.get(taskId)![index] = outcome;
    if (outcome.ok) {
      if (outcome.sample.cached) this.stats.fromCache++;
      else this.stats.generated++;
      if (outcome.sample.finishReason === 'length') this.stats.truncated++;
      if (outcome.sample.content === null) this.stats.nullContent++;
    } else {
      this.stats.failed++;
      count(this.stats.failuresByCause, outcome.failure.cause);
    }
    this.options.onOutcome?.(outcome);
  }

  /** One unit from first attempt to its samples (or its failure) reported. */
  private async request(unit: Unit): Promise<void> {
    const started = performance.now();
    let attempt = 0;
    while (this.fatal === null) {
      if (unit.indices.length > 1 && !this.nAllowed) return this.split(unit);
      const spec: RequestSpec = { input: unit.task.prompt.input, params: this.options.params, stop: unit.task.prompt.stop,
        sendStop: this.stopAllowed, n: unit.indices.length, first: unit.indices[0]! };
      attempt++;
      const remainingMs = this.options.retry.budgetMs - (performance.now() - started);
      const result = await this.limiter.run(() => this.post(spec, Math.max(1, Math.min(this.options.timeoutMs, remainingMs))));
      if (this.fatal !== null) return;
      if (result.ok) return this.accept(unit, spec, result.answer);
      const failure = result.failure;
      if (failure.cause === 'unauthorized' || failure.cause === 'not_found') {
        return this.fail(new GenerationError(`the endpoint refused the run (${failure.message}): check --endpoint (the API's base URL, e.g. ` +
          'http://host:8000/v1), --model and the API key'));
      }
      if (failure.refusedParameter === 'n') {
        this.fallBack('n');
        continue;
      }
      if (failure.refusedParameter === 'stop' && this.stopAllowed) {
        this.fallBack('stop');
        attempt--;
        continue;
      }
      const wait = retryDelayMs(failure, attempt, performance.now() - started, this.options.retry, this.options.random);
      if (wait === null) {
        for (const index of unit.indices) this.report({ ok: false, taskId: unit.task.prompt.taskId, index, failure, attempts: attempt });
        return;
      }
      this.stats.retries++;
      count(this.stats.retriesByCause, failure.cause);
      await sleep(wait, this.cancellation);
    }
  }

  private async post(spec: RequestSpec, timeoutMs: number): Promise<CallResult> {
    if (this.fatal !== null) return { ok: false, failure: { cause: 'network', message: 'cancelled' } };
    const { path, body } = requestBody(this.options.model, spec);
    this.stats.requests++;
    const headers: Record<string, string> = this.options.apiKey === undefined ? {} : { authorization: `Bearer ${this.options.apiKey}` };
    const result = await this.poster.post(new URL(`${this.endpoint}/${path}`), body, headers, timeoutMs, this.cancellation);
    return interpret(result, spec);
  }

  private fallBack(what: 'n' | 'stop'): void {
    if (what === 'n') {
      this.nAllowed = false;
      this.stats.fellBack.n = true;
    } else {
      this.stopAllowed = false;
      this.stats.fellBack.stop = true;
    }
  }

  /** A unit's samples asked one by one (`n` is off). */
  private split(unit: Unit): void {
    for (const index of unit.indices) this.spawn({ task: unit.task, indices: [index] });
  }

  /** Cache the answer's samples, then report them; samples it lacks are asked again one by one. */
  private async accept(unit: Unit, spec: RequestSpec, answer: ApiAnswer): Promise<void> {
    const choices = [...answer.choices].sort((a, b) => a.index - b.index).slice(0, unit.indices.length);
    const request = effectiveFields(spec);
    const usage: SampleUsage | null = answer.usage === null ? null
      : { promptTokens: answer.usage.promptTokens, completionTokens: answer.usage.completionTokens, choices: answer.choices.length };
    const rows: GenerationRow[] = choices.map((choice, j) => ({
      key: unit.task.keys[unit.indices[j]!]!, endpoint: this.endpoint, model: this.options.model, promptHash: unit.task.promptHash,
      samplingHash: unit.task.samplingHash, sampleIndex: unit.indices[j]!, content: choice.content, reasoning: choice.reasoning,
      finishReason: choice.finishReason, usage, request, responseId: answer.id, createdMs: Date.now(),
    }));
    try {
      await this.options.cache.put(rows);
    } catch (error) {
      return this.fail(new GenerationError(`the generation cache ${this.options.cache.location} cannot be written: ${(error as Error).message}`));
    }
    for (const row of rows) this.report({ ok: true, sample: sampleOfRow(unit.task.prompt.taskId, row, false) });
    if (choices.length < unit.indices.length) {
      // Fewer choices than asked: the server does not do n > 1 (llama.cpp answers one). The rest, one by one.
      this.fallBack('n');
      for (const index of unit.indices.slice(choices.length)) this.spawn({ task: unit.task, indices: [index] });
    }
  }
}

function sampleOfRow(taskId: string, row: GenerationRow, cached = true): GeneratedSample {
  return { taskId, index: row.sampleIndex, content: row.content, reasoning: row.reasoning, finishReason: row.finishReason,
    usage: (row.usage ?? null) as SampleUsage | null, request: row.request as Record<string, unknown>, cached };
}

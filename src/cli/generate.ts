/**
 * `crucible generate`: samples from a model endpoint (OpenAI-compatible: vLLM, SGLang, TGI, llama.cpp, OpenAI)
 * for every problem of a benchmark, prompted as the benchmark's harness prompts, cached in the result store as
 * they arrive (a killed run resumes without asking again), written as Crucible samples and, on request, in
 * EvalPlus, bigcode and LiveCodeBench formats. The generation options are shared with `crucible eval --endpoint`.
 */
import { SingleBar } from 'cli-progress';
import { InvalidArgumentError, type Command } from 'commander';
import { datasetHash, problemFormatNames } from '../formats/index.js';
import { GenerationError, generateSamples, type GenerationStats, type GeneratorOptions, type SampleOutcome } from '../generate/generator.js';
import { parseSamplingParams, SamplingParamsError, type SamplingParams } from '../generate/params.js';
import { PromptError, type PromptApi } from '../generate/prompts/index.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../generate/retry.js';
import { buildTasks, provenanceOf, writeOutputs, writerEntries } from '../generate/run.js';
import { readPromptSources, REPOSITORY_FORMAT } from '../generate/sources.js';
import { memoryGenerationCache, openGenerationCache, type GenerationCache } from '../store/generation-cache.js';
import { registerUserError, UsageError } from './errors.js';
import { parsePositiveInt, parsePositiveNumber } from './options.js';
import { STORE_OPTION_HELP } from './store.js';
import { CRUCIBLE_VERSION } from './version.js';

registerUserError(GenerationError);
registerUserError(PromptError);
registerUserError(SamplingParamsError);

/** The generation flags (`addGenerationOptions`), as commander parses them. Times in seconds. */
export interface GenerationFlags {
  endpoint?: string; model?: string; n: number; temperature?: number; topP: number; maxTokens: number;
  topK?: number; minP?: number; repetitionPenalty?: number; presencePenalty: number; frequencyPenalty: number;
  chat?: boolean; completions?: boolean; concurrency: number; maxNPerRequest: number; apiN: boolean;
  timeout: number; retries: number; retryBase: number; retryMax: number; retryBudget: number; apiKeyEnv: string;
}

function parseNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n)) throw new InvalidArgumentError(`expected a number, got "${value}"`);
  return n;
}

function parseInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n)) throw new InvalidArgumentError(`expected an integer, got "${value}"`);
  return n;
}

function parseSeed(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError(`expected a non-negative integer, got "${value}"`);
  return n;
}

/**
 * Add the generation options to a command. `seedFlag` names the sampling seed's option (`eval` keeps `--seed`
 * for its bootstrap).
 */
export function addGenerationOptions(command: Command, seedFlag: 'seed' | 'sampling-seed'): Command {
  return command
    .option('--endpoint <url>', 'base URL of an OpenAI-compatible API, e.g. http://127.0.0.1:8000/v1')
    .option('--model <name>', 'model name the endpoint serves')
    .option('--n <n>', 'samples per problem', parsePositiveInt, 1)
    .option('--temperature <t>', 'sampling temperature (required: no server default is ever used)', parseNumber)
    .option('--top-p <p>', 'nucleus sampling mass', parseNumber, 0.95)
    .option('--max-tokens <n>', 'most tokens per sample', parsePositiveInt, 1024)
    .option(`--${seedFlag} <n>`, 'sampling seed (a request for samples i.. carries seed + i)', parseSeed, 0)
    .option(`--no-${seedFlag}`, 'send no seed (the server\'s own randomness)')
    .option('--top-k <k>', 'top-k (vLLM/SGLang; -1: off); sent only when given', parseInteger)
    .option('--min-p <p>', 'min-p (vLLM/SGLang); sent only when given', parseNumber)
    .option('--repetition-penalty <r>', 'repetition penalty (vLLM/SGLang; 1: none); sent only when given', parseNumber)
    .option('--presence-penalty <p>', 'presence penalty', parseNumber, 0)
    .option('--frequency-penalty <p>', 'frequency penalty', parseNumber, 0)
    .option('--chat', 'use the chat API (/chat/completions) and the benchmark\'s chat prompt')
    .option('--completions', 'use the completions API (/completions) and the benchmark\'s completion prompt')
    .option('--concurrency <n>', 'most requests in flight', parsePositiveInt, 64)
    .option('--max-n-per-request <n>', 'most samples per request through the API\'s n', parsePositiveInt, 16)
    .option('--no-api-n', 'one request per sample (never n > 1)')
    .option('--timeout <seconds>', 'time-out of one request', parsePositiveNumber, 600)
    .option('--retries <n>', 'retries of a failed request (transient failures only)', (v: string) => parseSeed(v), DEFAULT_RETRY_POLICY.maxAttempts - 1)
    .option('--retry-base <seconds>', 'backoff base (doubles per retry, full jitter)', parsePositiveNumber, DEFAULT_RETRY_POLICY.baseDelayMs / 1000)
    .option('--retry-max <seconds>', 'largest backoff (a server\'s Retry-After is honoured above it)', parsePositiveNumber, DEFAULT_RETRY_POLICY.maxDelayMs / 1000)
    .option('--retry-budget <seconds>', 'most time per request, retries and waits included', parsePositiveNumber, DEFAULT_RETRY_POLICY.budgetMs / 1000)
    .option('--api-key-env <name>', 'environment variable holding the API key (sent as a bearer token, never stored)', 'OPENAI_API_KEY');
}

/** Sampling parameters from the flags. @throws UsageError without --temperature; SamplingParamsError out of range. */
export function samplingParamsOf(flags: GenerationFlags, seed: number | false): SamplingParams {
  if (flags.temperature === undefined) throw new UsageError('--temperature is required with --endpoint (no server default is ever used)');
  return parseSamplingParams({
    temperature: flags.temperature, topP: flags.topP, maxTokens: flags.maxTokens, seed: seed === false ? null : seed,
    ...(flags.topK === undefined ? {} : { topK: flags.topK }), ...(flags.minP === undefined ? {} : { minP: flags.minP }),
    ...(flags.repetitionPenalty === undefined ? {} : { repetitionPenalty: flags.repetitionPenalty }),
    presencePenalty: flags.presencePenalty, frequencyPenalty: flags.frequencyPenalty,
  });
}

/** The API the flags ask for, if any. @throws UsageError for both. */
export function apiOf(flags: GenerationFlags): PromptApi | undefined {
  if (flags.chat === true && flags.completions === true) throw new UsageError('--chat and --completions exclude each other');
  return flags.chat === true ? 'chat' : flags.completions === true ? 'completions' : undefined;
}

/** Generator options from the flags (less the cache and callbacks). @throws UsageError for a bad endpoint. */
export function generatorOptionsOf(flags: GenerationFlags, params: SamplingParams): Omit<GeneratorOptions, 'cache'> {
  if (flags.endpoint === undefined || flags.model === undefined) throw new UsageError('--endpoint and --model go together');
  let url: URL;
  try {
    url = new URL(flags.endpoint);
  } catch {
    throw new UsageError(`--endpoint: not a URL: "${flags.endpoint}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--endpoint: expected http:// or https://, got "${flags.endpoint}"`);
  const retry: RetryPolicy = { maxAttempts: flags.retries + 1, baseDelayMs: flags.retryBase * 1000, maxDelayMs: flags.retryMax * 1000,
    budgetMs: flags.retryBudget * 1000 };
  const apiKey = process.env[flags.apiKeyEnv];
  return {
    endpoint: flags.endpoint, model: flags.model, params, concurrency: flags.concurrency, timeoutMs: flags.timeout * 1000, retry,
    maxNPerRequest: flags.apiN ? flags.maxNPerRequest : 1, ...(apiKey === undefined || apiKey === '' ? {} : { apiKey }),
  };
}

/** The generation cache: the store's (`--store`), or memory only with `--no-store`. */
export async function openCache(store: string | false | undefined): Promise<GenerationCache> {
  if (store === false) return memoryGenerationCache();
  return openGenerationCache(store);
}

/** One line per kind of trouble of a run, for people. */
export function statsLines(stats: GenerationStats): string[] {
  const causes = (m: Readonly<Partial<Record<string, number>>>): string => Object.entries(m).map(([k, v]) => `${k} ${v}`).join(', ');
  const lines = [`generated ${stats.generated} samples, ${stats.fromCache} from the cache, ${stats.failed} failed` +
    `${stats.failed > 0 ? ` (${causes(stats.failuresByCause)})` : ''}; ${stats.truncated} truncated at max_tokens, ` +
    `${stats.nullContent} without text; ${stats.requests} requests, ${stats.retries} retries${stats.retries > 0 ? ` (${causes(stats.retriesByCause)})` : ''}; ` +
    `${(stats.wallMs / 1000).toFixed(1)} s, ${(stats.generated / Math.max(stats.wallMs / 1000, 1e-3)).toFixed(1)} samples/s`];
  if (stats.fellBack.n) lines.push('the server refused n > 1: samples were asked one request each');
  if (stats.fellBack.stop) lines.push('the server refused the stop sequences: they were applied to the texts only');
  return lines;
}

/** Failed samples named in the summary (the counts cover all). */
const MAX_FAILURES_LISTED = 20;

interface GenerateFlags extends GenerationFlags {
  problems: string; format: string; seed: number | false; out: string; evalplusOut?: string; bigcodeOut?: string; lcbOut?: string;
  store?: string | false; json?: boolean; progress: boolean;
}

function progressOf(flags: GenerateFlags, total: number): { onOutcome: (o: SampleOutcome) => void; stop: () => void } {
  const bar = flags.progress && !flags.json && process.stderr.isTTY
    ? new SingleBar({ format: 'generate [{bar}] {value}/{total} | {failed} failed | ETA {eta_formatted}', etaBuffer: 200, hideCursor: true,
      stream: process.stderr }) : null;
  let done = 0;
  let failed = 0;
  bar?.start(total, 0, { failed: 0 });
  return {
    onOutcome: (outcome) => {
      done++;
      if (!outcome.ok) failed++;
      bar?.update(done, { failed });
    },
    stop: () => bar?.stop(),
  };
}

async function runGenerate(flags: GenerateFlags): Promise<void> {
  const params = samplingParamsOf(flags, flags.seed);
  const options = generatorOptionsOf(flags, params);
  const tasks = buildTasks(await readPromptSources(flags.problems, flags.format), flags.n, apiOf(flags));
  const problemsHash = await datasetHash(flags.problems);
  const cache = await openCache(flags.store);
  const progress = progressOf(flags, tasks.reduce((sum, t) => sum + t.n, 0));
  const stop = new AbortController();
  const onSignal = (): void => stop.abort();
  process.once('SIGINT', onSignal);
  try {
    const report = await generateSamples(tasks, { ...options, cache, signal: stop.signal, onOutcome: progress.onOutcome });
    progress.stop();
    const provenance = provenanceOf({ endpoint: options.endpoint, model: options.model, params, n: flags.n, problemsFile: flags.problems,
      problemsHash, crucibleVersion: CRUCIBLE_VERSION }, tasks, report);
    const written = writeOutputs({ crucible: flags.out, ...(flags.evalplusOut === undefined ? {} : { evalplus: flags.evalplusOut }),
      ...(flags.bigcodeOut === undefined ? {} : { bigcode: flags.bigcodeOut }), ...(flags.lcbOut === undefined ? {} : { livecodebench: flags.lcbOut }) },
    writerEntries(tasks, report), provenance);
    const failures = [...report.outcomes.values()].flat().flatMap((o) => (o.ok ? []
      : [{ taskId: o.taskId, index: o.index, cause: o.failure.cause, message: o.failure.message, attempts: o.attempts }])).slice(0, MAX_FAILURES_LISTED);
    if (flags.json) process.stdout.write(JSON.stringify({ stats: report.stats, provenance, written, failures, cache: cache.location }) + '\n');
    else {
      process.stdout.write([...statsLines(report.stats), ...failures.map((f) => `failed: ${f.taskId} sample ${f.index}: ${f.cause}: ${f.message}`),
        `written: ${written.join(', ')}`, `cache: ${cache.location}${flags.store === false ? ' (nothing is kept: a rerun asks again)' : ''}`].join('\n') + '\n');
    }
    if (report.stats.failed > 0) process.exitCode = 1;
  } finally {
    progress.stop();
    process.removeListener('SIGINT', onSignal);
    await cache.close();
  }
}

/** Add `generate` to the program. */
export function register(program: Command): void {
  const command = program.command('generate')
    .description('sample a model endpoint on a benchmark, prompted as the benchmark\'s harness prompts (crash-safe, resumable)')
    .requiredOption('--problems <file>', 'problems file (any format of crucible formats, or repository tasks with problem_statement)')
    .option('--format <format>', `problems format: ${[...problemFormatNames(), REPOSITORY_FORMAT].join(', ')}`, 'auto')
    .requiredOption('--out <file>', 'Crucible samples JSONL (and <file>.provenance.json)')
    .option('--evalplus-out <file>', 'also write EvalPlus {task_id, solution} JSONL')
    .option('--bigcode-out <file>', 'also write bigcode-evaluation-harness generations.json')
    .option('--lcb-out <file>', 'also write LiveCodeBench custom-evaluator input JSON')
    .option('--store <spec>', `${STORE_OPTION_HELP}; holds the generation cache`)
    .option('--no-store', 'keep the cache in memory only (a killed run starts over)')
    .option('--json', 'print the summary as one JSON object')
    .option('--no-progress', 'no progress bar');
  addGenerationOptions(command, 'seed').action(async (flags: GenerateFlags) => {
    if (flags.endpoint === undefined || flags.model === undefined) throw new UsageError('crucible generate needs --endpoint and --model');
    await runGenerate(flags);
  });
}

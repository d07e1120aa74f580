/**
 * `crucible eval --endpoint URL --model NAME`: the samples come from a model endpoint during the eval (one
 * pipeline: each sample is judged as it arrives). This module turns the generation flags into the run's
 * samples (task and index; their text arrives later), the run's identity (a hash of what decides the samples:
 * endpoint, model, sampling, prompts), the stream of arrivals, and, at the end, the generation's part of the
 * summary and the run directory's `samples.jsonl` (with its provenance).
 */
import { join } from 'node:path';
import type { Problem, Sample } from '../formats/types.js';
import { canonicalJson, normalEndpoint, promptHash, sha256 } from '../generate/address.js';
import type { GenerationReport, GenerationTask, GeneratorOptions, SampleOutcome } from '../generate/generator.js';
import type { SamplingParams } from '../generate/params.js';
import { buildTasks, provenanceOf, writeOutputs, writerEntries } from '../generate/run.js';
import { streamSamples, type ArrivedSample } from '../generate/stream.js';
import { apiOf, generatorOptionsOf, openCache, samplingParamsOf, statsLines, type GenerationFlags } from './generate.js';
import { CRUCIBLE_VERSION } from './version.js';

/** What an eval with `--endpoint` knows before the first request. */
export interface EndpointGeneration {
  readonly model: string;
  /** Samples per problem. */
  readonly n: number;
  /** `<endpoint> <model>`, where the samples come from (the summary's `samplesFile`). */
  readonly label: string;
  readonly tasks: readonly GenerationTask[];
  readonly params: SamplingParams;
  readonly options: Omit<GeneratorOptions, 'cache'>;
  /** The run's samples: every task's indices 0 .. n-1, text to come. */
  readonly samples: Sample[];
  /** sha256 of what decides the samples (the run directory's `samplesHash`: a resume must match it). */
  readonly specHash: string;
}

/** Plan the generation of an eval. @throws UsageError for bad flags, PromptError for a task that cannot be prompted. */
export function planEndpointGeneration(flags: GenerationFlags & { samplingSeed: number | false }, problems: readonly Problem[]): EndpointGeneration {
  const params = samplingParamsOf(flags, flags.samplingSeed);
  const options = generatorOptionsOf(flags, params);
  const tasks = buildTasks(problems, flags.n, apiOf(flags));
  const specHash = sha256(canonicalJson({ endpoint: normalEndpoint(options.endpoint), model: options.model, params, n: flags.n,
    prompts: tasks.map((t) => [t.prompt.taskId, promptHash(t.prompt.input), t.prompt.stop, t.prompt.style]) }));
  return {
    model: options.model, n: flags.n, label: `${options.endpoint} ${options.model}`, tasks, params, options, specHash,
    samples: tasks.flatMap((t) => Array.from({ length: t.n }, (_, index) => ({ taskId: t.prompt.taskId, index }))),
  };
}

/** A running generation: its arrivals for `evaluate`, its report at the end, its counts for the progress bar. */
export interface RunningGeneration {
  readonly arrivals: AsyncIterable<ArrivedSample>;
  readonly done: Promise<GenerationReport>;
  readonly counts: { done: number; failed: number };
  /** Stop the run (if still going) and close its cache. */
  close(): Promise<void>;
}

/** Start generating into the cache of the store `store` (memory only with false). */
export async function startEndpointGeneration(plan: EndpointGeneration, store: string | false | undefined,
  onOutcome: () => void): Promise<RunningGeneration> {
  const cache = await openCache(store);
  const counts = { done: 0, failed: 0 };
  const count = (outcome: SampleOutcome): void => {
    counts.done++;
    if (!outcome.ok) counts.failed++;
    onOutcome();
  };
  const stop = new AbortController();
  const { arrivals, done } = streamSamples(plan.tasks, { ...plan.options, cache, signal: stop.signal, onOutcome: count });
  return {
    arrivals, done, counts,
    // After a failed eval the run may still be going: stop it before the cache closes under it.
    close: async () => {
      stop.abort();
      await done.catch(() => undefined);
      await cache.close();
    },
  };
}

/**
 * The generation's part of the summary, after writing `samples.jsonl` (and its provenance) into the run
 * directory `out`.
 */
export function finishEndpointGeneration(plan: EndpointGeneration, report: GenerationReport, input: { out: string; problemsPath: string;
  problemsHash: string }): { summary: Record<string, unknown>; lines: string[] } {
  const provenance = provenanceOf({ endpoint: plan.options.endpoint, model: plan.model, params: plan.params, n: plan.n,
    problemsFile: input.problemsPath, problemsHash: input.problemsHash, crucibleVersion: CRUCIBLE_VERSION }, plan.tasks, report);
  const written = writeOutputs({ crucible: join(input.out, 'samples.jsonl') }, writerEntries(plan.tasks, report), provenance);
  return { summary: { stats: report.stats, provenance, written }, lines: statsLines(report.stats) };
}

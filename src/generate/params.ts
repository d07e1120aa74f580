/**
 * Sampling parameters of a generation run, and the body fields every request carries.
 *
 * Every request names every parameter it can (temperature, top_p, max_tokens, presence_penalty and
 * frequency_penalty always; seed unless the run asks for none): a server must never fill a gap with its own
 * default. vLLM fills unspecified parameters from the model's `generation_config.json` (its
 * `--generation-config` default is `auto`: top_k, top_p, temperature, min_p and repetition_penalty come from
 * the model), so a run that does not say `top_k` gets whatever the model's authors chose. `top_k`, `min_p` and
 * `repetition_penalty` are vLLM/SGLang extensions that OpenAI's API refuses, so they are sent only when given
 * (`--top-k -1 --min-p 0 --repetition-penalty 1` pins vLLM's sampler to plain temperature/top-p sampling).
 *
 * Seeds: a request for the samples `first .. first+n-1` of a prompt carries `seed + first` (so a request with
 * n > 1 carries the run's seed, and single requests carry `seed + sample index`: identical single requests would
 * otherwise draw identical samples).
 */
import { z } from 'zod';

/** Sampling parameters, as the run asks for them (snake_case fields are the wire names, see `samplingFields`). */
export interface SamplingParams {
  /** Softmax temperature, 0 (greedy) to 10. */
  readonly temperature: number;
  /** Nucleus sampling mass, (0, 1]. */
  readonly topP: number;
  /** Most tokens generated per sample. */
  readonly maxTokens: number;
  /** Base seed (see the module comment), or null to send none (the server's own randomness). */
  readonly seed: number | null;
  /** vLLM/SGLang top-k (-1 or 0: off); sent only when set. */
  readonly topK?: number;
  /** vLLM/SGLang min-p, [0, 1]; sent only when set. */
  readonly minP?: number;
  /** vLLM/SGLang repetition penalty, > 0 (1: none); sent only when set. */
  readonly repetitionPenalty?: number;
  /** OpenAI presence penalty, [-2, 2] (default 0, always sent). */
  readonly presencePenalty: number;
  /** OpenAI frequency penalty, [-2, 2] (default 0, always sent). */
  readonly frequencyPenalty: number;
}

/** The schema of `SamplingParams`; `parseSamplingParams` reports the first bad field by name. */
export const SamplingParamsSchema = z.object({
  temperature: z.number().min(0).max(10),
  topP: z.number().gt(0).max(1),
  maxTokens: z.number().int().min(1).max(10_000_000),
  seed: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable(),
  topK: z.number().int().min(-1).optional(),
  minP: z.number().min(0).max(1).optional(),
  repetitionPenalty: z.number().gt(0).max(10).optional(),
  presencePenalty: z.number().min(-2).max(2),
  frequencyPenalty: z.number().min(-2).max(2),
}).strict();

/** Thrown for sampling parameters out of range; the message names the field. */
export class SamplingParamsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SamplingParamsError';
  }
}

/** Validate sampling parameters. @throws SamplingParamsError naming the first bad field and why. */
export function parseSamplingParams(value: unknown): SamplingParams {
  const parsed = SamplingParamsSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new SamplingParamsError(`sampling parameter "${issue.path.join('.')}": ${issue.message}`);
  }
  return parsed.data as SamplingParams;
}

/** The wire fields of the run's sampling parameters (no seed, no n, no stop: those depend on the request). */
export function samplingFields(params: SamplingParams): Record<string, number> {
  return {
    temperature: params.temperature,
    top_p: params.topP,
    max_tokens: params.maxTokens,
    presence_penalty: params.presencePenalty,
    frequency_penalty: params.frequencyPenalty,
    ...(params.topK === undefined ? {} : { top_k: params.topK }),
    ...(params.minP === undefined ? {} : { min_p: params.minP }),
    ...(params.repetitionPenalty === undefined ? {} : { repetition_penalty: params.repetitionPenalty }),
  };
}

/** The seed a request for samples `first ..` carries (see the module comment), or undefined when none is sent. */
export function requestSeed(params: SamplingParams, first: number): number | undefined {
  return params.seed === null ? undefined : params.seed + first;
}

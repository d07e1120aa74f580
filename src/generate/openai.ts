/**
 * The OpenAI-compatible wire format (vLLM, SGLang, TGI, llama.cpp, OpenAI): request bodies for
 * `POST {base}/chat/completions` and `POST {base}/completions`, and the reading of their answers.
 *
 * Answers are validated (zod). A choice keeps what the server said: `content` (chat) or `text` (completions),
 * null when the server sent null (a reasoning model that spent its tokens thinking); `reasoning_content`
 * (vLLM's reasoning parsers, DeepSeek) or `reasoning` (newer vLLM, OpenRouter); `finish_reason` (`stop`,
 * `length` = truncated at max_tokens, ...). Failures are classified for the retry policy (`retry.ts`):
 * `rate_limited` (429), `server_error` (408, 409, 5xx), `timeout`, `network`, `malformed` (a 2xx answer that is
 * not the format) are worth retrying; `refused` (other 4xx: the request itself is wrong, e.g. a prompt longer
 * than the context) is not; `unauthorized` (401, 403) and `not_found` (404: wrong URL or model) end the run.
 * A 400/422 that names `n` when n > 1 was asked, or `stop` when stop sequences were sent, is a refused parameter:
 * the caller falls back (single requests; stop sequences applied here only).
 */
import { z } from 'zod';
import type { HttpResult } from './http.js';
import { requestSeed, samplingFields, type SamplingParams } from './params.js';
import type { PromptInput } from './prompts/index.js';

/** One request: a prompt, `n` samples starting at sample index `first`, and whether to send the stop list. */
export interface RequestSpec {
  readonly input: PromptInput;
  readonly params: SamplingParams;
  readonly stop: readonly string[];
  readonly sendStop: boolean;
  readonly n: number;
  readonly first: number;
}

/** The sampling fields a request carries (its body without model and prompt): recorded as the effective parameters. */
export function effectiveFields(spec: RequestSpec): Record<string, unknown> {
  const seed = requestSeed(spec.params, spec.first);
  return {
    ...samplingFields(spec.params),
    n: spec.n,
    ...(seed === undefined ? {} : { seed }),
    ...(spec.sendStop && spec.stop.length > 0 ? { stop: spec.stop } : {}),
  };
}

/** Path (relative to the base URL) and JSON body of a request. */
export function requestBody(model: string, spec: RequestSpec): { path: 'chat/completions' | 'completions'; body: string } {
  const fields = effectiveFields(spec);
  if (spec.input.api === 'chat') {
    return { path: 'chat/completions', body: JSON.stringify({ model, messages: spec.input.messages, ...fields }) };
  }
  return { path: 'completions', body: JSON.stringify({ model, prompt: spec.input.prompt, ...fields }) };
}

/** One choice of an answer. */
export interface Choice {
  readonly index: number;
  /** The text, or null when the server sent none. */
  readonly content: string | null;
  readonly reasoning: string | null;
  readonly finishReason: string | null;
}

/** Token counts of a request (all its choices together), as the server reports them. */
export interface Usage {
  readonly promptTokens: number | null;
  readonly completionTokens: number | null;
}

/** A valid answer. */
export interface ApiAnswer {
  readonly id: string | null;
  readonly choices: readonly Choice[];
  readonly usage: Usage | null;
}

/** Why a call failed (see the module comment). */
export type FailureCause = 'rate_limited' | 'server_error' | 'timeout' | 'network' | 'malformed' | 'refused' | 'unauthorized' | 'not_found';

/** A failed call. */
export interface CallFailure {
  readonly cause: FailureCause;
  readonly status?: number;
  readonly message: string;
  /** How long the server asked to wait (Retry-After, retry-after-ms), ms. */
  readonly retryAfterMs?: number;
  /** The server refused this parameter (see the module comment). */
  readonly refusedParameter?: 'n' | 'stop';
}

/** What a call came to. */
export type CallResult = { readonly ok: true; readonly answer: ApiAnswer } | { readonly ok: false; readonly failure: CallFailure };

const nullableText = z.string().nullable().optional();
const UsageSchema = z.object({ prompt_tokens: z.number().nullable().optional(), completion_tokens: z.number().nullable().optional() })
  .passthrough().nullable().optional();
const ChatAnswerSchema = z.object({
  id: z.string().optional().nullable(),
  choices: z.array(z.object({
    index: z.number().int().min(0).optional(),
    message: z.object({ content: nullableText, reasoning_content: nullableText, reasoning: nullableText }).passthrough(),
    finish_reason: z.string().nullable().optional(),
  }).passthrough()).min(1),
  usage: UsageSchema,
}).passthrough();
const CompletionAnswerSchema = z.object({
  id: z.string().optional().nullable(),
  choices: z.array(z.object({
    index: z.number().int().min(0).optional(),
    text: nullableText,
    reasoning_content: nullableText,
    finish_reason: z.string().nullable().optional(),
  }).passthrough()).min(1),
  usage: UsageSchema,
}).passthrough();

/** Read a 2xx body as an answer of `api`. */
function readAnswer(api: PromptInput['api'], body: string): CallResult {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, failure: { cause: 'malformed', message: `the answer is not JSON: ${body.slice(0, 200)}` } };
  }
  const usageOf = (u: z.infer<typeof UsageSchema>): Usage | null =>
    u === null || u === undefined ? null : { promptTokens: u.prompt_tokens ?? null, completionTokens: u.completion_tokens ?? null };
  if (api === 'chat') {
    const parsed = ChatAnswerSchema.safeParse(json);
    if (!parsed.success) return { ok: false, failure: { cause: 'malformed', message: `not a chat completion: ${zodWhere(parsed.error)}` } };
    return { ok: true, answer: { id: parsed.data.id ?? null, usage: usageOf(parsed.data.usage), choices: parsed.data.choices.map((c, i) => ({
      index: c.index ?? i, content: c.message.content ?? null, reasoning: c.message.reasoning_content ?? c.message.reasoning ?? null,
      finishReason: c.finish_reason ?? null })) } };
  }
  const parsed = CompletionAnswerSchema.safeParse(json);
  if (!parsed.success) return { ok: false, failure: { cause: 'malformed', message: `not a completion: ${zodWhere(parsed.error)}` } };
  return { ok: true, answer: { id: parsed.data.id ?? null, usage: usageOf(parsed.data.usage), choices: parsed.data.choices.map((c, i) => ({
    index: c.index ?? i, content: c.text ?? null, reasoning: c.reasoning_content ?? null, finishReason: c.finish_reason ?? null })) } };
}

function zodWhere(error: z.ZodError): string {
  const issue = error.issues[0]!;
  return `field "${issue.path.join('.')}": ${issue.message}`;
}

/** The error text of a non-2xx body (`{error: {message}}`, `{message}`, `{detail}`, or the text), at most 500 characters. */
export function errorMessage(body: string): string {
  try {
    const json = JSON.parse(body) as Record<string, unknown>;
    const error = json['error'];
    const text = typeof error === 'object' && error !== null && typeof (error as Record<string, unknown>)['message'] === 'string'
      ? (error as Record<string, string>)['message']
      : typeof error === 'string' ? error : typeof json['message'] === 'string' ? json['message'] : typeof json['detail'] === 'string'
        ? json['detail'] : body;
    return String(text).slice(0, 500);
  } catch {
    return body.slice(0, 500);
  }
}

/**
 * How long a response asks the client to wait, ms: `retry-after-ms` (OpenAI), else `Retry-After` as seconds or an
 * HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable.
 */
export function retryAfterMs(headers: Readonly<Record<string, string | string[] | undefined>>, nowMs = Date.now()): number | undefined {
  const first = (name: string): string | undefined => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const ms = Number(first('retry-after-ms'));
  if (first('retry-after-ms') !== undefined && Number.isFinite(ms) && ms >= 0) return ms;
  const value = first('retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

const NAMES_N = /(^|[^\w])(n|best_of)([^\w]|$)/i;
const NAMES_STOP = /(^|[^\w])stop([^\w]|$)/i;

/** What an HTTP exchange for `spec` came to (see the module comment). */
export function interpret(result: HttpResult, spec: RequestSpec): CallResult {
  switch (result.kind) {
    case 'timeout': return { ok: false, failure: { cause: 'timeout', message: `no answer within ${Math.round(result.ms)} ms` } };
    case 'network': return { ok: false, failure: { cause: 'network', message: result.message } };
    case 'too_large': return { ok: false, failure: { cause: 'malformed', message: `answer larger than the cap (${result.bytes} bytes read)` } };
    case 'aborted': return { ok: false, failure: { cause: 'network', message: 'cancelled' } };
    case 'response': break;
  }
  const { status, headers, body } = result;
  if (status >= 200 && status < 300) return readAnswer(spec.input.api, body);
  const message = `HTTP ${status}: ${errorMessage(body)}`;
  const wait = retryAfterMs(headers);
  const withWait = wait === undefined ? {} : { retryAfterMs: wait };
  if (status === 429) return { ok: false, failure: { cause: 'rate_limited', status, message, ...withWait } };
  if (status === 408 || status === 409 || status >= 500) return { ok: false, failure: { cause: 'server_error', status, message, ...withWait } };
  if (status === 401 || status === 403) return { ok: false, failure: { cause: 'unauthorized', status, message } };
  if (status === 404) return { ok: false, failure: { cause: 'not_found', status, message } };
  const said = errorMessage(body);
  const refusedParameter = (status === 400 || status === 422) && spec.n > 1 && NAMES_N.test(said) ? 'n' as const
    : (status === 400 || status === 422) && spec.sendStop && spec.stop.length > 0 && NAMES_STOP.test(said) ? 'stop' as const : undefined;
  return { ok: false, failure: { cause: 'refused', status, message, ...(refusedParameter === undefined ? {} : { refusedParameter }) } };
}

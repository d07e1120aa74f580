/**
 * The pure parts of the client, checked by hand: request bodies (every sampling field, seed + first index, stop
 * only when sent), answers read (null content, reasoning_content / reasoning, finish_reason, usage; malformed
 * answers), failures classified (429, 5xx, 401, 404, refused n and stop), Retry-After as seconds, HTTP date and
 * retry-after-ms, and the backoff bounds (full jitter, Retry-After floor, attempts, budget).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HttpResult } from '../../src/generate/http.js';
import { interpret, requestBody, retryAfterMs, type RequestSpec } from '../../src/generate/openai.js';
import { parseSamplingParams, SamplingParamsError, type SamplingParams } from '../../src/generate/params.js';
import { retryDelayMs, type RetryPolicy } from '../../src/generate/retry.js';

const PARAMS: SamplingParams = { temperature: 0.8, topP: 0.95, maxTokens: 512, seed: 7, presencePenalty: 0, frequencyPenalty: 0 };
const CHAT: RequestSpec = { input: { api: 'chat', messages: [{ role: 'user', content: 'hi' }] }, params: PARAMS, stop: ['\n```'], sendStop: true, n: 4, first: 8 };

function response(status: number, body: unknown, headers: Record<string, string> = {}): HttpResult {
  return { kind: 'response', status, headers, body: typeof body === 'string' ? body : JSON.stringify(body), ms: 1 };
}

describe('wire format', () => {
  it('puts every sampling field in the body, the seed of the first sample, and the stop list only when sent', () => {
    const chat = requestBody('m', CHAT);
    assert.equal(chat.path, 'chat/completions');
    assert.deepEqual(JSON.parse(chat.body), { model: 'm', messages: [{ role: 'user', content: 'hi' }], temperature: 0.8, top_p: 0.95,
      max_tokens: 512, presence_penalty: 0, frequency_penalty: 0, n: 4, seed: 15, stop: ['\n```'] });
    const plain = requestBody('m', { ...CHAT, input: { api: 'completions', prompt: 'def f():' }, sendStop: false,
      params: { ...PARAMS, seed: null, topK: 20, minP: 0.05, repetitionPenalty: 1 } });
    assert.equal(plain.path, 'completions');
    assert.deepEqual(JSON.parse(plain.body), { model: 'm', prompt: 'def f():', temperature: 0.8, top_p: 0.95, max_tokens: 512,
      presence_penalty: 0, frequency_penalty: 0, top_k: 20, min_p: 0.05, repetition_penalty: 1, n: 4 });
  });

  it('reads null content, reasoning and finish reasons as sent; refuses malformed answers as retryable', () => {
    const ok = interpret(response(200, { id: 'x', choices: [
      { index: 1, message: { content: 'b', reasoning: 'r2' }, finish_reason: 'stop' },
      { index: 0, message: { content: null, reasoning_content: 'r1' }, finish_reason: 'length' },
    ], usage: { prompt_tokens: 3, completion_tokens: 9 } }), CHAT);
    assert.ok(ok.ok);
    assert.deepEqual(ok.answer, { id: 'x', usage: { promptTokens: 3, completionTokens: 9 }, choices: [
      { index: 1, content: 'b', reasoning: 'r2', finishReason: 'stop' }, { index: 0, content: null, reasoning: 'r1', finishReason: 'length' }] });
    for (const bad of ['not json', { choices: [] }, { choices: [{ text: 'completion-shaped' }] }]) {
      const r = interpret(response(200, bad), CHAT);
      assert.ok(!r.ok && r.failure.cause === 'malformed', JSON.stringify(bad));
    }
  });

  it('classifies failures for the retry policy', () => {
    const cause = (result: HttpResult, spec = CHAT): string => {
      const r = interpret(result, spec);
      return r.ok ? 'ok' : `${r.failure.cause}${r.failure.refusedParameter === undefined ? '' : `:${r.failure.refusedParameter}`}`;
    };
    assert.equal(cause(response(429, { error: { message: 'slow down' } })), 'rate_limited');
    assert.equal(cause(response(503, 'overloaded')), 'server_error');
    assert.equal(cause(response(408, '')), 'server_error');
    assert.equal(cause(response(401, { error: 'bad key' })), 'unauthorized');
    assert.equal(cause(response(404, { detail: 'no model' })), 'not_found');
    assert.equal(cause(response(400, { error: { message: 'n must be 1 when using greedy sampling' } })), 'refused:n');
    assert.equal(cause(response(400, { error: { message: "Unsupported value: 'n' does not support 4 with this model." } })), 'refused:n');
    assert.equal(cause(response(400, { error: { message: 'n must be 1' } }), { ...CHAT, n: 1 }), 'refused');
    assert.equal(cause(response(400, { message: "'stop' supports at most 4 items" })), 'refused:stop');
    assert.equal(cause(response(400, { error: { message: 'This model\'s maximum context length is 4096 tokens' } })), 'refused');
    assert.equal(cause({ kind: 'timeout', ms: 5 }), 'timeout');
    assert.equal(cause({ kind: 'network', message: 'ECONNRESET', ms: 5 }), 'network');
  });

  it('reads Retry-After as seconds or an HTTP date, and retry-after-ms first', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    assert.equal(retryAfterMs({ 'retry-after': '3' }, now), 3000);
    assert.equal(retryAfterMs({ 'retry-after': '0.5' }, now), 500);
    assert.equal(retryAfterMs({ 'retry-after': 'Wed, 01 Jan 2025 00:00:10 GMT' }, now), 10_000);
    assert.equal(retryAfterMs({ 'retry-after-ms': '250', 'retry-after': '3' }, now), 250);
    assert.equal(retryAfterMs({ 'retry-after': 'soon' }, now), undefined);
    assert.equal(retryAfterMs({}, now), undefined);
    const r = interpret(response(429, {}, { 'retry-after': '2' }), CHAT);
    assert.ok(!r.ok && r.failure.retryAfterMs === 2000);
  });

  it('backs off with full jitter under a cap, floors at Retry-After, and stops at the attempt and time bounds', () => {
    const policy: RetryPolicy = { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 1000, budgetMs: 10_000 };
    const server = { cause: 'server_error' as const, message: '' };
    // Full jitter: uniform in [0, min(cap, base * 2^(attempt-1))].
    assert.equal(retryDelayMs(server, 1, 0, policy, () => 0.5), 50);
    assert.equal(retryDelayMs(server, 3, 0, policy, () => 0.5), 200);
    assert.equal(retryDelayMs(server, 4, 0, policy, () => 0.999), 799.2);
    assert.ok((retryDelayMs(server, 4, 0, { ...policy, maxDelayMs: 300 }, () => 1 - 1e-9) ?? Infinity) < 300, 'the cap holds');
    assert.equal(retryDelayMs(server, 5, 0, policy, () => 0.5), null, 'attempts used up');
    assert.equal(retryDelayMs({ cause: 'rate_limited', message: '', retryAfterMs: 4000 }, 1, 0, policy, () => 0.5), 4050, 'Retry-After is a floor');
    assert.equal(retryDelayMs({ cause: 'rate_limited', message: '', retryAfterMs: 4000 }, 1, 7000, policy, () => 0), null, 'past the budget');
    assert.equal(retryDelayMs({ cause: 'refused', message: '' }, 1, 0, policy, () => 0.5), null, 'a refused request is not retried');
  });

  it('refuses sampling parameters out of range, naming the field', () => {
    assert.throws(() => parseSamplingParams({ ...PARAMS, topP: 0 }), (e: Error) => e instanceof SamplingParamsError && /"topP"/.test(e.message));
    assert.throws(() => parseSamplingParams({ ...PARAMS, maxTokens: 1.5 }), /"maxTokens"/);
    assert.throws(() => parseSamplingParams({ ...PARAMS, extra: 1 }), /Unrecognized key/);
    assert.deepEqual(parseSamplingParams(PARAMS), PARAMS);
  });
});

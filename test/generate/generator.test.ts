/**
 * The generator against the loopback mock server (test/support/mock-openai.ts), which injects the failures a
 * real endpoint has: every sampling parameter explicit on every request; n through the API with seed + first
 * index; 429 with Retry-After waited out; 500s, time-outs and reset connections retried within bounds; a server
 * that refuses n > 1 (or answers fewer choices) asked one sample per request; a refused stop list applied
 * client-side; null content and truncation recorded with their finish reason; a refused request failing its
 * samples (never an empty sample); 401 ending the run; the concurrency cap; the cache answering a second run
 * without a request.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { GenerationError, generateSamples, type GeneratorOptions, type SampleOutcome } from '../../src/generate/generator.js';
import type { BuiltPrompt } from '../../src/generate/prompts/index.js';
import { judgeableSample } from '../../src/generate/samples.js';
import { memoryGenerationCache } from '../../src/store/generation-cache.js';
import { defaultText, startMockOpenAI, type MockOptions, type MockServer } from '../support/mock-openai.js';

const mocks: MockServer[] = [];
after(async () => { for (const m of mocks) await m.close(); });

async function mock(options: MockOptions = {}): Promise<MockServer> {
  const m = await startMockOpenAI(options);
  mocks.push(m);
  return m;
}

function prompt(id: string, api: 'chat' | 'completions' = 'completions', stop: readonly string[] = []): BuiltPrompt {
  return api === 'chat'
    ? { taskId: id, style: 'test', language: 'python', input: { api, messages: [{ role: 'user', content: `solve ${id}` }] }, stop, output: { kind: 'response' } }
    : { taskId: id, style: 'test', language: 'python', input: { api, prompt: `def ${id}():\n` }, stop, output: { kind: 'completion' } };
}

function options(server: MockServer, extra: Partial<GeneratorOptions> = {}): GeneratorOptions {
  return {
    endpoint: server.url, model: 'm', concurrency: 4, timeoutMs: 2000, maxNPerRequest: 16, cache: memoryGenerationCache(),
    params: { temperature: 0.8, topP: 0.95, maxTokens: 64, seed: 100, presencePenalty: 0, frequencyPenalty: 0 },
    retry: { maxAttempts: 4, baseDelayMs: 10, maxDelayMs: 50, budgetMs: 20_000 },
    ...extra,
  };
}

function okSamples(outcomes: readonly SampleOutcome[]): string[] {
  return outcomes.map((o) => (o.ok ? o.sample.content ?? '<null>' : `failed:${o.failure.cause}`));
}

describe('generator', () => {
  it('sends every sampling parameter on every request, n through the API, seed + first index; each sample once', async () => {
    const server = await mock();
    const report = await generateSamples(['a', 'b', 'c'].map((id) => ({ prompt: prompt(id, 'completions', ['\nclass']), n: 5 })),
      options(server, { maxNPerRequest: 2, params: { temperature: 0.2, topP: 0.9, maxTokens: 32, seed: 100, topK: -1, presencePenalty: 0, frequencyPenalty: 0 } }));
    assert.equal(server.requests.length, 9);
    for (const request of server.requests) {
      const { model, prompt: sent, ...fields } = request.body;
      assert.equal(model, 'm');
      assert.equal(typeof sent, 'string');
      assert.deepEqual(Object.keys(fields).sort(), ['frequency_penalty', 'max_tokens', 'n', 'presence_penalty', 'seed', 'stop', 'temperature', 'top_k', 'top_p']);
      assert.equal(fields['temperature'], 0.2);
      assert.equal(fields['top_k'], -1);
    }
    const a = server.requests.filter((r) => r.promptText === 'def a():\n').map((r) => [r.n, r.seed]);
    assert.deepEqual(a, [[2, 100], [2, 102], [1, 104]]);
    assert.equal(server.answered.size, 15);
    assert.ok([...server.answered.values()].every((count) => count === 1));
    assert.deepEqual(okSamples(report.outcomes.get('b')!), [100, 101, 102, 103, 104].map((seed) => defaultText('def b():\n', seed)));
    assert.equal(report.stats.generated, 15);
    assert.equal(report.stats.failed, 0);
  });

  it('waits out a 429 Retry-After, retries 500s and time-outs and reset connections, and counts each cause', async () => {
    const seen = new Map<number, number>();
    const server = await mock({ fault: (r) => {
      seen.set(r.seq, Date.now());
      if (r.promptText.includes('limited') && r.repeat === 0) return { kind: 'status', status: 429, headers: { 'retry-after': '1' } };
      if (r.promptText.includes('flaky') && r.repeat < 2) return { kind: 'status', status: 500 };
      if (r.promptText.includes('slow') && r.repeat === 0) return { kind: 'hang' };
      if (r.promptText.includes('reset') && r.repeat === 0) return { kind: 'reset' };
      return undefined;
    } });
    const report = await generateSamples(['limited', 'flaky', 'slow', 'reset'].map((id) => ({ prompt: prompt(id), n: 2 })),
      options(server, { timeoutMs: 300 }));
    assert.equal(report.stats.failed, 0);
    assert.deepEqual(report.stats.retriesByCause, { rate_limited: 1, server_error: 2, timeout: 1, network: 1 });
    const limited = server.requests.filter((r) => r.promptText.includes('limited'));
    assert.equal(limited.length, 2);
    assert.ok(seen.get(limited[1]!.seq)! - seen.get(limited[0]!.seq)! >= 1000, 'the retry came before Retry-After ran out');
    for (const id of ['limited', 'flaky', 'slow', 'reset']) {
      assert.deepEqual(okSamples(report.outcomes.get(id)!), [100, 101].map((seed) => defaultText(`def ${id}():\n`, seed)));
    }
  });

  it('bounds attempts and time: a sample whose request keeps failing is a counted failure, never an empty sample', async () => {
    const server = await mock({ fault: (r) => (r.promptText.includes('down') ? { kind: 'status', status: 503 }
      : r.promptText.includes('later') ? { kind: 'status', status: 429, headers: { 'retry-after': '30' } } : undefined) });
    const started = Date.now();
    const report = await generateSamples([{ prompt: prompt('down'), n: 3 }, { prompt: prompt('later'), n: 1 }, { prompt: prompt('fine'), n: 1 }],
      options(server, { retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 20, budgetMs: 5000 } }));
    assert.ok(Date.now() - started < 5000, 'a Retry-After past the budget is not waited for');
    assert.equal(server.requests.filter((r) => r.promptText.includes('down')).length, 3);
    assert.equal(server.requests.filter((r) => r.promptText.includes('later')).length, 1);
    const down = report.outcomes.get('down')!;
    assert.equal(down.length, 3);
    for (const o of down) {
      assert.equal(o.ok, false);
      if (!o.ok) {
        assert.equal(o.failure.cause, 'server_error');
        assert.equal(o.attempts, 3);
      }
    }
    assert.deepEqual(report.stats.failuresByCause, { server_error: 3, rate_limited: 1 });
    assert.equal(report.stats.failed, 4);
    assert.equal(report.stats.generated, 1);
  });

  it('asks one sample per request (seed + index) when the server refuses n > 1, and when it answers fewer choices', async () => {
    for (const refusal of ['refuse', 'fewer'] as const) {
      const server = await mock(refusal === 'refuse' ? { refuseN: true } : { fault: (r) => (r.n > 1 ? { kind: 'fewer', choices: 1 } : undefined) });
      const report = await generateSamples([{ prompt: prompt('x'), n: 4 }, { prompt: prompt('y'), n: 4 }], options(server, { concurrency: 1 }));
      assert.equal(report.stats.fellBack.n, true);
      assert.equal(report.stats.failed, 0);
      assert.ok([...server.answered.values()].every((count) => count === 1), `${refusal}: a sample was answered twice`);
      assert.equal(server.answered.size, 8);
      assert.deepEqual(okSamples(report.outcomes.get('y')!), [100, 101, 102, 103].map((seed) => defaultText('def y():\n', seed)));
      const singles = server.requests.filter((r) => r.n === 1 && r.promptText === 'def y():\n').map((r) => r.seed);
      assert.deepEqual(singles.sort(), refusal === 'refuse' ? [100, 101, 102, 103] : [101, 102, 103]);
    }
  });

  it('drops a refused stop list and cuts the text itself', async () => {
    const server = await mock({ fault: (r) => ('stop' in r.body ? { kind: 'status', status: 400, message: "'stop' accepts at most 4 sequences" } : undefined),
      respond: () => ({ content: '    return 1\nclass Junk:\n    pass\n' }) });
    const p = prompt('s', 'completions', ['\nclass', '\ndef', '\n#', '\nif', '\nprint']);
    const report = await generateSamples([{ prompt: p, n: 2 }], options(server));
    assert.equal(report.stats.fellBack.stop, true);
    assert.equal(report.stats.failed, 0);
    const first = report.outcomes.get('s')![0]!;
    assert.ok(first.ok);
    assert.deepEqual(judgeableSample(p, first.sample).sample, { taskId: 's', index: 0, completion: '    return 1' });
    assert.equal('stop' in first.sample.request, false, 'the effective parameters say no stop list was sent');
  });

  it('records null content and truncation with their finish reason and the reasoning; a refused request fails without retry', async () => {
    const server = await mock({
      respond: (_r, seed) => (seed === 100 ? { content: null, reasoning: 'thinking...', finishReason: 'length' }
        : seed === 101 ? { content: '```python\ndef f(', finishReason: 'length' } : { content: 'ok', reasoning: 'short' }),
      fault: (r) => (r.promptText.includes('huge') ? { kind: 'status', status: 400, message: 'prompt is longer than the context' } : undefined),
    });
    const report = await generateSamples([{ prompt: prompt('t', 'chat'), n: 3 }, { prompt: prompt('huge', 'chat'), n: 1 }], options(server));
    const [nothing, cut, fine] = report.outcomes.get('t')!;
    assert.ok(nothing?.ok && cut?.ok && fine?.ok);
    assert.deepEqual([nothing.sample.content, nothing.sample.finishReason, nothing.sample.reasoning], [null, 'length', 'thinking...']);
    assert.equal(cut.sample.finishReason, 'length');
    assert.equal(fine.sample.reasoning, 'short');
    assert.deepEqual(judgeableSample(prompt('t', 'chat'), nothing.sample).decided,
      { status: 'no_code', reason: 'the model returned no text (finish_reason length, after 11 characters of reasoning)' });
    assert.deepEqual({ truncated: report.stats.truncated, nullContent: report.stats.nullContent }, { truncated: 2, nullContent: 1 });
    const huge = report.outcomes.get('huge')![0]!;
    assert.ok(!huge.ok && huge.failure.cause === 'refused' && huge.attempts === 1 && /longer than the context/.test(huge.failure.message));
    assert.equal(server.requests.filter((r) => r.promptText.includes('huge')).length, 1);
  });

  it('ends the run on 401 and on an unknown model (404) with a clear error', async () => {
    const unauthorized = await mock({ fault: () => ({ kind: 'status', status: 401, message: 'bad key' }) });
    await assert.rejects(generateSamples([{ prompt: prompt('a'), n: 1 }], options(unauthorized)),
      (e: Error) => e instanceof GenerationError && /HTTP 401: bad key/.test(e.message) && /--endpoint/.test(e.message));
    const wrongModel = await mock({ model: 'served' });
    await assert.rejects(generateSamples(Array.from({ length: 20 }, (_, i) => ({ prompt: prompt(`p${i}`), n: 1 })), options(wrongModel, { concurrency: 2 })),
      (e: Error) => e instanceof GenerationError && /HTTP 404: The model `m` does not exist/.test(e.message));
    assert.ok(wrongModel.requests.length <= 2, 'requests after the 404 were still sent');
  });

  it('keeps at most --concurrency requests in flight', async () => {
    const server = await mock({ latencyMs: 30 });
    await generateSamples(Array.from({ length: 24 }, (_, i) => ({ prompt: prompt(`c${i}`), n: 1 })), options(server, { concurrency: 3 }));
    assert.equal(server.maxOpen(), 3);
  });

  it('answers a second run from the cache without a request', async () => {
    const server = await mock();
    const cache = memoryGenerationCache();
    const tasks = [{ prompt: prompt('a'), n: 3 }, { prompt: prompt('b', 'chat'), n: 2 }];
    const first = await generateSamples(tasks, options(server, { cache }));
    const requests = server.requests.length;
    const second = await generateSamples(tasks, options(server, { cache }));
    assert.equal(server.requests.length, requests);
    assert.equal(second.stats.fromCache, 5);
    assert.equal(second.stats.generated, 0);
    for (const id of ['a', 'b']) assert.deepEqual(okSamples(second.outcomes.get(id)!), okSamples(first.outcomes.get(id)!));
    // Another temperature is another address: nothing is reused.
    const hotter = await generateSamples(tasks, options(server, { cache, params: { ...options(server).params, temperature: 1 } }));
    assert.equal(hotter.stats.fromCache, 0);
  });
});

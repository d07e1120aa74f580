/**
 * `crucible generate` end to end (the real CLI in a child process, the loopback mock server in this one): a run
 * killed with SIGKILL at 50% and resumed asks the server for no sample twice and writes the same bytes as an
 * uninterrupted run, in every output format; the files read back as samples (null content as an empty
 * response); LiveCodeBench's custom-evaluator file; failures reported with exit code 1; bad flags and a wrong
 * model are one-line errors.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { readSampleJsonl } from '../../src/formats/samples.js';
import { PROJECT_ROOT } from '../../src/paths.js';
import { HUMANEVAL } from '../support/data.js';
import { LCB_FIXTURE } from '../formats/helpers.js';
import { startMockOpenAI, type MockOptions, type MockServer } from '../support/mock-openai.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-generate-cli-'));
const mocks: MockServer[] = [];
after(async () => {
  for (const m of mocks) await m.close();
  rmSync(dir, { recursive: true, force: true });
});

async function mock(options: MockOptions = {}): Promise<MockServer> {
  const m = await startMockOpenAI(options);
  mocks.push(m);
  return m;
}

interface Outcome { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }

/** Run the CLI; `onStart` gets the child (to kill it). */
function crucible(args: readonly string[], onStart?: (pid: number, kill: () => void) => void): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(join(PROJECT_ROOT, 'bin', 'crucible'), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    onStart?.(child.pid!, () => child.kill('SIGKILL'));
  });
}

const HE10 = join(dir, 'he10.jsonl');
writeFileSync(HE10, gunzipSync(readFileSync(HUMANEVAL)).toString('utf8').split('\n').slice(0, 10).join('\n') + '\n');

function generateArgs(server: MockServer, store: string, out: string, extra: readonly string[] = []): string[] {
  return ['generate', '--endpoint', server.url, '--model', 'm', '--problems', HE10, '--n', '4', '--temperature', '0.8', '--seed', '11',
    '--concurrency', '4', '--max-n-per-request', '4', '--store', store, '--out', `${out}.jsonl`, '--evalplus-out', `${out}.evalplus.jsonl`,
    '--bigcode-out', `${out}.generations.json`, '--no-progress', '--json', '--retry-base', '0.01', ...extra];
}

const OUTPUTS = ['.jsonl', '.jsonl.provenance.json', '.evalplus.jsonl', '.generations.json'];

function cachedRows(store: string): number {
  const db = new Database(store, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM generation_samples').get() as { n: number }).n;
  } catch {
    return 0; // the tables are not there yet
  } finally {
    db.close();
  }
}

async function until(what: string, test: () => boolean, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!test()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Null content for one sample, truncation for another: the resumed files must carry both. */
const RESPOND: MockOptions['respond'] = (request, seed) => (seed === 13 && request.promptText.includes('has_close_elements')
  ? { content: null, finishReason: 'length' } : seed === 14 ? { content: '    pass\n\ndef junk():\n', finishReason: 'length' } : undefined)
  ?? { content: `\n    return ${seed} # ${request.promptText.length}\n` };

describe('crucible generate', () => {
  it('resumes a run killed with SIGKILL at 50%: no sample asked twice, the same bytes as an uninterrupted run', async () => {
    // One server for both runs (the endpoint is part of every cache key and of the provenance); the uninterrupted
    // run first, into a store of its own; the server holds every request once 40 + 20 choices are answered.
    const server = await mock({ respond: RESPOND, latencyMs: 5, pauseAfterChoices: 60 });
    const whole = await crucible(generateArgs(server, join(dir, 'ref.db'), join(dir, 'ref')));
    assert.equal(whole.code, 0, whole.stderr);
    assert.equal(server.answeredChoices(), 40);
    const before = new Map(server.answered);

    const store = join(dir, 'killed.db');
    const out = join(dir, 'killed');
    let killed = false;
    const first = await crucible(generateArgs(server, store, out), (_pid, kill) => {
      void until('half the samples answered and cached', () => server.answeredChoices() === 60 && cachedRows(store) === 20).then(() => {
        killed = true;
        kill();
      });
    });
    assert.ok(killed, `the run ended before it was killed: ${first.stderr}`);
    assert.equal(first.signal, 'SIGKILL');
    server.resume();
    const resumed = await crucible(generateArgs(server, store, out));
    assert.equal(resumed.code, 0, resumed.stderr);
    const summary = JSON.parse(resumed.stdout) as { stats: { fromCache: number; generated: number; requests: number } };
    assert.deepEqual([summary.stats.fromCache, summary.stats.generated], [20, 20]);
    assert.equal(server.answered.size, 40);
    assert.ok([...server.answered].every(([key, count]) => count - before.get(key)! === 1), 'a sample was asked for twice');
    for (const suffix of OUTPUTS) {
      assert.ok(readFileSync(`${out}${suffix}`).equals(readFileSync(join(dir, `ref${suffix}`))), `${suffix} differs from the uninterrupted run's`);
    }
    // Run again: everything from the cache, no request, same bytes.
    const requests = server.requests.length;
    const again = await crucible(generateArgs(server, store, out));
    assert.equal(again.code, 0, again.stderr);
    assert.equal(server.requests.length, requests);
    for (const suffix of OUTPUTS) assert.ok(readFileSync(`${out}${suffix}`).equals(readFileSync(join(dir, `ref${suffix}`))), suffix);
  });

  it('writes files that read back as samples: null content as an empty response, truncation and provenance kept', async () => {
    const samples = await readSampleJsonl(join(dir, 'ref.jsonl'));
    assert.equal(samples.length, 40);
    const empty = samples.find((s) => s.taskId === 'HumanEval/0' && s.index === 2)!;
    assert.deepEqual([empty.response, empty.completion, empty.solution], ['', undefined, undefined]);
    const lines = readFileSync(join(dir, 'ref.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const nullLine = lines.find((l) => l['task_id'] === 'HumanEval/0' && l['sample_index'] === 2)!;
    assert.deepEqual([nullLine['completion'], nullLine['finish_reason']], [null, 'length']);
    const cut = lines.find((l) => l['task_id'] === 'HumanEval/1' && l['sample_index'] === 3)!;
    assert.deepEqual([cut['completion'], cut['raw'], cut['finish_reason']], ['    pass\n', '    pass\n\ndef junk():\n', 'length']);
    assert.deepEqual((cut['request'] as Record<string, unknown>)['seed'], 11);
    const provenance = JSON.parse(readFileSync(join(dir, 'ref.jsonl.provenance.json'), 'utf8')) as { samples: Record<string, unknown>; sampling: Record<string, unknown> };
    assert.deepEqual([provenance.samples['truncated'], provenance.samples['withoutText'], provenance.samples['failed']], [11, 1, 0]);
    assert.deepEqual(provenance.sampling, { temperature: 0.8, top_p: 0.95, max_tokens: 1024, presence_penalty: 0, frequency_penalty: 0, seed: 11,
      seedRule: 'a request for samples i..i+n-1 carries seed + i' });
    const generations = JSON.parse(readFileSync(join(dir, 'ref.generations.json'), 'utf8')) as string[][];
    assert.equal(generations.length, 10);
    assert.ok(generations.every((list) => list.length === 4));
    const problem0 = JSON.parse(gunzipSync(readFileSync(HUMANEVAL)).toString('utf8').split('\n')[0]!) as { prompt: string };
    assert.equal(generations[0]![0], `${problem0.prompt.trim()}\n    return 11 # ${problem0.prompt.trim().length}\n`);
    const evalplus = readFileSync(join(dir, 'ref.evalplus.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { task_id: string; solution: string });
    assert.deepEqual(evalplus[0], { task_id: 'HumanEval/0', solution: generations[0]![0] });
    assert.deepEqual(evalplus[2], { task_id: 'HumanEval/0', solution: '' });
  });

  it('writes LiveCodeBench\'s custom-evaluator input from chat answers', async () => {
    const server = await mock({ respond: (_r, seed) => ({ content: `Here:\n\`\`\`python\nprint(${seed})\n\`\`\`\n`, reasoning: 'hmm' }) });
    const out = join(dir, 'lcb');
    const result = await crucible(['generate', '--endpoint', server.url, '--model', 'm', '--problems', LCB_FIXTURE, '--n', '2',
      '--temperature', '0.2', '--store', join(dir, 'lcb.db'), '--out', `${out}.jsonl`, '--lcb-out', `${out}.lcb.json`, '--no-progress']);
    assert.equal(result.code, 0, result.stderr);
    const lcb = JSON.parse(readFileSync(`${out}.lcb.json`, 'utf8')) as { question_id: string; code_list: string[]; output_list: string[] }[];
    assert.deepEqual(lcb.map((r) => r.question_id), ['2812', '2777', 'abc308_a']);
    assert.deepEqual(lcb[0]!.code_list, ['print(0)', 'print(1)']);
    assert.equal(lcb[0]!.output_list[1], 'Here:\n```python\nprint(1)\n```\n');
    assert.ok(server.requests.every((r) => r.api === 'chat' && (r.body['messages'] as unknown[]).length === 2));
    const line = JSON.parse(readFileSync(`${out}.jsonl`, 'utf8').split('\n')[0]!) as Record<string, unknown>;
    assert.deepEqual([line['response'], line['reasoning']], ['Here:\n```python\nprint(0)\n```\n', 'hmm']);
  });

  it('reports failed samples and exits 1; a wrong model and missing flags are one-line errors', async () => {
    const server = await mock({ model: 'm', fault: (r) => (r.promptText.includes('below_zero') ? { kind: 'status', status: 500 } : undefined) });
    const out = join(dir, 'failing');
    const failing = await crucible(['generate', '--endpoint', server.url, '--model', 'm', '--problems', HE10, '--n', '2', '--temperature', '0',
      '--store', join(dir, 'failing.db'), '--out', `${out}.jsonl`, '--no-progress', '--retries', '2', '--retry-base', '0.01']);
    assert.equal(failing.code, 1, failing.stderr);
    assert.match(failing.stdout, /generated 18 samples, 0 from the cache, 2 failed \(server_error 2\)/);
    assert.match(failing.stdout, /failed: HumanEval\/3 sample 0: server_error: HTTP 500/);
    assert.equal(readFileSync(`${out}.jsonl`, 'utf8').trim().split('\n').length, 18);
    const wrong = await crucible(['generate', '--endpoint', server.url, '--model', 'other', '--problems', HE10, '--temperature', '0',
      '--store', join(dir, 'failing.db'), '--out', `${out}.jsonl`, '--no-progress']);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /^crucible: the endpoint refused the run \(HTTP 404: The model `other` does not exist\.\)/);
    const noTemperature = await crucible(['generate', '--endpoint', server.url, '--model', 'm', '--problems', HE10, '--out', `${out}.jsonl`]);
    assert.equal(noTemperature.code, 2);
    assert.match(noTemperature.stderr, /--temperature is required/);
  });
});
